"""The engine's side of a player: the shape of a policy, asking one for a move, and the built-in bots by name.

A **policy** is any callable ``(view, legal_moves) -> move``: ``view`` is what the seat to move may see
(``game.observe(seat)``), ``legal_moves`` the list of :class:`~cardlab.engine.Move`; it returns one of them or its
text. A policy that needs more than the view declares it by being a :class:`Decider`: it has a method
``decide(game) -> Move``, which :func:`choose` calls instead (the search player of :mod:`cardlab.policies` reads
the game's chance law for its seat that way).

The built-in bots that need nothing but the rules are made here by name (:func:`builtin_policy`): ``"random"``,
``"greedy"`` (the bot the game's spec registers) and ``"uninformed"``. The analyses of :mod:`cardlab.sim` play
their play-outs with them; :func:`cardlab.policies.make_policy` adds the search player, which is built on those
analyses (so this module, below them, never names it).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_spec
from cardlab.errors import CardlabError, IllegalMoveError, InvalidInputError, PolicyError, UnknownGameError, shown

Policy = Callable[[Any, Sequence[Move]], "Move | str"]


@runtime_checkable
class Decider(Protocol):
    """A policy that reads the game itself (not only the seat's view): :func:`choose` asks ``decide(game)``."""

    def decide(self, game: Game[Any]) -> Move:
        """The move for the seat to move in ``game``."""


class RandomPolicy:
    """Uniform over the legal moves, drawing from its own generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: Any, legal_moves: Sequence[Move]) -> Move:
        return legal_moves[int(self.rng.integers(len(legal_moves)))]

    def __repr__(self) -> str:
        return "RandomPolicy()"


BUILTIN_NAMES = ("random", "greedy", "uninformed")
"""The bots :func:`builtin_policy` makes by name."""


def builtin_policy(name: str, game_name: str, rng: np.random.Generator) -> Policy:
    """The built-in bot ``name`` (``"random"``, ``"greedy"`` or ``"uninformed"``) for ``game_name``.

    ``"greedy"`` is the bot the game's spec registers (:attr:`~cardlab.engine.spec.GameSpec.bot`);
    ``"uninformed"`` its :attr:`~cardlab.engine.spec.GameSpec.uninformed` player, drawing from ``rng`` (the
    greedy bot where the game registers none: no choice there depends on a hidden card)."""
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
    if isinstance(name, str) and name == "random":
        return RandomPolicy(rng)
    if isinstance(name, str) and name in ("greedy", "uninformed"):
        try:
            registered = game_spec(game_name)
        except UnknownGameError:
            pass
        else:
            if name == "uninformed" and registered.uninformed is not None:
                return registered.uninformed(rng)
            return registered.bot()
    raise InvalidInputError(f"unknown built-in bot {shown(name)} for {shown(game_name)}; accepted: 'random', "
                            "'greedy', 'uninformed'")


def choose(policy: Policy, game: Game[Any], origin: str | None = None) -> Move:
    """Ask ``policy`` for a move in ``game``.

    A policy that raises, or that cannot be called with ``(view, legal_moves)``, is a student's bug: a
    :class:`~cardlab.errors.PolicyError` names the seat, the move number and how to deal the game again, and is
    chained to the policy's own error (whose traceback points at the bug). ``origin`` says how to deal the game
    again (a simulation names its seed and the game's number); by default :func:`replay_hint` reads it from the
    game. A policy that answers with an illegal move is an :class:`~cardlab.errors.IllegalMoveError`.
    """
    seat = game.current_player
    legal = game.legal_moves()
    view = game.observe(seat)
    try:
        answer = policy.decide(game) if isinstance(policy, Decider) else policy(view, legal)
    except Exception as exc:
        raise PolicyError(failure_text(policy, seat, game.move_count, origin or replay_hint(game), exc,
                                       _bad_signature(policy, view, legal))) from exc
    try:
        return game.parse_move(answer)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"policy {policy!r} chose an illegal move: {exc}") from exc


def replay_hint(game: Game[Any]) -> str:
    """How to deal ``game`` again, for an error message: the ``new_game`` call with its seed, when that call and
    the game's moves do give this very position (checked: a game dealt from a stacked deck or a record does not
    replay from its seed)."""
    if game.seed is not None:
        try:
            again = type(game)(game.players, seed=game.seed, **game.options).play_all(game.moves)
            same = again.state.to_data() == game.state.to_data()
        except CardlabError:
            same = False
        if same:
            changed = "".join(f", {k}={shown(v, 40)}" for k, v in game.options.items()
                              if v != game.option_specs[k].default)
            return f"cardlab.new_game({game.name!r}, players={game.players}, seed={game.seed}{changed})"
    return f"this {game.name} game (not dealt from a seed alone: game.to_json() saves it for a replay)"


MESSAGE_LIMIT = 500
"""The longest message of a :class:`~cardlab.errors.PolicyError`: the policy's own error is cut to fit."""


def failure_text(policy: Policy, seat: int, move: int, origin: str, exc: BaseException, bad_call: bool) -> str:
    """The message of a :class:`~cardlab.errors.PolicyError`: who failed, where, and the policy's own error (cut
    so that the message stays within :data:`MESSAGE_LIMIT` characters; its traceback has it whole)."""
    label = getattr(policy, "__name__", None)
    name = _cut(label, 30) if isinstance(label, str) else shown(policy, 30)
    head = f"the policy of seat {seat} ({name}) "
    tail = f", at move {move} of {origin}"
    kind = f"{type(exc).__name__}: "
    room = max(40, MESSAGE_LIMIT - len(head) - len(tail) - len(kind) - 80)
    error = kind + _cut(str(exc), room)
    what = f"cannot be called as policy(view, legal_moves) ({error})" if bad_call else f"raised {error}"
    return head + what + tail


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _bad_signature(policy: Policy, view: Any, legal: Sequence[Move]) -> bool:
    """True when ``policy`` cannot take the two arguments ``(view, legal_moves)`` at all."""
    try:
        inspect.signature(policy).bind(view, legal)
    except TypeError:
        return True
    except ValueError:  # no signature to read (some built-in callables): assume it takes them
        return False
    return False


__all__ = ["BUILTIN_NAMES", "MESSAGE_LIMIT", "Decider", "Policy", "RandomPolicy", "builtin_policy", "choose",
           "failure_text", "replay_hint"]
