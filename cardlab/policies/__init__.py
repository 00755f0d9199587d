"""Policies (bots). A policy is any callable ``(view, legal_moves) -> move``.

``view`` is what the seat to move may see (``game.observe(seat)``), ``legal_moves`` the list of
:class:`~cardlab.engine.Move`; the policy returns one of them or its text. A student's own function of
that shape plays as well as the built-in ones. Built-ins are named ``"random"`` and ``"greedy"``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_spec
from cardlab.errors import IllegalMoveError, InvalidInputError, UnknownGameError

Policy = Callable[[Any, Sequence[Move]], "Move | str"]


class RandomPolicy:
    """Uniform over the legal moves, drawing from its own generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: Any, legal_moves: Sequence[Move]) -> Move:
        return legal_moves[int(self.rng.integers(len(legal_moves)))]

    def __repr__(self) -> str:
        return "RandomPolicy()"


POLICY_NAMES = ("random", "greedy")


def make_policy(spec: str | Policy, game_name: str, rng: np.random.Generator) -> Policy:
    """Turn ``"random"``, ``"greedy"`` or a callable into a policy for ``game_name``.

    ``"greedy"`` is the bot the game's spec registers (:attr:`~cardlab.engine.spec.GameSpec.bot`)."""
    if callable(spec):
        return spec
    if spec == "random":
        return RandomPolicy(rng)
    if spec == "greedy":
        try:
            bot = game_spec(game_name).bot
        except UnknownGameError:
            pass
        else:
            return bot()
    raise InvalidInputError(
        f"unknown policy {spec!r} for {game_name}; accepted: 'random', 'greedy', or a callable (view, legal_moves)")


def choose(policy: Policy, game: Game[Any]) -> Move:
    """Ask ``policy`` for a move in ``game``; a policy that answers with an illegal move is an error."""
    legal = game.legal_moves()
    answer = policy(game.observe(game.current_player), legal)
    try:
        return game.parse_move(answer)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"policy {policy!r} chose an illegal move: {exc}") from exc
