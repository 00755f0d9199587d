"""The shared game core.

Every game is a subclass of :class:`Game`. It owns one :class:`~cardlab.engine.state.State` and
implements a handful of hooks; the base class supplies the public façade that widgets, policies,
simulations and notebooks use: ``legal_moves``, ``play``, ``undo``, ``observe``, ``events``,
``resample``, ``copy``, ``to_json``.

Design
------
* ``play`` pushes a light snapshot (a container copy of the state) before applying a move, so
  ``undo`` is exact and cheap. A move that fails leaves the game as it was.
* A move runs as a generator (``_apply``) that yields after each event. ``play`` runs it to the end;
  ``stepwise`` lets a viewer show the position after every event, so a Garbage chain can be animated.
* Chance is explicit, and dealt by the one dealer (:mod:`cardlab.dealer`). A game has one 64-bit
  *key*: game ``index`` of the run with ``seed`` has the key ``game_key(seed, index)``, exactly as a
  kernel's game ``index`` of that run, so both deal the same cards. The deal draws from the key's deal
  stream, in-game shuffle ``n`` from its stream ``n + 1``. Replays and undo are therefore exact, and
  ``resample`` (which redeals the cards a viewer cannot see) gives a new key.
* A record is the dealt state plus the move texts. ``load_game`` rebuilds and replays it, and
  refuses a record that breaks card conservation or holds an illegal move.
"""

from __future__ import annotations

import abc
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

import numpy as np

from cardlab.cards import Card, faces, full_deck
from cardlab.dealer import MASK64, Dealer, SplitMix64, game_key, new_key
from cardlab.engine.rng import make_rng
from cardlab.engine.state import PlayState, Spec
from cardlab.errors import (
    CardlabError,
    CorruptRecordError,
    IllegalMoveError,
    InvalidCardError,
    InvalidInputError,
    shown,
)

if TYPE_CHECKING:
    from cardlab.chance.law import Law

S = TypeVar("S", bound=PlayState)
RECORD_FORMAT = "cardlab-record"
RECORD_VERSION = 2
"""Version 2: the one dealer's keys (64-bit) and streams; a version-1 record shuffled another way."""
RECORD_FIELDS = ("format", "version", "game", "players", "options", "shuffle_key", "initial", "moves")
"""The fields :meth:`Game.to_json` writes; a record without one of them is refused."""
MAX_RECORD_MOVES = 250_000
"""The most moves a record may hold (a 200-round Spite and Malice match has about 40,000)."""
MAX_MOVE_TEXT = 200
"""The longest move text :meth:`Game.parse_move` reads; longer text is refused at once."""
SNAPSHOT_EVERY = 128
"""A game loaded from a record keeps the position before every 128th move only; :meth:`Game.undo` replays
the moves since the last kept position, so undo stays exact while a long record loads in little memory."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move. ``text`` is its canonical notation, which :meth:`Game.play` also accepts; ``kind`` its sort.

    Each game subclasses it with named, typed fields (a Shithead play's ``source``, ``rank`` and ``count``);
    a move with nothing more to say (Shithead's "pick up") is a plain ``Move``."""

    text: str
    kind: str

    def cards(self) -> tuple[Card, ...]:
        """The cards the move names in its fields (none for most moves)."""
        return tuple(v for f in fields(self) if isinstance(v := getattr(self, f.name), Card))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, in plain words.

    ``text`` is what everybody at the table sees. Where the event involves a card only one seat may
    see (a card drawn into a hand), ``private`` holds the fuller text and ``private_to`` the seat.
    ``data`` carries machine-readable details for animation (spot numbers, cards...).
    """

    kind: str
    text: str
    seat: int | None = None
    move_index: int = 0
    private: str | None = None
    private_to: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def describe(self, viewpoint: int | None = None, reveal_all: bool = False) -> str:
        if self.private is not None and (reveal_all or (viewpoint is not None and viewpoint == self.private_to)):
            return self.private
        return self.text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Option:
    """A game option: its default, a check, and the words that document it; ``choices`` lists every
    value allowed when they are a few named ones (empty: see ``accepted``)."""

    default: Any
    check: Callable[[Any], bool]
    accepted: str
    doc: str = ""
    choices: tuple[Any, ...] = ()


def _plain(value: Any) -> Any:
    """numpy integers (and lists of them) as Python ints, so options compare, print and save as usual."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _int_code(n: int) -> str:
    """``n`` as Python source: decimal, or hexadecimal for an integer too long for Python to print in decimal
    (more than 4,300 digits), so that a game's ``repr`` still evaluates to the same game."""
    return hex(n) if n.bit_length() > 14_000 else str(n)


def normalise_move_text(text: str) -> str:
    return " ".join(text.strip().lower().split())



class View(Protocol):
    """What one seat (or the table, ``seat`` None) may see of a game: each game's view is a frozen dataclass with
    its own fields (hidden cards left out), these two among them. :meth:`Game.observe` returns one."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def seat(self) -> int | None: ...

    @property
    def to_move(self) -> int: ...


Drawer = Callable[["Game[Any]", "int | None", bool, bool], str]
"""``drawer(game, viewpoint, reveal_all, four_colour) -> html`` draws the table of one game."""


def load_drawer(path: str) -> Drawer:
    """The drawer named ``"package.module:function"`` (a game's :attr:`Game.drawer`), imported now."""
    module, _, function = path.partition(":")
    drawer: Drawer = getattr(import_module(module), function)
    return drawer


class Game(abc.ABC, Generic[S]):
    """Base class of every game. Subclasses set the class attributes and implement the hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    option_specs: ClassVar[dict[str, Option]] = {}
    state_class: type[S]
    """The game's state class (a class attribute of each game: its records are read through it)."""
    state_description: ClassVar[Mapping[str, Spec]]
    """Every field of the state as a record writes it, by type and range (see :mod:`cardlab.engine.state`).
    :func:`~cardlab.engine.registry.load_game` reads a record's dealt position through it."""
    drawer: ClassVar[str] = "cardlab.viz.table:generic"
    """The game's table drawer, ``"package.module:function"`` with ``drawer(game, viewpoint, reveal_all,
    four_colour) -> html``: a game package names its own (``<package>.table:draw``). A name, imported only when a
    table is drawn, so the core never imports the view; the default draws a one-line summary."""

    _state: S
    _seed: int | None

    # ---------------------------------------------------------------- construction
    def __init__(
        self,
        players: int | None = None,
        *,
        seed: int | None = None,
        index: int = 0,
        rng: np.random.Generator | None = None,
        deck: Sequence[str | Card] | None = None,
        **options: Any,
    ) -> None:
        self._seed = None
        self._deck_given = deck is not None
        self.players = self._check_players(players)
        self.options: dict[str, Any] = self.check_options(self.players, options)
        if seed is None and index != 0:
            raise InvalidInputError(f"index={shown(index)} needs a seed: game index of the run with seed=...")
        if seed is not None and rng is None:
            make_rng(seed)  # the one check of a seed
            self._shuffle_key = game_key(seed, index)
        else:
            self._shuffle_key = new_key(make_rng(seed, rng))
        self._seed = int(seed) if seed is not None else None
        self._reset_history()
        self._state = self._deal(Dealer(self._shuffle_key).deal(), self._check_deck(deck))
        self._initial = self._state.clone()
        self._check_conservation("deal")

    @staticmethod
    def _check_deck(deck: Any) -> list[str | Card] | None:
        """``deck`` is None or a list (tuple, array) of card texts or cards, top of the deck first."""
        if deck is None:
            return None
        if isinstance(deck, (str, bytes, dict, set, frozenset)) or not isinstance(deck, (list, tuple, np.ndarray)):
            raise InvalidCardError(f"deck={shown(deck)} is not allowed; give a list of cards, top of the deck "
                                   "first, e.g. ['7H', 'AS']")
        return list(deck)

    @classmethod
    def _check_players(cls, players: int | None) -> int:
        if players is None:
            return cls.default_players
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) \
                or not cls.min_players <= players <= cls.max_players:
            span = (f"{cls.min_players}" if cls.min_players == cls.max_players
                    else f"{cls.min_players} to {cls.max_players}")
            raise InvalidInputError(f"players={shown(players)} is not allowed for {cls.name}; it takes {span} players")
        return int(players)

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The game's options for ``players`` players, normalised (defaults filled in, plain values), or an
        :class:`~cardlab.errors.InvalidInputError` naming the option and what it accepts. A class method: a record
        is checked before any game exists."""
        unknown = [k for k in options if k not in cls.option_specs]
        if unknown:
            known = ", ".join(sorted(cls.option_specs)) or "none"
            raise InvalidInputError(f"unknown option {shown(unknown[0])} for {cls.name}; its options are: {known}")
        result: dict[str, Any] = {}
        for key, spec in cls.option_specs.items():
            value = options.get(key, spec.default)
            try:
                ok = spec.check(value)
            except Exception:  # a value the check cannot even compare (an odd type)
                ok = False
            if not ok:
                raise InvalidInputError(f"option {key}={shown(value)} is not allowed for {cls.name}; "
                                        f"accepted: {spec.accepted}")
            result[key] = _plain(value)
        cls.validate_options(players, result)
        return result

    @classmethod
    def validate_options(cls, players: int, options: dict[str, Any]) -> None:
        """Cross-option checks that need the player count, normalising ``options`` in place (override when
        needed)."""

    def _reset_history(self) -> None:
        self._events: list[Event] = []
        self._moves: list[Move] = []
        # per move: the position before it (None where a loaded record kept none) and the event count
        self._stack: list[tuple[S | None, int]] = []
        # what a subclass works out from the history, by move number: copy keeps it (the history so far is
        # shared), undo forgets the entries past the game's end, a new history starts it empty
        self._by_move: dict[int, Any] = {}

    @classmethod
    def _blank(cls, players: int, options: dict[str, Any], shuffle_key: int) -> Self:
        game = cls.__new__(cls)
        game.players = players
        game.options = dict(options)
        game._seed = None
        game._deck_given = False
        game._shuffle_key = shuffle_key
        game._reset_history()
        return game

    # ---------------------------------------------------------------- hooks for subclasses
    @abc.abstractmethod
    def _deal(self, rng: SplitMix64, deck: list[str | Card] | None) -> S:
        """Build the opening state. ``deck`` lists the top of a stacked deck, top card first."""

    @abc.abstractmethod
    def _legal_moves(self) -> list[Move]:
        """The moves open to the player to move (empty when the game is over)."""

    @abc.abstractmethod
    def _apply(self, move: Move) -> Iterator[None]:
        """Apply a legal move, logging events with :meth:`_log`, yielding after each event."""

    @abc.abstractmethod
    def _observe(self, seat: int | None) -> View:
        """The view of ``seat`` (``None``: the public table), with hidden cards left out."""

    @abc.abstractmethod
    def _resample_state(self, viewpoint: int | None, rng: np.random.Generator) -> S:
        """A state that ``viewpoint`` cannot tell from this one, hidden cards redealt uniformly."""

    @abc.abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Every card of the game by zone. Together they hold each physical card exactly once."""

    @property
    @abc.abstractmethod
    def packs(self) -> int:
        """How many 52-card packs are in play."""

    # ---------------------------------------------------------------- public façade
    @property
    def state(self) -> S:
        """The full state, hidden cards included. Viewers use :meth:`observe` instead."""
        return self._state

    @property
    def seed(self) -> int | None:
        """The seed the game was dealt with (None when it was dealt from a generator or loaded)."""
        return self._seed

    @property
    def shuffle_key(self) -> int:
        """The game's key (:mod:`cardlab.dealer`): the deal and in-game shuffle ``k`` draw from its streams
        (``Dealer(shuffle_key).shuffle(k)``), so undo and replay are exact."""
        return self._shuffle_key

    @property
    def current_player(self) -> int:
        return int(self._state.to_move)

    @property
    def is_over(self) -> bool:
        return bool(self._state.over)

    @property
    def winner(self) -> int | None:
        w = self._state.winner
        return None if w is None else int(w)

    @property
    def turns(self) -> int:
        """Turns taken so far; a turn is one player's go, from their first action to passing on."""
        return int(self._state.turn)

    @property
    def move_count(self) -> int:
        """Moves played so far."""
        return len(self._moves)

    @property
    def event_count(self) -> int:
        """Events logged so far (``len(game.events)`` without copying the log)."""
        return len(self._events)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return list(self._moves)

    @property
    def events(self) -> list[Event]:
        """The event log, oldest first."""
        return list(self._events)

    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        return self._legal_moves()

    def parse_move(self, move: Move | str) -> Move:
        """The legal move that ``move`` names, or IllegalMoveError quoting it and the position."""
        legal = self.legal_moves()
        if isinstance(move, Move):
            if move in legal:
                return move
            text = move.text
        elif isinstance(move, str):
            text = move
        else:
            raise IllegalMoveError(f"move {shown(move)} is neither a Move nor move text")
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise IllegalMoveError(f"move {shown(text)} is not move text of at most {MAX_MOVE_TEXT} characters; "
                                   f"legal moves: {', '.join(repr(m.text) for m in legal[:12])}")
        wanted = normalise_move_text(text)
        for m in legal:
            if normalise_move_text(m.text) == wanted:
                return m
        for m in legal:
            if wanted in self._move_aliases(m):
                return m
        if self.is_over:
            raise IllegalMoveError(f"move {text!r} refused: the {self.name} game is over")
        reason = self._explain_illegal(wanted)
        if reason:
            raise IllegalMoveError(f"move {text!r} is not legal for seat {self.current_player}: {reason}")
        listed = ", ".join(repr(m.text) for m in legal[:12]) + (" ..." if len(legal) > 12 else "")
        raise IllegalMoveError(
            f"move {text!r} is not legal for seat {self.current_player} at move {self.move_count} "
            f"of this {self.name} game; legal moves: {listed}")

    def _explain_illegal(self, text: str) -> str | None:
        """A game-specific reason why the (normalised) move text is refused, or None for the generic one."""
        return None

    def _move_aliases(self, move: Move) -> set[str]:
        """Other spellings a game accepts for ``move`` (normalised)."""
        return set()

    def play(self, move: Move | str) -> None:
        """Play a legal move (a Move or its text). On any error the game is left unchanged."""
        m = self.parse_move(move)
        self._stack.append((self._state.clone(), len(self._events)))
        self._moves.append(m)
        try:
            for _ in self._apply(m):
                pass
        except BaseException:
            self._restore_last()
            raise

    def play_all(self, moves: Sequence[Move | str]) -> Self:
        """Play several moves in turn; returns the game, so calls can be chained. If one is refused, the moves
        played before it are taken back: on any error the game is left unchanged."""
        if isinstance(moves, (str, bytes, Move)) or not isinstance(moves, Iterable):
            raise IllegalMoveError(f"play_all takes a list of moves, not {shown(moves)}; play() plays one move")
        played = 0
        try:
            for m in moves:
                self.play(m)
                played += 1
        except BaseException:
            for _ in range(played):
                self.undo()
            raise
        return self

    def stepwise(self, move: Move | str) -> Iterator[Self]:
        """Yield a copy of the game after each event of ``move``; the last one has the move complete.

        This game itself is not changed. A viewer uses it to draw a chain one card at a time.
        """
        m = self.parse_move(move)
        g = self.copy()
        g._stack.append((g._state.clone(), len(g._events)))
        g._moves.append(m)
        for _ in g._apply(m):
            yield g
        yield g

    def undo(self) -> Move:
        """Take back the last move exactly; returns it."""
        if not self._stack:
            raise IllegalMoveError(f"nothing to undo: no move has been played in this {self.name} game")
        move = self._moves[-1]
        self._restore_last()
        return move

    def _restore_last(self) -> None:
        """Go back to the position before the last move."""
        self._go_back_to(len(self._stack) - 1)

    def _go_back_to(self, index: int) -> None:
        """Go back to the position before move ``index``: its snapshot, or else the last kept snapshot and a
        replay of the moves after it (a game loaded from a long record keeps few snapshots)."""
        j = index
        while self._stack[j][0] is None:
            j -= 1
        snap, n_events = self._stack[j]
        assert snap is not None
        again = self._moves[j:index]
        del self._stack[j:]
        del self._moves[j:]
        self._state = snap.clone()
        del self._events[n_events:]
        self._replay(again, j)
        for k in [k for k in self._by_move if k > index]:
            del self._by_move[k]

    def _replay(self, moves: Sequence[Move], first: int) -> None:
        """Apply moves known to be legal (they were played before), keeping a snapshot every
        :data:`SNAPSHOT_EVERY` moves only; ``first`` is the index of the first one in the game."""
        for i, m in enumerate(moves, first):
            snap = self._state.clone() if i % SNAPSHOT_EVERY == 0 else None
            self._stack.append((snap, len(self._events)))
            self._moves.append(m)
            for _ in self._apply(m):
                pass

    def copy(self) -> Self:
        """An independent game with the same position and history; cheap (container copies only)."""
        g = self._blank(self.players, self.options, self._shuffle_key)
        g._seed = self._seed
        g._deck_given = self._deck_given
        g._state = self._state.clone()
        g._initial = self._initial
        g._events = list(self._events)
        g._moves = list(self._moves)
        g._stack = list(self._stack)
        g._by_move = dict(self._by_move)   # entries are immutable; both games share the history so far
        return g

    # ---------------------------------------------------------------- the history, for subclasses and analyses
    def state_before(self, index: int) -> S:
        """The position before move ``index`` (0 to the number of moves played; that last is the position now),
        as a copy of the game's state. A game keeps the position before each move it played; a game loaded from
        a long record keeps one every :data:`SNAPSHOT_EVERY` moves, and the moves after the last one kept are
        re-played (they are legal: they were played)."""
        if self._move_number(index, "state_before") == len(self._moves):
            return self._state.clone()
        w = self.copy()
        w._go_back_to(index)
        return w._state

    def kept_state_before(self, index: int) -> S | None:
        """The position before move ``index`` if the game kept it (the position now for the number of moves
        played), else None; not a copy: read it, never change it."""
        if self._move_number(index, "kept_state_before") == len(self._moves):
            return self._state
        return self._stack[index][0]

    def events_before(self, index: int) -> int:
        """How many events happened before move ``index`` (the deal's events, for move 0)."""
        if self._move_number(index, "events_before") == len(self._moves):
            return len(self._events)
        return self._stack[index][1]

    def _move_number(self, index: object, what: str) -> int:
        """``index`` if it numbers a position of the history (0 to the number of moves played), else refused."""
        n = len(self._moves)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= n:
            raise InvalidInputError(f"{what}({shown(index)}): give a move number from 0 to {n}")
        return index

    def observe(self, seat: int | None = None) -> View:
        """What ``seat`` may see (``None``: the public view of the table). Hidden cards stay hidden."""
        self.check_seat(seat, "observe")
        return self._observe(seat)

    def resample(self, viewpoint: int | None, rng: np.random.Generator) -> Self:
        """A full game that ``viewpoint`` cannot tell from this one, hidden cards redealt at random.

        ``viewpoint`` is a seat, or ``None`` for what the whole table has seen. The result has no
        history (it cannot be undone past this point) and a fresh shuffle key, so future shuffles are
        unknown too.
        """
        self.check_seat(viewpoint, "resample")
        if not isinstance(rng, np.random.Generator):
            raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
        g = self._blank(self.players, self.options, new_key(rng))
        g._state = self._resample_state(viewpoint, rng)
        g._initial = g._state.clone()
        return g

    # ---------------------------------------------------------------- the hidden-information contract
    def chance_law(self, viewpoint: int | None) -> Law:
        """The law of the cards ``viewpoint`` (a seat, or ``None`` for the table) cannot locate: where they
        may lie and with what chance, from what that viewpoint has seen alone (:mod:`cardlab.chance.law`).

        A game with hidden cards overrides it; :meth:`resample`, the exact questions and the kernels'
        play-outs all read it, so two games the viewpoint cannot tell apart give them the same answers.
        Here: :class:`~cardlab.errors.InvalidInputError` (the game states no chance law)."""
        self.check_seat(viewpoint, "chance_law")
        raise InvalidInputError(f"{self.name} does not state a chance law for its hidden cards")

    def unseen_cards(self, viewpoint: int | None) -> list[Card]:
        """The cards ``viewpoint`` cannot locate, by face: the faces :meth:`chance_law` deals, in an order
        the game chooses. Here: :class:`~cardlab.errors.InvalidInputError` (the game does not say)."""
        self.check_seat(viewpoint, "unseen_cards")
        raise InvalidInputError(f"{self.name} does not say which cards are unseen")

    def check_seat(self, seat: int | None, what: str) -> None:
        """Refuse a seat that does not exist in this game (``None``, the public view, is always accepted).

        ``what`` names the caller in the message (:class:`~cardlab.errors.InvalidInputError`)."""
        if seat is None:
            return
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
            raise InvalidInputError(
                f"{what}: seat {shown(seat)} does not exist; this {self.name} game has seats 0 to {self.players - 1}"
                " (or None for the public view)")

    def stats(self) -> dict[str, float]:
        """Game-specific figures a simulation collects per finished game (override to add some)."""
        return {}

    # ---------------------------------------------------------------- events and chance
    def _log(self, kind: str, text: str, seat: int | None = None, *, private: str | None = None,
             private_to: int | None = None, **data: Any) -> None:
        # Public details show faces only: which of two identical cards (two packs) is which is hidden.
        data = {k: faces(v) for k, v in data.items()}
        self._events.append(Event(kind, text, seat, max(len(self._moves) - 1, 0), private, private_to, data))

    def _shuffle_rng(self) -> SplitMix64:
        """The stream of the next in-game shuffle (:meth:`cardlab.dealer.Dealer.shuffle`); counts shuffles in
        the state for exact undo."""
        count = int(self._state.shuffles)
        self._state.shuffles = count + 1
        return Dealer(self._shuffle_key).shuffle(count)

    def _choice_rng(self) -> SplitMix64:
        """The stream of the rules' hidden choice at this move (:meth:`cardlab.dealer.Dealer.choice`)."""
        return Dealer(self._shuffle_key).choice(len(self._moves))

    # ---------------------------------------------------------------- conservation
    def all_cards(self) -> list[Card]:
        return full_deck(self.packs)

    def _check_conservation(self, where: str) -> None:
        found = Counter(c for cards in self.zones().values() for c in cards)
        expected = Counter(self.all_cards())
        if found != expected:
            lost = sorted((expected - found).elements())
            extra = sorted((found - expected).elements())
            raise CorruptRecordError(f"{where}: cards do not add up; missing {[c.code for c in lost]}, "
                                     f"extra or duplicated {[c.code for c in extra]}")

    # ---------------------------------------------------------------- records
    def to_json(self) -> str:
        """An exact record: the dealt position, the shuffle key, the options and the move texts."""
        record = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.name,
            "players": self.players,
            "options": self.options,
            "shuffle_key": self._shuffle_key,
            "initial": self._initial.to_data(),
            "moves": [m.text for m in self._moves],
        }
        return json.dumps(record, ensure_ascii=False)

    @classmethod
    def _from_record(cls, record: dict[str, Any]) -> Self:
        """Rebuild a game from a parsed record: header, then the dealt position read field by field
        through :attr:`state_description`, then the game's own consistency checks and a liveness check
        (the game is over, or the player to move has a legal move), then the moves replayed."""
        missing = [k for k in RECORD_FIELDS if k not in record]
        if missing:
            raise CorruptRecordError(f"record field {missing[0]} is missing; Game.to_json() writes "
                                     f"{', '.join(RECORD_FIELDS)}")
        options = record["options"]
        if not isinstance(options, dict):
            raise CorruptRecordError(f"record field options is {shown(options, 40)}; expected an object")
        players = record["players"]
        if type(players) is not int:  # 2.0 and true are not player counts, though they compare equal to some
            raise CorruptRecordError(f"record field players is {shown(players, 40)}; expected a whole number "
                                     f"from {cls.min_players} to {cls.max_players}")
        key = record.get("shuffle_key")
        if type(key) is not int or not 0 <= key <= MASK64:
            raise CorruptRecordError(f"record field shuffle_key is {shown(key, 40)}; "
                                     "expected a whole number from 0 to 2**64 - 1")
        moves = record["moves"]
        if type(moves) is not list or len(moves) > MAX_RECORD_MOVES:
            size = f"a list of {len(moves):,} moves" if type(moves) is list else shown(moves, 40)
            raise CorruptRecordError(f"record field moves is {size}; expected a list of at most "
                                     f"{MAX_RECORD_MOVES:,} move texts")
        try:
            players = cls._check_players(players)
        except InvalidInputError as exc:
            raise CorruptRecordError(f"record field players is invalid: {exc}") from exc
        try:
            opts = cls.check_options(players, options)
        except InvalidInputError as exc:
            raise CorruptRecordError(f"record field options is invalid: {exc}") from exc
        g = cls._blank(players, opts, key)
        g._state = g.state_class.from_data(record["initial"], cls.state_description, g)
        g._initial = g._state.clone()
        try:
            g._check_conservation("record field initial")
            g._validate_state()
            g._check_live()
        except CorruptRecordError:
            raise
        except Exception as exc:  # a state the game cannot even inspect: the description missed something
            raise CorruptRecordError(f"record field initial is malformed: {type(exc).__name__}: "
                                     f"{shown(str(exc))}") from exc
        for i, text in enumerate(moves):
            if not isinstance(text, str):
                raise CorruptRecordError(f"record field moves[{i}] is {shown(text, 40)}, not move text")
            try:
                # a record holds canonical texts: an exact match is found without normalising every legal move
                m = next((m for m in g.legal_moves() if m.text == text), None) or g.parse_move(text)
                g._replay([m], i)
            except IllegalMoveError as exc:
                raise CorruptRecordError(f"record field moves[{i}] ({shown(text, 40)}) does not replay: "
                                         f"{exc}") from exc
            except CardlabError as exc:  # a check of the game's own (a belief the play contradicts, say)
                raise CorruptRecordError(f"record field moves[{i}] ({shown(text, 40)}) does not replay: "
                                         f"{shown(str(exc), 300)}") from exc
            except Exception as exc:  # a rule that cannot run on this position
                raise CorruptRecordError(f"record field moves[{i}] ({shown(text, 40)}) does not replay: "
                                         f"{type(exc).__name__}: {shown(str(exc))}") from exc
        return g

    def _check_live(self) -> None:
        """A record's position must be live: over, or with a legal move for the player to move; and each
        legal move must play (it is played and taken back at once). The game's own checks
        (:meth:`_validate_state`) should already refuse any position a legal move cannot be played from; this
        last check turns a rule that still cannot run into a refusal of the record, not a failure later."""
        if self.is_over:
            return
        legal = self.legal_moves()
        if not legal:
            raise CorruptRecordError(
                f"record field initial is a dead position: the game is not over, yet seat {self.current_player} "
                "has no legal move")
        for move in legal:
            try:
                self.play(move)
            except CardlabError as exc:
                raise CorruptRecordError(f"record field initial: the legal move {move.text!r} cannot be played "
                                         f"from it: {shown(str(exc), 200)}") from exc
            self.undo()

    def _validate_state(self) -> None:
        """Structural checks for a state read from a record (override to add game rules)."""

    # ---------------------------------------------------------------- display
    def __repr__(self) -> str:
        if not hasattr(self, "_state"):
            return f"<{type(self).__name__}: not dealt>"
        if self._seed is not None and not self._deck_given:
            opts = "".join(f", {k}={v!r}" for k, v in self.options.items()
                           if v != self.option_specs[k].default)
            base = f"cardlab.new_game({self.name!r}, players={self.players}, seed={_int_code(self._seed)}{opts})"
            if self._moves:
                base += f".play_all({[m.text for m in self._moves]!r})"
            return base
        return f"cardlab.load_game({self.to_json()!r})"

    def __str__(self) -> str:
        status = "over" if self.is_over else f"seat {self.current_player} to move"
        return f"{self.title}, {self.players} players, move {self.move_count}, {status}"

    def _repr_html_(self) -> str:
        """The table as the public sees it, drawn by the game's :attr:`drawer` (imported only now: the core
        never imports the view at import time)."""
        html: str = load_drawer(self.drawer)(self, None, False, False)
        return html
