"""One object per game: the :class:`GameSpec` that the game's package registers, and the kernel contract.

Everything one game knows lives in its package ``cardlab/games/<game>/``: the readable rules, the greedy
bot, the panel's questions, the table drawing and the fast kernel. The package registers one
:class:`GameSpec`; the generic layers (simulation, probabilities, widgets, command line) read that object
and never test a game's name. The drawer is named by an import path, so the core never imports the view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from cardlab.engine.game import Drawer, Game, load_drawer

Questions = Callable[..., list[Any]]
"""``questions(game, viewpoint, rng=..., rollouts=..., budget_s=...) -> list[Quantity]``: the game's panel."""


class GameKernel(Protocol):
    """A game's fast play-outs. A module with these five functions satisfies the protocol."""

    def plays(self, policies: Sequence[object]) -> bool:
        """True when every seat's policy is a built-in name the kernel plays ("greedy" or "random", any mix)."""

    def play_shard(self, players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
                   policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Games start..stop-1 of the run with this seed, each from its own fresh deal: winners (int64, -1 for
        no winner), turns (int64, same definition of a turn as the engine's), extras (per-game arrays, keys
        among the engine's Game.stats()). Game i's randomness depends only on (seed, i): shards of any size
        give the same results. options are the game's normalised options (game.options)."""

    def game_moves(self, players: int, options: Mapping[str, Any], seed: int, index: int,
                   policies: Sequence[str]) -> list[str]:
        """Game ``index`` of :meth:`play_shard`'s run with ``seed``, its moves as the engine's texts. The deal
        and every shuffle come from the one dealer (:mod:`cardlab.dealer`), so with deterministic bots these
        are the moves the engine plays in ``new_game(name, seed=seed, index=index)``, card for card."""

    def win_rollouts(self, game: Game[Any], viewpoint: int | None, n: int,
                     rng: np.random.Generator) -> np.ndarray:
        """n greedy play-outs from the game's current position, hidden cards (as `viewpoint` knows the game)
        drawn from game.chance_law(viewpoint) for each play-out; the winner of each (int64, -1 none).
        Must not read where the hidden cards really are (only the law), so two games the viewpoint cannot
        tell apart give identical results for the same rng state."""

    def move_rollouts(self, game: Game[Any], viewpoint: int | None, moves: Sequence[Any],
                      seeds: np.ndarray) -> np.ndarray | None:
        """The move values' play-outs (:mod:`cardlab.sim.move_values`): the winner of play-out ``r`` after
        ``moves[k]`` with seed ``seeds[r, k]`` (int64, -1 none), the hidden cards drawn from the viewpoint's
        law; None when this position or its options are beyond the kernel (the engine plays them then)."""


class LazyKernel:
    """The :class:`GameKernel` of the module ``path`` (``"cardlab.games.<game>.kernel"``), imported on first use.

    A kernel module loads numba (about half a second) and its compiled code, which dealing, playing, undoing,
    observing, saving and the exact answers do not need: a game's spec holds this object instead of the module,
    so ``import cardlab`` and dealing any game load neither; the first play-out or simulation does.
    :meth:`compile_now` and :meth:`compiled` are the spec's ``compile`` and ``compile_ready`` hooks (the module's
    functions of those names).
    """

    def __init__(self, path: str) -> None:
        self.path = path

    def module(self) -> ModuleType:
        """The kernel module, imported now (once: later calls find it in ``sys.modules``)."""
        return import_module(self.path)

    def plays(self, policies: Sequence[object]) -> bool:
        return bool(self.module().plays(policies))

    def play_shard(self, players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
                   policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        result: tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] = self.module().play_shard(
            players, options, seed, start, stop, policies)
        return result

    def game_moves(self, players: int, options: Mapping[str, Any], seed: int, index: int,
                   policies: Sequence[str]) -> list[str]:
        return [str(m) for m in self.module().game_moves(players, options, seed, index, policies)]

    def win_rollouts(self, game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> np.ndarray:
        winners: np.ndarray = self.module().win_rollouts(game, viewpoint, n, rng)
        return winners

    def move_rollouts(self, game: Game[Any], viewpoint: int | None, moves: Sequence[Any],
                      seeds: np.ndarray) -> np.ndarray | None:
        winners = self.module().move_rollouts(game, viewpoint, moves, seeds)
        return None if winners is None else np.asarray(winners)

    def compile_now(self) -> float:
        """Compile the kernel (or load it from numba's on-disk cache); the seconds it took."""
        return float(self.module().compile_now())

    def compiled(self) -> bool:
        """Whether the kernel runs compiled (numba is installed)."""
        return bool(self.module().compiled())

    def __repr__(self) -> str:
        return f"LazyKernel({self.path!r})"


@dataclass(frozen=True)
class RolloutBudgets:
    """Play-outs per estimate in the stepper: ``win`` per P(win) point, ``panel`` per panel estimate.

    ``batch`` is the size of one batch when an estimate runs on a time budget (``budget_s``)."""

    win: int
    panel: int
    batch: int = 32


FALLBACK_BUDGETS = RolloutBudgets(win=12, panel=12)
"""The stepper's play-outs for a game class that registered no spec (engine play-outs only)."""


@dataclass(frozen=True)
class Capabilities:
    """What a game offers, declared up front (read from its spec, without loading its kernel)."""

    kernel: bool
    """Compiled play-outs (simulations, win chances and move values run there; else on the engine)."""
    chance_law: bool
    """A chance law for its hidden cards (``game.chance_law(viewpoint)``): exact answers and the resampler."""
    house_options: tuple[str, ...]
    """The options of the rules (``new_game(name, **options)``), by name."""
    uninformed_player: bool
    """A player whose choices tell as little about its hidden cards as the rules allow (else the greedy bot)."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the generic layers need to know about one game.

    The table drawer is the rules class's own (:attr:`Game.drawer`), named once there. ``compile`` (if
    given) compiles the kernel ahead of time and returns the seconds it took (``cardlab compile``);
    ``compile_ready`` says whether compiled code is available (numba installed). ``curve_title`` names the
    x axis of the panel's curves when the game's questions include curves (empty: the panel's default).
    ``uninformed`` makes, from a generator, a player whose choices carry as little information about its
    hidden cards as the rules allow (the chance laws' modelling assumption made true, for calibrating
    them); None when no choice in the game depends on a hidden card, so the greedy bot serves.
    """

    name: str
    aliases: tuple[str, ...]
    rules: type[Game[Any]]
    bot: Callable[[], Callable[..., Any]]
    questions: Questions
    budgets: RolloutBudgets
    kernel: GameKernel | None = None
    curve_title: str = ""
    compile: Callable[[], float] | None = None
    compile_ready: Callable[[], bool] | None = None
    uninformed: Callable[[np.random.Generator], Callable[..., Any]] | None = None

    @property
    def capabilities(self) -> Capabilities:
        """What the game offers (:class:`Capabilities`)."""
        return Capabilities(kernel=self.kernel is not None,
                            chance_law=self.rules.chance_law is not Game.chance_law,
                            house_options=tuple(self.rules.option_specs), uninformed_player=self.uninformed is not None)

    @property
    def drawer(self) -> str:
        """The table drawer's name: the rules class's :attr:`Game.drawer`."""
        return self.rules.drawer

    def draw(self) -> Drawer:
        """The table drawer (imports the view module now)."""
        return load_drawer(self.drawer)


def package_spec(package: str, rules: type[Game[Any]], bot: Callable[[], Callable[..., Any]], questions: Questions,
                 budgets: RolloutBudgets, *,
                 uninformed: Callable[[np.random.Generator], Callable[..., Any]] | None = None,
                 curve_title: str = "") -> GameSpec:
    """The spec of a game package laid out as cardlab's own games are (the rules class names its table drawer,
    ``<package>.table:draw``), with the kernel ``<package>.kernel`` is a :class:`LazyKernel`, so that dealing,
    playing or drawing a game never loads numba; the first play-out or simulation imports it."""
    kernel = LazyKernel(f"{package}.kernel")
    return GameSpec(name=rules.name, aliases=rules.aliases, rules=rules, bot=bot, questions=questions,
                    budgets=budgets, kernel=kernel, curve_title=curve_title,
                    compile=kernel.compile_now, compile_ready=kernel.compiled, uninformed=uninformed)


__all__ = ["FALLBACK_BUDGETS", "Capabilities", "Drawer", "GameKernel", "GameSpec", "LazyKernel", "Questions",
           "RolloutBudgets", "load_drawer", "package_spec"]
