"""Spite and Malice rounds played by the greedy bot on plain integers.

The probability panels estimate chances by resampling the hidden cards and playing the round on with
the greedy bot (``cardlab/games/spite_malice/bot.py``) on both seats. Through the engine that costs a
Move object, an observation, events and an undo snapshot per move. This module plays the same rounds
on lists of small integers, many times faster.

Why it plays the same game as the engine
----------------------------------------
*Suits never matter.* A card is kept as its rank (Ace 1 … Queen 12, King 13). Every rule and every
choice of the greedy bot depends on ranks only: a centre pile takes the rank after its height (or a
King), the bot's keys compare ranks, distances, side-pile and centre-pile numbers, and where two
cards of one rank tie the bot takes the lowest suit, which is still a card of that rank. Hands are
kept sorted, as in the engine, so the rank sequence of every list is the engine's.

*The same card order.* Payoff piles, side piles, centre piles and the stock keep the engine's order
(bottom first). A completed centre pile is shuffled with the engine's generator,
``keyed_rng(shuffle_key, shuffles)``, which draws the same permutation whatever the suits; under
``completed_to="shuffle"`` the same generator then shuffles the merged stock. So a play-out with the
game's own key is the engine's play-out card for card (the tests compare the whole final position).

*The greedy bot, re-implemented.* With ``t`` the mover's payoff top, ``n`` the rank a centre pile
takes next (its height plus one) and ``d(n)`` the bot's distance from that pile to ``t`` (a table
``DIST[t][n]`` here; see the policy):

1. payoff top: a numbered card on the lowest pile that takes it; a King on the highest non-empty
   pile (lowest number on ties), or on centre 1 when all are empty and a King may start one;
2. a side-pile top (not a King) of rank ``n``: smallest ``(d(n), side, pile)``;
3. a hand card (not a King) of rank ``n``: smallest ``(d(n), rank, pile)``;
4. Kings: with ``K`` Kings in reach (side tops and hand), the pile that takes a King with the
   smallest ``(d(n), pile)``, if ``d(n) <= K``: from the lowest side pile topped by a King, else
   from the hand;
5. discard: the smallest ``(class, gap, -rank, side)`` over hand ranks (Kings only if nothing else);
   with an empty hand (a position normal play never reaches) the engine's first legal move.

Each key is packed into one integer so that one comparison orders it.

Rollouts
--------
A rollout redeals the hidden cards as ``game.resample(viewpoint, rng)`` does, then plays on. The
redeal (:class:`Redeal`) is worked out once per position and viewpoint.

*Exact* (``exact=True``): the same generator calls in the same order as the engine (the new shuffle
key, then the one ``rng.integers`` call of :meth:`cardlab.sim.chance.ChanceLaw.draw`, whose pool sizes do
not depend on the draws), and completed piles shuffled with the resampled game's key. The results
equal ``[playout(game.resample(viewpoint, rng)) ...]`` rollout for rollout.

*Fresh* (the default): the deals and play-outs run in the compiled kernel of
:mod:`cardlab.sim.jit_spite_malice` (numba; about 20 times faster than this module's Python loop). It
deals with the same law as :meth:`Redeal.deal_fresh` (a group of the chance law whose places no other
group shares by one uniformly random permutation, which is what the engine's draws give; nested groups
by the law's pool algorithm, each card on a uniformly chosen free place of its group) and
shuffles completed piles with uniform permutations, all drawn from one small generator per rollout seeded from
``rng``. Every deal and every shuffle has the engine's law and
they are independent as there, so the rollouts have the same law; only the particular random numbers
differ. Its play-out is this module's :func:`play` rule for rule (the tests compare the final
positions card for card). :meth:`Redeal.deal_fresh` and :class:`FreshShuffles` remain the same law in
Python (``playout(game, rng)`` shuffles with the latter).

A round that has not ended after :data:`MAX_MOVES` moves counts as no win (-1), the limit
``prob.play_on`` uses on the engine path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.engine.rng import keyed_rng
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.spite_malice.rules import HAND_SIZE, QUEEN, SIDE_PILES, SpiteMalice
from cardlab.sim.chance import ChanceLaw

IntArray = npt.NDArray[np.int64]
KING = 13
MAX_MOVES = 20_000
NO_KEY = 1 << 20        # larger than every packed key
KEY_RANGE = 2**63 - 1   # the engine draws shuffle keys from [0, KEY_RANGE)

Permute = Callable[[int], list[int]]      # n -> a permutation of range(n)
ShuffleSource = Callable[[int], Permute]  # the shuffle count -> the permutations of that shuffle


def distance_table(king_starts: bool) -> list[list[int]]:
    """``DIST[t][n]``: the greedy bot's distance to a payoff top of rank ``t`` (1-13) from a centre pile
    that needs rank ``n`` next (1-12; its height is ``v = n - 1``): ``t - 1 - v`` when the pile is below
    the top, ``(12 - v) + (t - 1)`` when it must be completed and rebuilt first; for a King top 0, or 1
    for an empty pile that a King may not start."""
    table = [[0] * (QUEEN + 1) for _ in range(KING + 1)]
    for t in range(1, KING + 1):
        for n in range(1, QUEEN + 1):
            v = n - 1
            if t == KING:
                table[t][n] = 0 if v > 0 or king_starts else 1
            else:
                table[t][n] = t - 1 - v if v <= t - 1 else (QUEEN - v) + (t - 1)
    return table


def discard_table() -> list[list[list[int]]]:
    """``DISCARD[j][s][c]``: the packed discard key ``(class, gap, -c, j)`` of hand rank ``c`` on side
    pile ``j`` (from 0) whose top is ``s`` (0: empty). Class 0: ``s = c + 1``; 1: ``s > c + 1`` (gap
    ``s - c``); 2: empty pile; 3: ``s = c``; 4: ``s < c`` (gap ``c - s``)."""
    table = [[[NO_KEY] * (KING + 1) for _ in range(KING + 1)] for _ in range(SIDE_PILES)]
    for j in range(SIDE_PILES):
        for s in range(KING + 1):
            for c in range(1, KING + 1):
                if s == 0:
                    cls, gap = 2, 0
                elif s == c + 1:
                    cls, gap = 0, 0
                elif s > c + 1:
                    cls, gap = 1, s - c
                elif s == c:
                    cls, gap = 3, 0
                else:
                    cls, gap = 4, c - s
                table[j][s][c] = (((cls << 4) | gap) << 6) | ((KING - c) << 2) | j
    return table


DIST = {True: distance_table(True), False: distance_table(False)}
DISCARD = discard_table()


@dataclass(slots=True)
class Position:
    """One round in progress as ranks; lists run bottom to top (top = last), hands are sorted."""

    payoff: list[list[int]]
    hands: list[list[int]]
    sides: list[list[list[int]]]
    centre: list[list[int]]
    stock: list[int]
    to_move: int
    turn: int
    shuffles: int


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a play-out needs (``first`` and ``payoff_size`` only shape a new deal)."""

    king_starts: bool
    refill: bool
    bottom: bool

    @classmethod
    def of(cls, game: SpiteMalice) -> Rules:
        o = game.options
        return cls(bool(o["king_starts_pile"]), bool(o["refill_on_empty"]), o["completed_to"] == "bottom")


def position_of(game: SpiteMalice) -> Position:
    """The game's position as ranks, in the engine's order."""
    s = game.state

    def ranks(cards: list[Any]) -> list[int]:
        return [int(c.rank) for c in cards]

    return Position(
        payoff=[ranks(p) for p in s.payoff], hands=[ranks(h) for h in s.hands],
        sides=[[ranks(pile) for pile in seat] for seat in s.sides], centre=[ranks(p) for p in s.centre],
        stock=ranks(s.stock), to_move=s.to_move, turn=s.turn, shuffles=s.shuffles)


# ---------------------------------------------------------------------------------------------- play
def _complete(centre: list[list[int]], k: int, stock: list[int], bottom: bool, source: ShuffleSource,
              shuffles: int) -> int:
    """Centre pile ``k`` reached the Queen: shuffle it under the stock (or into it); returns the new
    shuffle count."""
    pile = centre[k]
    centre[k] = []
    permute = source(shuffles)
    cards = [pile[i] for i in permute(len(pile))]
    if bottom:
        stock[:0] = cards
    else:
        merged = stock + cards
        stock[:] = [merged[i] for i in permute(len(merged))]
    return shuffles + 1


def keyed_source(key: int) -> ShuffleSource:
    """The engine's in-game shuffles of a game with shuffle key ``key``: shuffle number ``n`` draws its
    permutations from ``keyed_rng(key, n)``."""
    def source(count: int) -> Permute:
        gen = keyed_rng(key, count)
        return lambda n: gen.permutation(n).tolist()
    return source


_ROWS_OF_12 = np.tile(np.arange(QUEEN), (64, 1))


class FreshShuffles:
    """Shuffles drawn from ``rng``: uniform permutations, independent of each other and of the deal.

    A completed pile always has 12 cards, so its permutations are drawn 64 at a time (one
    ``Generator.permuted`` call shuffles each row of a 12-column table on its own); a merged stock
    (``completed_to="shuffle"``) gets its own ``Generator.permutation``.
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.ready: list[list[int]] = []

    def source(self, count: int) -> Permute:
        return self.permute

    def permute(self, n: int) -> list[int]:
        if n != QUEEN:
            order: list[int] = self.rng.permutation(n).tolist()
            return order
        if not self.ready:
            self.ready = self.rng.permuted(_ROWS_OF_12, axis=1).tolist()
        return self.ready.pop()


def play(pos: Position, rules: Rules, source: ShuffleSource, one_turn: bool = False) -> tuple[int, bool]:
    """Play ``pos`` on with greedy on both seats to the end of the round (or of the current turn).

    ``pos`` is changed in place to the final position. ``source(n)`` permutes for the
    ``n``-th in-game shuffle. Returns ``(winner, paid)``: the seat that won the round (-1: drawn,
    not finished within :data:`MAX_MOVES`, or stopped after one turn) and whether a payoff card was
    played. The loop is written for speed: ``need[k]`` is the rank centre pile ``k`` takes next,
    ``tops[p][j]`` the top of side pile ``j`` (0 when empty), and each choice is one packed key.
    """
    payoff, hands, sides, centre, stock = pos.payoff, pos.hands, pos.sides, pos.centre, pos.stock
    king_starts, refill, bottom = rules.king_starts, rules.refill, rules.bottom
    dist = DIST[king_starts]
    d0, d1, d2, d3 = DISCARD
    need = [len(c) + 1 for c in centre]
    tops = [[pile[-1] if pile else 0 for pile in seat] for seat in sides]
    p, turn, shuffles = pos.to_move, pos.turn, pos.shuffles
    paid = False
    moves = 0
    while True:                                     # one turn of seat p per pass
        hand, pay, tp, own = hands[p], payoff[p], tops[p], sides[p]
        while True:                                 # one move per pass; break: the turn is over
            moves += 1
            if moves > MAX_MOVES:
                pos.to_move, pos.turn, pos.shuffles = p, turn, shuffles
                return -1, paid
            t = pay[-1]
            # 1. the payoff top: a numbered card on the first pile that takes it, a King on the highest pile
            if t in need or (t == KING and (king_starts or max(need) > 1)):
                k = need.index(t) if t != KING else need.index(max(need))
                centre[k].append(pay.pop())
                paid = True
                if not pay:                         # the last payoff card wins the round
                    pos.to_move, pos.turn, pos.shuffles = p, turn + 1, shuffles
                    return p, True
                if need[k] == QUEEN:
                    shuffles = _complete(centre, k, stock, bottom, source, shuffles)
                    need[k] = 1
                else:
                    need[k] += 1
                continue
            dt = dist[t]
            n0, n1, n2 = need
            card = 0
            # 2. a side-pile top that fits (never a King): smallest (distance, side, pile)
            best = NO_KEY
            if n0 in tp:
                best = (dt[n0] << 4) | (tp.index(n0) << 2)
            if n1 in tp:
                key = (dt[n1] << 4) | (tp.index(n1) << 2) | 1
                if key < best:
                    best = key
            if n2 in tp:
                key = (dt[n2] << 4) | (tp.index(n2) << 2) | 2
                if key < best:
                    best = key
            if best != NO_KEY:
                k, j = best & 3, best >> 2 & 3
            elif n0 in hand or n1 in hand or n2 in hand:
                # 3. a hand card that fits (never a King): smallest (distance, rank, pile)
                if n0 in hand:
                    best = (dt[n0] << 6) | (n0 << 2)
                if n1 in hand:
                    key = (dt[n1] << 6) | (n1 << 2) | 1
                    if key < best:
                        best = key
                if n2 in hand:
                    key = (dt[n2] << 6) | (n2 << 2) | 2
                    if key < best:
                        best = key
                k, card = best & 3, best >> 2 & 15
            else:
                # 4. a King on the closest pile that takes one, if within reach of the Kings at hand
                j = -1
                kings = tp.count(KING) + hand.count(KING)
                if kings:
                    best = NO_KEY
                    if n0 > 1 or king_starts:
                        best = dt[n0] << 2
                    if n1 > 1 or king_starts:
                        key = (dt[n1] << 2) | 1
                        if key < best:
                            best = key
                    if n2 > 1 or king_starts:
                        key = (dt[n2] << 2) | 2
                        if key < best:
                            best = key
                    if best >> 2 <= kings:          # NO_KEY >> 2 exceeds every count of Kings
                        k = best & 3
                        if KING in tp:
                            j = tp.index(KING)
                        else:
                            card = KING
                if not card and j < 0:
                    if not hand:
                        k, j = _first_side_play(tp, need, king_starts, p)
                    else:
                        # 5. discard: smallest (class, gap, -rank, side); Kings only if nothing else
                        pool = hand if hand[-1] != KING else ([c for c in hand if c != KING] or hand)
                        r0, r1, r2, r3 = d0[tp[0]], d1[tp[1]], d2[tp[2]], d3[tp[3]]
                        best = NO_KEY
                        for c in pool:
                            key = r0[c]
                            if key < best:
                                best = key
                            key = r1[c]
                            if key < best:
                                best = key
                            key = r2[c]
                            if key < best:
                                best = key
                            key = r3[c]
                            if key < best:
                                best = key
                        card, j = KING - (best >> 2 & 15), best & 3
                        hand.remove(card)
                        own[j].append(card)
                        tp[j] = card
                        turn += 1
                        break
            if card:                                # hand card to centre pile k
                hand.remove(card)
                centre[k].append(card)
                if need[k] == QUEEN:
                    shuffles = _complete(centre, k, stock, bottom, source, shuffles)
                    need[k] = 1
                else:
                    need[k] += 1
                if hand:
                    continue
                if not refill:                      # an emptied hand ends the turn
                    turn += 1
                    break
                if not stock:                       # the refill finds no stock: the round is drawn
                    pos.to_move, pos.turn, pos.shuffles = p, turn + 1, shuffles
                    return -1, paid
                m = HAND_SIZE if len(stock) > HAND_SIZE else len(stock)
                hand += stock[-m:]
                del stock[-m:]
                hand.sort()
                continue
            pile = own[j]                           # side pile j to centre pile k
            centre[k].append(pile.pop())
            tp[j] = pile[-1] if pile else 0
            if need[k] == QUEEN:
                shuffles = _complete(centre, k, stock, bottom, source, shuffles)
                need[k] = 1
            else:
                need[k] += 1
        # the turn is over: the other seat draws up to five and plays
        if one_turn:
            break
        p = 1 - p
        hand = hands[p]
        m = HAND_SIZE - len(hand)
        if m > 0:
            if not stock:                           # a turn starts without stock: the round is drawn
                break
            if m > len(stock):
                m = len(stock)
            hand += stock[-m:]
            del stock[-m:]
            hand.sort()
    pos.to_move, pos.turn, pos.shuffles = p, turn, shuffles
    return -1, paid


def _first_side_play(tp: list[int], need: list[int], king_starts: bool, seat: int) -> tuple[int, int]:
    """With an empty hand nothing can be discarded, and the bot takes the engine's first legal move: a
    side-pile top (here a King, as every other fitting top was played) in side then pile order.
    Returns ``(pile, side)``."""
    for j in range(SIDE_PILES):
        if tp[j] == KING:
            for k, n in enumerate(need):
                if n > 1 or king_starts:
                    return k, j
    raise CorruptRecordError(f"seat {seat} has an empty hand and no legal move in this position "
                             f"(side tops {tp}, centre needs {need})")


# ---------------------------------------------------------------------------------------------- resampling
@dataclass(frozen=True, slots=True)
class Redeal:
    """The engine's redeal of the hidden cards for one position and viewpoint, worked out once.

    The game's :meth:`~cardlab.games.spite_malice.SpiteMalice.chance_law` places the hidden cards group
    by group (tie cards, then labels from the highest down), each card on a place drawn uniformly from
    the free places of its group. The pool sizes are fixed by the groups alone. The plan keeps, per
    draw, the card's rank, the places that join (a group's places at its first draw; places already
    taken are skipped), and the pool size.

    A group whose places no other group shares is, in law, dealt by a uniformly random bijection of
    its cards onto its places, which one ``Generator.permutation`` draws: :meth:`deal_fresh` uses
    that, :meth:`deal` the engine's calls.
    """

    base: Position
    ranks: tuple[int, ...]
    joins: tuple[tuple[int, ...], ...]
    sizes: IntArray
    payoff_hidden: tuple[int, int]
    hand_seats: tuple[int, ...]
    places: int
    simple: tuple[tuple[IntArray, IntArray], ...]    # per simple block: its places, its card ranks
    nested: tuple[tuple[int, int], ...]              # other groups: their range of draws
    law: ChanceLaw                                   # the game's chance law for this viewpoint

    @classmethod
    def of(cls, game: SpiteMalice, viewpoint: int | None) -> Redeal:
        s = game.state
        law = game.chance_law(viewpoint)
        places = len(law.names)
        ranks: list[int] = []
        joins: list[tuple[int, ...]] = []
        simple: list[tuple[IntArray, IntArray]] = []
        nested: list[tuple[int, int]] = []
        sets = [set(g.places) for g in law.groups]
        for i, g in enumerate(law.groups):
            first = len(ranks)
            group_ranks = [int(c.rank) for c in g.cards]
            ranks += group_ranks
            joins += [g.places] + [()] * (len(g.cards) - 1)
            if not g.cards:
                continue
            alone = all(not (sets[i] & sets[j]) for j in range(len(sets)) if j != i)
            if alone:
                simple.append((np.array(g.places, dtype=np.int64), np.array(group_ranks, dtype=np.int64)))
            else:
                nested.append((first, len(ranks)))
        hand_seats = tuple(seat for seat in (0, 1) if seat != viewpoint)
        return cls(position_of(game), tuple(ranks), tuple(joins), np.array(law.sizes, dtype=np.int64),
                   (max(len(s.payoff[0]) - 1, 0), max(len(s.payoff[1]) - 1, 0)), hand_seats, places,
                   tuple(simple), tuple(nested), law)

    @classmethod
    def cached(cls, game: SpiteMalice, viewpoint: int | None) -> Redeal:
        """:meth:`of`, kept for the last game asked about: callers that spend a time budget ask for a
        few rollouts at a time from one position. The key is the engine's own test for "the position
        has not changed" (its legal-move cache): the same state object, with the same numbers of moves
        and events; the state is held, so its identity cannot be reused by another object."""
        key = (game.state, game.move_count, game.event_count, viewpoint)
        hit = _PLAN_CACHE.get("last")
        if hit is not None and hit[0][0] is key[0] and hit[0][1:] == key[1:]:
            return hit[1]
        plan = cls.of(game, viewpoint)
        _PLAN_CACHE["last"] = (key, plan)
        return plan

    def deal(self, rng: np.random.Generator) -> tuple[Position, int]:
        """A resampled position and its new shuffle key, drawn with exactly the generator calls of
        ``game.resample(viewpoint, rng)`` (so the same generator state gives the same position)."""
        key = int(rng.integers(0, KEY_RANGE))
        ranks = self.ranks
        placed = [ranks[i] for i in self.law.draw(rng)]
        return self._position(placed), key

    def deal_fresh(self, rng: np.random.Generator) -> Position:
        """A resampled position with the same law as :meth:`deal`, drawn faster (no shuffle key)."""
        return self._position(self.fresh_places(rng))

    def fresh_places(self, rng: np.random.Generator) -> list[int]:
        """The rank on each hidden place, in the engine's order of places: a simple block by one random
        permutation, a nested block by the engine's algorithm."""
        if self.simple:
            array = np.zeros(self.places, dtype=np.int64)
            for where, ranks in self.simple:
                array[where[rng.permutation(where.size)]] = ranks
            placed: list[int] = array.tolist()
        else:
            placed = [0] * self.places
        for first, end in self.nested:
            self._draw_in_turn(placed, first, end, rng)
        return placed

    def _draw_in_turn(self, placed: list[int], first: int, end: int, rng: np.random.Generator) -> None:
        """The engine's draws ``first`` to ``end`` (whole blocks): each card on a uniformly chosen free
        place of the pool, the last free place taking the chosen one's slot."""
        pool: list[int] = []
        picks = rng.integers(self.sizes[first:end]).tolist()
        for rank, join, pick in zip(self.ranks[first:end], self.joins[first:end], picks, strict=True):
            if join:
                pool += [q for q in join if placed[q] == 0]
            placed[pool[pick]] = rank
            pool[pick] = pool[-1]
            pool.pop()

    def _position(self, placed: list[int]) -> Position:
        """The base position with the hidden places (payoff piles under their tops, hidden hands,
        stock, in the engine's order of places) filled from ``placed``."""
        b = self.base
        n0, n1 = self.payoff_hidden
        payoff = [placed[:n0] + b.payoff[0][-1:], placed[n0:n0 + n1] + b.payoff[1][-1:]]
        at = n0 + n1
        hands = [list(b.hands[0]), list(b.hands[1])]
        for seat in self.hand_seats:
            size = len(b.hands[seat])
            hands[seat] = sorted(placed[at:at + size])
            at += size
        return Position(payoff=payoff, hands=hands, sides=[[list(x) for x in seat] for seat in b.sides],
                        centre=[list(x) for x in b.centre], stock=placed[at:], to_move=b.to_move, turn=b.turn,
                        shuffles=b.shuffles)


_PLAN_CACHE: dict[str, tuple[tuple[Any, int, int, int | None], Redeal]] = {}


# ---------------------------------------------------------------------------------------------- API
def supports(game: Any) -> bool:
    """Spite and Malice with every option, one round at a time: ``match=True`` is left to the engine
    (a match winner needs the later rounds too)."""
    return isinstance(game, SpiteMalice) and not game.options["match"]


def _check(game: Any, what: str) -> SpiteMalice:
    if not isinstance(game, SpiteMalice):
        raise InvalidInputError(f"{what} plays Spite and Malice games only; got {game!r}")
    if game.options["match"]:
        raise InvalidInputError(f"{what} plays single rounds; this game has match=True, which it does not handle "
                                "(accepted: match=False)")
    return game


def _check_run(game: Any, viewpoint: int | None, n: Any, rng: Any, what: str) -> SpiteMalice:
    g = _check(game, what)
    g.check_seat(viewpoint, what)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidInputError(f"{what}: n={n!r} is not allowed; give a positive whole number of play-outs")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"{what}: rng={rng!r} is not a numpy.random.Generator")
    return g


def playout(game: SpiteMalice, rng: np.random.Generator | None = None) -> tuple[int, int]:
    """Play this exact position (nothing resampled) to the round's end with greedy on both seats.

    Returns ``(winner, turns)``: the round's winner (-1: a drawn round) and the game's ``turns`` at
    the end. With ``rng=None`` completed piles are shuffled with the game's own key, so the result is
    the engine's greedy play-out, card for card; with a generator they are shuffled from it instead.
    The game itself is not changed.
    """
    g = _check(game, "playout")
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"playout: rng={rng!r} is not a numpy.random.Generator (or None)")
    if g.is_over:
        return (-1 if g.winner is None else g.winner), g.turns
    pos = position_of(g)
    winner, _ = play(pos, Rules.of(g), keyed_source(g.shuffle_key) if rng is None else FreshShuffles(rng).source)
    return winner, pos.turn


def _runs(game: SpiteMalice, viewpoint: int | None, n: int, rng: np.random.Generator, exact: bool,
          one_turn: bool) -> IntArray:
    plan = Redeal.cached(game, viewpoint)
    rules = Rules.of(game)
    if not exact:
        # imported here: numba's import costs a few tenths of a second, paid at the first fresh rollout
        from cardlab.sim import jit_spite_malice

        return jit_spite_malice.rollouts(plan, rules, n, rng, one_turn)
    out = np.empty(int(n), dtype=np.int64)
    for i in range(int(n)):
        pos, key = plan.deal(rng)
        winner, paid = play(pos, rules, keyed_source(key), one_turn)
        out[i] = paid if one_turn else winner
    return out


def rollouts_from(game: SpiteMalice, viewpoint: int | None, n: int, rng: np.random.Generator, *,
                  exact: bool = False) -> IntArray:
    """``n`` greedy play-outs of the round, the hidden cards redealt for each as ``viewpoint`` knows
    the game (``game.resample``'s law). Returns the winners, shape ``(n,)``, -1 for a drawn round.
    ``exact=True`` makes the engine's generator calls and shuffles completed piles with each
    resampled game's key, so the results equal the engine's one for one; the default runs the
    compiled kernel, whose deals and shuffles have the same law (see the module notes).
    """
    g = _check_run(game, viewpoint, n, rng, "rollouts_from")
    if g.is_over:
        return np.full(int(n), -1 if g.winner is None else g.winner, dtype=np.int64)
    return _runs(g, viewpoint, n, rng, exact, one_turn=False)


def payoff_this_turn(game: SpiteMalice, viewpoint: int | None, n: int, rng: np.random.Generator, *,
                     exact: bool = False) -> IntArray:
    """``n`` resampled greedy play-outs of the rest of the current turn: 1 where the player to move
    played at least one payoff card before the turn ended, else 0 (all 0 for a finished game)."""
    g = _check_run(game, viewpoint, n, rng, "payoff_this_turn")
    if g.is_over:
        return np.zeros(int(n), dtype=np.int64)
    return _runs(g, viewpoint, n, rng, exact, one_turn=True)
