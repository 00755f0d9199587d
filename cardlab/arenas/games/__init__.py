"""The move spaces of the built-in games, one module per game, each built from its rules module's move type
and constants (:func:`cardlab.arenas.moves.kind_keys`)."""

from cardlab.arenas.games import garbage, shithead, spite_malice

__all__ = ["garbage", "shithead", "spite_malice"]
