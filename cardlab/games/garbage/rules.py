"""Garbage (also called Trash or Ten).

Rules (``docs/rules.md#garbage``; defaults follow pagat.com, others are options)
-------------------------------------------------------------------------------------
* **Packs.** 1–2 players use one 52-card pack, 3–4 two packs, 5–6 three. No jokers. One player is
  a solitaire teaching mode: "how likely is it to complete a layout?" with no opponent.
* **Deal.** Each player gets one face-down card per layout position, positions A (1) to 10 in two
  rows of five. Nobody may look at them. The rest is the face-down stock; there is no discard pile.
* **A turn.** Draw the top stock card, or take the top discard instead. Taking the discard is
  offered only when that card could be used (placed, or a wild with a face-down spot left): taking
  an unusable card would only put it back, so it is not a real choice.
* **The chain.** A card A–10 whose spot is face down *must* go face up there; the face-down card it
  displaces is turned over and played the same way. The chain stops at a card that cannot be placed
  — a Q or K, a number whose spot already shows that number, or a number above the layout size —
  which goes face up on the discard pile, and the turn passes.
* **Wild cards** (Jacks by default; option ``wild="K"`` makes Kings wild and Jacks dead). A wild
  card *may* go face up on any face-down spot, displacing its card into the chain; this is a move
  (``"jack to 4"``), as is declining (``"discard"``). A pip card whose spot holds a face-up wild
  *may* displace it (``"displace jack on 7"``); the wild may then go to any face-down spot, or be
  discarded.
* **Empty stock.** When the stock runs out, the discard pile except its top card is shuffled into a
  new stock. That stock is a known multiset (every card in it was seen), which the exact
  probabilities use.
* **Winning a hand.** The first player whose every spot is face up (its own number or a wild) wins
  at once. Option ``last_round=True`` gives every other player one last turn instead; everyone who
  completes in it also counts as a hand winner, and ``winner`` is the first to complete.
* **Match** (option ``match=True``). Cards are reshuffled and dealt again after each hand. A hand
  winner has one spot fewer in every later hand (after one win spots A–9 and a 10 becomes
  unplayable for them). The winner of a hand plays first in the next. The match ends when a player
  with a single spot wins a hand (by filling it with an Ace or a wild).
* **Options.** ``wild="J"|"K"``, ``last_round=False``, ``layout_sizes=None`` (starting sizes per
  seat, 1–10 each), ``match=False``.

Stacked decks
-------------
``deck=[...]`` lists the top of the deck, top card first; unnamed cards follow in seeded random
order. Seat 0 gets the first cards for its spots A, 2, 3, … in order, then seat 1, and so on; the
next card is the top of the stock. A match redeals later hands from fresh shuffles.

What a viewer knows: the chance law
-----------------------------------
Nobody looks at a face-down card, so every seat and the table know the same: the face-up layouts, the
discard pile and the card in play. :meth:`Garbage.chance_law` states the law of the rest: before any
reshuffle every unseen card is equally likely on every face-down spot and stock place; after a reshuffle
the stock is a known multiset in random order and the face-down spots hold the other unseen cards.
"The next stock card" is drawn by the player to move at the start of a turn, and by the next player in
the middle of a chain (unless that player takes the discard instead); with an empty stock it comes from
the discard pile reshuffled when the turn passes. With two or three packs, views and events show faces
only (which pack a card is from is hidden).

Turns
-----
A turn is one player's go, from the draw to the discard (or the win). ``turns`` counts finished
turns; the winning turn counts. :meth:`Garbage.stats` adds, per finished game, ``hands`` (hands played,
1 unless ``match=True``) and ``shuffles`` (reshuffles of the discard pile into the stock, plus a match's
redeals).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.cards import Card, Rank, face_of, faces, shuffled_deck, stack_deck
from cardlab.chance.law import ChanceLaw, Group, canonical
from cardlab.dealer import SplitMix64
from cardlab.engine.game import Game, Move, Option
from cardlab.engine.state import (
    COUNTER_MAX,
    Bool,
    CardSpec,
    Choice,
    Int,
    ListOf,
    Maybe,
    PlayState,
    cards,
    counter,
    last_seat,
    per_seat,
)
from cardlab.errors import CorruptRecordError

PACKS_BY_PLAYERS = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
MAX_SPOTS = 10
WILD_RANKS = {"J": Rank.JACK, "K": Rank.KING}
"""The rank that is wild for each value of the option ``wild``."""
WILD_ROLE, DEAD_ROLE = MAX_SPOTS + 1, 0


def card_role(rank: int, wild: str) -> int:
    """What a card of ``rank`` is for the rules, under option ``wild`` (the one statement of it, read by the
    engine below and tabulated by the kernel, :func:`cardlab.games.garbage.kernel.kinds_of`): its spot
    1-10 for an Ace to a ten, :data:`WILD_ROLE` for the wild rank, :data:`DEAD_ROLE` for a Queen and for the
    one of Jack and King that is not wild (it can never be placed)."""
    if rank <= MAX_SPOTS:
        return int(rank)
    return WILD_ROLE if rank == WILD_RANKS[wild] else DEAD_ROLE


SPOT_NONE, SPOT_DOWN, SPOT_UP, SPOT_WILD = 0, 1, 2, 3
"""What a layout shows at the spot a card names (:func:`placement`): no such spot (a card that names none, or a
number above the layout's size), a face-down card, a face-up card of its own number, a face-up wild."""
SPOT_STATES = (SPOT_NONE, SPOT_DOWN, SPOT_UP, SPOT_WILD)
NOTHING, PLACE, CHOOSE_SPOT, DISPLACE = 0, 1, 2, 3
"""What a card in play does (:func:`placement`): nothing (it is discarded and the turn passes), goes face up on
its spot by force (the chain runs on), may go on a face-down spot of the player's choice (a wild), may displace
the wild on its spot."""
PLACEMENTS = (NOTHING, PLACE, CHOOSE_SPOT, DISPLACE)


def placement(role: int, spot: int, face_down_left: bool) -> int:
    """**The slot and chain rule**, stated once: what a card of ``role`` (:func:`card_role`) does for a player
    whose layout shows ``spot`` (:data:`SPOT_STATES`) at the spot the card names and has a face-down spot left
    or not (``face_down_left``). A wild may go on any face-down spot (:data:`CHOOSE_SPOT`); a card A-10 whose
    spot is face down must go there (:data:`PLACE`, the chain runs on with the card it turns over), and one
    whose spot shows a wild may displace it (:data:`DISPLACE`); any other card cannot be used
    (:data:`NOTHING`: discarded, the turn passes). :meth:`Garbage.can_use` (the discard may be taken) and
    :meth:`Garbage._chain` read it; the kernel tabulates it (:func:`cardlab.games.garbage.kernel.place_table`)."""
    if role == WILD_ROLE:
        return CHOOSE_SPOT if face_down_left else NOTHING
    if spot == SPOT_DOWN:
        return PLACE
    if spot == SPOT_WILD:
        return DISPLACE
    return NOTHING


def spot_label(spot: int) -> str:
    """Position names as printed on the layout: A, 2, …, 10."""
    return "A" if spot == 1 else str(spot)


def _sizes_ok(value: Any) -> bool:
    return value is None or (isinstance(value, (list, tuple)) and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 1 <= v <= MAX_SPOTS for v in value))


@dataclass(frozen=True, slots=True)
class GarbageMove(Move):
    """A Garbage move: ``source`` of a draw ("stock" or "discard"), ``spot`` (1 to 10) a wild is placed on
    or a wild is displaced from; a discard names neither."""

    source: str | None = None
    spot: int | None = None


def garbage_move(move: Move) -> GarbageMove:
    """``move`` as the Garbage move it is (every legal Garbage move is one)."""
    if not isinstance(move, GarbageMove):
        raise TypeError(f"{move!r} is not a Garbage move")
    return move


def spot_of(move: GarbageMove) -> int:
    """The spot a wild or displace move names."""
    if move.spot is None:
        raise TypeError(f"{move!r} names no spot")
    return move.spot


@dataclass
class GarbageState(PlayState):
    sizes: list[int]
    spots: list[list[Card]]
    up: list[list[bool]]
    stock: list[Card]          # top of the stock is the last element
    discard: list[Card]        # top of the discard pile is the last element
    held: list[Card]           # the card in play during a chain (0 or 1 card)
    to_move: int
    phase: str                 # "draw", "wild" (place or discard a wild), "displace" (a pip on a wild's spot)
    turn: int
    hand: int
    wins: list[int]
    hand_winners: list[list[int]]
    completed: list[int]       # seats that completed this hand, in order
    last_turns: list[int]      # seats still owed a last turn (option last_round)
    stock_known: bool          # the stock came from a reshuffle of seen cards
    shuffles: int
    over: bool
    hand_over: bool
    winner: int | None


def _seats(lo: int = 0, hi: Any = lambda g: g.players) -> ListOf:
    return ListOf(Int(0, last_seat), lo, hi, unique=True)


STATE_DESCRIPTION = {
    "sizes": per_seat(Int(1, MAX_SPOTS)), "spots": per_seat(ListOf(CardSpec(), 1, MAX_SPOTS)),
    "up": per_seat(ListOf(Bool(), 1, MAX_SPOTS)), "stock": cards(), "discard": cards(),
    "held": ListOf(CardSpec(), 0, 1), "to_move": Int(0, last_seat), "phase": Choice("draw", "wild", "displace"),
    "turn": counter(), "hand": Int(1, COUNTER_MAX), "wins": per_seat(counter()),
    "hand_winners": ListOf(_seats(1), 0, COUNTER_MAX), "completed": _seats(),
    "last_turns": _seats(0, lambda g: g.players - 1), "stock_known": Bool(), "shuffles": counter(),
    "over": Bool(), "hand_over": Bool(), "winner": Maybe(Int(0, last_seat)),
}


@dataclass(frozen=True)
class GarbageView:
    """What one seat (or the table, ``seat=None``) sees. Face-down cards are ``None``."""

    seat: int | None
    players: int
    to_move: int
    phase: str
    held: Card | None
    sizes: tuple[int, ...]
    layouts: tuple[tuple[Card | None, ...], ...]
    stock_size: int
    stock_known: bool
    discard: tuple[Card, ...]
    wild: Rank
    turn: int
    hand: int
    wins: tuple[int, ...]
    over: bool
    winner: int | None

    @property
    def discard_top(self) -> Card | None:
        return self.discard[-1] if self.discard else None


class Garbage(Game[GarbageState]):
    name = "garbage"
    title = "Garbage"
    aliases = ("trash", "ten")
    drawer = "cardlab.games.garbage.table:draw"
    min_players = 1
    max_players = 6
    default_players = 2
    state_class = GarbageState
    state_description = STATE_DESCRIPTION
    option_specs = {
        "wild": Option("J", lambda v: v in ("J", "K"), "'J' (Jacks wild, default) or 'K' (Kings wild)",
                       "which rank is wild", ("J", "K")),
        "last_round": Option(False, lambda v: isinstance(v, bool), "True or False",
                             "after a player completes, every other player gets one last turn"),
        "layout_sizes": Option(None, _sizes_ok, "None or a list with one size 1-10 per player",
                               "starting layout size for each seat"),
        "match": Option(False, lambda v: isinstance(v, bool), "True or False",
                        "play hands until the match ends, shrinking winners' layouts"),
    }

    # ------------------------------------------------------------------ set-up
    @classmethod
    def validate_options(cls, players: int, options: dict[str, Any]) -> None:
        sizes = options["layout_sizes"]
        if sizes is not None:
            if len(sizes) != players:
                from cardlab.errors import InvalidInputError, shown

                raise InvalidInputError(
                    f"option layout_sizes={shown(sizes)} has {len(sizes)} entries; give one size (1-10) for each "
                    f"of the {players} players")
            options["layout_sizes"] = [int(v) for v in sizes]

    @property
    def packs(self) -> int:
        return PACKS_BY_PLAYERS[self.players]

    @property
    def wild_rank(self) -> Rank:
        return WILD_RANKS[self.options["wild"]]

    @property
    def wild_word(self) -> str:
        return self.wild_rank.word

    def _deal(self, rng: SplitMix64, deck: list[str | Card] | None) -> GarbageState:
        sizes = list(self.options["layout_sizes"] or [MAX_SPOTS] * self.players)
        cards = stack_deck(deck, self.packs, rng) if deck is not None else shuffled_deck(self.packs, rng)
        state = GarbageState(
            sizes=sizes, spots=[], up=[], stock=[], discard=[], held=[], to_move=0, phase="draw", turn=0,
            hand=1, wins=[0] * self.players, hand_winners=[], completed=[], last_turns=[],
            stock_known=False, shuffles=0, over=False, hand_over=False, winner=None)
        self._lay_out(state, cards)
        return state

    @staticmethod
    def _lay_out(state: GarbageState, cards: list[Card]) -> None:
        """Seat 0 takes the first cards for spots A.., then seat 1, ...; the rest is the stock."""
        pos = 0
        state.spots, state.up = [], []
        for size in state.sizes:
            state.spots.append(cards[pos:pos + size])
            state.up.append([False] * size)
            pos += size
        state.stock = cards[pos:][::-1]
        state.discard = []
        state.held = []
        state.stock_known = False

    def _validate_state(self) -> None:
        s = self._state
        if len(s.sizes) != self.players or len(s.spots) != self.players or len(s.up) != self.players:
            raise CorruptRecordError(f"record fields initial.sizes, spots and up do not match {self.players} players")
        for seat in range(self.players):
            if len(s.spots[seat]) != s.sizes[seat] or len(s.up[seat]) != s.sizes[seat]:
                raise CorruptRecordError(f"record field initial.spots[{seat}] does not match its size {s.sizes[seat]}")
        if not 0 <= s.to_move < self.players or s.phase not in ("draw", "wild", "displace"):
            raise CorruptRecordError(f"record field initial.to_move: seat {s.to_move} to move in phase {s.phase!r}")
        if (s.phase == "draw") != (not s.held) or len(s.held) > 1:
            raise CorruptRecordError("record field initial.held does not fit the phase")
        self._validate_progress()

    def _validate_progress(self) -> None:
        """Face-up spots, the held card, the hand's end and the last round agree with the rules."""
        s = self._state
        bad = CorruptRecordError
        for p in range(self.players):
            for i, (card, up) in enumerate(zip(s.spots[p], s.up[p], strict=True)):
                if up and not self.is_wild(card) and self.pip(card) != i + 1:
                    raise bad(f"record field initial.spots[{p}][{i}] shows {card} face up on spot {spot_label(i + 1)}")
        if s.hand_over != s.over:
            raise bad("record fields initial.hand_over and initial.over disagree")
        if s.over:
            return
        seat_ = s.to_move
        if s.phase == "wild" and self.placement(seat_, s.held[0]) != CHOOSE_SPOT:
            raise bad(f"record field initial.held holds {s.held[0]}, which cannot be placed as a wild now")
        if s.phase == "displace" and self.placement(seat_, s.held[0]) != DISPLACE:
            raise bad(f"record field initial.held holds {s.held[0]}, which cannot displace a wild now")
        if s.last_turns and (not self.options["last_round"] or not s.completed or s.last_turns[0] != seat_
                             or set(s.last_turns) & set(s.completed[:1])):
            raise bad(f"record field initial.last_turns {s.last_turns} does not fit the last round")
        if s.completed and not s.last_turns:
            raise bad(f"record field initial.completed lists {s.completed}, but nobody is owed a last turn")

    def stats(self) -> dict[str, float]:
        """Per game, for ``simulate``'s extras: hands played and shuffles (reshuffles plus redeals)."""
        s = self._state
        return {"hands": s.hand, "shuffles": s.shuffles}

    def zones(self) -> dict[str, list[Card]]:
        s = self._state
        z = {f"layout {seat}": list(s.spots[seat]) for seat in range(self.players)}
        z.update(stock=list(s.stock), discard=list(s.discard), held=list(s.held))
        return z

    # ------------------------------------------------------------------ rules
    def pip(self, card: Card) -> int | None:
        """The spot a card belongs on (1-10), or None for court cards (:func:`card_role`)."""
        role = card_role(card.rank, self.options["wild"])
        return role if role <= MAX_SPOTS and role != DEAD_ROLE else None

    def is_wild(self, card: Card) -> bool:
        """Is ``card`` wild (:func:`card_role`)?"""
        return card_role(card.rank, self.options["wild"]) == WILD_ROLE

    def face_down_spots(self, seat: int) -> list[int]:
        up = self._state.up[seat]
        return [i + 1 for i, u in enumerate(up) if not u]

    def spot_has_wild(self, seat: int, spot: int) -> bool:
        s = self._state
        return s.up[seat][spot - 1] and self.is_wild(s.spots[seat][spot - 1])

    def spot_state(self, seat: int, card: Card) -> int:
        """What ``seat``'s layout shows at the spot ``card`` names (:data:`SPOT_STATES`; :data:`SPOT_NONE`
        when it names none or a spot beyond the layout)."""
        s = self._state
        spot = self.pip(card)
        if spot is None or spot > s.sizes[seat]:
            return SPOT_NONE
        if not s.up[seat][spot - 1]:
            return SPOT_DOWN
        return SPOT_WILD if self.spot_has_wild(seat, spot) else SPOT_UP

    def placement(self, seat: int, card: Card) -> int:
        """What ``card`` would do for ``seat`` now: the rules' :func:`placement`."""
        return placement(card_role(card.rank, self.options["wild"]), self.spot_state(seat, card),
                         not all(self._state.up[seat]))

    def can_use(self, seat: int, card: Card) -> bool:
        """Could ``seat`` do anything with ``card``: place it, displace a wild with it, or place a wild
        (:func:`placement` is not :data:`NOTHING`)."""
        return self.placement(seat, card) != NOTHING

    def can_place(self, seat: int, card: Card) -> bool:
        """Would ``card`` be placed (by force, or as an offered choice) by ``seat``? Same as :meth:`can_use`."""
        return self.can_use(seat, card)

    # ------------------------------------------------------------------ moves
    def _legal_moves(self) -> list[Move]:
        s = self._state
        seat = s.to_move
        if s.phase == "draw":
            moves: list[Move] = []
            if s.stock:
                moves.append(GarbageMove("draw stock", "draw", source="stock"))
            if s.discard and self.can_use(seat, s.discard[-1]):
                moves.append(GarbageMove("take discard", "draw", source="discard"))
            return moves
        word = self.wild_word
        if s.phase == "wild":
            moves = [GarbageMove(f"{word} to {spot_label(k)}", "wild", spot=k) for k in self.face_down_spots(seat)]
            return [*moves, GarbageMove("discard", "discard")]
        spot = self.pip(s.held[0])
        assert spot is not None
        return [GarbageMove(f"displace {word} on {spot_label(spot)}", "displace", spot=spot),
                GarbageMove("discard", "discard")]

    def _move_aliases(self, move: Move) -> set[str]:
        move = garbage_move(move)
        if move.kind == "wild" and move.spot == 1:
            return {f"{self.wild_word} to 1", "wild to a", "wild to 1"}
        if move.kind == "wild":
            return {f"wild to {move.spot}"}
        if move.kind == "displace" and move.spot == 1:
            return {f"displace {self.wild_word} on 1"}
        return set()

    def _apply(self, move: Move) -> Iterator[None]:
        move = garbage_move(move)
        s = self._state
        seat = s.to_move
        if move.kind == "draw":
            if move.source == "stock":
                card = s.stock.pop()
                self._log("draw", f"seat {seat} draws {card} from the stock", seat, card=card, source="stock")
            else:
                card = s.discard.pop()
                self._log("draw", f"seat {seat} takes {card} from the discard pile", seat, card=card,
                          source="discard")
            s.held = [card]
            yield
            yield from self._chain()
        elif move.kind == "wild":
            yield from self._place(spot_of(move))
            yield from self._chain()
        elif move.kind == "displace":
            spot = spot_of(move)
            card = s.held[0]
            wild = s.spots[seat][spot - 1]
            s.spots[seat][spot - 1] = card
            s.held = [wild]
            self._log("displace", f"{card} displaces the {wild} on spot {spot_label(spot)}", seat,
                      card=card, spot=spot, revealed=wild)
            yield
            yield from self._chain()
        else:
            yield from self._end_turn()

    def _place(self, spot: int) -> Iterator[None]:
        s = self._state
        seat = s.to_move
        card = s.held[0]
        under = s.spots[seat][spot - 1]
        s.spots[seat][spot - 1] = card
        s.up[seat][spot - 1] = True
        s.held = [under]
        wild = " (wild)" if self.is_wild(card) else ""
        self._log("place", f"{card}{wild} placed on spot {spot_label(spot)}, revealing {under}", seat,
                  card=card, spot=spot, revealed=under)
        yield

    def _chain(self) -> Iterator[None]:
        """Play the held card on: forced placements run by themselves; a choice stops the chain."""
        s = self._state
        seat = s.to_move
        while True:
            if all(s.up[seat]):
                yield from self._complete()
                return
            card = s.held[0]
            what = self.placement(seat, card)
            if what == PLACE:
                spot = self.pip(card)
                assert spot is not None  # a card placed by force names its spot
                yield from self._place(spot)
                continue
            if what == CHOOSE_SPOT:
                s.phase = "wild"
            elif what == DISPLACE:
                s.phase = "displace"
            else:
                yield from self._end_turn()
            return

    def _discard_held(self, why: str) -> None:
        s = self._state
        card = s.held.pop()
        s.discard.append(card)
        self._log("discard", f"{card} {why}: discarded", s.to_move, card=card)

    def _why_dead(self, card: Card) -> str:
        s = self._state
        seat = s.to_move
        spot = self.pip(card)
        if self.is_wild(card):
            return "is not placed"
        if spot is None:
            return "cannot be placed (a court card)"
        if spot > s.sizes[seat]:
            return (f"cannot be placed (seat {seat}'s layout has only {s.sizes[seat]} "
                    f"spot{'' if s.sizes[seat] == 1 else 's'})")
        if self.spot_has_wild(seat, spot):
            return f"does not displace the {self.wild_word}"
        return f"cannot be placed (spot {spot_label(spot)} already shows it)"

    def _end_turn(self) -> Iterator[None]:
        s = self._state
        self._discard_held(self._why_dead(s.held[0]))
        yield
        s.turn += 1
        if s.last_turns:
            s.last_turns.pop(0)
            if not s.last_turns:
                yield from self._finish_hand()
                return
        yield from self._pass_turn()

    def _pass_turn(self) -> Iterator[None]:
        s = self._state
        s.phase = "draw"
        s.to_move = s.last_turns[0] if s.last_turns else (s.to_move + 1) % self.players
        if not s.stock:
            if len(s.discard) <= 1:
                self._log("stuck", "the stock and discard pile are both empty: the hand is a draw", None)
                s.hand_over = True
                s.over = True
                yield
                return
            top = s.discard.pop()
            new = s.discard
            order = self._shuffle_rng().permute(len(new))
            s.stock = [new[i] for i in order]
            s.discard = [top]
            s.stock_known = True
            self._log("reshuffle", f"the stock is empty: {len(s.stock)} discards are shuffled into a new stock; "
                      f"{top} stays on the discard pile", None, size=len(s.stock))
            yield
        self._log("turn", f"seat {s.to_move} to play", s.to_move)

    def _complete(self) -> Iterator[None]:
        s = self._state
        seat = s.to_move
        if s.held:
            card = s.held.pop()
            s.discard.append(card)
        s.completed.append(seat)
        s.turn += 1
        self._log("complete", f"seat {seat} completes the layout", seat)
        yield
        if self.options["last_round"] and len(s.completed) == 1 and self.players > 1:
            s.last_turns = [(seat + k) % self.players for k in range(1, self.players)]
            self._log("last-round", f"last round: seats {s.last_turns} each get one more turn", seat)
            yield from self._pass_turn()
            return
        if s.last_turns:
            s.last_turns.pop(0)
            if s.last_turns:
                yield from self._pass_turn()
                return
        yield from self._finish_hand()

    def _finish_hand(self) -> Iterator[None]:
        s = self._state
        winners = list(s.completed)
        first = winners[0]
        s.hand_winners.append(winners)
        names = ", ".join(f"seat {w}" for w in winners)
        self._log("hand", f"hand {s.hand} won by {names}", first, winners=winners)
        s.phase = "draw"
        s.held = []
        if not self.options["match"]:
            s.hand_over = s.over = True
            s.winner = first
            yield
            return
        for w in winners:
            s.wins[w] += 1
        finishers = [w for w in winners if s.sizes[w] == 1]
        if finishers:
            s.hand_over = s.over = True
            s.winner = finishers[0]
            self._log("match", f"seat {finishers[0]} wins the match", finishers[0])
            yield
            return
        yield
        for w in winners:
            s.sizes[w] -= 1
        s.hand += 1
        s.completed = []
        s.last_turns = []
        s.to_move = first
        cards = shuffled_deck(self.packs, self._shuffle_rng())
        self._lay_out(s, cards)
        sizes = ", ".join(f"seat {i}: {n}" for i, n in enumerate(s.sizes))
        self._log("deal", f"hand {s.hand} dealt ({sizes} spots); seat {first} plays first", first)
        yield

    # ------------------------------------------------------------------ views and resampling
    def _observe(self, seat: int | None) -> GarbageView:
        s = self._state
        layouts = tuple(
            tuple(face_of(c) if u else None for c, u in zip(s.spots[p], s.up[p], strict=True))
            for p in range(self.players))
        return GarbageView(
            seat=seat, players=self.players, to_move=s.to_move, phase=s.phase,
            held=face_of(s.held[0]) if s.held else None, sizes=tuple(s.sizes), layouts=layouts,
            stock_size=len(s.stock), stock_known=s.stock_known, discard=tuple(faces(s.discard)),
            wild=self.wild_rank, turn=s.turn, hand=s.hand, wins=tuple(s.wins), over=s.over, winner=s.winner)

    def hidden_cards(self) -> list[Card]:
        """Cards nobody has seen, by face: face-down layout cards, and the stock unless it came from a
        reshuffle."""
        return self.chance_law(None).faces()

    def chance_law(self, viewpoint: int | None = None) -> ChanceLaw:
        """The law of the hidden cards (the same for every viewpoint: nobody looks at face-down cards).

        Places: every face-down spot (seat by seat, spot by spot), then the stock from the bottom up.
        Before any reshuffle the face-down cards and the stock are one group: every unseen card is
        equally likely on every hidden place. After a reshuffle the stock is a known multiset of seen
        cards in uniformly random order, its own group, and the face-down cards are the rest.
        """
        self.check_seat(viewpoint, "chance_law")
        s = self._state
        spots = [(p, i) for p in range(self.players) for i in range(s.sizes[p]) if not s.up[p][i]]
        names = tuple(f"seat {p} spot {spot_label(i + 1)}" for p, i in spots) + ("stock",) * len(s.stock)
        down = tuple(range(len(spots)))
        stock = tuple(range(len(spots), len(names)))
        down_cards = [s.spots[p][i] for p, i in spots]
        if s.stock_known:
            groups: tuple[Group, ...] = (Group(stock, canonical(s.stock)), Group(down, canonical(down_cards)))
        else:
            groups = (Group(down + stock, canonical(down_cards + s.stock)),)
        return ChanceLaw(names, groups)

    def _resample_state(self, viewpoint: int | None, rng: np.random.Generator) -> GarbageState:
        # Nobody looks at face-down cards, so every seat and the table share one view.
        new = self._state.clone()
        cards = self.chance_law(viewpoint).sample(rng)
        k = 0
        for p in range(self.players):
            for i in range(new.sizes[p]):
                if not new.up[p][i]:
                    new.spots[p][i] = cards[k]
                    k += 1
        new.stock = cards[k:]
        return new
