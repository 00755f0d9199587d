"""Spite and Malice rollouts compiled with numba: the same deals and greedy play-outs, many times faster.

:mod:`cardlab.sim.fast_spite_malice` plays a round on lists of ranks in Python (about 1.2 µs a move).
This module plays the very same rules and greedy decisions (read that module's notes and its
:func:`~cardlab.sim.fast_spite_malice.play`, which is proven card for card equal to the engine) in one
compiled kernel: one call deals and plays ``n`` rollouts from one position.

The board
---------
A position is one flat ``int64`` array (layout below, the offsets are module constants): payoff piles,
side piles and centre piles bottom first with their lengths; each hand as a count per rank (a hand is
kept sorted, so its multiset of ranks is all that matters); the stock as a ring buffer of 128 slots,
card ``i`` from the bottom at ``(lo + i) % 128`` (a completed pile slides in under the bottom, draws
come off the top); the side-pile tops, the rank each centre pile takes next, the seat to move, the turn
and shuffle counts. Suits are not kept, as in the Python play-out: no rule and no choice of the bot
reads them.

Randomness
----------
Each rollout has its own 64-bit seed, drawn by the caller from its ``numpy.random.Generator``; inside,
the rollout's numbers come from SplitMix64 seeded with it (Steele, Lea and Flood 2014: a 64-bit
counter stepped by the golden-ratio odd constant, then mixed; it passes BigCrush). A bounded integer in
``[0, b)`` (``b < 2**32``) takes the high 32 bits ``x`` of one output and returns ``(x * b) >> 32``,
rejecting the ``2**32 mod b`` values of ``x * b mod 2**32`` that would make some results one count more
likely (Lemire 2019), so every value has probability exactly ``1/b``. A shuffle is Fisher-Yates
(position ``i`` from the top down swaps with a uniform position ``<= i``): each of the ``m!`` orders
has probability ``1/m!``. Nothing else draws numbers: no global generator, no ``np.random``.

The law is the engine's
-----------------------
*The deal* (:meth:`Redeal.fresh_places <cardlab.sim.fast_spite_malice.Redeal.fresh_places>`): a group
of the game's chance law whose places no other group shares gets a uniformly random bijection of its
cards onto its places (one Fisher-Yates shuffle of its places); nested groups are drawn by the law's
pool algorithm (``Redeal._draw_in_turn``): group by group, inner groups first, card by card, each card
on a uniformly chosen free place of its group, the last free place taking the chosen one's slot. Then the
payoff piles under their tops, the hidden hands and the stock are laid out from the places in the
engine's order. *The shuffles*: a completed centre pile is shuffled uniformly, then slid under the stock
(``completed_to="bottom"``) or merged and the whole stock shuffled uniformly (``"shuffle"``). Every
deal and shuffle is uniform over what the engine's are uniform over, and independent of each other, as
the engine's are: the rollouts have the engine's law; only the particular random numbers differ.

*Card for card.* :class:`SplitMix64` is the same generator in Python, and its ``source`` is a
``ShuffleSource`` for the Python play-out: ``fast_spite_malice.play(pos, rules, SplitMix64(seed).source)``
makes the kernel's shuffles, so :func:`play_seeded` (the kernel on a given position) must end in the
very same position; the tests check that over many positions, every rule option and both modes.

A round not over after ``max_moves`` moves (``fast_spite_malice.MAX_MOVES``) counts as no win (-1);
the last payoff card wins at once; a refill or a turn start that finds the stock empty draws the round.

The kernel compiles on its first call (no signature is given, so importing this module compiles
nothing) and is cached on disk by numba (``cache=True``): later processes load it.

Without numba
-------------
numba is an optional extra (``pip install "cardlab[fast]"``; ``make lab``, ``make test`` and Binder
install it). Without it the very same kernel functions run as plain Python on the same numpy arrays
(:data:`HAVE_NUMBA` is False): the same seeds give the same deals, play-outs and results, card for card,
only much slower. The unsigned 64-bit arithmetic of SplitMix64 wraps around in numpy as it does when
compiled; numpy's overflow warnings are silenced while the kernel runs.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.spite_malice.rules import CENTRE_PILES, HAND_SIZE, QUEEN, SIDE_PILES
from cardlab.sim import fast_spite_malice as fsm

IntArray = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])

numba: Any
try:
    import numba
except ImportError:  # the core install: the kernels run as plain Python
    numba = None
HAVE_NUMBA = numba is not None
"""Whether the kernels are compiled by numba (the ``fast`` extra) or run as plain Python."""

KING = 13
RANKS = KING + 1           # hand counts are indexed by rank (index 0 unused)
CAP = 104                  # no pile holds more than every card
RING = 128                 # stock ring buffer: a power of two >= CAP
MASK = RING - 1
NO_KEY = 1 << 20           # larger than every packed key
STUCK = -2                 # kernel result: an empty hand and no legal move

# board layout (offsets into one int64 array)
PAY = 0                                            # (2, CAP) payoff piles, bottom first
SIDE = PAY + 2 * CAP                               # (2, SIDE_PILES, CAP) side piles, bottom first
CENTRE = SIDE + 2 * SIDE_PILES * CAP               # (CENTRE_PILES, QUEEN) centre piles, bottom first
STOCK = CENTRE + CENTRE_PILES * QUEEN              # (RING,) stock ring buffer
HAND = STOCK + RING                                # (2, RANKS) cards of each rank in hand
PAY_N = HAND + 2 * RANKS                           # (2,) payoff pile lengths
HAND_N = PAY_N + 2                                 # (2,) hand sizes
SIDE_N = HAND_N + 2                                # (2, SIDE_PILES) side pile lengths
TOPS = SIDE_N + 2 * SIDE_PILES                     # (2, SIDE_PILES) side pile tops, 0 when empty
NEED = TOPS + 2 * SIDE_PILES                       # (CENTRE_PILES,) rank each centre pile takes next
STOCK_LO = NEED + CENTRE_PILES                     # ring slot of the stock's bottom card
STOCK_N = STOCK_LO + 1                             # stock size
TO_MOVE = STOCK_N + 1
TURN = TO_MOVE + 1
SHUFFLES = TURN + 1
BOARD = SHUFFLES + 1

# setup array: what a kernel call deals and which rules it plays
S_PLACES = 0               # hidden places
S_PAY_HIDDEN = 1           # (2,) payoff cards under each top that are dealt
S_HAND_HIDDEN = 3          # (2,) 1 where that seat's hand is dealt
S_STOCK_HIDDEN = 5         # 1 where the stock is dealt
S_KING_STARTS = 6
S_REFILL = 7
S_BOTTOM = 8
S_ONE_TURN = 9
S_MAX_MOVES = 10
SETUP = 11

# SplitMix64
GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U27, U30, U31, U32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
MASK64 = (1 << 64) - 1


def _jit(fn: F) -> F:
    """numba's ``njit`` with an on-disk cache, compiled lazily on the first call; without numba, ``fn`` itself."""
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True)(fn))


# ---------------------------------------------------------------------------------------------- PRNG
@_jit
def _next(state: Any) -> Any:
    """SplitMix64: step the counter ``state[0]`` by the golden-ratio constant and mix it."""
    z = state[0] + GAMMA
    state[0] = z
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@_jit
def _below(state: Any, bound: int) -> Any:
    """A uniform integer in ``[0, bound)``, ``1 <= bound < 2**32`` (Lemire's method with rejection)."""
    b = np.uint64(bound)
    m = (_next(state) >> U32) * b
    low = m & LOW32
    if low < b:
        threshold = (TWO32 - b) % b
        while low < threshold:
            m = (_next(state) >> U32) * b
            low = m & LOW32
    return np.int64(m >> U32)


@_jit
def _shuffle(a: Any, m: int, state: Any) -> None:
    """Fisher-Yates on ``a[:m]`` in place."""
    for i in range(m - 1, 0, -1):
        j = _below(state, i + 1)
        a[i], a[j] = a[j], a[i]


class SplitMix64:
    """The kernel's generator in Python, for the card-for-card comparison with the Python play-out.

    ``source`` is a ``ShuffleSource`` for :func:`cardlab.sim.fast_spite_malice.play`: every shuffle draws
    its permutation from this one stream, as the kernel's shuffles do."""

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise InvalidInputError(f"SplitMix64: seed={seed!r} is not a whole number")
        self.state = int(seed) & MASK64

    def next(self) -> int:
        self.state = (self.state + int(GAMMA)) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * int(MIX1)) & MASK64
        z = ((z ^ (z >> 27)) * int(MIX2)) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``: the kernel's ``_below``."""
        if not 1 <= bound < 1 << 32:
            raise InvalidInputError(f"SplitMix64.below: bound={bound!r} is not allowed; give 1 to 2**32 - 1")
        m = (self.next() >> 32) * bound
        if m & 0xFFFFFFFF < bound:
            threshold = ((1 << 32) - bound) % bound
            while m & 0xFFFFFFFF < threshold:
                m = (self.next() >> 32) * bound
        return m >> 32

    def permute(self, n: int) -> list[int]:
        """A permutation of ``range(n)`` by the kernel's Fisher-Yates: ``[a[i] for i in permute(n)]`` is
        the order the kernel's in-place shuffle gives ``a``."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def source(self, count: int) -> fsm.Permute:
        return self.permute


# ---------------------------------------------------------------------------------------------- play
@_jit
def _complete(board: Any, k: int, bottom: bool, state: Any, buf: Any) -> None:
    """Centre pile ``k`` reached the Queen: shuffle its 12 cards, then put them under the stock or
    shuffle them into it."""
    pile = board[CENTRE + k * QUEEN:CENTRE + (k + 1) * QUEEN]
    _shuffle(pile, QUEEN, state)
    lo, n = board[STOCK_LO], board[STOCK_N]
    if bottom:
        lo = (lo - QUEEN) & MASK
        for i in range(QUEEN):
            board[STOCK + ((lo + i) & MASK)] = pile[i]
    else:
        for i in range(n):
            buf[i] = board[STOCK + ((lo + i) & MASK)]
        for i in range(QUEEN):
            buf[n + i] = pile[i]
        _shuffle(buf, n + QUEEN, state)
        lo = 0
        for i in range(n + QUEEN):
            board[STOCK + i] = buf[i]
    board[STOCK_LO] = lo
    board[STOCK_N] = n + QUEEN


@_jit
def _draw(board: Any, p: int, m: int) -> None:
    """Seat ``p`` draws ``m`` cards off the top of the stock (``m`` <= the stock)."""
    lo, n = board[STOCK_LO], board[STOCK_N]
    for _ in range(m):
        n -= 1
        board[HAND + p * RANKS + board[STOCK + ((lo + n) & MASK)]] += 1
    board[STOCK_N] = n
    board[HAND_N + p] += m


@_jit
def _play(board: Any, dist: Any, discard: Any, king_starts: bool, refill: bool, bottom: bool, one_turn: bool,
          max_moves: int, state: Any, buf: Any) -> tuple[int, int]:
    """``fast_spite_malice.play`` on the board: greedy on both seats to the round's end (or the turn's).

    The board ends in the final position. Returns ``(winner, paid)``: winner -1 when the round is
    drawn, cut at ``max_moves`` or stopped after one turn, :data:`STUCK` when a seat has an empty hand
    and no legal move; paid 1 if a payoff card was played."""
    pay = board[PAY:PAY + 2 * CAP].reshape((2, CAP))
    sides = board[SIDE:SIDE + 2 * SIDE_PILES * CAP].reshape((2, SIDE_PILES, CAP))
    centre = board[CENTRE:CENTRE + CENTRE_PILES * QUEEN].reshape((CENTRE_PILES, QUEEN))
    hand = board[HAND:HAND + 2 * RANKS].reshape((2, RANKS))
    pay_n = board[PAY_N:PAY_N + 2]
    hand_n = board[HAND_N:HAND_N + 2]
    side_n = board[SIDE_N:SIDE_N + 2 * SIDE_PILES].reshape((2, SIDE_PILES))
    tops = board[TOPS:TOPS + 2 * SIDE_PILES].reshape((2, SIDE_PILES))
    need = board[NEED:NEED + CENTRE_PILES]
    p, turn, shuffles = board[TO_MOVE], board[TURN], board[SHUFFLES]
    paid = 0
    moves = 0
    while True:                                     # one turn of seat p per pass
        tp = tops[p]
        own = hand[p]
        while True:                                 # one move per pass; break: the turn is over
            moves += 1
            if moves > max_moves:
                board[TO_MOVE], board[TURN], board[SHUFFLES] = p, turn, shuffles
                return -1, paid
            t = pay[p, pay_n[p] - 1]
            # 1. the payoff top: a numbered card on the first pile that takes it, a King on the highest pile
            k = -1
            if t == KING:
                high = max(need[0], max(need[1], need[2]))
                if king_starts or high > 1:
                    k = 0 if need[0] == high else (1 if need[1] == high else 2)
            else:
                k = 0 if need[0] == t else (1 if need[1] == t else (2 if need[2] == t else -1))
            if k >= 0:
                centre[k, need[k] - 1] = t
                pay_n[p] -= 1
                paid = 1
                if pay_n[p] == 0:                   # the last payoff card wins the round
                    need[k] += 1                    # (a pile it completes stays on the table)
                    board[TO_MOVE], board[TURN], board[SHUFFLES] = p, turn + 1, shuffles
                    return p, 1
                if need[k] == QUEEN:
                    _complete(board, k, bottom, state, buf)
                    shuffles += 1
                    need[k] = 1
                else:
                    need[k] += 1
                continue
            dt = dist[t]
            card = 0
            j = -1
            # 2. a side-pile top that fits (never a King): smallest (distance, side, pile)
            best = NO_KEY
            for kk in range(CENTRE_PILES):
                n = need[kk]
                for jj in range(SIDE_PILES):
                    if tp[jj] == n:
                        key = (dt[n] << 4) | (jj << 2) | kk
                        if key < best:
                            best = key
                        break
            if best != NO_KEY:
                k, j = best & 3, (best >> 2) & 3
            else:
                # 3. a hand card that fits (never a King): smallest (distance, rank, pile)
                for kk in range(CENTRE_PILES):
                    n = need[kk]
                    if own[n] > 0:
                        key = (dt[n] << 6) | (n << 2) | kk
                        if key < best:
                            best = key
                if best != NO_KEY:
                    k, card = best & 3, (best >> 2) & 15
                else:
                    # 4. a King on the closest pile that takes one, if within reach of the Kings at hand
                    kings = own[KING]
                    for jj in range(SIDE_PILES):
                        if tp[jj] == KING:
                            kings += 1
                    if kings > 0:
                        for kk in range(CENTRE_PILES):
                            if need[kk] > 1 or king_starts:
                                key = (dt[need[kk]] << 2) | kk
                                if key < best:
                                    best = key
                        if (best >> 2) <= kings:    # NO_KEY >> 2 exceeds every count of Kings
                            k = best & 3
                            for jj in range(SIDE_PILES):
                                if tp[jj] == KING:
                                    j = jj
                                    break
                            if j < 0:
                                card = KING
                    if card == 0 and j < 0:
                        if hand_n[p] == 0:
                            # the engine's first legal move: a King side top, in side then pile order
                            for jj in range(SIDE_PILES):
                                if tp[jj] == KING:
                                    for kk in range(CENTRE_PILES):
                                        if need[kk] > 1 or king_starts:
                                            k, j = kk, jj
                                            break
                                    if j >= 0:
                                        break
                            if j < 0:
                                board[TO_MOVE], board[TURN], board[SHUFFLES] = p, turn, shuffles
                                return STUCK, paid
                        else:
                            # 5. discard: smallest (class, gap, -rank, side); Kings only if nothing else
                            only_kings = hand_n[p] == own[KING]
                            best = NO_KEY
                            for c in range(1, RANKS):
                                if own[c] == 0 or (c == KING and not only_kings):
                                    continue
                                for jj in range(SIDE_PILES):
                                    key = discard[jj, tp[jj], c]
                                    if key < best:
                                        best = key
                            card, j = KING - ((best >> 2) & 15), best & 3
                            own[card] -= 1
                            hand_n[p] -= 1
                            sides[p, j, side_n[p, j]] = card
                            side_n[p, j] += 1
                            tp[j] = card
                            turn += 1
                            break
            if card != 0:                           # hand card to centre pile k
                own[card] -= 1
                hand_n[p] -= 1
                centre[k, need[k] - 1] = card
                if need[k] == QUEEN:
                    _complete(board, k, bottom, state, buf)
                    shuffles += 1
                    need[k] = 1
                else:
                    need[k] += 1
                if hand_n[p] > 0:
                    continue
                if not refill:                      # an emptied hand ends the turn
                    turn += 1
                    break
                if board[STOCK_N] == 0:             # the refill finds no stock: the round is drawn
                    board[TO_MOVE], board[TURN], board[SHUFFLES] = p, turn + 1, shuffles
                    return -1, paid
                _draw(board, p, min(HAND_SIZE, board[STOCK_N]))
                continue
            side_n[p, j] -= 1                       # side pile j to centre pile k
            left = side_n[p, j]
            centre[k, need[k] - 1] = sides[p, j, left]
            tp[j] = sides[p, j, left - 1] if left > 0 else 0
            if need[k] == QUEEN:
                _complete(board, k, bottom, state, buf)
                shuffles += 1
                need[k] = 1
            else:
                need[k] += 1
        # the turn is over: the other seat draws up to five and plays
        if one_turn:
            break
        p = 1 - p
        m = HAND_SIZE - hand_n[p]
        if m > 0:
            if board[STOCK_N] == 0:                 # a turn starts without stock: the round is drawn
                break
            _draw(board, p, min(m, board[STOCK_N]))
    board[TO_MOVE], board[TURN], board[SHUFFLES] = p, turn, shuffles
    return -1, paid


# ---------------------------------------------------------------------------------------------- deal
@_jit
def _deal(board: Any, setup: Any, simple_places: Any, simple_ranks: Any, simple_off: Any, draw_ranks: Any,
          join_places: Any, join_off: Any, nested: Any, placed: Any, pool: Any, state: Any) -> None:
    """Deal the hidden places of ``board`` (a copy of the base position) as ``Redeal.fresh_places`` and
    ``Redeal._position`` do: simple groups by one shuffle of their places, nested groups by the pool
    (a group's places join at its first draw; places that an inner group took are skipped)."""
    for i in range(setup[S_PLACES]):
        placed[i] = 0
    for b in range(simple_off.size - 1):
        first, end = simple_off[b], simple_off[b + 1]
        for i in range(end - first):
            pool[i] = simple_places[first + i]
        _shuffle(pool, end - first, state)
        for i in range(end - first):
            placed[pool[i]] = simple_ranks[first + i]
    for b in range(nested.shape[0]):
        size = 0
        for d in range(nested[b, 0], nested[b, 1]):
            for q in range(join_off[d], join_off[d + 1]):
                if placed[join_places[q]] == 0:
                    pool[size] = join_places[q]
                    size += 1
            pick = _below(state, size)
            placed[pool[pick]] = draw_ranks[d]
            size -= 1
            pool[pick] = pool[size]
    at = 0
    for seat in range(2):                           # payoff cards under the tops
        for i in range(setup[S_PAY_HIDDEN + seat]):
            board[PAY + seat * CAP + i] = placed[at + i]
        at += setup[S_PAY_HIDDEN + seat]
    for seat in range(2):                           # hidden hands
        if setup[S_HAND_HIDDEN + seat]:
            for c in range(RANKS):
                board[HAND + seat * RANKS + c] = 0
            for i in range(board[HAND_N + seat]):
                board[HAND + seat * RANKS + placed[at + i]] += 1
            at += board[HAND_N + seat]
    if setup[S_STOCK_HIDDEN]:                       # the stock, bottom first
        board[STOCK_LO] = 0
        board[STOCK_N] = setup[S_PLACES] - at
        for i in range(setup[S_PLACES] - at):
            board[STOCK + i] = placed[at + i]


@_jit
def _rollouts(seeds: Any, base: Any, setup: Any, simple_places: Any, simple_ranks: Any, simple_off: Any,
              draw_ranks: Any, join_places: Any, join_off: Any, nested: Any, dist: Any, discard: Any,
              board: Any) -> Any:
    """One rollout per seed: copy ``base`` to ``board``, deal its hidden places, play. Returns ``(n, 2)``
    rows ``(winner, paid)``; stops at the first :data:`STUCK` rollout (its board is left as it ended)."""
    n = seeds.size
    out = np.full((n, 2), -1, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    placed = np.zeros(CAP, dtype=np.int64)
    pool = np.zeros(RING, dtype=np.int64)
    king_starts, refill = setup[S_KING_STARTS] != 0, setup[S_REFILL] != 0
    bottom, one_turn = setup[S_BOTTOM] != 0, setup[S_ONE_TURN] != 0
    for r in range(n):
        state[0] = np.uint64(seeds[r])
        board[:] = base
        _deal(board, setup, simple_places, simple_ranks, simple_off, draw_ranks, join_places, join_off, nested,
              placed, pool, state)
        winner, paid = _play(board, dist, discard, king_starts, refill, bottom, one_turn, setup[S_MAX_MOVES],
                             state, pool)
        out[r, 0], out[r, 1] = winner, paid
        if winner == STUCK:
            break
    return out


# ---------------------------------------------------------------------------------------------- Python side
DIST = {ks: np.array(fsm.DIST[ks], dtype=np.int64) for ks in (True, False)}
DISCARD = np.array(fsm.DISCARD, dtype=np.int64)


def _check_position(pos: fsm.Position) -> None:
    """Refuse, with the reason, a position that is no Spite and Malice position the kernel can play."""
    shape = (len(pos.payoff), len(pos.hands), [len(seat) for seat in pos.sides], len(pos.centre))
    if shape != (2, 2, [SIDE_PILES, SIDE_PILES], CENTRE_PILES):
        raise InvalidInputError(f"a position has 2 payoff piles, 2 hands, 2x{SIDE_PILES} side piles and "
                                f"{CENTRE_PILES} centre piles; got {shape[0]} payoff piles, {shape[1]} hands, side "
                                f"piles {shape[2]} and {shape[3]} centre piles")
    cells = [c for pile in pos.payoff for c in pile] + [c for hand in pos.hands for c in hand]
    cells += [c for seat in pos.sides for pile in seat for c in pile] + [c for pile in pos.centre for c in pile]
    cells += pos.stock
    bad = [c for c in cells if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= KING]
    if bad:
        raise InvalidInputError(f"card ranks are whole numbers from 1 (Ace) to 13 (King); got {bad[:5]!r}")
    if len(cells) > CAP:
        raise InvalidInputError(f"the position holds {len(cells)} cards; two packs hold {CAP}")
    empty = [seat for seat in (0, 1) if not pos.payoff[seat]]
    if empty:
        raise InvalidInputError(f"the payoff pile of seat {empty[0]} is empty (the round is over); a position to "
                                "play on has a card in each payoff pile")
    if pos.to_move not in (0, 1):
        raise InvalidInputError(f"to_move={pos.to_move!r} is not a seat; give 0 or 1")
    full = [k for k, pile in enumerate(pos.centre) if len(pile) >= QUEEN]
    if full:
        raise InvalidInputError(f"centre pile {full[0] + 1} holds {len(pos.centre[full[0]])} cards; a centre pile "
                                f"holds at most {QUEEN - 1} (the {QUEEN}th completes it)")


def board_of(pos: fsm.Position) -> IntArray:
    """The board of a position; refuses a position the kernel cannot hold or play."""
    _check_position(pos)
    board = np.zeros(BOARD, dtype=np.int64)
    for seat in (0, 1):
        board[PAY + seat * CAP:PAY + seat * CAP + len(pos.payoff[seat])] = pos.payoff[seat]
        board[PAY_N + seat] = len(pos.payoff[seat])
        board[HAND + seat * RANKS:HAND + (seat + 1) * RANKS] = np.bincount(pos.hands[seat], minlength=RANKS)
        board[HAND_N + seat] = len(pos.hands[seat])
        for j, pile in enumerate(pos.sides[seat]):
            at = SIDE + (seat * SIDE_PILES + j) * CAP
            board[at:at + len(pile)] = pile
            board[SIDE_N + seat * SIDE_PILES + j] = len(pile)
            board[TOPS + seat * SIDE_PILES + j] = pile[-1] if pile else 0
    for k, pile in enumerate(pos.centre):
        board[CENTRE + k * QUEEN:CENTRE + k * QUEEN + len(pile)] = pile
        board[NEED + k] = len(pile) + 1
    board[STOCK:STOCK + len(pos.stock)] = pos.stock
    board[STOCK_LO], board[STOCK_N] = 0, len(pos.stock)
    board[TO_MOVE], board[TURN], board[SHUFFLES] = pos.to_move, pos.turn, pos.shuffles
    return board


def position_from(board: IntArray) -> fsm.Position:
    """The position a board holds, as the Python play-out keeps it (lists bottom first, hands sorted)."""
    b = board.tolist()

    def run(at: int, n: int) -> list[int]:
        return list(b[at:at + n])

    lo = b[STOCK_LO]
    return fsm.Position(
        payoff=[run(PAY + seat * CAP, b[PAY_N + seat]) for seat in (0, 1)],
        hands=[[c for c in range(1, RANKS) for _ in range(b[HAND + seat * RANKS + c])] for seat in (0, 1)],
        sides=[[run(SIDE + (seat * SIDE_PILES + j) * CAP, b[SIDE_N + seat * SIDE_PILES + j])
                for j in range(SIDE_PILES)] for seat in (0, 1)],
        centre=[run(CENTRE + k * QUEEN, b[NEED + k] - 1) for k in range(CENTRE_PILES)],
        stock=[b[STOCK + ((lo + i) & MASK)] for i in range(b[STOCK_N])],
        to_move=b[TO_MOVE], turn=b[TURN], shuffles=b[SHUFFLES])


_EMPTY = np.zeros(0, dtype=np.int64)
_ONE_OFFSET = np.zeros(1, dtype=np.int64)
_NO_NESTED = np.zeros((0, 2), dtype=np.int64)


class PlanArrays:
    """A :class:`~cardlab.sim.fast_spite_malice.Redeal` plan as the kernel's arrays (built once per plan)."""

    def __init__(self, plan: fsm.Redeal | None, base: fsm.Position) -> None:
        self.plan = plan
        self.base = board_of(base)
        if plan is None:                            # a given position: nothing is dealt
            self.hidden = (0, 0, 0, 0, 0, 0)
            self.simple_places = self.simple_ranks = self.draw_ranks = self.join_places = _EMPTY
            self.simple_off = self.join_off = _ONE_OFFSET
            self.nested = _NO_NESTED
            return
        n0, n1 = plan.payoff_hidden
        self.hidden = (plan.places, n0, n1, int(0 in plan.hand_seats), int(1 in plan.hand_seats), 1)
        self.simple_places = np.concatenate([_EMPTY, *(where for where, _ in plan.simple)])
        self.simple_ranks = np.concatenate([_EMPTY, *(ranks for _, ranks in plan.simple)])
        self.simple_off = np.cumsum([0, *(where.size for where, _ in plan.simple)], dtype=np.int64)
        self.draw_ranks = np.array(plan.ranks, dtype=np.int64)
        self.join_places = np.array([i for join in plan.joins for i in join], dtype=np.int64)
        self.join_off = np.cumsum([0, *(len(join) for join in plan.joins)], dtype=np.int64)
        self.nested = np.array(plan.nested, dtype=np.int64).reshape(-1, 2)

    def run(self, seeds: IntArray, rules: fsm.Rules, one_turn: bool, max_moves: int) -> tuple[IntArray, IntArray]:
        """The kernel on one seed per rollout: ``(n, 2)`` rows (winner, paid) and the last board."""
        setup = np.array([*self.hidden, rules.king_starts, rules.refill, rules.bottom, one_turn, max_moves],
                         dtype=np.int64)
        board = np.empty(BOARD, dtype=np.int64)
        with np.errstate(over="ignore"):  # SplitMix64 wraps around on purpose (plain Python mode)
            out: IntArray = _rollouts(seeds, self.base, setup, self.simple_places, self.simple_ranks,
                                      self.simple_off, self.draw_ranks, self.join_places, self.join_off, self.nested,
                                      DIST[rules.king_starts], DISCARD, board)
        if (out[:, 0] == STUCK).any():
            raise CorruptRecordError(f"seat {board[TO_MOVE]} has an empty hand and no legal move in this position "
                                     f"(side tops {board[TOPS + SIDE_PILES * board[TO_MOVE]:][:SIDE_PILES].tolist()},"
                                     f" centre needs {board[NEED:NEED + CENTRE_PILES].tolist()})")
        return out, board


_PLAN_ARRAYS: dict[str, PlanArrays] = {}


def plan_arrays(plan: fsm.Redeal) -> PlanArrays:
    """:class:`PlanArrays` of ``plan``, kept for the last plan asked about (callers that spend a time
    budget run a few batches from one plan; the plan object is held, so its identity is not reused)."""
    hit = _PLAN_ARRAYS.get("last")
    if hit is not None and hit.plan is plan:
        return hit
    arrays = PlanArrays(plan, plan.base)
    _PLAN_ARRAYS["last"] = arrays
    return arrays


def _seeds(n: int, rng: np.random.Generator) -> IntArray:
    seeds: IntArray = rng.integers(0, 2**63 - 1, size=n, dtype=np.int64, endpoint=True)
    return seeds


def rollouts(plan: fsm.Redeal, rules: fsm.Rules, n: int, rng: np.random.Generator, one_turn: bool = False,
             max_moves: int | None = None) -> IntArray:
    """``n`` fresh deals of ``plan``, each played on by greedy: the winners (-1: no win), or with
    ``one_turn`` 1/0 for "a payoff card was played this turn". One seed per rollout is drawn from
    ``rng``. ``max_moves`` defaults to ``fast_spite_malice.MAX_MOVES``."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidInputError(f"rollouts: n={n!r} is not allowed; give a positive whole number of play-outs")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rollouts: rng={rng!r} is not a numpy.random.Generator")
    limit = fsm.MAX_MOVES if max_moves is None else max_moves
    out, _ = plan_arrays(plan).run(_seeds(int(n), rng), rules, one_turn, limit)
    result: IntArray = out[:, 1 if one_turn else 0].copy()
    return result


def play_seeded(pos: fsm.Position, rules: fsm.Rules, seed: int, one_turn: bool = False,
                max_moves: int | None = None) -> tuple[int, bool]:
    """The kernel's play-out of the given position (nothing dealt), its shuffles drawn from
    ``SplitMix64(seed)``: the same contract as ``fast_spite_malice.play(pos, rules,
    SplitMix64(seed).source, one_turn)``, ``pos`` changed in place to the final position."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise InvalidInputError(f"play_seeded: seed={seed!r} is not allowed; give a whole number from 0 to 2**63 - 1")
    limit = fsm.MAX_MOVES if max_moves is None else max_moves
    out, board = PlanArrays(None, pos).run(np.array([seed], dtype=np.int64), rules, one_turn, limit)
    final = position_from(board)
    for field in dataclasses.fields(final):
        setattr(pos, field.name, getattr(final, field.name))
    return int(out[0, 0]), bool(out[0, 1])


def deal_seeded(plan: fsm.Redeal, seed: int) -> fsm.Position:
    """The kernel's fresh deal of ``plan`` from ``seed`` (the deal alone: no move is played)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise InvalidInputError(f"deal_seeded: seed={seed!r} is not allowed; give a whole number from 0 to 2**63 - 1")
    _, board = plan_arrays(plan).run(np.array([seed], dtype=np.int64), fsm.Rules(True, True, True), False, 0)
    return position_from(board)


def compile_now() -> float:
    """Compile the kernel now (or load it from numba's cache), so that the first Spite and Malice panel
    does not wait for it: plays a few rollouts of both kinds from a fresh deal. Returns the seconds
    taken (several on an empty cache, a fraction of one on a warm cache)."""
    from cardlab.engine.registry import new_game
    from cardlab.games.spite_malice.rules import SpiteMalice

    start = time.perf_counter()
    game = new_game(SpiteMalice.name, seed=0)
    assert isinstance(game, SpiteMalice)
    rng = np.random.default_rng(0)
    fsm.rollouts_from(game, None, 2, rng)
    fsm.payoff_this_turn(game, None, 2, rng)
    return time.perf_counter() - start
