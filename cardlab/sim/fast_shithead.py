"""Shithead played by the greedy bot on every seat, in a tight pure-Python loop.

The probability panels estimate chances by resampling the hidden cards and playing on with the greedy
bots. Through the engine each move builds legal moves, an observation, an undo snapshot and events; here
a play-out is a loop over small integers that makes the same decisions and reaches the same end.

Why the play-out is the engine's game
-------------------------------------
*Suits never matter.* Whether a card fits, the run of equal ranks that clears the pile, who starts
(``first="lowest3"``) and every choice of the greedy bot depend on ranks only; the engine's choice of
which physical card of a rank to play changes nothing later. So a card is kept as its power
(3–14, with 2 and 10 special) and a player's cards as a count per rank.

*No chance after the deal.* Shithead has no in-game shuffle: the draw pile is used in its order and
face-down cards are turned lowest position first. Given a state, a greedy play-out is a pure function
of it, and this module computes the same function: the winner, the ``turns`` counter, the finishing
order (``play_to_last``) and the safety rule (``max_turns``). The tests check this card for card
against the engine on fresh deals, set-up positions, mid-game positions and every option.

*The greedy bot, exactly* (``cardlab/games/shithead/bot.py``): in the set-up, put face up a 10, else a
2, else the highest card; in play, the lowest fitting ordinary rank (not 2 or 10) with all its cards,
else one 10, else one 2, else pick up the pile; with no hand and no face-up card, turn the
lowest-numbered face-down card.

Encoding
--------
Counts per rank sit in 4-bit fields of one integer: rank ``r`` (its power, 2–14) adds ``1 << 4r``.
Two packs hold 8 cards of a rank, so a field never overflows, and picking up the pile is one addition
``hand + pile``. The ranks present are ``(h | h>>1 | h>>2 | h>>3) & LOW`` (bit ``4r`` set when the
count is not 0); the lowest fitting ordinary rank is the lowest set bit of that mask and a per-top
``ORDINARY_FITS`` mask.

Resampling
----------
:func:`rollouts_from` and :func:`must_pick_up` redeal the hidden cards as ``Game.resample`` does, in
rank space: the same pool of unseen cards in the same (canonical) order, the same draws from the generator (the
new shuffle key, then one permutation), the same slices for face-down slots, draw pile and hands. A
play-out therefore equals ``playout(game.resample(viewpoint, rng))`` with the same generator, which
the tests check, while skipping the card objects, sorting and state copies of the engine's resample.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card, Rank
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.games.shithead.rules import FACE_UP, REFILL, RUN_TO_CLEAR, Shithead, ShitheadState, rank_power

IntArray = npt.NDArray[np.int64]

TWO, TEN, ACE = 2, 10, 14
ONE = [1 << (4 * r) for r in range(ACE + 1)]                  # one card of rank r
LOW = sum(ONE[r] for r in range(TWO, ACE + 1))                 # bit 0 of every rank's field
SPECIAL = ONE[TWO] | ONE[TEN]
TEN_FIELD = 15 * ONE[TEN]
TWO_FIELD = 15 * ONE[TWO]
# FITS[top]: ranks that may go on a pile whose top is ``top`` (0: empty pile; a 2 resets)
FITS = [LOW if t in (0, TWO) else sum(ONE[r] for r in range(t, ACE + 1)) | SPECIAL for t in range(ACE + 1)]
ORDINARY_FITS = [m & ~SPECIAL for m in FITS]
_POWER_OF_RANK = [0] + [rank_power(Rank(v)) for v in range(1, 14)]  # indexed by the rank's value (fast)


class Playout(NamedTuple):
    """The end of a play-out: ``winner`` (-1 for none), the game's ``turns`` counter, the finishing
    order ``ranking`` (seats in the order they went out) and whether the safety rule stopped it."""

    winner: int
    turns: int
    ranking: list[int]
    stopped: bool


@dataclass(frozen=True)
class _Rules:
    four_again: bool
    to_last: bool
    lowest3: bool
    max_turns: int


@dataclass
class _Table:
    """One position in rank space. ``down[p]`` lists the face-down ranks still there, the next to be
    turned (lowest position) last; ``draw`` has its top last, as in the engine."""

    hands: list[int]
    hand_sizes: list[int]
    up: list[int]
    up_sizes: list[int]
    down: list[list[int]]
    draw: list[int]
    pile: int
    pile_size: int
    top: int
    run: int
    to_move: int
    setup: bool
    turn: int
    ranking: list[int]
    winner: int
    over: bool
    stopped: bool


def supports(game: Any) -> bool:
    """Every Shithead game, with every option and player count (2–5)."""
    return isinstance(game, Shithead)


def _rules(game: Shithead) -> _Rules:
    o = game.options
    return _Rules(bool(o["four_kind_plays_again"]), bool(o["play_to_last"]), o["first"] == "lowest3",
                  int(o["max_turns"]))


def _counts(cards: list[Card]) -> int:
    return sum(ONE[_POWER_OF_RANK[c.rank]] for c in cards)


def _table(s: ShitheadState) -> _Table:
    top = _POWER_OF_RANK[s.pile[-1].rank] if s.pile else 0
    run = 0
    for c in reversed(s.pile):
        if _POWER_OF_RANK[c.rank] != top:
            break
        run += 1
    return _Table(
        hands=[_counts(h) for h in s.hands], hand_sizes=[len(h) for h in s.hands],
        up=[_counts(u) for u in s.face_up], up_sizes=[len(u) for u in s.face_up],
        down=[[_POWER_OF_RANK[c.rank] for c in reversed(d) if c is not None] for d in s.face_down],
        draw=[_POWER_OF_RANK[c.rank] for c in s.draw], pile=_counts(s.pile), pile_size=len(s.pile), top=top, run=run,
        to_move=s.to_move, setup=s.phase == "setup", turn=s.turn, ranking=list(s.ranking),
        winner=-1 if s.winner is None else s.winner, over=s.over, stopped=s.stopped)


def _ranks_present(counts: int) -> int:
    return (counts | counts >> 1 | counts >> 2 | counts >> 3) & LOW


def _rank_of(bit: int) -> int:
    return (bit.bit_length() - 1) >> 2


def _finish_setup(t: _Table, lowest3: bool) -> None:
    """Greedy face-up choices for the seats still to choose, then the starting card.

    Face up goes a 10, else a 2, else the highest rank in hand. The first player is seat 0, or with
    ``lowest3`` the holder of the lowest ordinary rank in hand (lowest seat on a tie, seat 0 if none).
    """
    players = len(t.hands)
    for p in range(t.to_move, players):
        while t.up_sizes[p] < FACE_UP:
            h = t.hands[p]
            if h & TEN_FIELD:
                r = TEN
            elif h & TWO_FIELD:
                r = TWO
            else:
                r = _rank_of(_ranks_present(h))
            t.hands[p] = h - ONE[r]
            t.hand_sizes[p] -= 1
            t.up[p] += ONE[r]
            t.up_sizes[p] += 1
    first = 0
    if lowest3:
        best = ACE + 1
        for p in range(players):
            plain = _ranks_present(t.hands[p]) & ~SPECIAL
            if plain:
                low = _rank_of(plain & -plain)
                if low < best:
                    best, first = low, p
    t.setup = False
    t.to_move = first
    r = t.draw.pop()
    if r == TEN:  # the starting 10 burns at once
        t.pile, t.pile_size, t.top, t.run = 0, 0, 0, 0
    else:
        t.pile, t.pile_size, t.top, t.run = ONE[r], 1, r, 1


def _next_seat(seat: int, finished: list[bool]) -> int:
    """The next seat after ``seat`` that still has cards (some seat always has)."""
    seat = (seat + 1) % len(finished)
    while finished[seat]:
        seat = (seat + 1) % len(finished)
    return seat


def _run(t: _Table, rules: _Rules, watch: int = -1) -> int:
    """Play ``t`` on to the end with greedy on every seat, updating it in place.

    With ``watch`` a seat, stop at the end of that seat's first turn (counted from the first decision
    of the play phase it is to move at) and return 1 if that turn ended with a pick-up of the pile (no
    card fitted, or a blind card did not fit), else 0. Without ``watch`` the return value is 0.
    """
    if t.over:
        return 0
    if t.setup:
        _finish_setup(t, rules.lowest3)
    players = len(t.hands)
    hands, sizes, up, up_sizes, down, draw = t.hands, t.hand_sizes, t.up, t.up_sizes, t.down, t.draw
    pile, pile_size, top, run = t.pile, t.pile_size, t.top, t.run
    seat, turn, ranking, winner = t.to_move, t.turn, t.ranking, t.winner
    four_again, to_last, max_turns = rules.four_again, rules.to_last, rules.max_turns
    one, low, fits_on, ordinary_on = ONE, LOW, FITS, ORDINARY_FITS  # locals: the loop is the hot path
    one_ten, one_two = ONE[TEN], ONE[TWO]
    finished = [p in ranking for p in range(players)]
    watching = False
    picked = 0
    stopped = False
    while True:
        if seat == watch:
            watching = True
        h = hands[seat]
        pick_up = False
        if h or up[seat]:
            source, counts = (hands, sizes) if h else (up, up_sizes)
            cards = source[seat]
            present = (cards | cards >> 1 | cards >> 2 | cards >> 3) & low
            fit = present & ordinary_on[top]
            if fit:  # the lowest ordinary rank that fits, every card of it
                bit = fit & -fit
                r = (bit.bit_length() - 1) >> 2
                k = (cards >> (4 * r)) & 15
            elif present & one_ten:
                bit, r, k = one_ten, TEN, 1
            elif present & one_two:
                bit, r, k = one_two, TWO, 1
            else:
                pick_up = True
            if not pick_up:
                source[seat] = cards - k * bit
                counts[seat] -= k
        else:
            r = down[seat].pop()
            bit, k = one[r], 1
            if not bit & fits_on[top]:  # the blind card goes to the hand with the pile
                pile += bit
                pile_size += 1
                pick_up = True
        if pick_up:
            hands[seat] += pile
            sizes[seat] += pile_size
            pile, pile_size, top, run = 0, 0, 0, 0
            if watching:
                picked = 1
                break
            turn += 1
            if turn >= max_turns:
                stopped = True
                break
            seat = _next_seat(seat, finished)
            continue
        # a play of k cards of rank r
        pile += k * bit
        pile_size += k
        if r == top:
            run += k
        else:
            top, run = r, k
        again = False
        if r == TEN:
            pile, pile_size, top, run = 0, 0, 0, 0
            again = True
        elif run >= RUN_TO_CLEAR:
            pile, pile_size, top, run = 0, 0, 0, 0
            again = four_again
        if draw and sizes[seat] < REFILL:
            for _ in range(min(REFILL - sizes[seat], len(draw))):
                hands[seat] += one[draw.pop()]
                sizes[seat] += 1
        if not hands[seat] and not up[seat] and not down[seat]:  # out of cards
            ranking.append(seat)
            finished[seat] = True
            turn += 1
            if not to_last:
                winner = seat
                break
            if winner < 0:
                winner = seat
            if len(ranking) == players - 1:
                ranking.append(finished.index(False))
                break
            if watching:
                break
            if turn >= max_turns:
                stopped = True
                break
            seat = _next_seat(seat, finished)
            continue
        if again:
            continue
        if watching:
            break
        turn += 1
        if turn >= max_turns:
            stopped = True
            break
        seat = _next_seat(seat, finished)
    t.pile, t.pile_size, t.top, t.run = pile, pile_size, top, run
    t.to_move, t.turn, t.winner, t.over, t.stopped = seat, turn, winner, True, stopped
    return picked


def _check_game(game: Any, what: str) -> Shithead:
    if not isinstance(game, Shithead):
        name = getattr(game, "name", type(game).__name__)
        raise InvalidInputError(f"{what}: the fast Shithead path plays Shithead games only, not {name!r}")
    return game


def playout_detail(game: Game[Any]) -> Playout:
    """Play this exact state (no resampling) to the end with greedy on every seat; the game is unchanged."""
    g = _check_game(game, "playout")
    t = _table(g.state)
    _run(t, _rules(g))
    return Playout(t.winner, t.turn, t.ranking, t.stopped)


def playout(game: Game[Any]) -> tuple[int, int]:
    """(winner seat or -1 for none, turns) of the greedy play-out of this exact state."""
    end = playout_detail(game)
    return end.winner, end.turns


def _unknown_ranks(hand: list[Card], known: list[Card]) -> list[int]:
    """Ranks of the hand cards nobody saw picked up, in hand order (the engine's pool order).

    The engine keeps hands sorted by power, so cards of a rank sit together and the ranks of any subset,
    in hand order, are the subset's ranks in ascending order: skipping as many cards of each rank as
    are known gives the same sequence without hashing cards. An unsorted hand takes the card-by-card way.
    """
    power = _POWER_OF_RANK
    ranks = [power[c.rank] for c in hand]
    if not known:
        return ranks
    if any(a > b for a, b in zip(ranks, ranks[1:], strict=False)):
        seen = set(known)
        return [power[c.rank] for c in hand if c not in seen]
    skip = [0] * (ACE + 1)
    for c in known:
        skip[power[c.rank]] += 1
    unknown = []
    for r in ranks:
        if skip[r]:
            skip[r] -= 1
        else:
            unknown.append(r)
    return unknown


class _Resampler:
    """Redeals a position's hidden cards for one viewpoint exactly as ``Game.resample`` does.

    The pool of unseen cards is the game's chance law's (its cards in canonical order, never in the
    order they really lie), and each redeal draws the same numbers from the generator (a shuffle key,
    then one permutation of the pool) and cuts the shuffled pool into the engine's slices: face-down
    cards by seat and position, the draw pile bottom to top, then the unseen hand cards of each other
    seat.
    """

    def __init__(self, game: Shithead, viewpoint: int | None) -> None:
        s = game.state
        power = _POWER_OF_RANK
        self.base = _table(s)
        self.rules = _rules(game)
        self.slots = [sum(c is not None for c in d) for d in s.face_down]
        self.hidden: list[tuple[int, int, int]] = []  # (seat, counts of its known cards, hidden count)
        for p in range(game.players):
            if p != viewpoint:
                self.hidden.append((p, _counts(s.known[p]), len(_unknown_ranks(s.hands[p], s.known[p]))))
        # the game's chance law: its cards in the law's canonical order, one uniform permutation of them
        self.pool = np.array([power[c.rank] for c in game.chance_law(viewpoint).cards], dtype=np.int64)
        self.draw_size = len(s.draw)

    def deal(self, rng: np.random.Generator) -> _Table:
        b = self.base
        rng.integers(0, 2**63 - 1)  # the new game's shuffle key in Game.resample; Shithead never uses it
        shuffled: list[int] = self.pool[rng.permutation(self.pool.size)].tolist()
        pos = 0
        down: list[list[int]] = []
        for k in self.slots:
            seat_down = shuffled[pos:pos + k]
            seat_down.reverse()  # the lowest position is turned first, so it goes last
            down.append(seat_down)
            pos += k
        draw = shuffled[pos:pos + self.draw_size]
        pos += self.draw_size
        hands = b.hands[:]
        for p, known, size in self.hidden:
            counts = known
            for r in shuffled[pos:pos + size]:
                counts += ONE[r]
            hands[p] = counts
            pos += size
        return _Table(hands, b.hand_sizes[:], b.up[:], b.up_sizes[:], down, draw, b.pile, b.pile_size, b.top,
                      b.run, b.to_move, b.setup, b.turn, b.ranking[:], b.winner, b.over, b.stopped)


def _check_run(game: Any, viewpoint: int | None, n: Any, rng: Any, what: str) -> Shithead:
    g = _check_game(game, what)
    g.check_seat(viewpoint, what)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidInputError(f"{what}: n={n!r} is not allowed; give a whole number of play-outs, 1 or more")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"{what}: rng={rng!r} is not a numpy.random.Generator; "
                                "pass numpy.random.default_rng(seed)")
    return g


def rollouts_from(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` greedy play-outs of ``game`` with the hidden cards redealt for ``viewpoint`` each time.

    Returns the winners, shape ``(n,)``, -1 where nobody won (the safety rule stopped the game). Each
    entry equals ``playout(game.resample(viewpoint, rng))[0]`` drawn from the same generator.
    """
    g = _check_run(game, viewpoint, n, rng, "rollouts_from")
    deal = _Resampler(g, viewpoint)
    rules = deal.rules
    winners = np.empty(int(n), dtype=np.int64)
    for i in range(int(n)):
        t = deal.deal(rng)
        _run(t, rules)
        winners[i] = t.winner
    return winners


def must_pick_up(game: Game[Any], seat: int, viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` resampled greedy play-outs until ``seat`` finishes its next turn (the current one if it is
    to move in the play phase): 1 where it picked up the pile in that turn (no card fitted, or its blind
    face-down card did not fit), else 0; 0 too where the game ended first."""
    g = _check_run(game, viewpoint, n, rng, "must_pick_up")
    if seat is None:
        raise InvalidInputError("must_pick_up: seat None is not allowed; name the seat whose turn is asked about")
    g.check_seat(seat, "must_pick_up")
    deal = _Resampler(g, viewpoint)
    rules = deal.rules
    out = np.empty(int(n), dtype=np.int64)
    for i in range(int(n)):
        out[i] = _run(deal.deal(rng), rules, int(seat))
    return out
