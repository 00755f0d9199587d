"""Shithead (also called Palace).

Rules (``docs/rules.md#shithead`` gives the source of each choice; others are options; house rules below)
----------------------------------------------------------------------------------------------------------
* **Packs.** 2 players use one 52-card pack, 3–5 players two. No jokers.
* **Order.** 3 < 4 < … < 10 < J < Q < K < A, given by :func:`power`. The 2 and the 10 are special.
* **Deal.** Three face-down cards to each player, which nobody may look at (the owner included), then
  six cards to each hand.
* **Set-up.** Each player in turn (seat 0, 1, …) puts three hand cards face up on the face-down ones,
  one card per move: ``"face up 7♥"``. The rest of the deck is the draw pile.
* **Starting card.** After the set-up the first player turns the top of the draw pile face up to start
  the discard pile. A 2 as starting card resets: anything may follow. A 10 as starting card burns at
  once (it goes out of play) and the first player plays anything on the empty pile.
* **First player.** Option ``first="seat0"`` (default; the text names nobody) or ``"lowest3"`` (pagat):
  after the set-up, the holder of the lowest card in hand starts — a 3 if anyone holds one, else a 4,
  and so on up to the Ace; 2s and 10s do not count as low. Several holders of that rank: the lowest
  seat number starts. Nobody holding any such card (only 2s and 10s in every hand): seat 0. Who starts
  is public, so it tells every viewer something about the hands: the chance law reads it.
* **A play.** One card, or several of the same rank, equal to or higher (by :func:`power`) than the top
  of the pile: ``"play 7"``, ``"play 7 x2"``. On an empty pile, or on a 2, anything goes. A 2 and a 10
  go on anything. Suits never matter: the engine picks which physical cards of the rank are played
  (cards the table already knows to be in that hand first, then the rest uniformly at random from a
  generator keyed by the shuffle key and the move number, so no fixed order reveals which suits the
  hand lacks).
* **Must play.** A player who can play must play. A player who cannot picks up the whole pile into the
  hand (``"pick up"``) and the turn ends.
* **Drawing.** After playing, the player draws back up to three cards in hand while the draw pile lasts.
* **2** resets the pile: anything may follow it.
* **10** burns the pile: every card of the pile goes out of play; the same player draws up to three and
  plays again, any card.
* **Four in a row.** Four or more cards of the same rank on top of the pile in a row, whether one player
  or several played them, clear the pile out of play (four 2s clear too; 10s burn by themselves
  anyway). By default the **next** player plays anything on the empty pile; option
  ``four_kind_plays_again=True`` (pagat) gives the same player another play instead.
* **Sources.** A player plays from the hand while it holds cards; with no hand, from the face-up cards
  (``"play face-up 7"``); with neither, a face-down card **blind** (``"play face-down card 2"``,
  positions numbered 1–3; only cards still there are offered). The blind card is turned: it is played
  if it fits, otherwise it goes to the hand together with the pile, and the turn ends. Cards picked up
  must be played from the hand before any table card; this follows from the hand-first order. One
  play never mixes sources (a last hand card and a face-up card of the same rank are two plays).
* **Winning.** The first player out of all cards (hand, face up, face down) wins and the game ends.
  Option ``play_to_last=True`` plays on, skipping finished players, to rank everyone; ``winner`` is the
  first out, ``state.ranking`` the finishing order, and the last player is the shithead.
* **Safety rule.** The rules do not force an end: once the 10s are gone, cards leave play only in
  fours, and two players can pass the pile back and forth for a very long time, or for ever. Two
  greedy bots do fall into an exact cycle about once in 20,000 two-player games (a position repeats
  every 30 turns), and uniformly random two-player play has a long tail. Option ``max_turns``
  (default 4000, twenty times the longest greedy game that ended in testing) declares the game drawn
  (``winner=None``, ``state.stopped``) when that many turns have been played; an event says so. With
  ``play_to_last=True`` a player already out stays the winner. The default keeps every game under
  5000 moves: set-up moves and extra plays after 10s or clears add fewer than 100 moves to the turns.

House rules
-----------
Three common variations, each an option (``False`` by default), each stated once in :class:`House` below
(the fit rule :meth:`House.fits` on the pile's rank :meth:`House.pile_rank`, :meth:`House.skips`, the greedy
orders :meth:`House.play_order` and :meth:`House.setup_order`, tabulated by :func:`fit_table`). The engine,
the kernel (which builds its tables from these at compile time), the beliefs, the questions, the bots and the
table drawing read them here. Source: the variations section of pagat.com's Shithead page
(https://www.pagat.com/beating/shithead.html), in our own words; ``docs/rules.md#house-rules`` lists the
details that are cardlab's choices.

* ``seven_lower``: on a 7 the next card must be a 7 or lower (3 to 7), or a card that goes on anything.
* ``invisible_three``: a 3 goes on anything and takes the rank of the card under it (a 3 on a 3 passes it on
  down; on an empty pile, or on 3s only, the pile stays free). Runs count cards as they lie: four 3s in a row
  clear, and a 3 breaks a run of another rank.
* ``eight_skips``: when a play of 8s passes the move on, the next player in line misses the turn (one skip
  per play, not counted as a turn); with two players left the same player plays again.

Turns
-----
``turns`` counts finished turns of the play phase; the set-up choices are not turns. A turn ends with
a pick-up or with a play that passes the move on; a 10 (or, with the option, four of a kind) lets the
same player play again within the same turn. The turn in which a player goes out counts.

Stacked decks
-------------
``deck=[...]`` lists the top of the deck, top card first: seat 0's three face-down cards (positions 1,
2, 3), then seat 1's, …; then seat 0's six hand cards, seat 1's, …; the next card is the top of the draw
pile, which becomes the starting card.

Public knowledge
----------------
The pile is face up, so cards picked up from it (and a blind card that is turned and picked up) are
known to everyone. The state keeps them per seat in ``known``, and the views show them; they leave
``known`` when played. Face-down cards are hidden from everyone, their owner included.
:meth:`Shithead.chance_law` states the law of the unseen cards for a viewer (face-down cards, the
draw pile, the unseen part of other hands). **How a hand plays is public information.** A player who
can play must play, so even a player who chooses at random chooses among the cards that *fit*: a hand
that has played for a while is likely to keep cards that did not fit, and a player who had to pick up
held none that fitted. The law reads every hand through its play under one stated **model** (the
``uninformed`` player's): from the hand, a uniformly random card among those that fit is played (more
cards of its rank may be added), and a player picks up only when nothing fits. Bayes' rule then gives,
per hand, a weight for each count of its unseen cards by class (:mod:`.beliefs`), and the law of the
hidden cards follows exactly (:class:`~cardlab.chance.hands_law.HandsLaw`). That model is the
**modelling assumption**: real players choose with their cards in mind (the greedy bot keeps its
lowest cards at the set-up and plays its lowest fitting rank), which tells more than the law reads.
``benchmarks/bench_chance_law.py`` measures both (see :mod:`cardlab.sim.prob`). Which unseen cards
of the named rank a hand plays is drawn at random (see *A play*), so no fixed order leaks which suits a
hand lacks; views and events show faces only (with two packs, which pack a card is from is hidden).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Self

import numpy as np

from cardlab.cards import Card, Rank, face_of, faces, full_deck, shuffled_deck, stack_deck
from cardlab.chance.hands_law import HandsLaw
from cardlab.dealer import SplitMix64
from cardlab.engine.game import Game, Move, Option
from cardlab.engine.state import (
    Bool,
    CardSpec,
    Choice,
    Int,
    ListOf,
    Maybe,
    PlayState,
    Spec,
    cards,
    counter,
    encode,
    last_seat,
    per_seat,
)
from cardlab.errors import CorruptRecordError, InvalidCardError, shown
from cardlab.games.shithead import beliefs
from cardlab.games.shithead.lazy import Beliefs, started
from cardlab.games.shithead.ranks import POWER, SPECIAL
from cardlab.games.shithead.ranks import counts_low as counts_low  # a rule the kernel reads here, with the others

FACE_DOWN = 3
HAND_DEAL = 6
FACE_UP = 3
REFILL = 3
RUN_TO_CLEAR = 4
DEFAULT_MAX_TURNS = 4000
MAX_TURNS_LIMIT = 1_000_000  # the largest max_turns option (a record may not ask for an endless game)
MAX_OF_A_RANK = 8  # two packs


_SORT_KEY: dict[Card, tuple[int, int, int]] = {c: (POWER[c.rank], int(c.suit), c.pack) for c in full_deck(3)}
_LAW_KEY: dict[Card, tuple[int, int, int, int]] = {c: (beliefs.CLASS[c.rank], int(c.rank), int(c.suit), c.pack)
                                                  for c in full_deck(3)}
_RANK_WORDS: dict[str, Rank] = {r.label.lower(): r for r in Rank} | {"t": Rank.TEN, "1": Rank.ACE}


# ---------------------------------------------------------------------------------------------- the rules as tables
# Each rule is stated once here, as a small function of the rank and the pile: the burn (:func:`burns`), the
# clear (:func:`clears`), and, tabulated for the house rules in force, the fit rule and the bot's orders
# (:class:`House`); the ranks' order and which ranks count as low (:func:`.ranks.counts_low`) are stated in
# :mod:`.ranks`, below the beliefs that read them too. The engine below, the kernel (``kernel._rules``, which
# tabulates them all), the beliefs (through :func:`fit_classes`), the questions and the bots read these; none
# restates a rule.
def burns(rank: Rank) -> bool:
    """**The burn**: whether a play of ``rank`` burns the pile (every card of it goes out of play, and the
    same player plays again; as the starting card, it burns at once). The 10 does."""
    return rank == Rank.TEN


def clears(run: int) -> bool:
    """**Four in a row**: whether ``run`` cards of one rank in a row on top of the pile (:meth:`Shithead.run_length`)
    clear it out of play. Four or more do."""
    return run >= RUN_TO_CLEAR


HOUSE_RULES = ("seven_lower", "invisible_three", "eight_skips")
"""The house-rule options (module notes, *House rules*), each ``False`` by default."""


@dataclass(frozen=True, slots=True)
class House:
    """Which house rules are in force (module notes, *House rules*)."""

    seven_lower: bool = False
    invisible_three: bool = False
    eight_skips: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> House:
        """The house rules of a game's options (a missing option is off)."""
        return _HOUSES[(bool(options.get("seven_lower", False)), bool(options.get("invisible_three", False)),
                        bool(options.get("eight_skips", False)))]

    @staticmethod
    def all() -> tuple[House, ...]:
        """Every combination of the house rules."""
        return tuple(_HOUSES.values())

    def goes_on_anything(self, rank: Rank) -> bool:
        """A 2 and a 10 go on anything; with the invisible 3, a 3 too."""
        return rank in SPECIAL or (self.invisible_three and rank == Rank.THREE)

    def invisible(self, rank: Rank) -> bool:
        """Whether a card of ``rank`` leaves the pile's rank as it was (the invisible 3)."""
        return self.invisible_three and rank == Rank.THREE

    def fits(self, rank: Rank, top: Rank | None) -> bool:
        """**The fit rule**: may a card of ``rank`` go on a pile whose rank is ``top`` (:meth:`pile_rank`;
        None for an empty pile)? On an empty pile or a 2, anything; a card that goes on anything, always;
        on a 7 with ``seven_lower``, a 7 or lower; else a card of equal or higher power."""
        if top is None or top == Rank.TWO or self.goes_on_anything(rank):
            return True
        if self.seven_lower and top == Rank.SEVEN:
            return POWER[rank] <= POWER[Rank.SEVEN]
        return POWER[rank] >= POWER[top]

    def pile_rank(self, pile: Sequence[Card]) -> Rank | None:
        """The rank the next card must fit (:meth:`fits`): the top card's, except that an invisible 3 takes
        the rank of the card under it (a 3 on a 3 passes it on down); None for an empty pile or one of
        invisible 3s only (a free pile)."""
        if not self.invisible_three:
            return pile[-1].rank if pile else None
        for c in reversed(pile):
            if not self.invisible(c.rank):
                return c.rank
        return None

    def skips(self, rank: Rank) -> bool:
        """Whether a play of ``rank`` makes the next player miss a turn (``eight_skips``)."""
        return self.eight_skips and rank == Rank.EIGHT

    def play_order(self) -> tuple[tuple[Rank, bool], ...]:
        """**The greedy preference** in play: ranks in the order the bot prefers them, each with whether it
        plays every card of the rank (True) or one (False). The ranks that go on only some piles, lowest
        power first, all their cards; then the cards that go on anything, one at a time: a 10 (it burns,
        the bot plays again), an invisible 3 (it keeps the pile's rank), a 2 (it frees the pile)."""
        wild = tuple(r for r in (Rank.TEN, Rank.THREE, Rank.TWO) if self.goes_on_anything(r))
        plain = sorted((r for r in Rank if r not in wild), key=POWER.__getitem__)
        return tuple((r, True) for r in plain) + tuple((r, False) for r in wild)

    def setup_order(self) -> tuple[Rank, ...]:
        """**The greedy set-up preference**: the rank put face up first, then the next: the cards that go on
        anything (10, 2, then an invisible 3), then by power from the Ace down."""
        wild = tuple(r for r in (Rank.TEN, Rank.TWO, Rank.THREE) if self.goes_on_anything(r))
        return wild + tuple(sorted((r for r in Rank if r not in wild), key=POWER.__getitem__, reverse=True))


_HOUSES = {flags: House(*flags) for flags in itertools.product((False, True), repeat=len(HOUSE_RULES))}
PILE_RANKS: tuple[Rank | None, ...] = (None, *Rank)
"""Every rank a pile can have (:meth:`House.pile_rank`): none, or any rank. (A 10 burns at once, but the
position between its play and the burn shows it on top; a rank the house rules make invisible never is a
pile's rank, but :func:`fit_table` lists it all the same.)"""


@cache
def fit_table(house: House) -> dict[Rank | None, frozenset[Rank]]:
    """The fit rule tabulated: for each pile rank, the ranks that go on it (:meth:`House.fits`)."""
    return {top: frozenset(r for r in Rank if house.fits(r, top)) for top in PILE_RANKS}


_FIT_TABLES = {house: fit_table(house) for house in _HOUSES.values()}


@cache
def fit_classes(house: House, top: Rank | None) -> frozenset[int]:
    """The belief classes (:data:`.beliefs.CLASS`) that fit a pile of rank ``top``: a class is a rank, so
    this is :func:`fit_table` in the beliefs' terms."""
    return frozenset(beliefs.CLASS[r] for r in fit_table(house)[top])


@dataclass(frozen=True, slots=True)
class ShitheadMove(Move):
    """A Shithead move. A play: ``source`` ("hand" or "up"), ``rank`` (a :class:`~cardlab.cards.Rank` value)
    and ``count`` (how many cards of it). A blind play: ``index``, the face-down card's place (0-based). A
    set-up move: ``card``, the face put face up: always the first pack's card of that face
    (:func:`~cardlab.cards.face_of`), never which copy the hand holds; with two packs the engine puts up
    the hand's first card of that face in hand order (the lowest pack held). A pick-up names nothing."""

    source: str = ""
    rank: int = 0
    count: int = 0
    index: int = 0
    card: Card | None = None


def shithead_move(move: Move) -> ShitheadMove:
    """``move`` as the Shithead move it is (every legal Shithead move is one)."""
    if not isinstance(move, ShitheadMove):
        raise TypeError(f"{move!r} is not a Shithead move")
    return move


def setup_card(move: Move) -> Card:
    """The card a set-up move puts face up."""
    card = shithead_move(move).card
    if card is None:
        raise TypeError(f"{move!r} names no card")
    return card


def _play_move_table(source: str) -> dict[Rank, list[ShitheadMove]]:
    """Every play move of one source, built once: ``table[rank][k - 1]`` plays k cards of ``rank``."""
    prefix = "play " if source == "hand" else "play face-up "
    return {r: [ShitheadMove(prefix + r.label + ("" if k == 1 else f" x{k}"), "play", source=source, rank=int(r),
                             count=k)
                for k in range(1, MAX_OF_A_RANK + 1)] for r in Rank}


_PLAY_MOVES = {"hand": _play_move_table("hand"), "up": _play_move_table("up")}
_BLIND_MOVES = [ShitheadMove(f"play face-down card {i + 1}", "blind", index=i) for i in range(FACE_DOWN)]
PICK_UP = ShitheadMove("pick up", "pickup")
_SETUP_MOVES = {c: ShitheadMove(f"face up {c}", "setup", card=c) for c in full_deck(1)}  # faces only


def power(card: Card) -> int:
    """A card's height: 3→3 … 10→10, J 11, Q 12, K 13, A 14; a 2 gives 2 but is special (it resets)."""
    return POWER[card.rank]


def rank_power(rank: Rank) -> int:
    return POWER[rank]


def sort_key(card: Card) -> tuple[int, int, int]:
    """Hands are kept sorted by power, then suit and pack, so every view lists them the same way."""
    return _SORT_KEY[card]


def _count_text(word: str) -> bool:
    """A count of cards as a player types it: one or two ASCII digits ('²' is a digit to str.isdigit)."""
    return 0 < len(word) <= 2 and word.isascii() and word.isdigit()


def _rank_of(word: str) -> Rank | None:
    return _RANK_WORDS.get(word)


@dataclass
class ShitheadState(PlayState):
    hands: list[list[Card]]
    face_up: list[list[Card]]
    face_down: list[list[Card | None]]   # positions 1-3; None once played
    known: list[list[Card]]              # cards of each hand that everybody has seen (picked up)
    draw: list[Card]                     # top of the draw pile is the last element
    pile: list[Card]                     # top of the discard pile is the last element
    out: list[Card]                      # burned and cleared cards, out of play
    to_move: int
    phase: str                           # "setup" or "play" (also kept once the game is over)
    turn: int
    ranking: list[int]                   # seats in the order they went out
    blind_plays: int
    blind_fits: int
    pickups: int
    burns: int
    clears: int
    stopped: bool                        # ended by the safety rule
    shuffles: int
    over: bool
    winner: int | None
    beliefs: Beliefs  # per seat, what its play told everyone else (.beliefs), computed when first asked (.lazy)
    lows: list[int] = field(default_factory=list)
    """With ``first="lowest3"``, once play has started: per seat, the lowest ordinary class its hand held
    then (:func:`.beliefs.lowest`; 11 for none). Only its owner knows it: the chance law reads the
    viewer's own entry (and who started, the public smallest ``(low, seat)``), never another's. Empty
    otherwise, and in records written before it existed."""

    @classmethod
    def from_data(cls, data: Any, description: Mapping[str, Spec] | None = None, ctx: Any = None) -> Self:
        """A record state; one written before ``lows`` existed reads as ``lows=[]``."""
        if isinstance(data, dict) and "lows" not in data:
            data = {**data, "lows": []}
        return super().from_data(data, description, ctx)

    def __post_init__(self) -> None:
        """A state built with a plain tuple of beliefs holds them as a :class:`~.lazy.Beliefs`."""
        if not isinstance(self.beliefs, Beliefs):
            self.beliefs = Beliefs(self.beliefs)

    def to_data(self) -> dict[str, Any]:
        """The record of the position; its beliefs are written as values (computed now if nothing has
        asked for them yet), as a record's reader does not replay the history before its position."""
        data = super().to_data()
        data["beliefs"] = encode(self.beliefs.value)
        return data


class _BeliefsSpec(Spec):
    """Per seat, the belief about that hand's unseen cards that its play gave every other viewer
    (:mod:`.beliefs`: it depends on public information only, so all viewers share it):
    ``[[[state, weight], ...] per seat]``, ``[]`` for a hand about which nothing is known. Read as the value of
    a :class:`~.lazy.Beliefs` (immutable: a state's copy shares it; the moves after the record's position are
    read into it lazily); the sizes are checked against the hands by the game
    (``_validate_beliefs``). A record of an earlier version, which kept a list per viewer and had written
    only empty ones for a fresh deal, reads as nothing known."""

    def read(self, value: Any, path: str, ctx: Any) -> Beliefs:
        n = ctx.players
        if isinstance(value, list) and len(value) == n + 1 and not any(value):
            return Beliefs(((),) * n)
        if not isinstance(value, list) or len(value) != n:
            raise self.fail(path, value, f"a list of {n} hands' beliefs, each [] or [[state, weight], ...]")
        out = []
        for p, b in enumerate(value):
            if not isinstance(b, list) or any(not isinstance(x, list) or len(x) != 2 or not isinstance(x[0], list)
                                              for x in b):
                raise self.fail(f"{path}[{p}]", b, "[] or a list of [state, weight] pairs")
            out.append(tuple((tuple(st), w) for st, w in b))
        return Beliefs(out)


STATE_DESCRIPTION = {
    "hands": per_seat(cards()), "face_up": per_seat(ListOf(CardSpec(), 0, FACE_UP)),
    "face_down": per_seat(ListOf(Maybe(CardSpec()), length=FACE_DOWN)), "known": per_seat(cards()),
    "draw": cards(), "pile": cards(), "out": cards(), "to_move": Int(0, last_seat), "phase": Choice("setup", "play"),
    "turn": Int(0, lambda g: g.options["max_turns"]),
    "ranking": ListOf(Int(0, last_seat), 0, lambda g: g.players, unique=True),
    "blind_plays": counter(), "blind_fits": counter(), "pickups": counter(), "burns": counter(),
    "clears": counter(), "stopped": Bool(), "shuffles": counter(), "over": Bool(), "winner": Maybe(Int(0, last_seat)),
    "beliefs": _BeliefsSpec(), "lows": ListOf(Int(0, beliefs.ORDINARY), 0, lambda g: g.players),
}


@dataclass(frozen=True)
class ShitheadView:
    """What one seat (or the table, ``seat=None``) sees.

    ``hand`` is the seat's own hand (``None`` for the table). Other hands show only their size and the
    ``known`` cards everybody saw them pick up. Face-down cards are never shown: ``face_down`` lists the
    positions (1–3) still holding a card.
    """

    seat: int | None
    players: int
    to_move: int
    phase: str
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[tuple[int, ...], ...]
    pile: tuple[Card, ...]
    draw_size: int
    out: tuple[Card, ...]
    ranking: tuple[int, ...]
    turn: int
    four_kind_plays_again: bool
    over: bool
    winner: int | None
    house: House = House()
    """The house rules in force (:class:`House`)."""

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def pile_rank(self) -> Rank | None:
        """The rank the next card must fit (:meth:`House.pile_rank`)."""
        return self.house.pile_rank(self.pile)

    @property
    def face_down_counts(self) -> tuple[int, ...]:
        return tuple(len(f) for f in self.face_down)

    @property
    def out_count(self) -> int:
        return len(self.out)


def _class_counts(cards: list[Card]) -> beliefs.State:
    """How many of ``cards`` lie in each class (:mod:`.beliefs`)."""
    out = [0] * beliefs.CLASSES
    for c in cards:
        out[beliefs.CLASS[c.rank]] += 1
    return tuple(out)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _turns_ok(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool) and bool(1 <= v <= MAX_TURNS_LIMIT)


class Shithead(Game[ShitheadState]):
    name = "shithead"
    title = "Shithead"
    aliases = ("palace",)
    drawer = "cardlab.games.shithead.table:draw"
    min_players = 2
    max_players = 5
    default_players = 2
    state_class = ShitheadState
    state_description = STATE_DESCRIPTION
    option_specs = {
        "four_kind_plays_again": Option(False, _bool, "True or False",
                                        "four of a rank in a row: False = the next player plays anything; "
                                        "True = the same player plays again (pagat)"),
        "play_to_last": Option(False, _bool, "True or False",
                               "play on after the first player is out, to rank everyone; the last is the shithead"),
        "first": Option("seat0", lambda v: v in ("seat0", "lowest3"),
                        "'seat0' (default) or 'lowest3' (holder of the lowest card in hand, pagat)",
                        "who plays first", ("seat0", "lowest3")),
        "max_turns": Option(DEFAULT_MAX_TURNS, _turns_ok, f"a whole number of turns from 1 to {MAX_TURNS_LIMIT:,}",
                            "safety rule: the game is declared drawn after this many turns"),
        "seven_lower": Option(False, _bool, "True or False",
                              "house rule (pagat): after a 7 the next card is a 7 or lower, or one that goes on "
                              "anything"),
        "invisible_three": Option(False, _bool, "True or False",
                                  "house rule (pagat): a 3 goes on anything and takes the rank of the card under it"),
        "eight_skips": Option(False, _bool, "True or False",
                              "house rule (pagat): a play of 8s makes the next player miss a turn"),
    }

    # ------------------------------------------------------------------ set-up
    @property
    def packs(self) -> int:
        return 1 if self.players == 2 else 2

    def _deal(self, rng: SplitMix64, deck: list[str | Card] | None) -> ShitheadState:
        cards = stack_deck(deck, self.packs, rng) if deck is not None else shuffled_deck(self.packs, rng)
        n = self.players
        down: list[list[Card | None]] = [[c for c in cards[FACE_DOWN * p:FACE_DOWN * (p + 1)]] for p in range(n)]
        base = FACE_DOWN * n
        hands = [sorted(cards[base + HAND_DEAL * p:base + HAND_DEAL * (p + 1)], key=sort_key) for p in range(n)]
        draw = cards[base + HAND_DEAL * n:][::-1]
        return ShitheadState(
            hands=hands, face_up=[[] for _ in range(n)], face_down=down, known=[[] for _ in range(n)],
            draw=draw, pile=[], out=[], to_move=0, phase="setup", turn=0, ranking=[], blind_plays=0,
            blind_fits=0, pickups=0, burns=0, clears=0, stopped=False, shuffles=0, over=False, winner=None,
            beliefs=Beliefs(((),) * n), lows=[])

    def zones(self) -> dict[str, list[Card]]:
        s = self._state
        z: dict[str, list[Card]] = {}
        for p in range(self.players):
            z[f"hand {p}"] = list(s.hands[p])
            z[f"face-up {p}"] = list(s.face_up[p])
            z[f"face-down {p}"] = [c for c in s.face_down[p] if c is not None]
        z.update(draw=list(s.draw), pile=list(s.pile), out=list(s.out))
        return z

    def _validate_state(self) -> None:
        s = self._state
        n = self.players
        if not (len(s.hands) == len(s.face_up) == len(s.face_down) == len(s.known) == n):
            raise CorruptRecordError(f"record fields initial.hands, face_up, face_down and known do not match "
                                     f"{n} players")
        if s.phase not in ("setup", "play") or not 0 <= s.to_move < n:
            raise CorruptRecordError(f"record field initial.to_move: seat {s.to_move} to move in phase {s.phase!r}")
        for p in range(n):
            if len(s.face_down[p]) != FACE_DOWN or len(s.face_up[p]) > FACE_UP:
                raise CorruptRecordError(f"record field initial.face_up[{p}] or face_down[{p}] is malformed")
            if Counter(s.known[p]) - Counter(s.hands[p]):
                raise CorruptRecordError(f"record field initial.known[{p}] holds cards that are not in the hand "
                                         "(or one card twice)")
        if len(set(s.ranking)) != len(s.ranking) or any(not 0 <= r < n for r in s.ranking):
            raise CorruptRecordError(f"record field initial.ranking {s.ranking} is malformed")
        self._validate_hands()
        self._validate_pile()
        self._validate_beliefs()
        self._validate_progress()

    def _validate_hands(self) -> None:
        """Hand sizes the rules can reach. In the set-up each seat holds the six dealt cards, less the ones
        it has put face up. In the play a hand takes unseen cards only by drawing back up to three, and cards
        picked up (from the pile or a blind turn) are known to everyone, so no hand ever holds more than three
        cards that only its owner has seen: the beliefs about a hand (:mod:`.beliefs`) never weigh more
        states than three cards have."""
        s = self._state
        for p in range(self.players):
            if s.phase == "setup" and len(s.hands[p]) + len(s.face_up[p]) != HAND_DEAL:
                raise CorruptRecordError(
                    f"record field initial.hands[{p}] holds {len(s.hands[p])} card(s) in the set-up; the six dealt "
                    f"cards less the {len(s.face_up[p])} face-up one(s) make {HAND_DEAL - len(s.face_up[p])}")
            unseen = len(s.hands[p]) - len(s.known[p])
            if s.phase == "play" and unseen > REFILL:
                raise CorruptRecordError(
                    f"record field initial.hands[{p}] holds {unseen} cards that are not in initial.known[{p}]; "
                    f"in the play a hand holds at most {REFILL} unseen cards (it draws up to {REFILL}, and cards "
                    "it picks up are known)")

    def _validate_pile(self) -> None:
        """A pile the rules can leave: each card fitted the pile below it (:meth:`House.fits`), no 10 (it burns
        the pile at once) and no run of four of a rank (it clears the pile)."""
        pile = self._state.pile
        house = self.house
        for i, card in enumerate(pile):
            where = f"record field initial.pile[{i}] is {card.code}"
            if burns(card.rank):
                raise CorruptRecordError(f"{where}: a {card.rank.label} burns the pile at once and never stays on it")
            run = next((k for k, c in enumerate(reversed(pile[:i + 1])) if c.rank != card.rank), i + 1)
            if clears(run):
                raise CorruptRecordError(f"{where}: {run} cards of rank {card.rank.label} in a row clear "
                                         "the pile and never stay on it")
            if i and not house.fits(card.rank, house.pile_rank(pile[:i])):
                raise CorruptRecordError(f"{where}, which cannot have been played on the {pile[i - 1].code} "
                                         "below it")

    def _validate_beliefs(self) -> None:
        """Each hand's belief is about exactly that hand's unseen cards, in the form :func:`.beliefs.check`
        accepts; it is ``[]`` where play cannot have taught anything (the set-up, a hand with no unseen card);
        and it allows the hand's real cards, as a belief built from the hand's own play always does (a belief
        that rules them out would fail at the hand's next legal play)."""
        s = self._state
        for p, b in enumerate(s.beliefs):
            try:
                belief = beliefs.check(b, len(s.hands[p]) - len(s.known[p]))
            except CorruptRecordError as exc:
                raise CorruptRecordError(f"record field initial.beliefs[{p}]: {exc}") from exc
            if not belief:
                continue
            if s.phase == "setup" or (not self._unseen_hand(p) and not beliefs.tagged(belief)):
                raise CorruptRecordError(
                    f"record field initial.beliefs[{p}] is not []: play teaches nothing about a hand "
                    "in the set-up, or about a hand with no unseen card (but who started, with first='lowest3')")
            real = [0] * beliefs.CLASSES
            for c in self._unseen_hand(p):
                real[beliefs.CLASS[c.rank]] += 1
            if tuple(real) not in {state[:beliefs.CLASSES] for state, _ in belief}:
                raise CorruptRecordError(
                    f"record field initial.beliefs[{p}] gives no weight to the hand's real cards (class counts "
                    f"{real}): every viewer's belief must allow what the hand holds")
        tagged = [beliefs.tagged(b) for b in s.beliefs]
        if s.lows and (len(s.lows) != self.players or s.phase != "play" or self.options["first"] != "lowest3"):
            raise CorruptRecordError(f"record field initial.lows is {shown(s.lows)}: expected [] or, once play "
                                     f"has started with first='lowest3', one class per seat ({self.players})")
        if any(tagged) and (not all(tagged) or not s.lows):
            raise CorruptRecordError("record field initial.beliefs: starter-tagged beliefs need every seat's "
                                     "belief tagged and initial.lows given")

    def _validate_progress(self) -> None:
        """The phase, the finishing order and the end of the game agree with the cards (a record that
        lists every seat as finished, or a set-up that cannot finish, would hang or crash the rules)."""
        s = self._state
        n = self.players
        bad = CorruptRecordError
        if s.winner is not None and (not s.ranking or s.ranking[0] != s.winner):
            raise bad(f"record field initial.winner is {s.winner}, but the finishing order is {s.ranking}")
        if s.ranking and s.winner is None:
            raise bad(f"record field initial.winner is null, but seat {s.ranking[0]} went out first")
        for p in s.ranking[:-1] if (s.over and len(s.ranking) == n) else s.ranking:
            if self.cards_left(p):
                raise bad(f"record field initial.ranking lists seat {p}, which still has cards")
        if s.phase == "setup":
            if s.over or s.turn or s.ranking or s.pile or s.out or any(s.known) or not s.draw:
                raise bad("record field initial.phase is 'setup', but the play has begun (turn, pile, out, known "
                          "cards, finishing order or end) or there is no starting card in the draw pile")
            for p in range(n):
                want = FACE_UP if p < s.to_move else 0 if p > s.to_move else len(s.face_up[p])
                if len(s.face_up[p]) != want or len(s.face_up[p]) + len(s.hands[p]) < FACE_UP \
                        or None in s.face_down[p]:
                    raise bad(f"record field initial.face_up[{p}] does not fit a set-up with seat {s.to_move} "
                              "choosing")
            return
        if s.over:
            return
        if s.stopped or s.turn >= self.options["max_turns"]:
            raise bad("record field initial.over is false, but the safety rule has already stopped the game")
        limit = n - 2 if self.options["play_to_last"] else 0
        if len(s.ranking) > limit:
            raise bad(f"record field initial.ranking lists {len(s.ranking)} finished seat(s), but the game "
                      f"goes on with at most {limit} finished")
        for p in range(n):
            if p not in s.ranking and not self.cards_left(p):
                raise bad(f"record field initial: seat {p} has no cards left but is not in the finishing order")
        if s.to_move in s.ranking:
            raise bad(f"record field initial.to_move is seat {s.to_move}, which has already finished")

    # ------------------------------------------------------------------ rule helpers
    @property
    def top(self) -> Card | None:
        pile = self._state.pile
        return pile[-1] if pile else None

    _house_memo: tuple[dict[str, Any], House] | None = None

    @property
    def house(self) -> House:
        """The house rules in force (:class:`House`), worked out once per options dict (every fit test asks)."""
        memo = self._house_memo
        if memo is None or memo[0] is not self.options:
            memo = self._house_memo = (self.options, House.of(self.options))
        return memo[1]

    def fitting_ranks(self) -> frozenset[Rank]:
        """The ranks that could go on the pile now (:func:`fit_table` for the pile's rank)."""
        house = self.house
        return _FIT_TABLES[house][house.pile_rank(self._state.pile)]

    @property
    def pile_rank(self) -> Rank | None:
        """The rank the next card must fit (:meth:`House.pile_rank`): the top's, but for an invisible 3."""
        return self.house.pile_rank(self._state.pile)

    def rank_fits(self, rank: Rank) -> bool:
        """Could a card of ``rank`` go on the pile? :func:`fit_table` for the pile's rank."""
        return rank in self.fitting_ranks()

    def fit_classes(self) -> frozenset[int]:
        """The belief classes (:mod:`.beliefs`) that fit the pile now (:func:`fit_classes`)."""
        house = self.house
        return fit_classes(house, house.pile_rank(self._state.pile))

    def what_fits(self) -> str:
        """The fit rule for the pile now, in words: "a card of rank 8 or higher, a 2 or a 10"."""
        house = self.house
        top = house.pile_rank(self._state.pile)
        if top is None or top == Rank.TWO:
            return "any card"
        wild = " or ".join(("a " + r.label) for r in Rank if house.goes_on_anything(r))
        way = "or lower" if house.seven_lower and top == Rank.SEVEN else "or higher"
        under = " (the rank under the invisible 3s)" if self.top is not None and self.top.rank != top else ""
        return f"a card of rank {top.label}{under} {way}, {wild}"

    def fits(self, card: Card) -> bool:
        """Could ``card`` be played on the current pile?"""
        return self.rank_fits(card.rank)

    def run_length(self) -> int:
        """How many cards of the top card's rank lie in a row on top of the pile."""
        pile = self._state.pile
        if not pile:
            return 0
        rank = pile[-1].rank
        k = 0
        for c in reversed(pile):
            if c.rank != rank:
                break
            k += 1
        return k

    def source(self, seat: int) -> str | None:
        """Where ``seat`` plays from now: ``"hand"``, ``"up"``, ``"down"``, or None when out of cards."""
        s = self._state
        if s.hands[seat]:
            return "hand"
        if s.face_up[seat]:
            return "up"
        if any(c is not None for c in s.face_down[seat]):
            return "down"
        return None

    def cards_left(self, seat: int) -> int:
        s = self._state
        return len(s.hands[seat]) + len(s.face_up[seat]) + sum(c is not None for c in s.face_down[seat])

    def unseen_cards(self, viewpoint: int | None) -> list[Card]:
        """Cards whose place ``viewpoint`` does not know, by face: every face-down card, the draw pile,
        and the part of each other hand (every hand, for the table) that was not seen being picked up."""
        return sorted(self.chance_law(viewpoint).faces(), key=sort_key)

    def _hidden_places(self, viewpoint: int | None) -> list[tuple[str, int, Card]]:
        """Every place ``viewpoint`` cannot see, in a fixed public order: (zone, seat or -1, card there).

        Face-down cards by seat and position, the draw pile from the bottom up, then the cards of each
        other hand that nobody saw picked up (the pairing of a hand's cards with its places is arbitrary).
        """
        s = self._state
        places = [("down", p, c) for p in range(self.players) for c in s.face_down[p] if c is not None]
        places += [("draw", -1, c) for c in s.draw]
        for p in range(self.players):
            if p != viewpoint:
                places += [("hand", p, c) for c in self._unseen_hand(p)]
        return places

    def chance_law(self, viewpoint: int | None = None) -> HandsLaw:
        """The law of the hidden cards as ``viewpoint`` knows the game: the unseen cards on the hidden
        places (face-down cards, the draw pile, the unseen part of other hands).

        Each other hand is read through its play (:mod:`.beliefs`): the belief weighs how many of its
        unseen cards lie in each class (ordinary ranks by power, then 2, then 10), by Bayes' rule under the
        model that a player plays a uniformly random card among those that fit and picks up only when
        nothing fits. Given those counts, the cards are uniform: the law is a
        :class:`~cardlab.chance.hands_law.HandsLaw`, whose hidden hands are the hands its play has told
        something about (a hand about which nothing is known yet, at the deal say, is exactly like free
        places: its cards are any of the unseen ones). Exact answers need at most two such hands. The
        pool is listed by class, then in the canonical order, so the law depends on what the viewer
        knows alone.

        With ``first="lowest3"`` who started is evidence about every hand as play started: the beliefs are
        then tagged with the starter's lowest class and the law is a mixture over it (:mod:`.beliefs`,
        *Who starts*), each tag weighed by what the viewer alone knows of it (its own hand's lowest class
        then, ``state.lows[viewpoint]``; a hand with no unseen card left, by its belief's weight per tag).

        Modelling assumption: the players choose like that model (the ``uninformed`` player does); a
        player who chooses with its cards in mind (the greedy bot plays its lowest fitting rank and saves
        its 2s and 10s) tells more than the law reads.
        """
        self.check_seat(viewpoint, "chance_law")
        places = self._hidden_places(viewpoint)
        memo = getattr(self, "_law_memo", None)  # the panel asks several questions of one position
        if memo is not None and memo[0] == viewpoint and memo[1] is self._state.beliefs and memo[2] == places:
            return memo[3]  # type: ignore[no-any-return]
        names = tuple(f"{zone} {seat}" if seat >= 0 else zone for zone, seat, _ in places)
        order = sorted(range(len(places)), key=lambda q: _LAW_KEY[places[q][2]])
        cards = tuple(places[q][2] for q in order)
        hands: list[tuple[int, ...]] = []
        held: list[beliefs.Belief] = []
        s = self._state
        tags = [1] * (beliefs.ORDINARY + 1) if s.beliefs and beliefs.tagged(s.beliefs[0]) else []
        for p in range(self.players):
            mine = tuple(q for q, (zone, seat, _) in enumerate(places) if zone == "hand" and seat == p)
            if mine and s.beliefs[p]:  # a hand about which nothing is known is like free places
                hands.append(mine)
                held.append(s.beliefs[p])
            elif tags and p != viewpoint:  # no unseen card left: its weight per tag still weighs the tags
                per_tag = {st[-1]: w for st, w in s.beliefs[p]}
                tags = [t * per_tag.get(m, 0) for m, t in enumerate(tags)]
        if tags and viewpoint is not None:  # the viewer knows its own hand's lowest class at the start
            starter = min(range(self.players), key=lambda p: (s.lows[p], p))
            tags = [t if beliefs.start_factor(s.lows[viewpoint], viewpoint, starter, m) else 0
                    for m, t in enumerate(tags)]
        law = HandsLaw(names, cards, tuple(beliefs.CLASS[c.rank] for c in cards), beliefs.CLASSES, tuple(hands),
                       tuple(held), tuple(tags))
        self._law_memo = (viewpoint, self._state.beliefs, places, law)
        return law

    # ------------------------------------------------------------------ moves
    def _legal_moves(self) -> list[Move]:
        s = self._state
        seat = s.to_move
        if s.phase == "setup":
            seen: set[tuple[Rank, Any]] = set()
            moves: list[Move] = []
            for c in s.hands[seat]:
                if c.face not in seen:
                    seen.add(c.face)
                    moves.append(_SETUP_MOVES[face_of(c)])
            return moves
        src = self.source(seat)
        if src is None:  # only a finished player has no cards, and a finished player never moves
            return []
        if src == "down":
            return [_BLIND_MOVES[i] for i, c in enumerate(s.face_down[seat]) if c is not None]
        cards = s.hands[seat] if src == "hand" else s.face_up[seat]
        counts: dict[Rank, int] = {}
        for c in cards:
            counts[c.rank] = counts.get(c.rank, 0) + 1
        table = _PLAY_MOVES[src]
        fitting = self.fitting_ranks()
        moves = []
        for rank, n in counts.items():
            if rank in fitting:
                moves.extend(table[rank][:n])
        if not moves:
            moves.append(PICK_UP)
        return moves

    def _move_aliases(self, move: Move) -> set[str]:
        move = shithead_move(move)
        if move.kind == "setup":
            c = setup_card(move)
            faces = {str(c).lower(), f"{c.rank.label}{c.suit.letter}".lower()}
            if c.rank == Rank.TEN:
                faces.add(f"t{c.suit.letter}".lower())
            return {f"{verb} {f}" for f in faces for verb in ("face up", "face-up", "faceup", "up")}
        if move.kind == "pickup":
            return {"pickup", "pick up pile", "pick up the pile", "take pile", "take the pile"}
        if move.kind == "blind":
            k = move.index + 1
            return {f"play face down card {k}", f"play face-down {k}", f"play face down {k}", f"blind {k}",
                    f"play blind {k}", f"play facedown {k}"}
        src, rank_value, count = move.source, move.rank, move.count
        labels = [Rank(rank_value).label.lower()] + (["t"] if rank_value == int(Rank.TEN) else [])
        prefixes = ["play "] if src == "hand" else ["play face-up ", "play face up ", "play faceup ", "play up "]
        out: set[str] = set()
        for pre in prefixes:
            for lab in labels:
                out.update({f"{pre}{lab} x{count}", f"{pre}{lab}x{count}", pre + " ".join([lab] * count)})
        return out

    def _explain_illegal(self, text: str) -> str | None:
        s = self._state
        seat = s.to_move
        words = text.replace(",", " ").split()
        if s.phase == "setup":
            if words[:2] in (["face", "up"], ["face-up"]) or words[:1] == ["up"]:
                face = words[-1] if len(words) >= 2 else ""
                try:
                    card = Card.parse(face)
                except InvalidCardError as exc:
                    return f"{face!r} is not a card: {exc}"
                if ":" in face and any(c.face == card.face for c in s.hands[seat]):
                    return f"a move names a face, not a pack: write 'face up {card}'"
                held = ", ".join(str(c) for c in s.hands[seat])
                return f"seat {seat} holds no {card} in hand; its hand is {held}"
            return (f"the set-up is not finished: seat {seat} chooses {FACE_UP - len(s.face_up[seat])} more "
                    f"face-up card(s), one per move, e.g. {self._legal_moves()[0].text!r}")
        if words[:2] == ["face", "up"] or words[:1] == ["face-up"]:
            return "face-up cards are chosen only in the set-up, which is over; play with 'play ...'"
        legal = self._legal_moves()
        if words[:1] in (["pick"], ["pickup"], ["take"]):
            return f"seat {seat} can play ({legal[0].text!r}); a player who can play must play"
        if words[:1] != ["play"] and words[:1] != ["blind"]:
            return None
        src = self.source(seat)
        rest = words[1:]
        if rest[:1] in (["face-down"], ["facedown"], ["blind"]) or rest[:2] == ["face", "down"] or words[0] == "blind":
            return self._explain_blind(seat, src, rest)
        wanted = "hand"
        if rest[:1] in (["face-up"], ["faceup"], ["up"]):
            wanted, rest = "up", rest[1:]
        elif rest[:2] == ["face", "up"]:
            wanted, rest = "up", rest[2:]
        return self._explain_play(seat, src, wanted, rest, legal)

    def _explain_blind(self, seat: int, src: str | None, rest: list[str]) -> str:
        s = self._state
        if src == "hand":
            return (f"seat {seat} still holds {len(s.hands[seat])} card(s) in hand; face-down cards are played "
                    "only when the hand and the face-up cards are gone")
        if src == "up":
            return (f"seat {seat} still has {len(s.face_up[seat])} face-up card(s); face-down cards are played "
                    "only when those are gone")
        left = ", ".join(str(i + 1) for i, c in enumerate(s.face_down[seat]) if c is not None)
        return f"{' '.join(rest)!r} names no face-down card of seat {seat}; positions still there: {left}"

    def _explain_play(self, seat: int, src: str | None, wanted: str, rest: list[str], legal: list[Move]) -> str:
        s = self._state
        ranks: list[Rank] = []
        count: int | None = None
        for w in rest:
            if w in ("and", "&", "+"):
                continue
            if w.startswith("x") and _count_text(w[1:]):
                count = int(w[1:])
                continue
            head, sep, tail = w.partition("x")
            rank = _rank_of(head) if not sep else (_rank_of(head) if _count_text(tail) else None)
            if rank is None:
                return (f"{w!r} is not a rank; ranks are 2-10, J, Q, K, A (suits do not matter), "
                        "e.g. 'play 7' or 'play 7 x2'")
            if sep:
                count = int(tail)
            ranks.append(rank)
        distinct = sorted(set(ranks), key=rank_power)
        if len(distinct) > 1:
            names = " and ".join(r.label for r in distinct)
            return f"one play holds cards of a single rank only; got {names}"
        if src == "down":
            return (f"seat {seat} has no hand and no face-up cards left; play a face-down card blind, "
                    f"e.g. {legal[0].text!r}")
        if wanted == "up" and src == "hand":
            return (f"seat {seat} still holds {len(s.hands[seat])} card(s) in hand; face-up cards are played only "
                    "once the hand is empty (cards picked up must be played first)")
        if wanted == "hand" and src == "up":
            return f"seat {seat} has no cards in hand; play from the face-up cards, e.g. 'play face-up ...'"
        if not distinct:
            return "name the rank to play, e.g. 'play 7' or 'play 7 x2'"
        rank = distinct[0]
        n = max(count if count is not None else 0, len(ranks))
        pool = s.hands[seat] if wanted == "hand" else s.face_up[seat]
        where = "in hand" if wanted == "hand" else "face up"
        held = sum(c.rank == rank for c in pool)
        if held == 0:
            return f"seat {seat} has no {rank.label} {where}"
        if n > held:
            return f"seat {seat} has only {held} card(s) of rank {rank.label} {where}, not {n}"
        if n < 1:
            return f"a play holds at least one card, not {n}"
        top = self.top
        if not self.rank_fits(rank) and top is not None:
            if legal[0].kind == "pickup":
                return (f"{rank.label} does not go on the {top} on top of the pile, and seat {seat} has no card "
                        "that does: it must pick up the pile ('pick up')")
            return f"{rank.label} does not go on the {top} on top of the pile; play {self.what_fits()}"
        return f"no such play; legal moves: {', '.join(m.text for m in legal[:12])}"

    # ------------------------------------------------------------------ applying moves
    def _apply(self, move: Move) -> Iterator[None]:
        move = shithead_move(move)
        if move.kind == "setup":
            yield from self._place_face_up(setup_card(move))
        elif move.kind == "play":
            yield from self._play_cards(move.source, Rank(move.rank), move.count)
        elif move.kind == "blind":
            yield from self._play_blind(move.index)
        else:
            yield from self._pick_up()

    def _place_face_up(self, face: Card) -> Iterator[None]:
        """Put up the hand's first card (in hand order) of ``face``, as the set-up move names a face only."""
        s = self._state
        seat = s.to_move
        card = next(c for c in s.hands[seat] if c.face == face.face)
        s.hands[seat].remove(card)
        s.face_up[seat].append(card)
        s.face_up[seat].sort(key=sort_key)
        self._log("face-up", f"seat {seat} puts {card} face up", seat, card=card)
        yield
        if len(s.face_up[seat]) < FACE_UP:
            return
        if seat + 1 < self.players:
            s.to_move = seat + 1
            return
        yield from self._start_play()

    def first_player(self) -> int:
        """Seat 0, or with ``first="lowest3"`` the holder of the lowest card in hand that counts as low
        (:func:`.ranks.counts_low`), the lowest seat on a tie."""
        if self.options["first"] == "seat0":
            return 0
        best: tuple[int, int] | None = None
        for p, hand in enumerate(self._state.hands):
            for c in hand:
                if counts_low(c.rank) and (best is None or (power(c), p) < best):
                    best = (power(c), p)
        return 0 if best is None else best[1]

    def _start_play(self) -> Iterator[None]:
        s = self._state
        s.phase = "play"
        first = self.first_player()
        s.to_move = first
        if self.options["first"] == "lowest3":  # who starts tells about every hand (.beliefs: Who starts)
            s.lows = [beliefs.lowest(_class_counts(h)) for h in s.hands]
            s.beliefs = s.beliefs.then(started([len(h) - len(k) for h, k in zip(s.hands, s.known, strict=True)], first))
        card = s.draw.pop()
        s.pile.append(card)
        self._log("start", f"seat {first} turns {card} from the draw pile as the starting card", first, card=card)
        yield
        if burns(card.rank):
            self._burn(first, f"the starting {card.rank.label} burns at once; seat {first} plays anything")
            yield
        self._log("turn", f"seat {first} to play", first)
        yield

    def _take(self, cards: list[Card], known: list[Card] | None, rank: Rank, count: int) -> list[Card]:
        """Remove ``count`` cards of ``rank`` from ``cards``: publicly known ones first, then the rest.

        From a hand (``known`` given), the cards nobody else has seen are chosen uniformly at random, from
        a generator keyed by the game's shuffle key and the move number (records replay exactly): a
        fixed order (say by suit) would tell the table which suits the hand does *not* hold. Face-up
        cards are all public, so there the sorted order reveals nothing.
        """
        chosen: list[Card] = []
        if known:
            for c in known:
                if c.rank == rank and len(chosen) < count:
                    chosen.append(c)
            for c in chosen:
                known.remove(c)
        rest = [c for c in cards if c.rank == rank and c not in chosen]
        need = count - len(chosen)
        if known is not None and len(rest) > need:
            rest = [rest[i] for i in sorted(self._choice_rng().permute(len(rest))[:need])]
        chosen += rest[:need]
        for c in chosen:
            cards.remove(c)
        return chosen

    def _play_cards(self, src: str, rank: Rank, count: int) -> Iterator[None]:
        s = self._state
        seat = s.to_move
        if src == "hand":
            known = s.known[seat]
            t = self.fit_classes()
            fit = sum(1 for c in known if beliefs.CLASS[c.rank] in t)
            same = sum(1 for c in known if c.rank == rank)
            unseen = len(s.hands[seat]) - len(known)
            cards = self._take(s.hands[seat], s.known[seat], rank, count)
            self._learn(seat, lambda b: beliefs.play(b, unseen, t, fit, same, beliefs.CLASS[rank],
                                                     count - min(same, count)))
            where = ""
        else:
            cards = self._take(s.face_up[seat], None, rank, count)
            where = " from the face-up cards"
        s.pile.extend(cards)
        shown = ", ".join(str(c) for c in cards)
        self._log("play", f"seat {seat} plays {shown}{where}", seat, cards=cards, source=src)
        yield
        yield from self._after_play(seat, rank)

    def _play_blind(self, index: int) -> Iterator[None]:
        s = self._state
        seat = s.to_move
        card = s.face_down[seat][index]
        assert card is not None
        s.face_down[seat][index] = None
        s.blind_plays += 1
        head = f"seat {seat} turns {card} from face-down {index + 1}"
        if self.fits(card):
            s.blind_fits += 1
            s.pile.append(card)
            self._log("blind", f"{head}: it fits", seat, card=card, position=index + 1, fits=True)
            yield
            yield from self._after_play(seat, card.rank)
            return
        taken = s.pile + [card]
        s.pile = []
        self._add_to_hand(seat, taken)
        s.pickups += 1
        self._log("blind", f"{head}: it does not fit, seat {seat} picks up the pile with it ({len(taken)} cards)",
                  seat, card=card, position=index + 1, fits=False, cards=taken)
        yield
        yield from self._end_turn(seat)

    def _pick_up(self) -> Iterator[None]:
        s = self._state
        seat = s.to_move
        self._learn_pick_up(seat)
        taken = s.pile
        s.pile = []
        self._add_to_hand(seat, taken)
        s.pickups += 1
        self._log("pickup", f"seat {seat} cannot play and picks up the pile ({len(taken)} cards)", seat,
                  cards=taken)
        yield
        yield from self._end_turn(seat)

    # ------------------------------------------------------------------ what play teaches (see .beliefs)
    def _unseen_hand(self, p: int) -> list[Card]:
        """The cards of hand ``p`` that only its owner has seen (the hand less its ``known`` cards), in order."""
        s = self._state
        known = list(s.known[p])
        out = []
        for c in s.hands[p]:
            if c in known:
                known.remove(c)
            else:
                out.append(c)
        return out

    def _learn(self, seat: int, update: Callable[[beliefs.Belief], beliefs.Belief]) -> None:
        """The belief about ``seat``'s hand, to be updated by ``update`` when a question first needs it
        (:mod:`.lazy`: ``update`` reads only public values taken now; a hand left with no unseen card is
        ``()`` again)."""
        s = self._state
        s.beliefs = s.beliefs.then_seat(seat, update)

    def _learn_pick_up(self, seat: int) -> None:
        """``seat`` must pick up: no unseen card of its hand fitted the top."""
        s = self._state
        unseen = len(s.hands[seat]) - len(s.known[seat])
        if unseen > 0:
            fitting = self.fit_classes()
            self._learn(seat, lambda b: beliefs.pick_up(b, unseen, fitting))

    def _add_to_hand(self, seat: int, cards: list[Card]) -> None:
        s = self._state
        s.hands[seat].extend(cards)
        s.hands[seat].sort(key=sort_key)
        s.known[seat].extend(cards)
        s.known[seat].sort(key=sort_key)

    def _burn(self, seat: int, why: str) -> None:
        s = self._state
        n = len(s.pile)
        s.out.extend(s.pile)
        s.pile = []
        self._log("burn", f"{why} ({n} cards out of play)", seat, count=n)

    def _after_play(self, seat: int, rank: Rank) -> Iterator[None]:
        s = self._state
        again = False
        run = self.run_length()
        if burns(rank):
            s.burns += 1
            self._burn(seat, f"the {rank.label} burns the pile; seat {seat} plays again")
            again = True
            yield
        elif clears(run):
            s.clears += 1
            again = bool(self.options["four_kind_plays_again"])
            who = f"seat {seat} plays again" if again else "the next player plays anything"
            self._burn(seat, f"{run} cards of rank {rank.label} in a row clear the pile; {who}")
            yield
        yield from self._refill(seat)
        skip = self.house.skips(rank)
        if self.cards_left(seat) == 0:
            yield from self._go_out(seat)
            if s.over:
                return
            yield from self._end_turn(seat, skip)
            return
        if again:
            return
        yield from self._end_turn(seat, skip)

    def _refill(self, seat: int) -> Iterator[None]:
        s = self._state
        need = min(REFILL - len(s.hands[seat]), len(s.draw))
        if need <= 0:
            return
        unseen = len(s.hands[seat]) - len(s.known[seat])
        self._learn(seat, lambda b: beliefs.draw(b, unseen, need))
        drawn = [s.draw.pop() for _ in range(need)]
        s.hands[seat].extend(drawn)
        s.hands[seat].sort(key=sort_key)
        left = f"{len(s.draw)} left" if s.draw else "the draw pile is now empty"
        self._log("draw", f"seat {seat} draws {need} card(s) ({left})", seat,
                  private=f"seat {seat} draws {', '.join(str(c) for c in drawn)} ({left})", private_to=seat,
                  count=need)
        yield

    def _go_out(self, seat: int) -> Iterator[None]:
        s = self._state
        s.ranking.append(seat)
        s.turn += 1
        if not self.options["play_to_last"]:
            s.over = True
            s.winner = seat
            self._log("win", f"seat {seat} is out of cards and wins", seat)
            yield
            return
        if s.winner is None:
            s.winner = seat
        place = len(s.ranking)
        self._log("out", f"seat {seat} is out of cards (place {place})", seat, place=place)
        yield
        left = [p for p in range(self.players) if p not in s.ranking]
        if len(left) == 1:
            s.ranking.append(left[0])
            s.over = True
            self._log("shithead", f"seat {left[0]} is the last with cards: the shithead", left[0])
            yield

    def _end_turn(self, seat: int, skip: bool = False) -> Iterator[None]:
        """Pass the move on. A player who just went out has had their turn counted already. With ``skip``
        (``eight_skips``) the next player in line misses the turn (not counted as a turn); with two
        players left in the game the same player plays again."""
        s = self._state
        if not s.ranking or s.ranking[-1] != seat:
            s.turn += 1
        if s.turn >= self.options["max_turns"]:
            s.over = True
            s.stopped = True
            self._log("stopped", f"safety rule: {s.turn} turns played, the game is declared drawn", None)
            yield
            return
        nxt = self._next_seat(seat)
        if skip:
            self._log("skip", f"seat {nxt} misses a turn (an 8 was played)", nxt)
            yield
            nxt = self._next_seat(nxt)
        s.to_move = nxt
        self._log("turn", f"seat {nxt} to play", nxt)
        yield

    def _next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` that has not finished."""
        nxt = (seat + 1) % self.players
        while nxt in self._state.ranking:
            nxt = (nxt + 1) % self.players
        return nxt

    # ------------------------------------------------------------------ views, resampling, figures
    def _observe(self, seat: int | None) -> ShitheadView:
        s = self._state
        return ShitheadView(
            seat=seat, players=self.players, to_move=s.to_move, phase=s.phase,
            hand=None if seat is None else tuple(faces(s.hands[seat])),
            hand_sizes=tuple(len(h) for h in s.hands), known=tuple(tuple(faces(k)) for k in s.known),
            face_up=tuple(tuple(faces(u)) for u in s.face_up),
            face_down=tuple(tuple(i + 1 for i, c in enumerate(d) if c is not None) for d in s.face_down),
            pile=tuple(faces(s.pile)), draw_size=len(s.draw), out=tuple(faces(s.out)), ranking=tuple(s.ranking),
            turn=s.turn,
            four_kind_plays_again=bool(self.options["four_kind_plays_again"]), over=s.over, winner=s.winner,
            house=self.house)

    def _resample_state(self, viewpoint: int | None, rng: np.random.Generator) -> ShitheadState:
        new = self._state.clone()
        places = self._hidden_places(viewpoint)
        cards = self.chance_law(viewpoint).sample(rng)
        down_at = [(p, i) for p in range(self.players) for i, c in enumerate(new.face_down[p]) if c is not None]
        k = 0
        for p, i in down_at:
            new.face_down[p][i] = cards[k]
            k += 1
        new.draw = cards[k:k + len(new.draw)]
        k += len(new.draw)
        for p in range(self.players):
            if p != viewpoint:
                size = sum(1 for zone, seat, _ in places if zone == "hand" and seat == p)
                new.hands[p] = sorted(list(new.known[p]) + cards[k:k + size], key=sort_key)
                k += size
        return new

    def stats(self) -> dict[str, float]:
        """Per game: blind plays and how many fitted, pick-ups, burns (10s), clears (four in a row), and
        whether the safety rule stopped the game."""
        s = self._state
        return {"blind_plays": float(s.blind_plays), "blind_fits": float(s.blind_fits),
                "pickups": float(s.pickups), "burns": float(s.burns), "clears": float(s.clears),
                "stopped": float(s.stopped)}
