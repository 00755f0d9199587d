"""An OpenSpiel game of every registered cardlab game, registered with ``pyspiel.register_game``.

Importing this module registers ``cardlab_<name>`` (the game's name, ``-`` as ``_``: ``cardlab_garbage``,
``cardlab_spite_and_malice``) for every game registered at that moment; :func:`register` registers one more
(a game registered later, the tests' toy game). ::

    import pyspiel
    import cardlab.arenas.openspiel
    game = pyspiel.load_game("cardlab_garbage", {"players": 2, "seed": 7})

The game
--------
* Sequential moves, imperfect information, zero-sum terminal returns (:func:`cardlab.arenas.common.returns`).
* Actions: the game's :class:`~cardlab.arenas.moves.MoveSpace`.
* Parameters: ``players``, ``seed`` (-1: deal from fresh entropy), ``max_moves`` (the hard bound on a game's
  length, :data:`~cardlab.arenas.common.MAX_MOVES`), and every option of the game whose default is a bool,
  a whole number or a word (Garbage's ``layout_sizes``, a list, keeps its default).

Chance mode: sampled stochastic
-------------------------------
cardlab's chance is a deal and reshuffles drawn from a generator (a deal of 104 cards has 104!/(2!)^52 orders):
OpenSpiel's explicit chance nodes would have to list every outcome with its probability, which no deal can do,
and a list cut to a few thousand seeds would change the game's law. So the state samples chance itself: each
initial state is dealt by ``cardlab.new_game(name, players, seed=s, **options)`` with ``s`` drawn from the
generator the ``seed`` parameter starts, and every later shuffle follows the deal's shuffle key, as in the
package. There are no chance nodes; ``max_chance_nodes_in_history()`` is 1 (the deal, sampled in the initial
state), as OpenSpiel asks of a stochastic game. A state does not serialize (``random_sim_test`` runs with
``serialize=False``): the history of actions alone does not fix the deal.

What a player knows
-------------------
* ``observation_string`` / ``observation_tensor``: the player's view now (``game.observe(seat)``), as text and
  as the :class:`~cardlab.arenas.encoding.ViewEncoder` array.
* ``information_state_string``: the view now and a digest of everything the player has been told: every event
  of the game as that player reads it (:meth:`cardlab.engine.game.Event.describe`), so two histories the player
  cannot tell apart have equal information states.
* Public observations (``private_info=NONE``) are the table's view (``game.observe(None)``).
* ``resample_from_infostate(player, sampler)`` returns a state the player cannot tell from this one, its hidden
  cards dealt from the game's chance law (:meth:`cardlab.engine.game.Game.resample`), never from where they are;
  :meth:`CardlabState.resample` does the same from a numpy generator (for OpenSpiel's Python
  ``ISMCTSBot.set_resampler``).
* A state clones through :meth:`cardlab.engine.game.Game.copy` (OpenSpiel deep-copies a Python state's
  attributes; the table defines ``__deepcopy__``), a deal is made only when a state is first used (so a clone
  never deals).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from cardlab.arenas.common import MAX_MOVES, returns
from cardlab.arenas.encoding import ViewEncoder
from cardlab.arenas.moves import MoveSpace, move_space
from cardlab.arenas.table_text import status, table_text, text_of
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_class, game_names, new_game
from cardlab.errors import InvalidInputError, shown

PREFIX = "cardlab_"
PARAM_TYPES = (bool, int, float, str)
"""Option defaults OpenSpiel can carry as game parameters."""


def short_name(name: str) -> str:
    """The OpenSpiel name of cardlab game ``name``: ``cardlab_spite_and_malice``."""
    return PREFIX + game_class(name).name.replace("-", "_")


def _game_options(rules: type[Game[Any]]) -> dict[str, Any]:
    return {k: spec.default for k, spec in rules.option_specs.items() if isinstance(spec.default, PARAM_TYPES)}


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type of cardlab game ``name``."""
    rules = game_class(name)
    params = {"players": rules.default_players, "seed": -1, "max_moves": MAX_MOVES, **_game_options(rules)}
    return pyspiel.GameType(
        short_name=short_name(name), long_name=f"cardlab {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players, min_num_players=max(2, rules.min_players),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True, parameter_specification=params)


class CardlabGame(pyspiel.Game):  # type: ignore[misc]
    """One cardlab game with its parameters (see the module notes)."""

    cardlab_name: str
    """The cardlab game's name (each registered game is a subclass that sets it)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        rules = game_class(self.cardlab_name)
        params = dict(params or {})
        self.rules = rules
        self.players = int(params.pop("players", rules.default_players))
        seed = int(params.pop("seed", -1))
        self.max_moves = int(params.pop("max_moves", MAX_MOVES))
        if self.players < 2:
            raise InvalidInputError(f"players={shown(self.players)} is not allowed in OpenSpiel, whose cardlab games "
                                    "are zero-sum: give 2 players or more (PettingZoo plays solitaire Garbage)")
        if self.max_moves < 1:
            raise InvalidInputError(f"max_moves={shown(self.max_moves)} is not allowed; give a whole number from 1 up")
        self.options = {k: v for k, v in params.items() if k in rules.option_specs}
        probe = new_game(rules.name, self.players, seed=0, **self.options)  # checks players and options now
        self.space: MoveSpace = move_space(rules.name)
        self.encoder = ViewEncoder(probe)
        self.seeds = np.random.default_rng(None if seed < 0 else seed)
        loss = -1.0 / (self.players - 1) if self.players > 1 else 0.0
        info = pyspiel.GameInfo(num_distinct_actions=self.space.size, max_chance_outcomes=0,
                                num_players=self.players, min_utility=min(loss, 0.0), max_utility=1.0,
                                utility_sum=0.0, max_game_length=self.max_moves)
        super().__init__(game_type(rules.name), info, {"players": self.players, "seed": seed,
                                                        "max_moves": self.max_moves, **self.options})

    def new_initial_state(self, *args: Any) -> CardlabState:
        """A state whose deal is drawn from this game's generator when the state is first used."""
        return CardlabState(self)

    def state_of(self, game: Game[Any]) -> CardlabState:
        """A state holding a copy of the cardlab ``game`` (of this class, players and options), each player
        having been told the game's events so far. Its OpenSpiel history starts here."""
        if type(game) is not self.rules or game.players != self.players:
            raise InvalidInputError(f"{game!s} is not a {self.players}-player {self.rules.name} game")
        state = CardlabState(self)
        state.table = Table.of(self, game.copy())
        return state

    def deal_seed(self) -> int:
        return int(self.seeds.integers(0, 2**63 - 1))

    def max_chance_nodes_in_history(self) -> int:
        """1: the deal, sampled inside the initial state (there are no chance nodes)."""
        return 1

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer | None:
        """The observer of an observation type: a player's view now (``perfect_recall=False``) or its information
        state (``True``), with private information (``SINGLE_PLAYER``) or the public table (``NONE``); None for
        the types a cardlab view does not define (every player's cards at once, private cards alone)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info:
            return None
        if kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return Observer(self, private=True, perfect_recall=kind.perfect_recall)
        if kind.private_info == pyspiel.PrivateInfoType.NONE:
            return Observer(self, private=False, perfect_recall=kind.perfect_recall)
        return None


def _chain(digest: str, text: str) -> str:
    return hashlib.blake2b(f"{digest}\n{text}".encode(), digest_size=16).hexdigest()


class Table:
    """A state's cardlab game, its moves through the adapter, and what each player (and the public) has been told:
    a digest chained over the events as each reads them (index ``players``: the public). Deep-copied through
    :meth:`cardlab.engine.game.Game.copy`."""

    def __init__(self, spec: CardlabGame, game: Game[Any] | None, digests: list[str], told: int,
                 moves: int) -> None:
        self.spec = spec
        self.game = game
        self.digests = digests
        self.told = told
        self.moves = moves
        self.texts: dict[int | None, str] = {}   # this position's views as text, by seat (None: the public)
        self.arrays: dict[int | None, np.ndarray] = {}   # and encoded
        self.legal: dict[int, Move] | None = None   # the legal moves by action number

    @classmethod
    def of(cls, spec: CardlabGame, game: Game[Any]) -> Table:
        table = cls(spec, game, [""] * (spec.players + 1), 0, 0)
        table.tell()
        return table

    def deal(self) -> Game[Any]:
        """The game, dealt now from the next seed of the :class:`CardlabGame` when there is none yet."""
        if self.game is None:
            spec = self.spec
            self.game = new_game(spec.rules.name, spec.players, seed=spec.deal_seed(), **spec.options)
            self.digests = [""] * (spec.players + 1)
            self.tell()
        return self.game

    def tell(self) -> None:
        """Chain the events since the last call into every digest."""
        game = self.game
        assert game is not None
        if game.event_count == self.told:
            return
        events = game.events[self.told:]
        seats: list[int | None] = [*range(game.players), None]
        for i, seat in enumerate(seats):
            digest = self.digests[i]
            for event in events:
                digest = _chain(digest, event.describe(seat))
            self.digests[i] = digest
        self.told = game.event_count

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        if self.game is None:   # a copy of a state not dealt yet: deal it now, so both hold the same deal
            self.deal()
        table = Table(self.spec, None if self.game is None else self.game.copy(), list(self.digests), self.told,
                      self.moves)
        table.texts = dict(self.texts)
        table.arrays = dict(self.arrays)   # never written to: an observer copies an array into its tensor
        table.legal = self.legal
        return table

    def legal_moves(self) -> dict[int, Move]:
        """The legal moves by action number (cached until the next move)."""
        if self.legal is None:
            game = self.deal()
            self.legal = self.spec.space.legal(game.legal_moves()) if not game.is_over else {}
        return self.legal

    def text(self, seat: int | None) -> str:
        """The view of ``seat`` as text (cached until the next move)."""
        text = self.texts.get(seat)
        if text is None:
            text = self.texts[seat] = table_text(self.deal(), seat, self.moves)
        return text

    def array(self, seat: int | None, encoder: ViewEncoder) -> np.ndarray:
        """The view of ``seat`` encoded (cached until the next move)."""
        array = self.arrays.get(seat)
        if array is None:
            array = self.arrays[seat] = encoder.encode(self.deal().observe(seat))
        return array


class CardlabState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`CardlabGame` (see the module notes)."""

    def __init__(self, game: CardlabGame) -> None:
        super().__init__(game)
        self.table = Table(game, None, [], 0, 0)   # the game is shared by clones, never copied

    @property
    def spec(self) -> CardlabGame:
        """The :class:`CardlabGame` of this state."""
        return self.table.spec

    # ------------------------------------------------------------------------------------------- the game
    @property
    def game(self) -> Game[Any]:
        """The cardlab game (dealt now if this state has not been used yet)."""
        return self.table.game if self.table.game is not None else self.table.deal()

    def _cut(self) -> bool:
        return self.table.moves >= self.spec.max_moves

    def current_player(self) -> int:
        game = self.game
        if game.is_over or self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        return game.current_player

    def is_terminal(self) -> bool:
        return self.game.is_over or self._cut()

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal_moves())

    def _apply_action(self, action: int) -> None:
        legal = self.table.legal_moves()
        if action not in legal:
            raise InvalidInputError(f"action {shown(action)} is not legal here; legal actions: {list(legal)[:20]}")
        self.game.play(legal[action])
        self.table.texts, self.table.arrays, self.table.legal = {}, {}, None
        self.table.moves += 1
        self.table.tell()

    def _action_to_string(self, player: int, action: int) -> str:
        move = self.table.legal_moves().get(action) if not self.is_terminal() else None
        if move is not None:
            return move.text
        kind, fields = self.spec.space.key(action)
        named = " ".join(f"{k}={text_of(v)}" for k, v in fields if v not in (None, 0, ""))
        return f"{kind} {named}".strip()

    def returns(self) -> list[float]:
        return returns(self.game) if self.is_terminal() else [0.0] * self.spec.players

    def __str__(self) -> str:
        """The game's status line and the digests of what each seat and the public have been told (every event,
        private ones included): equal strings, equal histories. ``table_text(state.game)`` draws the table."""
        return f"{status(self.game, self.table.moves)} | told " + " ".join(self.table.digests)

    # ------------------------------------------------------------------------------------------- hidden cards
    def resample(self, player: int, rng: np.random.Generator) -> CardlabState:
        """A state ``player`` cannot tell from this one: hidden cards from the game's chance law
        (:meth:`~cardlab.engine.game.Game.resample`), the same information states, the same move count."""
        state = CardlabState(self.spec)
        state.table = Table(self.spec, self.game.resample(player, rng), list(self.table.digests), 0,
                            self.table.moves)
        state.table.told = state.table.game.event_count  # type: ignore[union-attr]
        return state

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardlabState:
        """OpenSpiel's resampling: :meth:`resample` with a generator seeded from ``probability_sampler``."""
        seed = int(probability_sampler() * 2**53)
        return self.resample(player_id, np.random.default_rng(seed))


class Observer:
    """A player's view (or the table's), now or with everything it has been told (see the module notes)."""

    def __init__(self, game: CardlabGame, *, private: bool, perfect_recall: bool) -> None:
        self.private = private
        self.perfect_recall = perfect_recall
        self.encoder = game.encoder
        self.tensor = np.zeros(0 if perfect_recall else game.encoder.size, np.float32)
        self.dict: dict[str, np.ndarray] = {} if perfect_recall else {"view": self.tensor}

    def _seat(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: CardlabState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = state.table.array(self._seat(player), self.encoder)

    def string_from(self, state: CardlabState, player: int) -> str:
        text = state.table.text(self._seat(player))
        if not self.perfect_recall:
            return text
        return f"told {state.table.digests[player if self.private else -1]}\n{text}"


def register(name: str) -> str:
    """Register cardlab game ``name`` with OpenSpiel (once); its OpenSpiel name."""
    short = short_name(name)
    if short not in {t.short_name for t in pyspiel.registered_games()}:
        canonical = game_class(name).name
        # OpenSpiel keeps the creator until the interpreter is gone: a class (never freed before that), not a
        # closure, whose release after Python's finalization would need the interpreter
        creator = type(f"CardlabGame_{short}", (CardlabGame,), {"cardlab_name": canonical,
                                                               "__module__": __name__})
        pyspiel.register_game(game_type(canonical), creator)
    return short


for _name in game_names():
    register(_name)

__all__ = ["CardlabGame", "CardlabState", "Observer", "Table", "game_type", "register", "short_name"]
