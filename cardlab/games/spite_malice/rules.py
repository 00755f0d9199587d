"""Spite and Malice, a competitive patience game for two.

Rules (``docs/rules.md#spite-and-malice``; defaults follow pagat.com; other readings are options)
-------------------------------------------------------------------------------------------------------
* **Cards.** Two 52-card packs shuffled together (104 cards), no jokers. Values: Ace 1, 2–10, Jack 11,
  Queen 12; **Kings are wild** (value 13 where two cards are compared).
* **Deal.** Each player has a payoff pile of ``payoff_size`` cards (20) with only its top card face up, a
  hand of 5 and 4 side piles, empty at first. The centre has 3 build piles, empty at first. The rest of
  the cards is the face-down stock.
* **Centre piles** build up from Ace to Queen whatever the suit: a pile of ``n`` cards has reached
  value ``n`` and takes a card of value ``n + 1``. A King takes the value needed next; by default it
  may also start an empty pile as its Ace (``king_starts_pile=False`` forbids that). A pile that
  reaches the Queen (a Queen, or a King standing for one) is complete: its 12 cards are shuffled and
  go back under the stock (``completed_to="bottom"``), or are shuffled into the whole stock
  (``completed_to="shuffle"``). The event log says what each King stood for.
* **Side piles** take any card, Kings included; only their top card can be played.
* **A turn** starts by drawing from the stock until the hand holds 5 cards. The moves are: payoff top
  to a centre pile; a side-pile top to a centre pile; a hand card to a centre pile; a hand card to a
  side pile, which ends the turn. When the hand empties mid-turn the player draws 5 more and goes on
  (``refill_on_empty=True``, pagat); with ``refill_on_empty=False`` the turn ends by itself instead.
* **Who starts.** The player whose face-up payoff card is higher (King highest). If the two are equal,
  both payoff piles are reshuffled (each on its own) and the new tops compared, as often as needed; if
  both piles hold nothing but one and the same rank no reshuffle can break the tie, and seat 0 starts.
  ``first="seat0"`` lets seat 0 start without comparing. The state's ``opening`` field says what happened.
* **End of a round.** The player who plays the last payoff card wins the round and scores the number
  of cards left in the opponent's payoff pile. The round is a **draw** (no points) when a player must
  draw and the stock is empty. Reading of a short stock: a player who must draw more cards than the
  stock holds takes what there is and plays on; the round is drawn only when a draw finds the stock
  empty (the text's "if the stock runs out before anyone wins" then holds at that player's next draw).
* **Match** (``match=True``). Rounds are dealt again from fresh shuffles until a player has ``target``
  points (50); ``winner`` is then the match winner, ``scores`` and ``results`` (per round: winner or -1,
  points) record the way there. A drawn round scores nothing and the match goes on. Guard against an
  endless match: after ``MAX_MATCH_ROUNDS`` rounds the match stops, the higher score wins and equal
  scores make a drawn match (``winner`` None). Each round uses the start rule above.
* **Options.** ``payoff_size=20`` (1–40), ``king_starts_pile=True``, ``refill_on_empty=True``,
  ``completed_to="bottom"|"shuffle"``, ``first="higher"|"seat0"``, ``target=50``, ``match=False``.

Stacked decks
-------------
``deck=[...]`` lists the top of the deck, top card first; unnamed cards follow in seeded random
order. The first ``payoff_size`` cards are seat 0's payoff pile, **its first card the face-up top** and
the last one at the bottom; the next ``payoff_size`` are seat 1's payoff pile in the same order. Then
seat 0's 5 hand cards, then seat 1's 5, and the rest is the stock, **its first card the top** (the next
one drawn). Hands are kept sorted. A tie between payoff tops reshuffles them, so a test that wants a
fixed start gives different top ranks (or ``first="seat0"``).

Moves (texts; piles are numbered from 1)
----------------------------------------
``"payoff to centre 1"``, ``"side 2 to centre 3"``, ``"hand 7♥ to centre 1"``, ``"hand 7♥ to side 4"``.
A move names a face, never a physical copy: its ``card`` field is the first pack's card of that face
whichever copy the hand holds (:class:`SpiteMove`), and two cards of the same face in hand (one from each
pack) give a single move. The engine picks the physical card as it applies the move: the hand's only card
of that face, or, when it holds both, one drawn uniformly from a generator keyed by the game's shuffle key
and the move number (records replay exactly). Moves, views and public events show faces only, so nobody
learns which pack a card came from. ``"hand 7h to centre 1"`` (ASCII card codes, ``T`` for ten) and
"center" are accepted too; a pack suffix (``"hand 7h:1 to centre 1"``) is refused, since no move chooses
a copy.

Turns
-----
``turn`` counts turns played: a turn ends with the discard to a side pile, with a hand emptied under
``refill_on_empty=False``, or with the end of the round during it. A round drawn at the very start of a
turn (the refill finds the stock empty) does not count that turn: no move was made in it.

What a viewer knows: the chance law
-----------------------------------
Face-down cards are the opponent's hand, the cards under both payoff tops, and the stock. Every card
also carries a public *label*: 0 while it has never been seen since the deal, ``j`` once it was in the
``j``-th completed centre pile of the round (its last public sighting), and ``-1`` / ``-2`` once it was
seen as a tied payoff top of seat 0 / seat 1: the tied piles are reshuffled each on its own, so such a
card is known to lie in that payoff pile (under its top, unless it is the top again) and can never be
the next stock card. :meth:`SpiteMalice.chance_law` turns all this into the game's one chance law
(:mod:`cardlab.chance.law`): the exact answers and the resampler both read it. Each hidden place has a public
*mark* ``[lo, hi]``: the labels a card there can have. Payoff piles hold only label 0. With
``completed_to="bottom"`` the stock is a stack of layers, each of one label (the deal's unseen rest on
top, then completed piles in order), and a card drawn keeps its layer's label as the mark of its hand
slot; since each card's label is public, everyone can tell how many cards of each label a hand holds.
So resampling redeals each label's hidden cards among that label's places, uniformly: this is the
exact law of the hidden cards given all that was seen, under the modelling assumption that the
opponent's choices carry no information (they are not read as clues). Written out, the assumption is:
the card a hidden hand plays is a uniformly random card of that hand, whose face is then seen. (Under
it, showing one card of a uniformly dealt hand leaves the rest uniform, which is why one law per label
is exact.)

*Two copies, two labels: a mixture.* Whenever a card hidden from the viewer shows its face and the
hidden copies of that face carry different labels that the place could hold, nobody but the engine
knows which copy it was, so nobody knows which label lost a card. This happens when a hand hidden from
the viewer plays or discards a face (one copy never seen, one back from a completed pile, say; and then
which slot mark left the hand is unknown too), when a payoff pile turns up a face of which one copy was
seen as a tied top (so known to be in that pile) and the other never seen, when the viewer draws from
a stock layer of several labels (``completed_to="shuffle"``), and in a tied opening, when a reshuffled
pile shows a face seen tied before. The viewer's knowledge is then a *mixture*: one bookkeeping
(labels of the hidden cards, by face; slot marks of the hidden hands) per possibility, weighted by its
chance given what the viewer saw. Each step is Bayes' rule under the assumption above: a card shown
splits every component by the label of the card shown, with weight the expected number of the place's
slots (a hidden hand's: all of them) holding that face with that label
(:meth:`~cardlab.chance.law.ChanceLaw.face_chances`), so a face whose copies are alike for the viewer
just reweights it; draws into hidden hands and completed piles change every component alike. A tied
opening is worked out from what everybody saw, the tied faces in order and the tops now
(:meth:`SpiteMalice._opening_ledgers`); it is the mixture at the start of the round. Components that say the same
thing by face are merged; when one is left it is the real bookkeeping. :meth:`SpiteMalice.chance_law`
then returns a :class:`~cardlab.chance.law.MixedLaw`, one component law per bookkeeping, in an order
fixed by public information; the resampler and the kernel's play-outs pick a component by weight, then
deal it. The mixture is worked out only when a law is asked for (:meth:`SpiteMalice._mixtures`): a copy
of the game re-plays the moves since the last position worked out, or since the round was dealt, with
the bookkeeping switched on, so play, records and undo carry no extra state and cost nothing extra; a
position before the first move kept (a record's dealt position, a resampled game) counts as fully
known. A brute force over every hidden deal and copy choice of small positions agrees exactly
(``tests/games/spite_malice/test_copy_mixture.py``; tied payoff cards turned up, and tied openings counted over deals,
there too), and two games that differ only in which copy was played, or in which copy of a face lies
where in the deal, get identical answers (``tests/chance/test_chance_law.py``,
``benchmarks/bench_chance_law.py --copies`` and ``--swap-twins``).

*The cap.* A mixture keeps at most :data:`MAX_LEDGERS` components (256; :data:`MAX_LEDGERS_SHUFFLE` = 16
with ``completed_to="shuffle"``, where the mixture grows much faster and the law is approximate anyway,
see below): past the cap the heaviest are kept (by weight, then by public key), so the answers stay a
function of what the viewer knows but are **no longer exact**; should every kept component be ruled out
later, the viewpoint falls back to the real bookkeeping (a leak in that rare case). How often, measured
with ``benchmarks/bench_chance_law.py --copies`` (2026-11-30, every viewpoint's law asked after every
move): over 100 default greedy games (18,748 positions) the table's mixture was at the cap in 5
positions (the cap cut components once, nothing was ruled out later); the seats' mixtures stayed at 29
components or fewer. With ``completed_to="shuffle"`` (50 games, 9,445 positions) each viewpoint's
mixture was at its cap of 16 in about 57% of positions, and in 10 games every kept component was ruled
out 3 times: in that mode the answers are approximate.
With ``completed_to="shuffle"`` the stock is one mixed layer with labels ``lo..hi`` (``lo`` rises only
when a completed pile lands on an empty stock), and a hand card drawn from it may hold any of those
labels. When a card leaves a hand, the slot it came from is not known; the engine removes, by a fixed
public rule, the slot with the smallest ``hi`` that could have held it. Resampling then draws uniformly
among the assignments that fit those marks (cards from the highest label down, each to a uniformly
chosen free place that accepts it). Every resampled state is possible for the viewer, and payoff piles
and early-drawn hand cards never receive a card seen later; the weights ignore only that ambiguity of
which slot a played hand card came from. So the whole stock and the hidden hands are *not* one pool:
cards seen in a completed pile can never be under a payoff top.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab.cards import ACCEPTED, RANK_LABELS, Card, Rank, face_of, faces, full_deck, shuffled_deck, stack_deck
from cardlab.chance.law import ChanceLaw, Group, MixedLaw, canonical
from cardlab.dealer import SplitMix64
from cardlab.engine.game import Game, Move, Option
from cardlab.engine.state import COUNTER_MAX, Bool, Int, ListOf, Maybe, PlayState, Text, cards, counter
from cardlab.errors import CorruptRecordError, InvalidCardError, InvalidInputError

PACKS = 2

TIE_LABEL = (-1, -2)  # label of a card seen as a tied payoff top of seat 0 / seat 1 (it stays in that pile)
CARDS = 52 * PACKS
HAND_SIZE = 5
SIDE_PILES = 4
CENTRE_PILES = 3
QUEEN = 12
MAX_PAYOFF = 40
MAX_MATCH_ROUNDS = 200
MAX_LEDGERS = 256  # cap on a viewpoint's mixture of bookkeepings (see the module notes)
MAX_LEDGERS_SHUFFLE = 16  # the cap with completed_to="shuffle", whose law is approximate anyway
MIXTURES_KEPT_EVERY = 128  # while re-playing a long history, the mixtures worked out are kept every this many moves
VIEWS: tuple[int | None, ...] = (None, 0, 1)  # the order of the mixtures: the table, seat 0, seat 1
Marks = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
Ledger = tuple[Fraction, tuple[int, ...], Marks]  # (weight, label per card id, slot marks per hand)
FaceLabels = tuple[tuple[tuple[int, int], int], ...]  # sorted (face, label) of a viewpoint's hidden cards
PublicLedger = tuple[Fraction, FaceLabels, Marks]  # a component as public information: by face only
Mixtures = tuple[tuple[PublicLedger, ...], tuple[PublicLedger, ...], tuple[PublicLedger, ...]]
NO_MIXTURE: Mixtures = ((), (), ())
MOVE_FORMS = "'payoff to centre 1', 'side 2 to centre 3', 'hand 7♥ to centre 1' or 'hand 7♥ to side 4'"
_TIE_RE = re.compile(r"payoff tops (\S+) and (\S+) tie: ")  # the ties of an opening, in order (``_choose_first``)
_MOVE_RE = re.compile(r"(payoff|side (-?\d+)|hand (\S+)) to (centre|center|side) (-?\d+)")


def value_label(value: int) -> str:
    """A centre value as a rank label: 1 -> 'A', 11 -> 'J', 12 -> 'Q'."""
    return RANK_LABELS[value]


def _int_in(low: int, high: int) -> Any:
    return lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool) and low <= v <= high


@dataclass
class SpiteMaliceState(PlayState):
    payoff: list[list[Card]]           # per seat, bottom..top (top = last, face up)
    hands: list[list[Card]]            # per seat, sorted
    sides: list[list[list[Card]]]      # per seat, 4 piles, bottom..top
    centre: list[list[Card]]           # 3 piles, bottom..top; a pile of n cards has reached value n
    stock: list[Card]                  # bottom..top (top = last)
    stock_parts: list[list[int]]       # bottom..top: [lo, hi, count]; counts add up to len(stock)
    hand_marks: list[list[list[int]]]  # per seat, one [lo, hi] per hand card (public bookkeeping)
    labels: list[int]                  # per card id: 0 never public this round, j = in completed pile j
    completions: int                   # centre piles completed this round
    to_move: int
    turn: int
    round: int
    scores: list[int]
    results: list[list[int]]           # per finished round: [winner or -1, points]
    opening: str                       # how this round's first player was chosen
    shuffles: int
    over: bool
    winner: int | None


def _two(item: Any) -> ListOf:
    return ListOf(item, length=2)


def _freeze(marks: Any) -> Marks:
    return (tuple((int(m[0]), int(m[1])) for m in marks[0]), tuple((int(m[0]), int(m[1])) for m in marks[1]))


def _drop_mark(marks: tuple[tuple[int, int], ...], label: int) -> tuple[tuple[int, int], ...]:
    """The public rule: a hand card of ``label`` leaves the slot with the smallest ``hi`` that accepts it."""
    best = min((i for i, (lo, hi) in enumerate(marks) if lo <= label <= hi), key=lambda i: marks[i][1])
    return marks[:best] + marks[best + 1:]


def _marks_admit(marks: Any) -> Any:
    """The labels a place marked by one of ``marks`` ([lo, hi] each) may hold (never a tied payoff top's)."""
    return lambda label: any(lo <= label <= hi for lo, hi in marks)


def _payoff_admits(seat: int) -> Any:
    """The labels a card under seat ``seat``'s payoff top may hold: never seen, or that seat's tied top."""
    return lambda label: label in (0, TIE_LABEL[seat])


def _view_index(viewpoint: int | None) -> int:
    return 0 if viewpoint is None else viewpoint + 1


_LABEL = Int(-2, COUNTER_MAX)   # -1 / -2: a card seen as a tied payoff top of seat 0 / 1 (it stays in that pile)
STATE_DESCRIPTION = {
    "payoff": _two(cards(MAX_PAYOFF)), "hands": _two(cards(HAND_SIZE)),
    "sides": _two(ListOf(cards(CARDS), length=SIDE_PILES)), "centre": ListOf(cards(QUEEN), length=CENTRE_PILES),
    "stock": cards(CARDS), "stock_parts": ListOf(ListOf(Int(0, COUNTER_MAX), length=3), 0, CARDS),
    "hand_marks": _two(ListOf(ListOf(Int(0, COUNTER_MAX), length=2), 0, HAND_SIZE)),
    "labels": ListOf(_LABEL, length=CARDS),
    "completions": counter(), "to_move": Int(0, 1), "turn": counter(), "round": Int(1, MAX_MATCH_ROUNDS),
    "scores": _two(counter()), "results": ListOf(ListOf(Int(-1, MAX_PAYOFF), length=2), 0, MAX_MATCH_ROUNDS),
    "opening": Text(), "shuffles": counter(), "over": Bool(), "winner": Maybe(Int(0, 1)),
}


@dataclass(frozen=True)
class SpiteMaliceView:
    """What one seat (or the table, ``seat=None``) sees; the hidden cards are left out.

    ``sides[p][j]`` is seat p's side pile j+1, bottom to top, all face up. ``centre[k]`` is centre pile
    k+1, bottom to top; ``centre_values[k]`` the value it has reached (0 when empty) and
    ``centre_kings[k]`` the values its Kings stand for. ``stock_layers`` lists the stock's public
    layers from the top, as ``(lo, hi, count)`` label ranges (see the module notes).
    """

    seat: int | None
    to_move: int
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    payoff_tops: tuple[Card | None, ...]
    payoff_sizes: tuple[int, ...]
    sides: tuple[tuple[tuple[Card, ...], ...], ...]
    centre: tuple[tuple[Card, ...], ...]
    centre_values: tuple[int, ...]
    centre_kings: tuple[tuple[int, ...], ...]
    stock_size: int
    stock_layers: tuple[tuple[int, int, int], ...]
    scores: tuple[int, ...]
    round: int
    turn: int
    target: int
    king_starts_pile: bool
    over: bool
    winner: int | None

    @property
    def needed(self) -> tuple[int, ...]:
        """The value each centre pile takes next (1 for an empty pile)."""
        return tuple(v + 1 for v in self.centre_values)

    def fits(self, card: Card, pile: int) -> bool:
        """Would ``card`` go on centre pile ``pile`` (numbered from 1)? (:func:`fits_value`)"""
        return fits_value(int(card.rank), self.centre_values[pile - 1], self.king_starts_pile)


KING = Rank.KING


# ---------------------------------------------------------------------------------------------- the rules as functions
# The one statement of each rule that code elsewhere reads: the engine below, the greedy bot
# (:mod:`cardlab.games.spite_malice.bot`) and the kernel (:mod:`cardlab.games.spite_malice.kernel`, which
# tabulates these functions when it is imported; ``tests/games/spite_malice/test_kernel.py`` compares its
# tables with them card for card).
def fits_value(rank: int, value: int, king_starts_pile: bool) -> bool:
    """The fit rule: may a card of ``rank`` (1 Ace … 12 Queen, 13 King) go on a centre pile that has reached
    ``value`` (its number of cards, 0 to 11)? A numbered card needs exactly ``value + 1``; a King is wild
    and takes any non-empty pile, and an empty one when ``king_starts_pile``."""
    if rank == KING:
        return value > 0 or king_starts_pile
    return rank == value + 1


def completes(value: int) -> bool:
    """**Pile complete**: whether a centre pile that has reached ``value`` (its number of cards) is complete
    and leaves the table (shuffled under or into the stock). It is when it reaches the Queen."""
    return value == QUEEN


def _fits(card: Card, pile_len: int, king_starts: bool) -> bool:
    return fits_value(int(card.rank), pile_len, king_starts)


def distance(top: int | None, value: int, king_starts_pile: bool) -> int:
    """The greedy bot's distance: how many cards a centre pile of ``value`` (0: empty) needs before it takes a
    payoff top of rank ``top`` (None counts as a King). A King needs nothing where it fits (:func:`fits_value`)
    and one card elsewhere (an empty pile it may not start); a numbered top ``t`` needs ``t - 1 - value`` cards
    when the pile is below it, else the pile must be completed and rebuilt: ``(12 - value) + (t - 1)``."""
    if top is None or top == KING:
        return 0 if fits_value(KING, value, king_starts_pile) else 1
    return top - 1 - value if value <= top - 1 else (QUEEN - value) + (top - 1)


def payoff_preference(rank: int, value: int) -> int:
    """The greedy bot's order among the centre piles that take its payoff top of ``rank`` (smaller first, then
    the lower pile number): any such pile alike for a numbered card (so the lowest-numbered one); for a King
    the non-empty pile with the highest value, an empty pile last."""
    if rank != KING:
        return 0
    return QUEEN - value if value > 0 else QUEEN


def discard_class(c: int, top: int | None) -> tuple[int, int]:
    """The greedy bot's preference (class, gap) for discarding a card of value ``c`` on a side pile whose top
    has value ``top`` (None: empty), lower first: 0 just below the top, 1 further below (gap ``top - c``),
    2 an empty pile, 3 the same rank, 4 above the top (gap ``c - top``)."""
    if top is None:
        return 2, 0
    if top == c + 1:
        return 0, 0
    if top > c + 1:
        return 1, top - c
    if top == c:
        return 3, 0
    return 4, c - top

# Moves never change, so each possible move is built once and shared (legal_moves runs several times a move).
@dataclass(frozen=True, slots=True)
class SpiteMove(Move):
    """A Spite and Malice move: ``card`` (a hand card played or discarded), ``side`` (the side pile played
    from or discarded on, 1 to 4) and ``centre`` (the centre pile played on, 1 to 3); 0 where a move names
    no such pile.

    ``card`` names a **face**, never a physical copy: it is always the first pack's :class:`Card` of that
    face (:func:`~cardlab.cards.face_of`, ``pack == 0``), whichever copy the hand holds. The two copies of
    a face look alike, so a move that named a pack would tell a policy which bookkeeping copy its hand
    holds. Every move the game offers (:meth:`~cardlab.engine.game.Game.legal_moves`) or returns
    (:meth:`~cardlab.engine.game.Game.parse_move`) is one of these face moves, and a hand holding both
    copies of a face gets one move per destination, not two. The engine decides which physical card
    leaves the hand when the move is applied (:meth:`SpiteMalice._take_from_hand`): the hand's only card
    of that face, or, when it holds both, one drawn uniformly from the generator keyed by the game's
    shuffle key and the move number."""

    card: Card | None = None
    side: int = 0
    centre: int = 0


def spite_move(move: Move) -> SpiteMove:
    """``move`` as the Spite and Malice move it is (every legal move of the game is one)."""
    if not isinstance(move, SpiteMove):
        raise TypeError(f"{move!r} is not a Spite and Malice move")
    return move


def hand_card(move: Move) -> Card:
    """The hand card a hand play or a discard names."""
    card = spite_move(move).card
    if card is None:
        raise TypeError(f"{move!r} names no hand card")
    return card


PAYOFF_MOVES = tuple(SpiteMove(f"payoff to centre {k}", "payoff", centre=k) for k in range(1, CENTRE_PILES + 1))
SIDE_MOVES = tuple(tuple(SpiteMove(f"side {j} to centre {k}", "side", side=j, centre=k)
                         for k in range(1, CENTRE_PILES + 1))
                   for j in range(1, SIDE_PILES + 1))
# Hand moves name faces (the first pack's cards), see SpiteMove.
HAND_MOVES = {c: tuple(SpiteMove(f"hand {c} to centre {k}", "hand", card=c, centre=k)
                       for k in range(1, CENTRE_PILES + 1))
              for c in full_deck(1)}
COPIES: dict[Any, tuple[Card, ...]] = {}
for _card in full_deck(PACKS):
    COPIES[_card.face] = COPIES.get(_card.face, ()) + (_card,)
DISCARD_MOVES = {c: tuple(SpiteMove(f"hand {c} to side {j}", "discard", card=c, side=j)
                          for j in range(1, SIDE_PILES + 1))
                 for c in full_deck(1)}


class SpiteMalice(Game[SpiteMaliceState]):
    name = "spite-and-malice"
    title = "Spite and Malice"
    aliases = ("spite-malice", "spite and malice", "spite_and_malice")
    drawer = "cardlab.games.spite_malice.table:draw"
    min_players = 2
    max_players = 2
    default_players = 2
    state_class = SpiteMaliceState
    state_description = STATE_DESCRIPTION
    option_specs = {
        "payoff_size": Option(20, _int_in(1, MAX_PAYOFF), f"a whole number from 1 to {MAX_PAYOFF}",
                              "cards in each payoff pile"),
        "king_starts_pile": Option(True, lambda v: isinstance(v, bool), "True or False",
                                   "a King may start an empty centre pile (as its Ace)"),
        "refill_on_empty": Option(True, lambda v: isinstance(v, bool), "True or False",
                                  "a hand emptied mid-turn draws 5 more (False: the turn ends)"),
        "completed_to": Option("bottom", lambda v: v in ("bottom", "shuffle"), "'bottom' or 'shuffle'",
                               "a complete centre pile goes shuffled under the stock, or into the whole stock",
                               ("bottom", "shuffle")),
        "first": Option("higher", lambda v: v in ("higher", "seat0"), "'higher' or 'seat0'",
                        "who starts: the higher payoff top, or seat 0", ("higher", "seat0")),
        "target": Option(50, _int_in(1, 10**6), "a whole number from 1 up", "points that win the match"),
        "match": Option(False, lambda v: isinstance(v, bool), "True or False",
                        "play rounds until a player reaches the target"),
    }

    _beliefs: list[list[Ledger]] | None = None
    """While this game re-plays its history to work out the mixtures (:meth:`_mixtures`): each
    viewpoint's mixture (table, seat 0, seat 1; empty: the real bookkeeping). None in a game in play."""
    _real_after: SpiteMaliceState | None = None
    """While re-playing a move: the real position after it, when kept (it names the copy played)."""

    # ------------------------------------------------------------------ set-up
    @property
    def packs(self) -> int:
        return PACKS

    def _deal(self, rng: SplitMix64, deck: list[str | Card] | None) -> SpiteMaliceState:
        cards = stack_deck(deck, PACKS, rng) if deck is not None else shuffled_deck(PACKS, rng)
        state = SpiteMaliceState(
            payoff=[], hands=[], sides=[], centre=[], stock=[], stock_parts=[], hand_marks=[],
            labels=[], completions=0, to_move=0, turn=0, round=1, scores=[0, 0], results=[], opening="",
            shuffles=0, over=False, winner=None)
        self._state = state
        self._lay_out(cards)
        state.opening = self._choose_first()
        return state

    def _lay_out(self, cards: list[Card]) -> None:
        """Deal ``cards`` (top of the deck first) in the documented order; reset the round's bookkeeping."""
        s = self._state
        n = self.options["payoff_size"]
        s.payoff = [cards[0:n][::-1], cards[n:2 * n][::-1]]
        pos = 2 * n
        s.hands = [sorted(cards[pos:pos + HAND_SIZE]), sorted(cards[pos + HAND_SIZE:pos + 2 * HAND_SIZE])]
        s.stock = cards[pos + 2 * HAND_SIZE:][::-1]
        s.stock_parts = [[0, 0, len(s.stock)]] if s.stock else []
        s.hand_marks = [[[0, 0] for _ in range(HAND_SIZE)] for _ in range(2)]
        s.sides = [[[] for _ in range(SIDE_PILES)] for _ in range(2)]
        s.centre = [[] for _ in range(CENTRE_PILES)]
        s.labels = [0] * CARDS
        s.completions = 0
        if self._beliefs is not None:  # a new round: every viewpoint's bookkeeping is the real one again
            self._beliefs = [[], [], []]

    def _choose_first(self) -> str:
        """Set who starts this round; returns the reason in words."""
        s = self._state
        if self.options["first"] == "seat0":
            s.to_move = 0
            return "seat 0 starts (option first='seat0')"
        ties: list[str] = []
        while s.payoff[0][-1].rank == s.payoff[1][-1].rank:
            a, b = s.payoff[0][-1], s.payoff[1][-1]
            if len({c.rank for c in s.payoff[0] + s.payoff[1]}) == 1:
                s.to_move = 0
                return (f"payoff tops {a} and {b} tie and both piles hold only {a.rank.word}s, "
                        "so no reshuffle can break the tie: seat 0 starts")
            ties.append(f"{a} and {b}")
            # Everybody saw the tied cards: each is now known to lie in its own payoff pile.
            s.labels[a.id], s.labels[b.id] = TIE_LABEL[0], TIE_LABEL[1]
            rng = self._shuffle_rng()
            for seat in (0, 1):
                pile = s.payoff[seat]
                order = rng.permute(len(pile))
                s.payoff[seat] = [pile[i] for i in order]
        a, b = s.payoff[0][-1], s.payoff[1][-1]
        s.to_move = 0 if a.rank > b.rank else 1
        high, low = (a, b) if s.to_move == 0 else (b, a)
        note = "".join(f"payoff tops {t} tie: both payoff piles are reshuffled; " for t in ties)
        return f"{note}seat {s.to_move} starts: payoff {high} beats {low}"

    def _validate_state(self) -> None:
        s = self._state
        shape_ok = (len(s.payoff) == 2 and len(s.hands) == 2 and len(s.hand_marks) == 2 and len(s.sides) == 2
                    and all(len(p) == SIDE_PILES for p in s.sides) and len(s.centre) == CENTRE_PILES
                    and len(s.scores) == 2 and len(s.labels) == CARDS)
        if not shape_ok:
            raise CorruptRecordError("record field initial: the Spite and Malice position does not have 2 payoff "
                                     "piles, 2 hands, 2x4 side piles, 3 centre piles, 2 scores and 104 card labels")
        if s.to_move not in (0, 1):
            raise CorruptRecordError(f"record field initial.to_move is {s.to_move!r}; seats are 0 and 1")
        for seat in (0, 1):
            if len(s.hands[seat]) > HAND_SIZE or len(s.hand_marks[seat]) != len(s.hands[seat]):
                raise CorruptRecordError(f"record field initial.hands[{seat}] has {len(s.hands[seat])} cards "
                                         f"and {len(s.hand_marks[seat])} marks")
            if not s.over and not s.payoff[seat]:
                raise CorruptRecordError(f"record field initial.payoff[{seat}] is empty but the game goes on")
        for k, pile in enumerate(s.centre):
            bad = [i for i, c in enumerate(pile) if not _fits(c, i, True)]
            complete = any(completes(n) for n in range(1, len(pile) + 1))
            if (complete and not s.over) or bad:  # a winning Queen leaves its pile complete
                raise CorruptRecordError(f"record field initial.centre[{k}] is not a build from Ace: {pile}")
        if sum(p[2] for p in s.stock_parts) != len(s.stock) or any(
                len(p) != 3 or p[0] > p[1] or p[2] <= 0 for p in s.stock_parts):
            raise CorruptRecordError("record field initial.stock_parts does not add up to the stock")
        self._validate_labels()
        self._validate_results()

    def _validate_labels(self) -> None:
        """Public labels and marks agree with the cards: labels up to the completions so far, payoff cards
        never seen except as that seat's tied payoff top (label -1 for seat 0, -2 for seat 1), each stock
        layer's cards of its labels, and the hand cards matched one to one to marks that accept them (the
        engine removes a played card's mark by that rule)."""
        s = self._state
        bad = CorruptRecordError
        top = s.completions
        if any(label > top for label in s.labels):
            raise bad(f"record field initial.labels holds a label above the {top} completed pile(s)")
        for seat in (0, 1):
            if any(s.labels[c.id] not in (0, -1 - seat) for c in s.payoff[seat]):
                raise bad(f"record field initial.payoff[{seat}] holds a card seen in a completed pile "
                          "or on the other seat's payoff pile")
        pos = 0
        for k, (lo, hi, count) in enumerate(s.stock_parts):
            layer = s.stock[pos:pos + count]
            pos += count
            if hi > top or (self.options["completed_to"] == "bottom" and lo != hi) \
                    or any(not lo <= s.labels[c.id] <= hi for c in layer):
                raise bad(f"record field initial.stock_parts[{k}] does not describe its cards' labels")
        for seat in (0, 1):
            marks = sorted(s.hand_marks[seat], key=lambda m: m[1])
            used = [False] * len(marks)
            for card in sorted(s.hands[seat], key=lambda c: s.labels[c.id]):
                label = s.labels[card.id]
                i = next((i for i, (lo, hi) in enumerate(marks) if not used[i] and lo <= label <= hi), None)
                if i is None or marks[i][0] > marks[i][1] or marks[i][1] > top:
                    raise bad(f"record field initial.hand_marks[{seat}] does not fit the labels of its hand")
                used[i] = True

    def _validate_results(self) -> None:
        """Rounds, results, scores and the end of the game agree."""
        s = self._state
        bad = CorruptRecordError
        if len(s.results) != s.round - (0 if s.over else 1):
            raise bad(f"record field initial.results lists {len(s.results)} round(s) in round {s.round}")
        for seat in (0, 1):
            if s.scores[seat] != sum(p for w, p in s.results if w == seat):
                raise bad(f"record field initial.scores[{seat}] is not the sum of the rounds it won")
        if any(w == -1 and p for w, p in s.results) or any(p < 0 for _, p in s.results):
            raise bad("record field initial.results gives points to a drawn round")
        if not self.options["match"] and (s.round != 1 or (s.over and s.winner != (
                None if s.results[0][0] == -1 else s.results[0][0]))):
            raise bad("record fields initial.round, results and winner do not fit a single round")
        if not s.over and s.winner is not None:
            raise bad("record field initial.winner names a winner, but the game goes on")

    def zones(self) -> dict[str, list[Card]]:
        s = self._state
        z: dict[str, list[Card]] = {}
        for seat in (0, 1):
            z[f"payoff {seat}"] = list(s.payoff[seat])
            z[f"hand {seat}"] = list(s.hands[seat])
            z[f"sides {seat}"] = [c for pile in s.sides[seat] for c in pile]
        z["centre"] = [c for pile in s.centre for c in pile]
        z["stock"] = list(s.stock)
        return z

    # ------------------------------------------------------------------ rules
    def fits(self, card: Card, pile: int) -> bool:
        """Would ``card`` go on centre pile ``pile`` (numbered from 1) now?"""
        return _fits(card, len(self._state.centre[pile - 1]), self.options["king_starts_pile"])

    def can_play_on_centre(self, card: Card) -> bool:
        """Could ``card`` go on some centre pile now (a King on any non-empty pile, or an empty one by default)?"""
        king_starts = self.options["king_starts_pile"]
        return any(_fits(card, len(p), king_starts) for p in self._state.centre)

    def _legal_moves(self) -> list[Move]:
        # The engine asks for the legal moves several times per move (policy, parse, play), so they are
        # cached. The key is the state object itself (undo and replay install a new one) and the counts of
        # moves and events: within a move every change to the position is followed by an event.
        key = (len(self._moves), len(self._events))
        cache = getattr(self, "_legal_cache", None)
        if cache is not None and cache[0] is self._state and cache[1] == key:
            return list(cache[2])
        moves = self._find_legal_moves()
        self._legal_cache: tuple[SpiteMaliceState, tuple[int, int], list[Move]] = (self._state, key, moves)
        return list(moves)

    def _find_legal_moves(self) -> list[Move]:
        s = self._state
        seat = s.to_move
        king_starts = self.options["king_starts_pile"]
        lengths = [len(p) for p in s.centre]
        top = s.payoff[seat][-1]
        moves: list[Move] = [m for m, n in zip(PAYOFF_MOVES, lengths, strict=True) if _fits(top, n, king_starts)]
        for pile, side_moves in zip(s.sides[seat], SIDE_MOVES, strict=True):
            if pile:
                moves += [m for m, n in zip(side_moves, lengths, strict=True) if _fits(pile[-1], n, king_starts)]
        held: list[Card] = []  # the hand's faces in hand order, each once (copies of a face sit side by side)
        for card in s.hands[seat]:
            face = face_of(card)
            if not held or held[-1] != face:
                held.append(face)
        for face in held:
            moves += [m for m, n in zip(HAND_MOVES[face], lengths, strict=True) if _fits(face, n, king_starts)]
        for face in held:
            moves += DISCARD_MOVES[face]
        return moves

    def _move_aliases(self, move: Move) -> set[str]:
        names = {move.text.lower()}
        if move.kind in ("hand", "discard"):
            card = hand_card(move)
            codes = {f"{card.rank.label}{card.suit.letter}".lower()}
            if card.rank == Rank.TEN:
                codes.add(f"t{card.suit.letter}".lower())
            names |= {move.text.lower().replace(str(card).lower(), code, 1) for code in codes}
        return names | {n.replace("centre", "center") for n in names}

    def _explain_illegal(self, text: str) -> str | None:
        s = self._state
        seat = s.to_move
        m = _MOVE_RE.fullmatch(text)
        if m is None:
            return f"moves read {MOVE_FORMS}"
        source, side_text, card_text, dest, dest_text = m.groups()
        dest_n = int(dest_text)
        if dest in ("centre", "center") and not 1 <= dest_n <= CENTRE_PILES:
            return f"there are only {CENTRE_PILES} centre piles (centre 1 to centre {CENTRE_PILES})"
        if dest == "side" and not 1 <= dest_n <= SIDE_PILES:
            return f"each player has only {SIDE_PILES} side piles (side 1 to side {SIDE_PILES})"
        if side_text is not None and not 1 <= int(side_text) <= SIDE_PILES:
            return f"each player has only {SIDE_PILES} side piles (side 1 to side {SIDE_PILES})"
        if dest == "side" and card_text is None:
            return "only a hand card may go to a side pile; payoff and side-pile tops go to centre piles"
        if source == "payoff":
            card = s.payoff[seat][-1]
            where = f"the payoff top {card}"
        elif side_text is not None:
            pile = s.sides[seat][int(side_text) - 1]
            if not pile:
                return f"seat {seat}'s side {side_text} is empty"
            card = pile[-1]
            where = f"side {side_text}'s top {card}"
        else:
            try:
                card = Card.parse(card_text or "")
            except InvalidCardError:
                return f"{card_text!r} is not a card; a card is {ACCEPTED}"
            if not any(c.face == card.face for c in s.hands[seat]):
                held = ", ".join(str(c) for c in s.hands[seat])
                return f"seat {seat} holds no {card} (hand: {held})"
            if ":" in (card_text or ""):
                return (f"a move names a face, not a pack: write 'hand {card} to {dest} {dest_n}' (which of two "
                        "alike cards leaves the hand is the engine's choice)")
            where = str(card)
        if dest == "side":
            return None
        pile_len = len(s.centre[dest_n - 1])
        if _fits(card, pile_len, self.options["king_starts_pile"]):
            return None
        if card.rank == Rank.KING and pile_len == 0:
            return f"centre {dest_n} is empty and option king_starts_pile=False keeps Kings from starting a pile"
        if pile_len == 0:
            return f"{where} cannot start centre {dest_n}: an empty pile starts with an Ace (or a King)"
        return (f"{where} does not fit centre {dest_n}, which needs "
                f"{value_label(pile_len + 1)} (or a King)")

    # ------------------------------------------------------------------ applying moves
    def _apply(self, move: Move) -> Iterator[None]:
        move = spite_move(move)
        s = self._state
        seat = s.to_move
        if move.kind == "discard":
            j = move.side
            card = self._take_from_hand(seat, hand_card(move))
            s.sides[seat][j - 1].append(card)
            self._log("discard", f"seat {seat} discards {card} on side {j}, ending the turn", seat,
                      card=card, side=j)
            yield
            s.turn += 1
            yield from self._start_turn(1 - seat)
            return
        k = move.centre
        if move.kind == "payoff":
            pending = {}
            if self._beliefs is not None and len(s.payoff[seat]) > 1:  # the card under the top is about to show
                shown_card = s.payoff[seat][-2]
                pending = {v: self._reveal(v, shown_card, place=f"payoff {seat}") for v in VIEWS
                           if self._beliefs[_view_index(v)] or self._ambiguous(v, shown_card, _payoff_admits(seat))}
            card = s.payoff[seat].pop()
            for v, children in pending.items():
                self._settle(v, children)
            source = "the payoff pile"
        elif move.kind == "side":
            card = s.sides[seat][move.side - 1].pop()
            source = f"side {move.side}"
        else:
            card = self._take_from_hand(seat, hand_card(move))
            source = "hand"
        value = len(s.centre[k - 1]) + 1
        s.centre[k - 1].append(card)
        king = card.rank == Rank.KING
        text = f"seat {seat} plays {card} from {source} on centre {k}"
        if king:
            text = f"{card} played on centre {k} as {value_label(value)} (seat {seat}, from {source})"
        if move.kind == "payoff":
            left = s.payoff[seat]
            text += f"; the payoff pile shows {left[-1]} ({len(left)} left)" if left else "; the payoff pile is empty"
        self._log("centre", text, seat, card=card, source=move.kind, pile=k, value=value, king=king)
        yield
        if move.kind == "payoff" and not s.payoff[seat]:
            yield from self._win(seat)
            return
        if completes(value):
            yield from self._complete(k)
        if move.kind == "hand" and not s.hands[seat]:
            if self.options["refill_on_empty"]:
                yield from self._draw(seat, HAND_SIZE, mid_turn=True)
            else:
                self._log("turn-end", f"seat {seat}'s hand is empty: the turn ends", seat)
                yield
                s.turn += 1
                yield from self._start_turn(1 - seat)

    def _take_from_hand(self, seat: int, card: Card) -> Card:
        """Remove a card of ``card``'s face from the hand, and by the public rule the slot mark it most
        narrowly fits; returns the physical card removed.

        A move names a face. When the hand holds both packs' cards of that face, which one goes is drawn
        uniformly from a generator keyed by the game's shuffle key and the move number, so a record
        replays exactly and no fixed rule ("the first pack's card") tells anybody anything.
        """
        s = self._state
        copies = [c for c in s.hands[seat] if c.face == card.face]
        card = self._pick_copy(seat, copies) if len(copies) > 1 else copies[0]
        beliefs = self._beliefs
        admits = _marks_admit(s.hand_marks[seat])
        pending = {} if beliefs is None else {
            v: self._reveal(v, card, seat=seat) for v in VIEWS
            if v != seat and (beliefs[_view_index(v)] or self._ambiguous(v, card, admits))}
        s.hands[seat].remove(card)
        label = s.labels[card.id]
        marks = s.hand_marks[seat]
        best = min((i for i, (lo, hi) in enumerate(marks) if lo <= label <= hi), key=lambda i: marks[i][1])
        del marks[best]
        if beliefs is not None:
            for v, children in pending.items():
                self._settle(v, children)
            own = beliefs[_view_index(seat)]
            if own:  # the owner's own slot marks play no part in its law: keep them equal to the real ones
                mine = _freeze(s.hand_marks)[seat]
                beliefs[_view_index(seat)] = [(w, lab, (mine, mk[1]) if seat == 0 else (mk[0], mine))
                                              for w, lab, mk in own]
        return card

    def _pick_copy(self, seat: int, copies: list[Card]) -> Card:
        """Which of two same-face hand cards a move plays: drawn from the keyed generator. A game that
        re-plays its own history to work out a viewpoint's mixture (:meth:`_mixtures`) takes instead the
        copy the real game played, read from the real position after the move when it is kept."""
        after = self._real_after
        if after is not None:
            gone = [c for c in copies if c not in after.hands[seat]]
            if len(gone) == 1:
                return gone[0]
        return copies[self._choice_rng().below(len(copies))]

    # ------------------------------------------------------------------ the viewpoints' mixtures
    def _mixtures(self) -> Mixtures:
        """Each viewpoint's mixture of bookkeepings now (table, seat 0, seat 1; empty: the real one).

        Worked out lazily from the game's own history, only when a viewpoint's law is asked for: a copy
        of the game re-plays the moves since the last position worked out (or since the current round
        was dealt, when every bookkeeping was the real one), with the mixture hooks switched on. Play,
        records and undo carry no extra state; the results are kept by move number. Positions before
        the first move kept (a record's dealt position, a resampled game) count as fully known: there
        every viewpoint's bookkeeping is the real one.
        """
        if self._beliefs is not None:
            return self._published()
        n = len(self._moves)
        cache: dict[int, tuple[int, Mixtures]] = self._by_move   # (round, mixtures) by move number, kept by copy
        hit = cache.get(n)
        if hit is not None and hit[0] == self._state.round:
            return hit[1]
        known = max((k for k in cache if k <= n), default=-1)
        if known < 0 or cache[known][0] != self._state.round:
            start, mixtures = max(self._round_start(), known), NO_MIXTURE
            if known == start:
                mixtures = cache[known][1]
            elif start == 0:  # the game's first position: its opening's mixture, if it is a dealt position
                mixtures = self._dealt_mixtures()
                cache[0] = (self._initial.round, mixtures)
        else:
            start, mixtures = known, cache[known][1]
        if start >= n:
            return mixtures
        w = self._worker(start)
        w._beliefs = [w._private_ledgers(v, m) for v, m in zip(VIEWS, mixtures, strict=True)]
        for i in range(start, n):
            m = self._moves[i]
            w._moves.append(m)
            w._real_after = self.kept_state_before(i + 1)
            for _ in w._apply(m):
                pass
            if (i + 1) % MIXTURES_KEPT_EVERY == 0 and i + 1 < n:
                cache[i + 1] = (w._state.round, w._published())
        a, b = w._state, self._state
        if (len(a.stock), [len(h) for h in a.hands], [len(p) for p in a.payoff], a.shuffles) != \
                (len(b.stock), [len(h) for h in b.hands], [len(p) for p in b.payoff], b.shuffles):
            raise InvalidInputError("chance_law: this Spite and Malice position is in the middle of a move "
                                    "(a frame of Game.stepwise); ask once the move is complete")
        cache[n] = (w._state.round, w._published())
        return cache[n][1]

    def _dealt_mixtures(self) -> Mixtures:
        """The viewpoints' mixtures at the game's first position: its opening's (:meth:`_opening_ledgers`)
        when that position is a dealt one (no card played yet in its round), else none (a resampled game,
        or a position made by hand, counts as fully known)."""
        s = self._initial
        dealt = not s.over and s.completions == 0 and not any(s.centre) and \
            not any(pile for side in s.sides for pile in side) and \
            all(len(h) == HAND_SIZE for h in s.hands) and all(len(p) == self.options["payoff_size"] for p in s.payoff)
        if not dealt:
            return NO_MIXTURE
        w = self._blank(self.players, self.options, self._shuffle_key)
        w._state = s.clone()
        w._beliefs = w._opening_ledgers()
        return w._published()

    def _opening_ledgers(self) -> list[list[Ledger]]:
        """Each viewpoint's mixture after a tied opening, worked out from what everybody saw: the state's
        ``opening`` (the tied tops, in order, by face) and the payoff tops now.

        Each payoff pile keeps its cards through the opening (it is reshuffled on its own), so the opening
        is re-played on the piles as they are now: the first tops shown (every label is 0 then: nothing to
        weigh), then per tie the tied tops get their seat's tie label and go back into the piles, and the
        new tops turn up, one uniformly random card of each whole pile (:meth:`_reveal`, the payoff pile
        taken whole). When a face turns up whose hidden copies carry different labels (a tied copy, or the
        copy never seen), the components split by Bayes' rule, exactly as for a payoff card turned up in
        play. Which physical copy stands for a face shown does not matter: the reveal gives the labels of
        a face's hidden copies by weight, whichever copy is named; the last tops are the real ones. A text
        that does not fit the piles (a record made by hand) leaves the real bookkeeping."""
        s = self._state
        none: list[list[Ledger]] = [[], [], []]
        try:
            ties = [(Card.parse(a), Card.parse(b)) for a, b in _TIE_RE.findall(s.opening)]
        except InvalidCardError:
            return none
        if not ties:
            return none
        piles = [list(p) for p in s.payoff]
        shown = [[t[seat] for t in ties] + [piles[seat][-1]] for seat in (0, 1)]
        if any(not any(c.face == f.face for c in piles[seat]) for seat in (0, 1) for f in shown[seat]):
            return none
        w = self._blank(self.players, self.options, self._shuffle_key)
        w._state = s.clone()
        ws = w._state
        start: Ledger = (Fraction(1), (0,) * CARDS, _freeze(s.hand_marks))
        w._beliefs = [[start] for _ in VIEWS]

        def pick(seat: int, face: Card) -> Card:
            """A card of ``face``'s face in the seat's pile (which copy does not matter)."""
            return face if face in piles[seat] else next(c for c in piles[seat] if c.face == face.face)

        def turn_up(seat: int, card: Card) -> Card:
            """``card`` on top of its pile, the rest hidden under it."""
            ws.payoff[seat] = [c for c in piles[seat] if c != card] + [card]
            return card

        tops = [turn_up(seat, pick(seat, shown[seat][0])) for seat in (0, 1)]  # the first tops: all labels 0
        for step in range(1, len(ties) + 1):
            for seat, top in enumerate(tops):  # seen tied: known to be in that pile from now on
                tie = (TIE_LABEL[seat],)
                w._beliefs = [[(wt, lab[:top.id] + tie + lab[top.id + 1:], mk) for wt, lab, mk in comps]
                              for comps in w._beliefs]
                ws.payoff[seat] = piles[seat] + piles[seat][:1]  # reshuffled: the whole pile is hidden (the
                # last entry stands for the top, which is not a hidden place)
            for seat in (0, 1):
                card = pick(seat, shown[seat][step])
                children = {v: w._reveal(v, card, place=f"payoff {seat}") for v in VIEWS}
                tops[seat] = turn_up(seat, card)
                for v, ch in children.items():
                    w._settle(v, ch, collapse=False)
        ws.payoff = [list(p) for p in s.payoff]
        if not all(w._beliefs):
            return none
        out: list[list[Ledger]] = []
        for v, comps in zip(VIEWS, w._beliefs, strict=True):
            hidden = w._hidden_cards(v)
            truth = self._ledger_key(v, hidden, s.labels, _freeze(s.hand_marks))
            one = len(comps) == 1 and self._ledger_key(v, hidden, comps[0][1], comps[0][2]) == truth
            out.append([] if one else comps)
        return out

    def _published(self) -> Mixtures:
        """A re-playing game's mixtures as public information: each component's labels by face only (two
        copies of a face are interchangeable, so which id holds which label says nothing)."""
        assert self._beliefs is not None
        out = []
        for v, comps in zip(VIEWS, self._beliefs, strict=True):
            hidden = self._hidden_cards(v)
            out.append(tuple((w, tuple(sorted((c.face, lab[c.id]) for c in hidden)), mk) for w, lab, mk in comps))
        return (out[0], out[1], out[2])

    def _private_ledgers(self, viewpoint: int | None, comps: tuple[PublicLedger, ...]) -> list[Ledger]:
        """Components with labels per card id: the real labels, except that the viewpoint's hidden cards
        of each face take the component's labels of that face (in id order), and the face's cards in view
        the rest of the face's labels. (A mixture only moves labels between the copies of a face: which
        copy was seen is what it does not know; so a face's labels, hidden and seen, are the same in every
        component, and a position resampled from one is a consistent position.)"""
        hidden = sorted(((c.id, c.face) for c in self._hidden_cards(viewpoint)), key=lambda x: x[0])
        faces = sorted((face, i) for i, face in hidden)  # the order of a component's (face, label) list
        hidden_ids = {i for i, _ in hidden}
        real = self._state.labels
        out: list[Ledger] = []
        for w, face_labels, marks in comps:
            if len(face_labels) != len(faces) or any(a[0] != b[0] for a, b in zip(face_labels, faces, strict=True)):
                raise CorruptRecordError("a viewpoint's mixture does not match its hidden cards")
            labels = list(real)
            moved = set()
            for (face, label), (_, i) in zip(face_labels, faces, strict=True):
                if label != real[i]:
                    labels[i] = label
                    moved.add(face)
            for face in moved:
                ids = [c.id for c in COPIES[face]]
                rest = sorted(real[i] for i in ids)
                for i in ids:
                    if i in hidden_ids and labels[i] in rest:
                        rest.remove(labels[i])
                seen = [i for i in ids if i not in hidden_ids]
                if len(rest) == len(seen):
                    for i, label in zip(seen, rest, strict=True):
                        labels[i] = label
            out.append((w, tuple(labels), marks))
        return out

    def _round_start(self) -> int:
        """The number of the move that dealt the current round (0 if no move did)."""
        first = self.events_before(0)
        for e in range(len(self._events) - 1, -1, -1):
            event = self._events[e]
            if event.kind == "deal":
                return 0 if e < first else event.move_index
        return 0

    def _worker(self, start: int) -> SpiteMalice:
        """A copy of this game as it stood before move ``start``, for re-playing (no snapshots, no history)."""
        w = self._blank(self.players, self.options, self._shuffle_key)
        w._state = self.state_before(start)
        w._initial = w._state
        w._moves = self.moves[:start]
        return w

    def _hidden_cards(self, viewpoint: int | None) -> list[Card]:
        """The physical cards ``viewpoint`` cannot see."""
        return [p[4] for p in self._hidden_places(viewpoint)]

    def _ledgers(self, viewpoint: int | None) -> list[Ledger]:
        """The viewpoint's mixture as (weight, labels, marks); the real bookkeeping when it has none."""
        s = self._state
        if self._beliefs is not None:
            comps = self._beliefs[_view_index(viewpoint)]
        else:
            comps = self._private_ledgers(viewpoint, self._mixtures()[_view_index(viewpoint)])
        if not comps:
            return [(Fraction(1), tuple(s.labels), _freeze(s.hand_marks))]
        return list(comps)

    def _ambiguous(self, viewpoint: int | None, card: Card, admits: Any) -> bool:
        """Could ``card``, hidden from ``viewpoint`` and about to show its face, be for that viewer the other
        copy of its face, with another label? ``admits(label)``: the place it comes from may hold a card of
        that label. Then the viewer cannot tell which label left, and its bookkeeping becomes a mixture.
        (A cheap test on the real bookkeeping; :meth:`_reveal` does the weighing.)"""
        s = self._state
        other = COPIES[card.face][0] if COPIES[card.face][1] == card else COPIES[card.face][1]
        label = s.labels[other.id]
        if label == s.labels[card.id] or not admits(label):
            return False
        return other in s.stock or any(other in s.hands[p] for p in (0, 1) if p != viewpoint) \
            or any(other in pile[:-1] for pile in s.payoff)

    def _reveal(self, viewpoint: int | None, card: Card, *, seat: int | None = None, place: str = "hand"
                ) -> dict[tuple[Any, ...], Ledger]:
        """Split and reweight the viewpoint's mixture as ``card`` (hidden from it) shows its face.

        ``seat``: a uniformly random card of that hand is the one seen (a hand play, by the modelling
        assumption); else ``place`` ("stock" top, or "payoff 0"/"payoff 1" just under its top) shows it.
        Each component splits by the label of the card seen: weight times the expected number of the
        place's slots (all of the hand's) holding a card of that face and label; the child gives that
        label to the card seen and forgets the slot the public rule drops. Returned by key, before
        normalising (:meth:`_settle` finishes after the real move).
        """
        hidden = self._hidden_cards(viewpoint)
        copies = sorted((c for c in hidden if c.face == card.face), key=lambda c: c.id)
        after = [c for c in hidden if c != card]
        hidden_ids = [c.id for c in hidden]
        copy_ids = [c.id for c in copies]
        children: dict[tuple[Any, ...], Ledger] = {}
        s = self._state
        for w, labels, marks in self._ledgers(viewpoint):
            if seat is not None:
                query = [("hand", seat, m[0], m[1]) for m in marks[seat]]
            elif place == "stock":
                query = [("stock", -1, s.stock_parts[-1][0], s.stock_parts[-1][1])]
            else:
                query = [("payoff", int(place[-1]), 0, 0)]
            by_label = self._face_chances(viewpoint, labels, marks, hidden_ids, query, copy_ids)
            for ell, x in by_label.items():
                lab = list(labels)
                rest = sorted(labels[c.id] for c in copies)
                rest.remove(ell)
                lab[card.id] = ell
                for c, other_label in zip((c for c in copies if c != card), rest, strict=True):
                    lab[c.id] = other_label
                mk = marks
                if seat is not None:
                    hand = _drop_mark(marks[seat], ell)
                    mk = (hand, marks[1]) if seat == 0 else (marks[0], hand)
                key = self._ledger_key(viewpoint, after, lab, mk)
                old = children.get(key)
                children[key] = (w * x + old[0], old[1], old[2]) if old else (w * x, tuple(lab), mk)
        return children

    def _face_chances(self, viewpoint: int | None, labels: Any, marks: Any, hidden: list[int],
                      query: list[tuple[str, int, int, int]], face: list[int]) -> dict[int, Fraction]:
        """Per label, the expected number of ``query`` places holding a card of ``face`` with that label,
        under the bookkeeping (``labels``, ``marks``; ``hidden``: the ids of the hidden cards, ``face``: those
        of the face's hidden copies): :meth:`ChanceLaw.face_chances` of the law :meth:`_law_parts`
        builds, grouped by label, worked out from counts alone (the nested-count formula: ties first,
        then the labels of the place's block from the highest down)."""
        s = self._state
        his: dict[int, list[int]] = {}
        payoff = [max(len(s.payoff[seat]) - 1, 0) for seat in (0, 1)]
        if payoff[0] + payoff[1]:
            his[0] = [0] * (payoff[0] + payoff[1])
        for seat in (0, 1):
            if seat != viewpoint:
                for lo, hi in marks[seat]:
                    his.setdefault(lo, []).append(hi)
        for lo, hi, count in s.stock_parts:
            his.setdefault(lo, []).extend([hi] * count)
        los = sorted(his)
        n: dict[int, int] = {}
        nf: dict[int, int] = {}
        for i in hidden:
            label = labels[i]
            n[label] = n.get(label, 0) + 1
        for i in face:
            label = labels[i]
            nf[label] = nf.get(label, 0) + 1
        ties = n.get(TIE_LABEL[0], 0) + n.get(TIE_LABEL[1], 0)
        out: dict[int, Fraction] = {}
        for zone, seat, lo_q, hi_q in query:
            survive = Fraction(1)
            if zone == "payoff":
                tie = TIE_LABEL[seat]
                if n.get(tie):
                    free = payoff[seat]
                    if nf.get(tie):
                        out[tie] = out.get(tie, Fraction(0)) + Fraction(nf[tie], free)
                    survive *= Fraction(free - n[tie], free)
            block = [lb for lb in n if lb >= 0 and los[bisect_right(los, lb) - 1] == lo_q and lb <= hi_q]
            inner = sum(n[lb] for lb in n if lb >= 0 and los[bisect_right(los, lb) - 1] == lo_q and lb > hi_q)
            for label in sorted(block, reverse=True):
                free = sum(1 for h in his[lo_q] if h >= label) - inner - (ties if label == 0 else 0)
                if nf.get(label):
                    out[label] = out.get(label, Fraction(0)) + survive * Fraction(nf[label], free)
                survive *= Fraction(free - n[label], free)
                inner += n[label]
        return {label: x for label, x in out.items() if x}

    @staticmethod
    def _ledger_key(viewpoint: int | None, hidden: list[Card], labels: Any, marks: Marks) -> tuple[Any, ...]:
        """What a component says, by face only: the labels of the hidden cards of each face, and the
        slot marks of the hidden hands. Components with the same key are the same law."""
        cards = tuple(sorted((c.face, labels[c.id]) for c in hidden))
        return cards, tuple(marks[seat] for seat in (0, 1) if seat != viewpoint)

    def _settle(self, viewpoint: int | None, children: dict[tuple[Any, ...], Ledger], collapse: bool = True) -> None:
        """Normalise a split mixture, order it by key, keep at most :data:`MAX_LEDGERS` components (the
        heaviest, ties by key), and forget it when one component is left: that one is the real bookkeeping
        (``collapse=False`` keeps it, and keeps nothing when nothing is left)."""
        s = self._state
        beliefs = self._beliefs
        assert beliefs is not None
        live = sorted((k, v) for k, v in children.items() if v[0] > 0)
        cap = MAX_LEDGERS if self.options["completed_to"] == "bottom" else MAX_LEDGERS_SHUFFLE
        if len(live) > cap:
            live = sorted(sorted(live, key=lambda kv: (-kv[1][0], kv[0]))[:cap])
        total = sum((v[0] for _, v in live), Fraction(0))
        i = _view_index(viewpoint)
        truth = self._ledger_key(viewpoint, self._hidden_cards(viewpoint), s.labels, _freeze(s.hand_marks))
        if collapse and (not live or (len(live) == 1 and live[0][0] == truth)):
            beliefs[i] = []
            return
        beliefs[i] = [(w / total, lab, mk) for _, (w, lab, mk) in live]

    def _start_turn(self, seat: int) -> Iterator[None]:
        s = self._state
        s.to_move = seat
        need = HAND_SIZE - len(s.hands[seat])
        if need > 0:
            round_now = s.round
            yield from self._draw(seat, need, mid_turn=False)
            if s.over or s.round != round_now:
                return
        self._log("turn", f"seat {seat} to play", seat)
        yield

    def _draw(self, seat: int, need: int, mid_turn: bool) -> Iterator[None]:
        """Draw ``need`` cards (or what the stock holds); an empty stock makes the round a draw."""
        s = self._state
        if not s.stock:
            if mid_turn:
                s.turn += 1
            s.results.append([-1, 0])
            self._log("round-drawn", f"seat {seat} must draw but the stock is empty: round {s.round} is a draw, "
                      "no points", None, round=s.round)
            yield
            yield from self._end_round(None)
            return
        drawn: list[Card] = []
        marks = s.hand_marks[seat]
        beliefs = self._beliefs
        added: list[tuple[int, int]] = []
        for _ in range(min(need, len(s.stock))):
            layer = s.stock_parts[-1][:2]
            children = self._reveal(seat, s.stock[-1], place="stock") if beliefs is not None and (
                beliefs[_view_index(seat)] or self._ambiguous(seat, s.stock[-1], _marks_admit([layer]))) else None
            drawn.append(s.stock.pop())
            part = s.stock_parts[-1]
            marks.append([part[0], part[1]])
            added.append((part[0], part[1]))
            part[2] -= 1
            if part[2] == 0:
                s.stock_parts.pop()
            if children is not None:
                self._settle(seat, children)
        marks.sort()
        if beliefs is not None:  # every component's hand gets the same public slot marks
            for i, comps in enumerate(beliefs):
                beliefs[i] = [(w, lab, (tuple(sorted(mk[0] + tuple(added))), mk[1]) if seat == 0 else
                               (mk[0], tuple(sorted(mk[1] + tuple(added))))) for w, lab, mk in comps]
        s.hands[seat] = sorted(s.hands[seat] + drawn)
        short = f" (all the stock held; {need} were due)" if len(drawn) < need else ""
        word = "card" if len(drawn) == 1 else "cards"
        public = f"seat {seat} draws {len(drawn)} {word}{short}"
        self._log("draw", public, seat, private=f"{public}: {', '.join(str(c) for c in drawn)}",
                  private_to=seat, count=len(drawn))
        yield

    def _complete(self, k: int) -> Iterator[None]:
        s = self._state
        pile = s.centre[k - 1]
        s.centre[k - 1] = []
        s.completions += 1
        label = s.completions
        for card in pile:
            s.labels[card.id] = label
        if self._beliefs is not None:  # every component: the pile's cards are seen, with the new label
            ids = {card.id for card in pile}
            for i, comps in enumerate(self._beliefs):
                self._beliefs[i] = [(w, tuple(label if j in ids else x for j, x in enumerate(lab)), mk)
                                    for w, lab, mk in comps]
        rng = self._shuffle_rng()
        order = rng.permute(len(pile))
        cards = [pile[i] for i in order]
        if self.options["completed_to"] == "bottom":
            s.stock = cards + s.stock
            s.stock_parts.insert(0, [label, label, len(cards)])
            where = "put under the stock"
        else:
            merged = s.stock + cards
            order = rng.permute(len(merged))
            lo = s.stock_parts[0][0] if s.stock_parts else label
            s.stock = [merged[i] for i in order]
            s.stock_parts = [[lo, label, len(s.stock)]]
            where = "shuffled into the stock"
        self._log("complete", f"centre {k} is complete: its {len(pile)} cards are shuffled and {where} "
                  f"(stock {len(s.stock)})", s.to_move, pile=k, label=label)
        yield

    def _win(self, seat: int) -> Iterator[None]:
        s = self._state
        other = 1 - seat
        points = len(s.payoff[other])
        s.turn += 1
        s.scores[seat] += points
        s.results.append([seat, points])
        self._log("round-won", f"seat {seat} plays the last payoff card and wins round {s.round}: {points} "
                  f"points (the cards left in seat {other}'s payoff pile)", seat, round=s.round, points=points)
        yield
        yield from self._end_round(seat)

    def _end_round(self, round_winner: int | None) -> Iterator[None]:
        s = self._state
        if not self.options["match"]:
            s.over = True
            s.winner = round_winner
            return
        target = self.options["target"]
        score = f"{s.scores[0]} to {s.scores[1]}"
        if round_winner is not None and s.scores[round_winner] >= target:
            s.over = True
            s.winner = round_winner
            self._log("match", f"seat {round_winner} reaches {target} points and wins the match, {score}",
                      round_winner)
            yield
            return
        if s.round >= MAX_MATCH_ROUNDS:
            s.over = True
            s.winner = None if s.scores[0] == s.scores[1] else int(s.scores[1] > s.scores[0])
            result = "a draw" if s.winner is None else f"won by seat {s.winner}"
            self._log("match", f"the match stops after {MAX_MATCH_ROUNDS} rounds: {result}, {score}", s.winner)
            yield
            return
        s.round += 1
        self._lay_out(shuffled_deck(PACKS, self._shuffle_rng()))
        s.opening = self._choose_first()
        if self._beliefs is not None:
            self._beliefs = self._opening_ledgers()
        self._log("deal", f"round {s.round} dealt (scores {score}); {s.opening}", s.to_move, round=s.round)
        yield

    def stats(self) -> dict[str, float]:
        """``points``: the winner's points (the round's, or the match score; 0 when drawn); ``draw``: 1 if
        nobody won; ``rounds``: rounds played."""
        s = self._state
        points = 0 if s.winner is None else (s.scores[s.winner] if self.options["match"] else s.results[-1][1])
        return {"points": float(points), "draw": float(s.winner is None), "rounds": float(len(s.results))}

    # ------------------------------------------------------------------ views
    def _observe(self, seat: int | None) -> SpiteMaliceView:
        s = self._state
        return SpiteMaliceView(
            seat=seat, to_move=s.to_move,
            hand=None if seat is None else tuple(faces(s.hands[seat])),
            hand_sizes=(len(s.hands[0]), len(s.hands[1])),
            payoff_tops=tuple(face_of(p[-1]) if p else None for p in s.payoff),
            payoff_sizes=(len(s.payoff[0]), len(s.payoff[1])),
            sides=tuple(tuple(tuple(faces(pile)) for pile in s.sides[p]) for p in (0, 1)),
            centre=tuple(tuple(faces(pile)) for pile in s.centre),
            centre_values=tuple(len(pile) for pile in s.centre),
            centre_kings=tuple(tuple(i + 1 for i, c in enumerate(pile) if c.rank == Rank.KING)
                               for pile in s.centre),
            stock_size=len(s.stock),
            stock_layers=tuple((p[0], p[1], p[2]) for p in reversed(s.stock_parts)),
            scores=tuple(s.scores), round=s.round, turn=s.turn, target=self.options["target"],
            king_starts_pile=self.options["king_starts_pile"], over=s.over, winner=s.winner)

    # ------------------------------------------------------------------ hidden cards
    def _hidden_places(self, viewpoint: int | None, marks: Any = None) -> list[tuple[str, int, int, int, Card]]:
        """Every place ``viewpoint`` cannot see: (zone, seat or -1, lo, hi, card now there).

        Hand places carry the hand's marks in order (``marks``, by default the real ones), paired with the
        hand's cards in order; the pairing is arbitrary (a hand is a set), only the multiset of marks matters.
        """
        s = self._state
        hand_marks = s.hand_marks if marks is None else marks
        places: list[tuple[str, int, int, int, Card]] = []
        for seat in (0, 1):
            places += [("payoff", seat, 0, 0, c) for c in s.payoff[seat][:-1]]
        for seat in (0, 1):
            if seat != viewpoint:
                places += [("hand", seat, m[0], m[1], c)
                           for m, c in zip(hand_marks[seat], s.hands[seat], strict=True)]
        pos = 0
        for lo, hi, count in s.stock_parts:
            places += [("stock", -1, lo, hi, c) for c in s.stock[pos:pos + count]]
            pos += count
        return places

    def unseen_cards(self, viewpoint: int | None) -> list[Card]:
        """The cards ``viewpoint`` cannot locate, by face (sorted): opponent's hand (both hands for the
        table), the cards under both payoff tops, and the stock."""
        self.check_seat(viewpoint, "unseen_cards")
        return sorted(face_of(p[4]) for p in self._hidden_places(viewpoint))

    def unseen_counts(self, viewpoint: int | None) -> dict[str, int]:
        """How many unseen cards sit in the stock, under the payoff tops, and in hidden hands."""
        self.check_seat(viewpoint, "unseen_counts")
        s = self._state
        hands = sum(len(s.hands[p]) for p in (0, 1) if p != viewpoint)
        return {"stock": len(s.stock), "payoff": sum(len(p) - 1 for p in s.payoff if p), "hands": hands}

    def chance_law(self, viewpoint: int | None) -> ChanceLaw | MixedLaw:
        """The law of the hidden cards as ``viewpoint`` knows the game (see the module notes).

        Places are :meth:`_hidden_places` in that order. Groups, innermost first: the cards seen as a
        tied payoff top of seat s (only in seat s's payoff pile, under its top); then, block by block
        (``lo``) and label by label from the highest down, the cards of that label on the places of
        the block whose ``hi`` admits it. Label 0 (never seen) is last: its places are every place of
        block 0 that is left, payoff piles included.

        A :class:`~cardlab.chance.law.MixedLaw` when the viewpoint's knowledge is a mixture of
        bookkeepings (a hidden hand played a face whose copies carry different labels, see the module
        notes): one such law per component, in the components' public order.
        """
        self.check_seat(viewpoint, "chance_law")
        comps = self._ledgers(viewpoint)
        if len(comps) == 1:
            return self._law_parts(viewpoint, comps[0][1], comps[0][2])[0]
        return MixedLaw(tuple((w, self._law_parts(viewpoint, lab, mk)[0]) for w, lab, mk in comps))

    def _law_parts(self, viewpoint: int | None, labels: Any, marks: Any
                   ) -> tuple[ChanceLaw, list[int], list[tuple[str, int, int, int, Card]]]:
        """The chance law for one bookkeeping (``labels`` per card id, slot ``marks`` per hand), the label
        of each of its groups, and its places."""
        places = self._hidden_places(viewpoint, marks)
        los = sorted({p[2] for p in places})
        groups: list[Group] = []
        glabels: list[int] = []
        by_block: dict[int, dict[int, list[Card]]] = {lo: {} for lo in los}
        for seat, tie in enumerate(TIE_LABEL):
            cards = [p[4] for p in places if labels[p[4].id] == tie]
            if cards:
                where = tuple(i for i, p in enumerate(places) if p[0] == "payoff" and p[1] == seat)
                groups.append(Group(where, canonical(cards)))
                glabels.append(tie)
        for p in places:
            label = labels[p[4].id]
            if label >= 0:
                lo = los[bisect_right(los, label) - 1]
                by_block[lo].setdefault(label, []).append(p[4])
        for lo in los:
            for label in sorted(by_block[lo], reverse=True):
                where = tuple(i for i, p in enumerate(places) if p[2] == lo and p[3] >= label)
                groups.append(Group(where, canonical(by_block[lo][label])))
                glabels.append(label)
        names = tuple(f"{p[0]} {p[1]}" if p[0] != "stock" else "stock" for p in places)
        return ChanceLaw(names, tuple(groups)), glabels, places

    def next_draw_chances(self, viewpoint: int | None) -> dict[Card, Fraction]:
        """For each face, the exact chance that it is the top of the stock, as ``viewpoint`` knows the
        game: :meth:`ChanceLaw.place_law` of the stock's top place (empty when the stock is)."""
        self.check_seat(viewpoint, "next_draw_chances")
        if not self._state.stock:
            return {}
        law = self.chance_law(viewpoint)
        return law.place_law(len(law.names) - 1)

    def _resample_state(self, viewpoint: int | None, rng: np.random.Generator) -> SpiteMaliceState:
        """A state drawn from the viewpoint's law. From a mixture: a component drawn by weight, dealt,
        and the resampled state gets that component's labels (hidden cards) and slot marks (hidden
        hands): it is a real position whose own bookkeeping is its truth."""
        s = self._state
        law = self.chance_law(viewpoint)
        new = s.clone()
        comps = self._ledgers(viewpoint)
        if isinstance(law, MixedLaw):
            k, order = law.draw(rng)
            _, labels, marks = comps[k]
            new.labels = list(labels)  # the component's labels (of the cards in view too: the same by face)
            for seat in (0, 1):
                if seat != viewpoint:
                    new.hand_marks[seat] = [list(m) for m in marks[seat]]
            comp = law.components[k][1].cards
            cards = [comp[i] for i in order]
        else:
            cards = law.sample(rng)
            _, labels, marks = comps[0]  # the real bookkeeping, or the one component left after a cap
            new.labels = list(labels)
            for seat in (0, 1):
                if seat != viewpoint:
                    new.hand_marks[seat] = [list(m) for m in marks[seat]]
        places = self._hidden_places(viewpoint, new.hand_marks)
        payoff: list[list[Card]] = [[], []]
        hands: list[list[Card]] = [[], []]
        stock: list[Card] = []
        for (zone, seat, _, _, _), card in zip(places, cards, strict=True):
            if zone == "payoff":
                payoff[seat].append(card)
            elif zone == "hand":
                hands[seat].append(card)
            else:
                stock.append(card)
        for seat in (0, 1):
            new.payoff[seat] = payoff[seat] + new.payoff[seat][-1:]
            if seat != viewpoint:
                new.hands[seat] = sorted(hands[seat])
        new.stock = stock
        return new
