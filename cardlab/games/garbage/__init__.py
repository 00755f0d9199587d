"""Garbage: the readable rules (:mod:`.rules`), the greedy bot (:mod:`.bot`), the panel's questions
(:mod:`.questions`), the table drawing (:mod:`.table`, the view, imported only to draw) and the fast
kernel (:mod:`.kernel`). This package registers the game's one :class:`~cardlab.engine.spec.GameSpec`.

The kernel module loads numba (about half a second), which dealing, playing or drawing a game does not
need: the spec holds :class:`LazyKernel`, which imports it on the first play-out or simulation."""

from cardlab.games.garbage.rules import *  # noqa: F403  (the rules' names, as before the package)  # isort: skip
from collections.abc import Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from cardlab.engine.game import Game
from cardlab.engine.registry import register
from cardlab.engine.spec import GameSpec, RolloutBudgets
from cardlab.games.garbage.bot import greedy_garbage
from cardlab.games.garbage.questions import panel
from cardlab.games.garbage.rules import Garbage


def kernel_module() -> ModuleType:
    """:mod:`cardlab.games.garbage.kernel`, imported now (once)."""
    return import_module("cardlab.games.garbage.kernel")


class LazyKernel:
    """The GameKernel of :mod:`.kernel`, importing the module on first use."""

    def plays(self, policies: Sequence[object]) -> bool:
        return bool(kernel_module().plays(policies))

    def play_shard(self, players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
                   policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        result: tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] = kernel_module().play_shard(
            players, options, seed, start, stop, policies)
        return result

    def win_rollouts(self, game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> np.ndarray:
        winners: np.ndarray = kernel_module().win_rollouts(game, viewpoint, n, rng)
        return winners

    def __repr__(self) -> str:
        return "LazyKernel('cardlab.games.garbage.kernel')"


SPEC = register(GameSpec(
    name=Garbage.name,
    aliases=Garbage.aliases,
    rules=Garbage,
    bot=lambda: greedy_garbage,
    questions=panel,
    drawer="cardlab.games.garbage.table:draw",
    budgets=RolloutBudgets(win=2000, panel=1000, batch=500),
    kernel=LazyKernel(),
    curve_title="wins within k turns",
    compile=lambda: float(kernel_module().compile_now()),
    compile_ready=lambda: bool(kernel_module().compiled()),
))
"""Play-outs per estimate in the stepper, chosen so that a Next move with every panel refreshed stays well
under 100 ms (``benchmarks/bench_stepper.py`` measures it)."""
