"""A PettingZoo AEC environment of every registered cardlab game.

::

    from cardlab.arenas.pettingzoo import env
    e = env("garbage", players=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)

* Agents are ``player_0`` .. ``player_{n-1}``, seat by seat; the agent to act is the game's player to move.
* Actions: the game's :class:`~cardlab.arenas.moves.MoveSpace` (every move the game can offer, numbered once);
  the observation's ``action_mask`` marks the legal ones, and an action it does not mark is refused
  (:class:`~cardlab.errors.IllegalMoveError`).
* Observation: ``{"observation": ..., "action_mask": ...}``; ``observation`` is the agent's own view
  (``game.observe(seat)``, nothing else) encoded by :class:`~cardlab.arenas.encoding.ViewEncoder`.
* Rewards are terminal and zero-sum (:func:`cardlab.arenas.common.returns`).
* ``reset(seed=s)`` deals ``cardlab.new_game(name, players, seed=s, **options)``, the very deal the package gives;
  ``reset()`` without a seed deals from a seed drawn from the generator the last seed started (from fresh
  entropy when no seed was ever given).
* A game still going after ``max_moves`` moves is truncated (no winner).
* ``render()`` in ``ansi`` mode returns the public table as text, in ``human`` mode prints it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardlab.arenas.common import MAX_MOVES, returns
from cardlab.arenas.encoding import ViewEncoder
from cardlab.arenas.moves import move_space
from cardlab.arenas.table_text import table_text
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import canonical_name, new_game
from cardlab.errors import IllegalMoveError, InvalidInputError, shown

RENDER_MODES = ("ansi", "human")


def env(name: str, players: int = 2, *, render_mode: str | None = None, max_moves: int = MAX_MOVES,
        **options: Any) -> CardlabEnv:
    """The AEC environment of game ``name`` (a name or an alias) for ``players`` seats, with the game's
    ``options``. Bad input (an unknown game, a player count or option the game refuses) raises the same
    cardlab error ``cardlab.new_game`` does."""
    return CardlabEnv(name, players, render_mode=render_mode, max_moves=max_moves, **options)


class CardlabEnv(AECEnv):  # type: ignore[misc]
    """One cardlab game as a PettingZoo AEC environment (see the module notes)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "cardlab", "is_parallelizable": False}

    def __init__(self, name: str, players: int = 2, *, render_mode: str | None = None, max_moves: int = MAX_MOVES,
                 **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidInputError(f"render_mode={shown(render_mode)} is not allowed; accepted: None, 'ansi', "
                                    "'human'")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise InvalidInputError(f"max_moves={shown(max_moves)} is not allowed; give a whole number from 1 up")
        self.name = canonical_name(name)
        probe = new_game(self.name, players, seed=0, **options)   # checks players and options now
        self.players = probe.players
        self.options = dict(options)
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.metadata = {**self.metadata, "name": f"cardlab_{self.name.replace('-', '_')}"}
        self.space = move_space(self.name)
        self.encoder = ViewEncoder(probe)
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        info = np.iinfo(np.int32)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=info.min, high=info.max, shape=(self.encoder.size,), dtype=np.int32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(self.space.size)
        self._seeds: np.random.Generator | None = None
        self.game: Game[Any] = probe
        self._legal: tuple[Game[Any], int, dict[int, Move]] | None = None   # the legal moves of a position

    # ------------------------------------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ------------------------------------------------------------------------------------------- the game
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``cardlab.new_game(name, players, seed=seed, **game options)``."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            deal_seed = int(seed)
        else:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            deal_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.game = new_game(self.name, self.players, seed=deal_seed, **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._settle()

    def load(self, game: Game[Any]) -> None:
        """Play on from a copy of ``game`` (a position of this environment's game, players and options: a lesson's
        position, a twin), as :meth:`reset` starts from a deal; the move bound counts the game's moves so far."""
        if type(game) is not type(self.game) or game.players != self.players or game.options != self.game.options:
            raise InvalidInputError(f"{game!s} is not a {self.players}-player {self.name} game with this "
                                    f"environment's options {self.game.options}")
        seeds = self._seeds
        self.reset(seed=0)   # fresh agents and rewards; the deal is replaced at once
        self._seeds = seeds  # later reset() calls go on drawing from the generator they had
        self.game = game.copy()
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._settle()

    def legal(self) -> dict[int, Move]:
        """The legal moves of the player to move, by action number (computed once per position)."""
        game = self.game
        if self._legal is None or self._legal[0] is not game or self._legal[1] != game.move_count:
            self._legal = (game, game.move_count, self.space.legal(game.legal_moves()))
        return self._legal[2]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own view, encoded, and the mask of its legal actions (all zero when it is not to move)."""
        seat = self._seat[agent]
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not self.game.is_over and seat == self.game.current_player:
            mask[list(self.legal())] = 1
        return {"observation": self.encoder.encode(self.game.observe(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.legal()
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or int(action) not in legal:
            raise IllegalMoveError(f"action {shown(action)} is not legal for {agent} in this {self.name} game; "
                                   f"legal actions: {list(legal)[:20]}")
        self._cumulative_rewards[agent] = 0.0
        self.game.play(legal[int(action)])
        self._settle()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Rewards, terminations and the next agent after a deal or a move."""
        cut = not self.game.is_over and self.game.move_count >= self.max_moves
        if self.game.is_over or cut:
            for agent, value in zip(self.possible_agents, returns(self.game), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = self.game.is_over
                self.truncations[agent] = cut
            self._accumulate_rewards()
            return
        self.agent_selection = self.possible_agents[self.game.current_player]

    def render(self) -> str | None:
        """The public table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        text = table_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"cardlab.arenas.pettingzoo.env({self.name!r}, players={self.players})"


__all__ = ["CardlabEnv", "env"]
