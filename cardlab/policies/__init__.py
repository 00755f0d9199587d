"""Policies (bots). A policy is any callable ``(view, legal_moves) -> move``.

``view`` is what the seat to move may see (``game.observe(seat)``), ``legal_moves`` the list of
:class:`~cardlab.engine.Move`; the policy returns one of them or its text. A student's own function of
that shape plays as well as the built-in ones. Built-ins are named ``"random"``, ``"greedy"`` (the game's
bot) and ``"uninformed"``: a player whose choices carry as little information about its hidden cards as
the rules allow, which is what the chance laws assume (see each game's ``bot`` module).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_spec
from cardlab.errors import IllegalMoveError, InvalidInputError, UnknownGameError, shown

Policy = Callable[[Any, Sequence[Move]], "Move | str"]


class RandomPolicy:
    """Uniform over the legal moves, drawing from its own generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: Any, legal_moves: Sequence[Move]) -> Move:
        return legal_moves[int(self.rng.integers(len(legal_moves)))]

    def __repr__(self) -> str:
        return "RandomPolicy()"


POLICY_NAMES = ("random", "greedy", "uninformed")


def make_policy(spec: str | Policy, game_name: str, rng: np.random.Generator) -> Policy:
    """Turn ``"random"``, ``"greedy"``, ``"uninformed"`` or a callable into a policy for ``game_name``.

    ``"greedy"`` is the bot the game's spec registers (:attr:`~cardlab.engine.spec.GameSpec.bot`);
    ``"uninformed"`` its :attr:`~cardlab.engine.spec.GameSpec.uninformed` player, drawing from ``rng`` (the
    greedy bot where the game registers none: no choice there depends on a hidden card)."""
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
    if callable(spec):
        return spec
    if isinstance(spec, str) and spec == "random":
        return RandomPolicy(rng)
    if isinstance(spec, str) and spec in ("greedy", "uninformed"):
        try:
            registered = game_spec(game_name)
        except UnknownGameError:
            pass
        else:
            if spec == "uninformed" and registered.uninformed is not None:
                return registered.uninformed(rng)
            return registered.bot()
    raise InvalidInputError(
        f"unknown policy {shown(spec)} for {shown(game_name)}; accepted: 'random', 'greedy', 'uninformed', or a "
        "callable (view, legal_moves)")


def choose(policy: Policy, game: Game[Any]) -> Move:
    """Ask ``policy`` for a move in ``game``; a policy that answers with an illegal move is an error."""
    legal = game.legal_moves()
    answer = policy(game.observe(game.current_player), legal)
    try:
        return game.parse_move(answer)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"policy {policy!r} chose an illegal move: {exc}") from exc
