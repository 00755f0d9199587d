"""The one fast Spite and Malice kernel: whole rounds (and matches) compiled with numba, card by card.

It plays the rules of :mod:`cardlab.games.spite_malice.rules` (the specification: read its docstring)
with the ``greedy`` bot of :mod:`cardlab.games.spite_malice.bot` or the ``random`` policy (uniform over
the legal moves, as :class:`cardlab.policies.RandomPolicy`) in each seat, every option and both kinds of
game (one round, or a match). The game's spec registers this module as its kernel
(:class:`~cardlab.engine.spec.GameKernel`): ``simulate`` with built-in policies, ``win_probability`` and
the panel's estimate all run here. Four entry points:

* :func:`play_shard`: games ``start..stop-1`` of a seeded run, each from its own fresh deal, for
  ``simulate``; game ``i`` is the game with the key :func:`cardlab.dealer.game_key` ``(seed, i)`` (every
  kernel's seed scheme): its deal and shuffles are the engine's (``new_game(..., seed=seed, index=i)``),
  card for card, and any split of a run into shards gives the same games;
* :func:`win_rollouts`: greedy play-outs from a game's position, the hidden cards drawn for each from
  ``game.chance_law(viewpoint)`` (through :class:`cardlab.chance.jitkit.LawArrays` and
  :func:`~cardlab.chance.jitkit.draw_law`: the law is stated once, in the game);
* :func:`payoff_this_turn`: the same play-outs cut at the end of the current turn, 1 where the player
  to move played a payoff card in it (the panel's "payoff card played this turn with greedy play");
* :func:`move_rollouts`: the play-outs of move values (:mod:`cardlab.sim.move_values`), each with a chosen
  first move (``_apply``) before greedy play.

Cards
-----
A card is held with its identity (rank, suit, pack) as one code ``(rank - 1) * 8 + suit * 2 + pack``
(0 to 103): ``code >> 3`` is the rank minus one, ``code >> 1`` the face (rank and suit: what anybody
sees), and the codes sort exactly as the engine sorts cards (rank, suit, pack), so a hand kept sorted
by code is the engine's hand. :func:`code_of` and :func:`card_of` convert.

The board
---------
A position is one flat ``int64`` array (offsets are module constants): both payoff piles, side piles
and centre piles bottom first with their lengths; both hands, sorted; the stock as a ring of 128 slots
(card ``i`` from the bottom at ``(lo + i) % 128``: a completed pile slides in under the bottom, draws
come off the top); then the seat to move, the turn and shuffle counts, the round, the scores, the last
round's result, whether the game is over and its winner, and whether a payoff card was played (for the
one-turn estimator). :func:`board_of` builds it from an engine game, :func:`position_of` reads it back
as the engine's lists of cards.

The rules, move by move (``_apply``)
------------------------------------
A payoff top, side-pile top or hand card goes on a centre pile that takes it: the rules'
:func:`~cardlab.games.spite_malice.rules.fits_value` (the value it needs; a King on any pile, and on an
empty one if ``king_starts_pile``), read from the table :func:`rule_tables` builds from it. The last
payoff card wins the round at once (its pile stays on the table, as in the engine); a pile is complete
when the rules' :func:`~cardlab.games.spite_malice.rules.completes` says so (when it reaches the Queen;
tabulated into the options array): its 12 cards are shuffled and go under the stock
(``completed_to="bottom"``) or are merged with the stock and the whole stock is shuffled
(``"shuffle"``). A hand card to a side pile ends the turn; a hand emptied by a centre play draws 5
more (``refill_on_empty``) or ends the turn. A turn starts by drawing up to 5 (what the stock holds);
a draw that finds the stock empty draws the round (a refill mid-turn counts that turn, a turn start
does not). Two cards of one face in a hand give one move; which of the two goes is uniform (the
engine's keyed draw: the one dealer's choice stream of that move, :meth:`cardlab.dealer.Dealer.choice`).
A match deals new rounds from fresh shuffles until
a player has ``target`` points or 200 rounds were played. Who starts: the higher payoff top (King
highest), ties reshuffle both payoff piles each on its own until they differ (seat 0 when both piles
hold one rank only), or seat 0 with ``first="seat0"``.

The greedy bot (``_greedy``)
----------------------------
Exactly the bot's definition, with packed integer keys. The steps are tried in the order of the bot's one
statement of its preference, :data:`cardlab.games.spite_malice.bot.PREFERENCE`, which :func:`rule_tables`
tabulates at ``T_STEPS`` (so a changed order is the order the kernel plays); within a step the choice is as
:data:`cardlab.games.spite_malice.bot.STEPS` makes it: the payoff top if it fits, on the pile with
the smallest ``(preference, pile)`` (a numbered card on the lowest pile, a King on the highest non-empty
pile, else pile 1); else the non-King side top
with the smallest ``(distance, side, pile)``; else the non-King hand face with the smallest
``(distance, face, pile)``; else a King on the pile with the smallest ``(distance, pile)`` if that
distance is at most the Kings in reach (side tops and hand), from the lowest side pile topped by a
King, else the lowest King face of the hand; else the discard with the smallest ``(class, gap, -rank,
side, face)``, Kings only when the hand holds nothing else. What fits, the preference, the distance
and the discard class are the rules module's functions (``fits_value``, ``payoff_preference``,
``distance``, ``discard_class``, which the bot reads too), tabulated by :func:`rule_tables` when this
module is imported. With nothing chosen (an empty hand) the bot takes the first legal move, as the
policy does.

The random policy (``_legal``)
------------------------------
The legal moves are counted in the engine's order (payoff to centre 1-3; side 1-4 to centre 1-3;
each hand face, in hand order, to centre 1-3; each hand face to side 1-4) and one is drawn uniformly.

Randomness
----------
Everything comes from :mod:`cardlab.chance.jitkit`: SplitMix64, ``below`` (exactly uniform bounded
integers) and ``shuffle`` (Fisher-Yates): the fresh deal (one shuffle of the 104 cards, laid out in
the engine's order), tie reshuffles, completed piles, which copy of a face leaves a hand, the random
policy's choice. Every one of them is uniform over what the engine's draw is uniform over, and they are
independent as the engine's are, so games have the engine's law; only the random numbers differ.
Under ``completed_to="shuffle"`` the pile itself is not shuffled before the whole stock is: one
uniform shuffle of the merged stock has the same law as two.

**A script** (:class:`Script`) replaces those draws by given ones: the engine's permutation for each
in-game shuffle (by the engine's shuffle count), the engine's choice of copy and the random policy's
choice for each move. With the engine's numbers, the kernel must play the engine's game card for card
(``tests/games/spite_malice/test_kernel.py`` checks every move text and the final position).

Hidden cards
------------
:func:`win_rollouts` builds the board of the game's position, then for each play-out draws an
assignment of the law's cards to its places with ``draw_law`` (the law's places are the payoff piles
under their tops, the hidden hands and the stock, in that order; :func:`_zones` reads them from the
law's place names) and writes it over the board's hidden places, so the real hidden cards are never
read. The whole law is one :class:`LawArrays` passed to ``_deal_hidden``. When the viewer's law is a
mixture (:class:`~cardlab.chance.law.MixedLaw`: a hidden hand played a face whose two copies carry
different labels), each play-out first picks a component with chance equal to its weight, from the
play-out's own SplitMix64 stream, then deals that component (:func:`~cardlab.chance.jitkit.draw_mixed`):
play-outs are a function of (what the viewer knows, seed) only, and reproducible.

Limits and errors
-----------------
A play-out not over after :data:`ROLLOUT_MAX_MOVES` moves (``prob.play_on``'s limit) counts as no win
(-1). A game of :func:`play_shard` not over after :data:`GAME_MAX_MOVES` (``simulate``'s engine
limit), a card lost or duplicated (every game and play-out ends with a check that the 104 codes are
each on the table once), or a seat with no legal move raises :class:`KernelError` with the seed and
the move list (the game is played again with its moves recorded; :func:`cardlab.chance.jitkit.kernel_failure`).
Bad input (policies, seeds, ranges, play-out requests) is refused by :mod:`cardlab.chance.jitkit`'s shared
checks with an :class:`~cardlab.errors.InvalidInputError`.

numba is optional: without it (:data:`HAVE_NUMBA` False) the same functions run as plain Python on the
same arrays and give the same results, only much slower.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card, Rank, Suit
from cardlab.chance import jitkit
from cardlab.chance.jitkit import (
    GREEDY,
    HAVE_NUMBA,
    LawArrays,
    below,
    deal_shuffle,
    draw_mixed,
    game_state,
    jit,
    jit_inline,
    new_state,
    plays,
    seeds,
    set_stream,
    shuffle,
    start_game,
)
from cardlab.dealer import CHOICES, DEAL, STATE_SIZE
from cardlab.errors import InvalidInputError, KernelError
from cardlab.games.spite_malice import bot
from cardlab.games.spite_malice import rules as rulebook
from cardlab.games.spite_malice.rules import SpiteMalice

IntArray = npt.NDArray[np.int64]

__all__ = ["HAVE_NUMBA", "KernelError", "Script", "board_of", "card_of", "code_of", "compile_now", "compiled",
           "deal_hidden", "game_moves", "move_code", "move_rollouts", "options_array", "payoff_this_turn",
           "play_position", "play_shard", "plays", "position_of", "win_rollouts"]


KING = int(rulebook.KING)   # the rules' ranks: a King is wild,
QUEEN = rulebook.QUEEN      # and a centre pile holds at most a Queen's worth of cards
HAND_SIZE = 5
SIDES = 4
CENTRES = 3
CARDS = 104
MAX_PAYOFF = 40
MAX_ROUNDS = 200
GAME_MAX_MOVES = 100_000
ROLLOUT_MAX_MOVES = 20_000

PCAP = MAX_PAYOFF            # payoff pile capacity
SCAP = CARDS                 # side pile capacity
HCAP = 8                     # hand capacity (a hand holds at most 5)
RING = 128                   # stock ring: a power of two >= CARDS
MASK = RING - 1

# board layout (offsets into one int64 array)
PAY = 0                                  # (2, PCAP) payoff piles, bottom first
SIDE = PAY + 2 * PCAP                    # (2, SIDES, SCAP) side piles, bottom first
CEN = SIDE + 2 * SIDES * SCAP            # (CENTRES, QUEEN) centre piles, bottom first
STOCK = CEN + CENTRES * QUEEN            # (RING,) stock ring
HAND = STOCK + RING                      # (2, HCAP) hands, sorted
PAY_N = HAND + 2 * HCAP                  # (2,)
HAND_N = PAY_N + 2                       # (2,)
SIDE_N = HAND_N + 2                      # (2, SIDES)
CEN_N = SIDE_N + 2 * SIDES               # (CENTRES,) a pile of n cards has value n
STOCK_LO = CEN_N + CENTRES               # ring slot of the stock's bottom card
STOCK_N = STOCK_LO + 1
TO_MOVE = STOCK_N + 1
TURN = TO_MOVE + 1
SHUFFLES = TURN + 1                      # the engine's shuffle count
MOVES = SHUFFLES + 1                     # moves played by this kernel call
ROUND = MOVES + 1
SCORE = ROUND + 1                        # (2,)
RESULTS = SCORE + 2                      # rounds finished
LAST_WINNER = RESULTS + 1                # last round: winner or -1
LAST_POINTS = LAST_WINNER + 1
OVER = LAST_POINTS + 1
WINNER = OVER + 1                        # -1: none
PAID = WINNER + 1                        # a payoff card was played since the call started
BOARD = PAID + 1

# options array
O_KING_STARTS, O_REFILL, O_BOTTOM, O_HIGHER, O_PAYOFF, O_TARGET, O_MATCH = range(7)
O_COMPLETE = 7              # (QUEEN + 1,): 1 where a centre pile of that many cards is complete (rules.completes)
N_OPTIONS = O_COMPLETE + QUEEN + 1

# statuses
OK, CUT, STUCK, TAPE, LOST = 0, 1, 2, 3, 4
STATUS_TEXT = {CUT: "the game did not end within the move limit", STUCK: "the seat to move has no legal move",
               TAPE: "the script has no draw for this shuffle (the game left the engine's path)",
               LOST: "a card was lost or duplicated"}

# moves: kind << 12 | a << 4 | b
K_PAYOFF, K_SIDE, K_HAND, K_DISCARD = 0, 1, 2, 3
NO_KEY = 1 << 40


def code_of(card: Card) -> int:
    """The kernel's code of a physical card: ``(rank - 1) * 8 + suit * 2 + pack``."""
    return (int(card.rank) - 1) * 8 + int(card.suit) * 2 + card.pack


def card_of(code: int) -> Card:
    """The physical card of a kernel code."""
    return Card(Rank((code >> 3) + 1), Suit((code >> 1) & 3), code & 1)


# Card.id (pack * 52 + suit * 13 + rank - 1, the engine's deck order) -> kernel code
ID2CODE = np.array([((i % 13) * 8 + ((i % 52) // 13) * 2 + i // 52) for i in range(CARDS)], dtype=np.int64)


# The rules' tables, built from the functions of :mod:`cardlab.games.spite_malice.rules` (the one statement
# of each rule) when this module is imported, one flat array per value of ``king_starts_pile``; every
# compiled function reads them from this array (an argument, so numba's on-disk cache never holds a stale copy).
T_FIT = 0                                   # [v]: bit t set when a card of rank t fits a pile of value v
T_PREF = T_FIT + QUEEN                      # [t * 12 + v]: the bot's payoff_preference of such a pile
T_DIST = T_PREF + (KING + 1) * QUEEN        # [t * 12 + v]: the bot's distance to a payoff top of rank t
T_DISC = T_DIST + (KING + 1) * QUEEN        # [(j * 14 + s) * 14 + r]: the bot's discard key, packed
T_STEPS = T_DISC + SIDES * (KING + 1) * (KING + 1)   # the bot's steps in the order of bot.PREFERENCE
STEP_NAMES = ("payoff", "side", "hand", "king", "discard")
"""The greedy bot's steps (:data:`~cardlab.games.spite_malice.bot.STEPS`) by the kernel's code (their place)."""
S_PAYOFF, S_SIDE, S_HAND, S_KING, S_DISCARD = range(len(STEP_NAMES))
STEP_COUNT = len(STEP_NAMES)
TABLES = T_STEPS + STEP_COUNT


def rule_tables(king_starts: bool) -> IntArray:
    """The tables of the rules and the bot as they are written now (:func:`_rule_tables`, built once per
    version of the functions it reads, so a changed rule or preference is always the one the kernel plays)."""
    return _rule_tables(king_starts, rulebook.fits_value, rulebook.payoff_preference, rulebook.distance,
                        rulebook.discard_class, tuple(bot.PREFERENCE))


@functools.cache
def _rule_tables(king_starts: bool, fits_value: Any, payoff_preference: Any, distance: Any, discard_class: Any,
                 preference: tuple[str, ...]) -> IntArray:
    """The kernel's tables of the rules and the greedy bot for one value of ``king_starts_pile``: at
    ``T_FIT + v`` the ranks that fit a centre pile of value ``v`` (0-11), bit ``t`` set when
    :func:`~cardlab.games.spite_malice.rules.fits_value` says a card of rank ``t`` (1-13) fits it (one
    load tells a pile's fit for every card); at ``T_PREF`` and ``T_DIST`` + ``t * 12 + v`` the bot's
    :func:`~cardlab.games.spite_malice.rules.payoff_preference` and
    :func:`~cardlab.games.spite_malice.rules.distance` for a payoff top of rank ``t``; at ``T_DISC + (j *
    14 + s) * 14 + r`` the discard key ``(class, gap, -rank, side)`` of a hand card of rank ``r`` on side
    pile ``j`` whose top has rank ``s`` (0: empty), packed, the class and gap being
    :func:`~cardlab.games.spite_malice.rules.discard_class` (the kernel appends the face below it); at
    ``T_STEPS + i`` the code (:data:`STEP_NAMES`) of the bot's ``i``-th step in its
    :data:`~cardlab.games.spite_malice.bot.PREFERENCE` (-1: none)."""
    table = np.zeros(TABLES, dtype=np.int64)
    for t in range(1, KING + 1):
        for v in range(QUEEN):
            table[T_FIT + v] |= int(fits_value(t, v, king_starts)) << t
            table[T_PREF + t * QUEEN + v] = payoff_preference(t, v)
            table[T_DIST + t * QUEEN + v] = distance(t, v, king_starts)
    for j in range(SIDES):
        for top in range(KING + 1):
            for r in range(1, KING + 1):
                cls, gap = discard_class(r, top if top else None)
                table[T_DISC + (j * (KING + 1) + top) * (KING + 1) + r] = ((cls * 16 + gap) * 16 + (KING - r)) * 4 + j
    table[T_STEPS:] = -1
    for i, step in enumerate(preference[:STEP_COUNT]):
        table[T_STEPS + i] = STEP_NAMES.index(step)
    return table


_EMPTY = np.zeros(0, dtype=np.int64)
_NO_TAPE_AT = np.zeros(1, dtype=np.int64)


# ---------------------------------------------------------------------------------------------- small steps
@jit
def _tape_perm(tape: Any, tape_at: Any, count: int, nth: int, length: int) -> Any:
    """Where the ``nth`` permutation (from 0) of scripted shuffle ``count`` starts in ``tape``, or -1 when
    the script has none of that length."""
    if count < 0 or count + 1 >= tape_at.size:
        return -1
    pos = tape_at[count]
    end = tape_at[count + 1]
    for _ in range(nth):
        if pos >= end:
            return -1
        pos += 1 + tape[pos]
    if pos >= end or tape[pos] != length:
        return -1
    return pos + 1


@jit
def _permute(a: Any, off: int, n: int, tape: Any, start: int, buf: Any) -> None:
    """``a[off:off+n] = [a[off + perm[i]] for i]`` with the permutation ``tape[start:start+n]`` (numpy's
    ``[pile[i] for i in rng.permutation(n)]``)."""
    for i in range(n):
        buf[i] = a[off + tape[start + i]]
    for i in range(n):
        a[off + i] = buf[i]


@jit_inline
def _insert(board: Any, p: int, code: int) -> None:
    """Put a card into seat ``p``'s hand, keeping it sorted."""
    base = HAND + p * HCAP
    n = board[HAND_N + p]
    i = n
    while i > 0 and board[base + i - 1] > code:
        board[base + i] = board[base + i - 1]
        i -= 1
    board[base + i] = code
    board[HAND_N + p] = n + 1


@jit_inline
def _draw(board: Any, p: int, m: int) -> None:
    """Seat ``p`` draws ``m`` cards off the top of the stock (``m`` <= the stock)."""
    lo = board[STOCK_LO]
    n = board[STOCK_N]
    for _ in range(m):
        n -= 1
        _insert(board, p, board[STOCK + ((lo + n) & MASK)])
    board[STOCK_N] = n


@jit
def _lay_out(board: Any, cards: Any, payoff: int) -> None:
    """Deal ``cards`` (top of the deck first) as the engine's ``_lay_out``: payoff piles (their first card
    the face-up top), hands of 5, the rest the stock (its first card the top); empty side and centre piles."""
    for seat in range(2):
        for i in range(payoff):
            board[PAY + seat * PCAP + i] = cards[seat * payoff + payoff - 1 - i]
        board[PAY_N + seat] = payoff
        board[HAND_N + seat] = 0
        for i in range(HAND_SIZE):
            _insert(board, seat, cards[2 * payoff + seat * HAND_SIZE + i])
        for j in range(SIDES):
            board[SIDE_N + seat * SIDES + j] = 0
    for k in range(CENTRES):
        board[CEN_N + k] = 0
    rest = CARDS - 2 * payoff - 2 * HAND_SIZE
    for i in range(rest):
        board[STOCK + i] = cards[CARDS - 1 - i]
    board[STOCK_LO] = 0
    board[STOCK_N] = rest


@jit
def _choose_first(board: Any, opts: Any, taped: int, tape: Any, tape_at: Any, state: Any, buf: Any) -> int:
    """Set who starts the round: the higher payoff top, ties reshuffling both payoff piles (each on its
    own, one shuffle count per tie), seat 0 when both piles hold one rank only; or seat 0 (``first="seat0"``)."""
    board[TO_MOVE] = 0
    if opts[O_HIGHER] == 0:
        return OK
    while True:
        r0 = board[PAY + board[PAY_N] - 1] >> 3
        r1 = board[PAY + PCAP + board[PAY_N + 1] - 1] >> 3
        if r0 != r1:
            board[TO_MOVE] = 0 if r0 > r1 else 1
            return OK
        same = True
        for seat in range(2):
            for i in range(board[PAY_N + seat]):
                if board[PAY + seat * PCAP + i] >> 3 != r0:
                    same = False
        if same:
            return OK
        count = board[SHUFFLES]
        board[SHUFFLES] = count + 1
        stream = set_stream(state, count + 1)  # both piles from this shuffle's one stream, seat 0's first
        for seat in range(2):
            n = board[PAY_N + seat]
            if taped != 0:
                start = _tape_perm(tape, tape_at, count, seat, n)
                if start < 0:
                    return TAPE
                _permute(board, PAY + seat * PCAP, n, tape, start, buf)
            else:
                shuffle(board[PAY + seat * PCAP:PAY + seat * PCAP + n], n, stream)


@jit
def _new_round(board: Any, opts: Any, taped: int, tape: Any, tape_at: Any, state: Any, buf: Any) -> int:
    """A match's next round: a freshly shuffled deck (one shuffle count), laid out, then who starts."""
    count = board[SHUFFLES]
    board[SHUFFLES] = count + 1
    if taped != 0:
        start = _tape_perm(tape, tape_at, count, 0, CARDS)
        if start < 0:
            return TAPE
        for i in range(CARDS):
            buf[i] = ID2CODE[tape[start + i]]
    else:
        for i in range(CARDS):
            buf[i] = ID2CODE[i]  # the engine's deck: the cards in id order
        deal_shuffle(buf, CARDS, state, count + 1)
    _lay_out(board, buf, opts[O_PAYOFF])
    return _choose_first(board, opts, taped, tape, tape_at, state, buf)


@jit
def _end_round(board: Any, w: int, points: int, opts: Any, taped: int, tape: Any, tape_at: Any, state: Any,
               buf: Any) -> int:
    """Record the round (winner ``w`` or -1) and end the game or deal the match's next round."""
    board[RESULTS] += 1
    board[LAST_WINNER] = w
    board[LAST_POINTS] = points
    if w >= 0:
        board[SCORE + w] += points
    if opts[O_MATCH] == 0:
        board[OVER] = 1
        board[WINNER] = w
        return OK
    if w >= 0 and board[SCORE + w] >= opts[O_TARGET]:
        board[OVER] = 1
        board[WINNER] = w
        return OK
    if board[ROUND] >= MAX_ROUNDS:
        board[OVER] = 1
        a, b = board[SCORE], board[SCORE + 1]
        board[WINNER] = -1 if a == b else (0 if a > b else 1)
        return OK
    board[ROUND] += 1
    return _new_round(board, opts, taped, tape, tape_at, state, buf)


@jit_inline
def _start_turn(board: Any, p: int, opts: Any, taped: int, tape: Any, tape_at: Any, state: Any, buf: Any) -> int:
    """Seat ``p``'s turn starts: it draws up to 5 (what the stock holds); an empty stock draws the round."""
    board[TO_MOVE] = p
    need = HAND_SIZE - board[HAND_N + p]
    if need > 0:
        n = board[STOCK_N]
        if n == 0:
            return _end_round(board, -1, 0, opts, taped, tape, tape_at, state, buf)
        _draw(board, p, need if need < n else n)
    return OK


@jit
def _complete(board: Any, k: int, opts: Any, taped: int, tape: Any, tape_at: Any, state: Any, buf: Any) -> int:
    """Centre pile ``k`` reached the Queen: its 12 cards are shuffled and go under the stock, or are merged
    with the stock and the whole stock is shuffled."""
    count = board[SHUFFLES]
    board[SHUFFLES] = count + 1
    stream = set_stream(state, count + 1)  # the pile, then (merged into the stock) the whole stock
    off = CEN + k * QUEEN
    board[CEN_N + k] = 0
    lo = board[STOCK_LO]
    n = board[STOCK_N]
    if taped != 0:
        start = _tape_perm(tape, tape_at, count, 0, QUEEN)
        if start < 0:
            return TAPE
        _permute(board, off, QUEEN, tape, start, buf)
    else:
        shuffle(board[off:off + QUEEN], QUEEN, stream)
    if opts[O_BOTTOM] != 0:
        lo = (lo - QUEEN) & MASK
        for i in range(QUEEN):
            board[STOCK + ((lo + i) & MASK)] = board[off + i]
        board[STOCK_LO] = lo
        board[STOCK_N] = n + QUEEN
        return OK
    m = n + QUEEN
    for i in range(n):
        buf[i] = board[STOCK + ((lo + i) & MASK)]
    for i in range(QUEEN):
        buf[n + i] = board[off + i]
    if taped != 0:
        start = _tape_perm(tape, tape_at, count, 1, m)
        if start < 0:
            return TAPE
        for i in range(m):
            board[STOCK + i] = buf[tape[start + i]]
    else:
        shuffle(buf, m, stream)
        for i in range(m):
            board[STOCK + i] = buf[i]
    board[STOCK_LO] = 0
    board[STOCK_N] = m
    return OK


@jit_inline
def _take(board: Any, p: int, face: int, r: int, taped: int, copy_pick: Any, state: Any) -> Any:
    """Remove a card of ``face`` from seat ``p``'s hand and return its code (-1: none there). With both
    copies in hand, which one goes is uniform (scripted: ``copy_pick[r]``, 0 for the first pack's)."""
    base = HAND + p * HCAP
    n = board[HAND_N + p]
    i = 0
    while i < n and board[base + i] >> 1 != face:
        i += 1
    if i == n:
        return -1
    if i + 1 < n and board[base + i + 1] >> 1 == face:
        if taped != 0:
            if r < copy_pick.size and copy_pick[r] > 0:
                i += 1
        else:  # the rules' hidden choice at move r + 1 (the engine's Dealer.choice)
            i += below(set_stream(state, CHOICES + r + 1), 2)
    code = board[base + i]
    for q in range(i, n - 1):
        board[base + q] = board[base + q + 1]
    board[HAND_N + p] = n - 1
    return code


# ---------------------------------------------------------------------------------------------- choices
@jit_inline
def _legal(board: Any, p: int, tab: Any, pick: int) -> Any:
    """The engine's legal moves in its order: with ``pick < 0`` how many there are, else move number ``pick``."""
    count = 0
    fit = (tab[T_FIT + board[CEN_N]], tab[T_FIT + board[CEN_N + 1]], tab[T_FIT + board[CEN_N + 2]])
    top = board[PAY + p * PCAP + board[PAY_N + p] - 1]
    for k in range(CENTRES):
        if (fit[k] >> ((top >> 3) + 1)) & 1 != 0:
            if count == pick:
                return (K_PAYOFF << 12) | k
            count += 1
    for j in range(SIDES):
        sn = board[SIDE_N + p * SIDES + j]
        if sn > 0:
            c = board[SIDE + (p * SIDES + j) * SCAP + sn - 1]
            for k in range(CENTRES):
                if (fit[k] >> ((c >> 3) + 1)) & 1 != 0:
                    if count == pick:
                        return (K_SIDE << 12) | (j << 4) | k
                    count += 1
    base = HAND + p * HCAP
    hn = board[HAND_N + p]
    for i in range(hn):
        c = board[base + i]
        if i > 0 and board[base + i - 1] >> 1 == c >> 1:
            continue
        for k in range(CENTRES):
            if (fit[k] >> ((c >> 3) + 1)) & 1 != 0:
                if count == pick:
                    return (K_HAND << 12) | ((c >> 1) << 4) | k
                count += 1
    for i in range(hn):
        c = board[base + i]
        if i > 0 and board[base + i - 1] >> 1 == c >> 1:
            continue
        if pick >= count and pick < count + SIDES:
            return (K_DISCARD << 12) | ((c >> 1) << 4) | (pick - count)
        count += SIDES
    if pick >= 0:
        return -1
    return count


@jit_inline
def _closer(best: Any, tab: Any, dt: int, f0: Any, f1: Any, f2: Any, v0: Any, v1: Any, v2: Any, r: Any, low: Any,
            shift: int) -> Any:
    """``best``, or the key of a card of rank ``r`` on a centre pile it fits if that is smaller: the key is the
    card's distance to the payoff top on that pile (table at ``dt``) shifted by ``shift``, then ``low`` (what
    breaks a tie), then the pile (0 to 2). ``f*`` are the piles' fit masks and ``v*`` their values."""
    if (f0 >> r) & 1 != 0:
        key = (tab[dt + v0] << shift) | low
        if key < best:
            best = key
    if (f1 >> r) & 1 != 0:
        key = (tab[dt + v1] << shift) | low | 1
        if key < best:
            best = key
    if (f2 >> r) & 1 != 0:
        key = (tab[dt + v2] << shift) | low | 2
        if key < best:
            best = key
    return best


@jit_inline
def _greedy(board: Any, p: int, tab: Any) -> Any:
    """The greedy bot's move (see the module notes), or -1 when the seat has no legal move: the steps in the
    order of the bot's :data:`~cardlab.games.spite_malice.bot.PREFERENCE` (tabulated at ``T_STEPS``), the first
    that offers a move deciding."""
    t = (board[PAY + p * PCAP + board[PAY_N + p] - 1] >> 3) + 1
    dt = T_DIST + t * QUEEN
    v0 = board[CEN_N]
    v1 = board[CEN_N + 1]
    v2 = board[CEN_N + 2]
    f0 = tab[T_FIT + v0]
    f1 = tab[T_FIT + v1]
    f2 = tab[T_FIT + v2]
    sbase = SIDE + p * SIDES * SCAP
    base = HAND + p * HCAP
    hn = board[HAND_N + p]
    for step in range(STEP_COUNT):
        kind = tab[T_STEPS + step]
        if kind == S_PAYOFF:
            # the payoff top, on the pile that takes it with the smallest (preference, pile)
            pt = T_PREF + t * QUEEN
            best = NO_KEY
            if (f0 >> t) & 1 != 0:
                best = tab[pt + v0] << 2
            if (f1 >> t) & 1 != 0:
                key = (tab[pt + v1] << 2) | 1
                if key < best:
                    best = key
            if (f2 >> t) & 1 != 0:
                key = (tab[pt + v2] << 2) | 2
                if key < best:
                    best = key
            if best != NO_KEY:
                return (K_PAYOFF << 12) | (best & 3)
        elif kind == S_SIDE:
            # a side-pile top that fits, never a King: smallest (distance, side, pile)
            best = NO_KEY
            for j in range(SIDES):
                sn = board[SIDE_N + p * SIDES + j]
                if sn > 0:
                    r = (board[sbase + j * SCAP + sn - 1] >> 3) + 1
                    if r != KING:
                        best = _closer(best, tab, dt, f0, f1, f2, v0, v1, v2, r, j << 2, 4)
            if best != NO_KEY:
                return (K_SIDE << 12) | (((best >> 2) & 3) << 4) | (best & 3)
        elif kind == S_HAND:
            # a hand card that fits, never a King: smallest (distance, face, pile)
            best = NO_KEY
            for i in range(hn):
                c = board[base + i]
                r = (c >> 3) + 1
                if r != KING:
                    best = _closer(best, tab, dt, f0, f1, f2, v0, v1, v2, r, (c >> 1) << 2, 8)
            if best != NO_KEY:
                return (K_HAND << 12) | (((best >> 2) & 63) << 4) | (best & 3)
        elif kind == S_KING:
            # a King on the closest pile that takes one, if within reach of the Kings at hand
            kings = 0
            king_side = -1
            for j in range(SIDES):
                sn = board[SIDE_N + p * SIDES + j]
                if sn > 0 and (board[sbase + j * SCAP + sn - 1] >> 3) + 1 == KING:
                    kings += 1
                    if king_side < 0:
                        king_side = j
            king_face = -1
            for i in range(hn):
                c = board[base + i]
                if (c >> 3) + 1 == KING:
                    kings += 1
                    if king_face < 0:
                        king_face = c >> 1
            if kings > 0:
                kb = -1
                kd = NO_KEY
                for k in range(CENTRES):
                    v = board[CEN_N + k]
                    if (tab[T_FIT + v] >> KING) & 1 != 0:
                        if tab[dt + v] < kd:
                            kd = tab[dt + v]
                            kb = k
                if kb >= 0 and kd <= kings:
                    if king_side >= 0:
                        return (K_SIDE << 12) | (king_side << 4) | kb
                    return (K_HAND << 12) | (king_face << 4) | kb
        elif kind == S_DISCARD and hn > 0:
            # discard: smallest (class, gap, -rank, side, face); Kings only when the hand holds nothing else
            s0 = board[SIDE_N + p * SIDES]
            s1 = board[SIDE_N + p * SIDES + 1]
            s2 = board[SIDE_N + p * SIDES + 2]
            s3 = board[SIDE_N + p * SIDES + 3]
            t0 = (board[sbase + s0 - 1] >> 3) + 1 if s0 > 0 else 0
            t1 = (board[sbase + SCAP + s1 - 1] >> 3) + 1 if s1 > 0 else 0
            t2 = (board[sbase + 2 * SCAP + s2 - 1] >> 3) + 1 if s2 > 0 else 0
            t3 = (board[sbase + 3 * SCAP + s3 - 1] >> 3) + 1 if s3 > 0 else 0
            d0 = T_DISC + t0 * (KING + 1)
            d1 = T_DISC + ((KING + 1) + t1) * (KING + 1)
            d2 = T_DISC + (2 * (KING + 1) + t2) * (KING + 1)
            d3 = T_DISC + (3 * (KING + 1) + t3) * (KING + 1)
            plain = board[base] >> 3 != KING - 1    # the hand is sorted: its first card is a King only if all are
            best = NO_KEY
            for i in range(hn):
                c = board[base + i]
                r = (c >> 3) + 1
                if r == KING and plain:
                    break
                f = c >> 1
                key = (tab[d0 + r] << 6) | f
                if key < best:
                    best = key
                key = (tab[d1 + r] << 6) | f
                if key < best:
                    best = key
                key = (tab[d2 + r] << 6) | f
                if key < best:
                    best = key
                key = (tab[d3 + r] << 6) | f
                if key < best:
                    best = key
            return (K_DISCARD << 12) | ((best & 63) << 4) | ((best >> 6) & 3)
    # nothing chosen (an empty hand): the first legal move, as the policy does
    return _legal(board, p, tab, 0)


# ---------------------------------------------------------------------------------------------- play
@jit_inline
def _apply(board: Any, move: int, opts: Any, taped: int, tape: Any, tape_at: Any, copy_pick: Any, state: Any,
           buf: Any) -> int:
    """Play ``move`` for the seat to move, with everything that follows (see the module notes)."""
    p = board[TO_MOVE]
    kind = move >> 12
    a = (move >> 4) & 255
    b = move & 15
    r = board[MOVES]
    board[MOVES] = r + 1
    if kind == K_DISCARD:
        c = _take(board, p, a, r, taped, copy_pick, state)
        if c < 0:
            return LOST
        off = SIDE + (p * SIDES + b) * SCAP
        board[off + board[SIDE_N + p * SIDES + b]] = c
        board[SIDE_N + p * SIDES + b] += 1
        board[TURN] += 1
        return _start_turn(board, 1 - p, opts, taped, tape, tape_at, state, buf)
    if kind == K_PAYOFF:
        board[PAY_N + p] -= 1
        c = board[PAY + p * PCAP + board[PAY_N + p]]
        board[PAID] = 1
    elif kind == K_SIDE:
        j = p * SIDES + a
        board[SIDE_N + j] -= 1
        c = board[SIDE + j * SCAP + board[SIDE_N + j]]
    else:
        c = _take(board, p, a, r, taped, copy_pick, state)
        if c < 0:
            return LOST
    v = board[CEN_N + b]
    board[CEN + b * QUEEN + v] = c
    board[CEN_N + b] = v + 1
    if kind == K_PAYOFF and board[PAY_N + p] == 0:      # the last payoff card wins the round
        board[TURN] += 1
        return _end_round(board, p, board[PAY_N + 1 - p], opts, taped, tape, tape_at, state, buf)
    if opts[O_COMPLETE + v + 1] == 1:
        status = _complete(board, b, opts, taped, tape, tape_at, state, buf)
        if status != OK:
            return status
    if kind == K_HAND and board[HAND_N + p] == 0:
        if opts[O_REFILL] != 0:
            n = board[STOCK_N]
            if n == 0:                                  # the refill finds no stock: the round is drawn
                board[TURN] += 1
                return _end_round(board, -1, 0, opts, taped, tape, tape_at, state, buf)
            _draw(board, p, HAND_SIZE if HAND_SIZE < n else n)
        else:                                           # an emptied hand ends the turn
            board[TURN] += 1
            return _start_turn(board, 1 - p, opts, taped, tape, tape_at, state, buf)
    return OK


@jit
def _play(board: Any, opts: Any, pol: Any, tab: Any, state: Any, max_moves: int, one_turn: int,
          taped: int, tape: Any, tape_at: Any, copy_pick: Any, rand_pick: Any, log: Any, buf: Any) -> int:
    """Play on from the board until the game ends (or, with ``one_turn``, the current turn does), each
    seat by its policy; moves are written to ``log`` while it has room. Returns a status."""
    turn0 = board[TURN]
    while board[OVER] == 0:
        r = board[MOVES]
        if r >= max_moves:
            return CUT
        p = board[TO_MOVE]
        if pol[p] == GREEDY:
            move = _greedy(board, p, tab)
        else:
            count = _legal(board, p, tab, -1)
            if count == 0:
                return STUCK
            if taped != 0:
                pick = rand_pick[r] if r < rand_pick.size else 0
                if pick < 0 or pick >= count:
                    return TAPE
            else:
                pick = below(state, count)
            move = _legal(board, p, tab, pick)
        if move < 0:
            return STUCK
        if r < log.size:
            log[r] = move
        status = _apply(board, move, opts, taped, tape, tape_at, copy_pick, state, buf)
        if status != OK:
            return status
        if one_turn != 0 and board[TURN] != turn0:
            break
    return OK


@jit
def _conserved(board: Any, seen: Any) -> bool:
    """Every one of the 104 cards on the table exactly once."""
    for i in range(CARDS):
        seen[i] = 0
    total = 0
    for seat in range(2):
        for i in range(board[PAY_N + seat]):
            seen[board[PAY + seat * PCAP + i]] += 1
        for i in range(board[HAND_N + seat]):
            seen[board[HAND + seat * HCAP + i]] += 1
        for j in range(SIDES):
            off = SIDE + (seat * SIDES + j) * SCAP
            for i in range(board[SIDE_N + seat * SIDES + j]):
                seen[board[off + i]] += 1
    for k in range(CENTRES):
        for i in range(board[CEN_N + k]):
            seen[board[CEN + k * QUEEN + i]] += 1
    lo = board[STOCK_LO]
    for i in range(board[STOCK_N]):
        seen[board[STOCK + ((lo + i) & MASK)]] += 1
    for i in range(CARDS):
        if seen[i] != 1:
            return False
        total += seen[i]
    return total == CARDS


@jit
def _fresh_game(board: Any, opts: Any, state: Any, buf: Any) -> None:
    """A new game's first round: the 104 cards shuffled and laid out, then who starts."""
    for i in range(BOARD):
        board[i] = 0
    board[ROUND] = 1
    board[LAST_WINNER] = -1
    board[WINNER] = -1
    for i in range(CARDS):
        buf[i] = ID2CODE[i]  # the engine's deck: the cards in id order
    deal_shuffle(buf, CARDS, state, DEAL)
    _lay_out(board, buf, opts[O_PAYOFF])
    _choose_first(board, opts, 0, np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), state, buf)


@jit
def _shard(base: Any, start: int, stop: int, opts: Any, pol: Any, tab: Any, winners: Any, turns: Any,
           points: Any, draws: Any, rounds: Any, board: Any) -> Any:
    """Games ``start..stop-1`` of the run with this seed; returns (index of the first failed game or -1,
    its status)."""
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    buf = np.zeros(RING, dtype=np.int64)
    seen = np.zeros(CARDS, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    no_tape = np.zeros(1, dtype=np.int64)
    for g in range(start, stop):
        game_state(base, g, state)
        start_game(state[0], state)
        _fresh_game(board, opts, state, buf)
        status = _play(board, opts, pol, tab, state, GAME_MAX_MOVES, 0, 0, empty, no_tape, empty, empty,
                       empty, buf)
        if status == OK and not _conserved(board, seen):
            status = LOST
        if status != OK:
            return g, status
        w = board[WINNER]
        o = g - start
        winners[o] = w
        turns[o] = board[TURN]
        rounds[o] = board[RESULTS]
        draws[o] = 1.0 if w < 0 else 0.0
        if w < 0:
            points[o] = 0.0
        elif opts[O_MATCH] != 0:
            points[o] = board[SCORE + w]
        else:
            points[o] = board[LAST_POINTS]
    return -1, OK


@jit
def _deal_hidden(board: Any, places: Any, place_start: Any, cards: Any, card_start: Any, comp_start: Any,
                 thresholds: Any, size: int, whole: int, zone: Any, state: Any, out: Any, pool: Any) -> None:
    """Write one draw of the chance law over the board's hidden places. ``zone[q]`` says where place ``q``
    is: 0/1 seat 0/1's payoff pile (under the top, bottom first), 2/3 seat 0/1's hand, 4 the stock
    (bottom first). A mixture picks its component first, with its weight (``draw_mixed``)."""
    draw_mixed(places, place_start, cards, card_start, comp_start, thresholds, size, whole, state, out, pool)
    pay0 = 0
    pay1 = 0
    stock = 0
    for seat in range(2):
        if zone.size > 0:
            for q in range(size):
                if zone[q] == 2 + seat:
                    board[HAND_N + seat] = 0
                    break
    for q in range(size):
        z = zone[q]
        c = out[q]
        if z == 0:
            board[PAY + pay0] = c
            pay0 += 1
        elif z == 1:
            board[PAY + PCAP + pay1] = c
            pay1 += 1
        elif z == 4:
            board[STOCK + stock] = c
            stock += 1
        else:
            _insert(board, z - 2, c)
    if stock > 0:
        board[STOCK_LO] = 0


@jit
def _rollouts(base: Any, seed_list: Any, places: Any, place_start: Any, cards: Any, card_start: Any,
              comp_start: Any, thresholds: Any, size: int, whole: int, zone: Any, opts: Any, tab: Any,
              one_turn: int, out: Any, board: Any, firsts: Any) -> Any:
    """One play-out per seed from ``base`` with its hidden places drawn from the law; ``out[i]`` the winner
    (-1 none), or with ``one_turn`` 1 if a payoff card was played this turn. Play-out ``i`` starts with the
    move ``firsts[i]`` (``_apply``) when ``firsts`` is not empty. A seed equal to the one before it deals
    the same world: that world is copied, with the generator's state after the deal, instead of dealt again
    (the moves of move values share each play-out's seed). Returns (index of the first failed play-out or -1,
    its status)."""
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    dealt = np.zeros(BOARD, dtype=np.int64)
    dealt_state = np.zeros(1, dtype=np.uint64)
    buf = np.zeros(RING, dtype=np.int64)
    seen = np.zeros(CARDS, dtype=np.int64)
    drawn = np.zeros(max(size, 1), dtype=np.int64)
    pool = np.zeros(max(size, 1), dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    no_tape = np.zeros(1, dtype=np.int64)
    pol = np.zeros(2, dtype=np.int64)
    for i in range(seed_list.size):
        if i > 0 and seed_list[i] == seed_list[i - 1]:
            state[0] = dealt_state[0]
            for q in range(BOARD):
                board[q] = dealt[q]
        else:
            state[0] = seed_list[i]  # a play-out's state, as jitkit.new_state makes it
            state[1] = seed_list[i]
            for q in range(BOARD):
                board[q] = base[q]
            _deal_hidden(board, places, place_start, cards, card_start, comp_start, thresholds, size, whole, zone,
                         state, drawn, pool)
            if i + 1 < seed_list.size and seed_list[i + 1] == seed_list[i]:
                for q in range(BOARD):
                    dealt[q] = board[q]
                dealt_state[0] = state[0]
        status = OK
        if firsts.size > 0:
            status = _apply(board, firsts[i], opts, 0, empty, no_tape, empty, state, buf)
        if status == OK:
            status = _play(board, opts, pol, tab, state, ROLLOUT_MAX_MOVES, one_turn, 0, empty, no_tape, empty,
                           empty, empty, buf)
        if status == OK and not _conserved(board, seen):
            status = LOST
        if status == CUT:
            out[i] = 0 if one_turn != 0 else -1
            continue
        if status != OK:
            return i, status
        out[i] = board[PAID] if one_turn != 0 else (board[WINNER] if board[OVER] != 0 else -1)
    return -1, OK


@jit
def _play_board(board: Any, state: Any, opts: Any, pol: Any, tab: Any, max_moves: int, one_turn: int,
                taped: int, tape: Any, tape_at: Any, copy_pick: Any, rand_pick: Any, log: Any) -> int:
    """:func:`_play` on a given board with its own generator (a SplitMix64 ``state``) or a script."""
    buf = np.zeros(RING, dtype=np.int64)
    seen = np.zeros(CARDS, dtype=np.int64)
    status = _play(board, opts, pol, tab, state, max_moves, one_turn, taped, tape, tape_at, copy_pick,
                   rand_pick, log, buf)
    if status == OK and not _conserved(board, seen):
        status = LOST
    return status


# ---------------------------------------------------------------------------------------------- Python side
def options_array(options: Mapping[str, Any]) -> IntArray:
    """The game's normalised options (``game.options``) as the kernel's array."""
    try:
        values = [bool(options["king_starts_pile"]), bool(options["refill_on_empty"]),
                  options["completed_to"] == "bottom", options["first"] == "higher", int(options["payoff_size"]),
                  int(options["target"]), bool(options["match"])]
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"Spite and Malice kernel: options {dict(options)!r} are not a game's normalised "
                                "options (give game.options)") from exc
    if not 1 <= values[4] <= MAX_PAYOFF:
        raise InvalidInputError(f"Spite and Malice kernel: payoff_size={values[4]!r}; accepted 1 to {MAX_PAYOFF}")
    complete = [rulebook.completes(v) for v in range(QUEEN + 1)]  # the rules' pile-complete, tabulated
    return np.array(values + complete, dtype=np.int64)


def _check_players(players: int) -> None:
    if isinstance(players, bool) or players != 2:
        raise InvalidInputError(f"Spite and Malice kernel: players={players!r}; the game takes 2 players")


def move_text(move: int) -> str:
    """A kernel move as the engine's canonical move text."""
    kind, a, b = move >> 12, (move >> 4) & 255, move & 15
    if kind == K_PAYOFF:
        return f"payoff to centre {b + 1}"
    if kind == K_SIDE:
        return f"side {a + 1} to centre {b + 1}"
    face = card_of(a << 1)
    if kind == K_HAND:
        return f"hand {face} to centre {b + 1}"
    return f"hand {face} to side {b + 1}"


def game_moves(players: int, options: Mapping[str, Any], seed: int, index: int,
               policies: Sequence[str]) -> list[str]:
    """Game ``index`` of the run with ``seed`` (:func:`play_shard`'s), its moves as the engine's texts: with
    deterministic bots, the moves the engine plays in ``new_game("spite-and-malice", seed=seed,
    index=index)``."""
    _check_players(players)
    opts = options_array(options)
    pol = jitkit.policy_codes(policies, 2, "game_moves")
    index, _ = jitkit.check_range(index, index, "game_moves")
    board = np.zeros(BOARD, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    buf = np.zeros(RING, dtype=np.int64)
    log = np.full(GAME_MAX_MOVES, -1, dtype=np.int64)
    with np.errstate(over="ignore"):
        game_state(jitkit.run_seed(seed, "game_moves"), index, state)
        start_game(state[0], state)
        _fresh_game(board, opts, state, buf)
        _play(board, opts, pol, rule_tables(bool(opts[O_KING_STARTS])), state, GAME_MAX_MOVES, 0, 0, _EMPTY,
              _NO_TAPE_AT, _EMPTY, _EMPTY, log, buf)
    return [move_text(int(m)) for m in log[:min(board[MOVES], log.size)]]


def play_shard(players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
               policies: Sequence[str]) -> tuple[IntArray, IntArray, dict[str, np.ndarray]]:
    """Games ``start..stop-1`` of the run with this seed, each from its own fresh deal: winners (-1: none),
    turns (the engine's count), and the extras ``points``, ``draw``, ``rounds`` of ``SpiteMalice.stats()``.
    Game ``i`` depends only on ``(seed, i)``."""
    _check_players(players)
    opts = options_array(options)
    pol = jitkit.policy_codes(policies, 2, "play_shard")
    start, stop = jitkit.check_range(start, stop, "play_shard")
    base = jitkit.run_seed(seed, "play_shard")
    n = stop - start
    winners = np.empty(n, dtype=np.int64)
    turns = np.empty(n, dtype=np.int64)
    points = np.empty(n, dtype=np.float64)
    draws = np.empty(n, dtype=np.float64)
    rounds = np.empty(n, dtype=np.float64)
    board = np.zeros(BOARD, dtype=np.int64)
    tab = rule_tables(bool(opts[O_KING_STARTS]))
    with np.errstate(over="ignore"):  # SplitMix64 wraps around on purpose (plain Python mode)
        failed, status = _shard(base, start, stop, opts, pol, tab, winners, turns, points, draws, rounds, board)
    if failed >= 0:
        g = int(failed)

        def replay() -> list[str]:
            """Game ``g`` again, its moves recorded."""
            return game_moves(players, options, seed, g, policies)

        raise jitkit.kernel_failure("Spite and Malice", "play_shard", STATUS_TEXT.get(int(status), str(status)),
                                    f"game {g}, options {opts.tolist()}, policies {list(policies)}", seed, replay)
    return winners, turns, {"points": points, "draw": draws, "rounds": rounds}


def board_of(game: Any) -> IntArray:
    """The board of an engine Spite and Malice game's position (its full state, hidden cards included)."""
    s = game.state
    board = np.zeros(BOARD, dtype=np.int64)
    for seat in (0, 1):
        board[PAY + seat * PCAP:PAY + seat * PCAP + len(s.payoff[seat])] = [code_of(c) for c in s.payoff[seat]]
        board[PAY_N + seat] = len(s.payoff[seat])
        board[HAND + seat * HCAP:HAND + seat * HCAP + len(s.hands[seat])] = [code_of(c) for c in s.hands[seat]]
        board[HAND_N + seat] = len(s.hands[seat])
        for j, pile in enumerate(s.sides[seat]):
            at = SIDE + (seat * SIDES + j) * SCAP
            board[at:at + len(pile)] = [code_of(c) for c in pile]
            board[SIDE_N + seat * SIDES + j] = len(pile)
    for k, pile in enumerate(s.centre):
        board[CEN + k * QUEEN:CEN + k * QUEEN + len(pile)] = [code_of(c) for c in pile]
        board[CEN_N + k] = len(pile)
    board[STOCK:STOCK + len(s.stock)] = [code_of(c) for c in s.stock]
    board[STOCK_LO], board[STOCK_N] = 0, len(s.stock)
    board[TO_MOVE], board[TURN], board[SHUFFLES], board[ROUND] = s.to_move, s.turn, s.shuffles, s.round
    board[SCORE], board[SCORE + 1] = s.scores
    board[RESULTS] = len(s.results)
    board[LAST_WINNER], board[LAST_POINTS] = s.results[-1] if s.results else (-1, 0)
    board[OVER] = int(s.over)
    board[WINNER] = -1 if s.winner is None else s.winner
    return board


def position_of(board: IntArray) -> dict[str, Any]:
    """A board as the engine's state fields (lists of cards bottom first, hands sorted), for comparison."""
    b = board.tolist()

    def run(at: int, n: int) -> list[Card]:
        return [card_of(c) for c in b[at:at + n]]

    lo = b[STOCK_LO]
    return {
        "payoff": [run(PAY + seat * PCAP, b[PAY_N + seat]) for seat in (0, 1)],
        "hands": [run(HAND + seat * HCAP, b[HAND_N + seat]) for seat in (0, 1)],
        "sides": [[run(SIDE + (seat * SIDES + j) * SCAP, b[SIDE_N + seat * SIDES + j]) for j in range(SIDES)]
                  for seat in (0, 1)],
        "centre": [run(CEN + k * QUEEN, b[CEN_N + k]) for k in range(CENTRES)],
        "stock": [card_of(b[STOCK + ((lo + i) & MASK)]) for i in range(b[STOCK_N])],
        "to_move": b[TO_MOVE], "turn": b[TURN], "shuffles": b[SHUFFLES], "round": b[ROUND],
        "scores": [b[SCORE], b[SCORE + 1]], "results": b[RESULTS],
        "last_result": [b[LAST_WINNER], b[LAST_POINTS]] if b[RESULTS] else None,
        "over": bool(b[OVER]), "winner": None if b[WINNER] < 0 else b[WINNER],
    }


@dataclass
class Script:
    """Given draws in place of the kernel's own: ``perms[c]`` the permutations (numpy's
    ``rng.permutation`` results, in order) of the engine's in-game shuffle number ``c``; ``copies[r]``
    which copy (0: first pack's, 1: second's) leaves a hand at the kernel's move ``r`` when both are
    there; ``randoms[r]`` the index of the random policy's move among the legal moves at move ``r``."""

    perms: dict[int, list[list[int]]] = field(default_factory=dict)
    copies: list[int] = field(default_factory=list)
    randoms: list[int] = field(default_factory=list)

    def arrays(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        top = max(self.perms, default=-1) + 1
        data: list[int] = []
        at = [0]
        for c in range(top):
            for perm in self.perms.get(c, []):
                data += [len(perm), *perm]
            at.append(len(data))
        return (np.array(data, dtype=np.int64), np.array(at, dtype=np.int64),
                np.array(self.copies, dtype=np.int64), np.array(self.randoms, dtype=np.int64))


@dataclass
class Playout:
    """What :func:`play_position` returns: the status, the moves as the engine's texts, the final board."""

    status: int
    moves: list[str]
    board: IntArray

    @property
    def position(self) -> dict[str, Any]:
        return position_of(self.board)


def play_position(game: Any, policies: Sequence[str] = ("greedy", "greedy"), *, seed: int = 0,
                  script: Script | None = None, one_turn: bool = False,
                  max_moves: int = GAME_MAX_MOVES) -> Playout:
    """Play an engine game's position on in the kernel (nothing redealt) with its moves recorded: draws
    from SplitMix64(``seed``), or from ``script``. The game itself is not changed."""
    opts = options_array(game.options)
    pol = jitkit.policy_codes(policies, 2, "play_position")
    board = board_of(game)
    log = np.full(max(int(max_moves), 0), -1, dtype=np.int64)
    if script is None:
        tape, tape_at, copies, randoms, taped = _EMPTY, _NO_TAPE_AT, _EMPTY, _EMPTY, 0
    else:
        (tape, tape_at, copies, randoms), taped = script.arrays(), 1
    with np.errstate(over="ignore"):
        status = _play_board(board, new_state(seed), opts, pol, rule_tables(bool(opts[O_KING_STARTS])), int(max_moves),
                             int(one_turn), taped, tape, tape_at, copies, randoms, log)
    return Playout(int(status), [move_text(int(m)) for m in log[:min(board[MOVES], log.size)]], board)


def _zones(names: Sequence[str], board: IntArray) -> IntArray:
    """Each hidden place's zone (see ``_deal_hidden``) from the law's place names; checks them against the board."""
    codes = {"payoff 0": 0, "payoff 1": 1, "hand 0": 2, "hand 1": 3, "stock": 4}
    try:
        zone = np.array([codes[name] for name in names], dtype=np.int64)
    except KeyError as exc:
        raise KernelError(f"Spite and Malice kernel: the chance law names a place {exc} it does not know") from exc
    counts = np.bincount(zone, minlength=5)
    want = [board[PAY_N] - 1, board[PAY_N + 1] - 1]
    ok = counts[0] == want[0] and counts[1] == want[1] and counts[4] == board[STOCK_N]
    ok = ok and all(counts[2 + s] in (0, board[HAND_N + s]) for s in (0, 1))
    if not ok:
        raise KernelError(f"Spite and Malice kernel: the chance law's places {counts.tolist()} do not fit the position "
                          f"(payoff under the tops {want}, hands {board[HAND_N:HAND_N + 2].tolist()}, "
                          f"stock {board[STOCK_N]})")
    return zone


@dataclass(frozen=True)
class _Prepared:
    """A position ready for play-outs: its board, its chance law as arrays and the law's zones."""

    key: tuple[Any, ...]
    base: IntArray
    law: LawArrays
    zone: IntArray


_PREPARED: list[_Prepared] = []


def _prepare(game: Any, viewpoint: int | None) -> _Prepared:
    """The board and law of the game's position, kept for the last position asked about (an estimate on a
    time budget asks for a few batches from one position). The key is the engine's test for "the position
    has not changed": the same state object (held, so its identity is not reused), the same numbers of
    moves and events, the same viewpoint."""
    key = (game.state, game.move_count, _event_count(game), viewpoint)
    if _PREPARED and _PREPARED[0].key[0] is key[0] and _PREPARED[0].key[1:] == key[1:]:
        return _PREPARED[0]
    base = board_of(game)
    base[MOVES] = 0
    base[PAID] = 0
    chance_law = game.chance_law(viewpoint)
    law = LawArrays.of(chance_law, encode=code_of)
    zone = _zones(chance_law.names, base) if law.size else _EMPTY
    _PREPARED[:] = [_Prepared(key, base, law, zone)]
    return _PREPARED[0]


def _event_count(game: Any) -> int:
    count = getattr(game, "event_count", None)
    return int(count) if count is not None else len(game.events)


def _run(game: Any, viewpoint: int | None, n: int, rng: np.random.Generator, one_turn: bool, what: str) -> IntArray:
    prepared = _prepare(game, viewpoint)
    base, law, zone = prepared.base, prepared.law, prepared.zone
    opts = options_array(game.options)
    seed_list = seeds(int(n), rng)
    out = np.empty(int(n), dtype=np.int64)
    board = np.empty(BOARD, dtype=np.int64)
    tab = rule_tables(bool(opts[O_KING_STARTS]))
    with np.errstate(over="ignore"):
        failed, status = _rollouts(base, seed_list, law.places, law.place_start, law.cards, law.card_start,
                                   law.comp_start, law.thresholds, law.size, law.whole, zone, opts, tab,
                                   int(one_turn), out, board, _EMPTY)
    if failed >= 0:
        i = int(failed)

        def replay() -> list[str]:
            """Play-out ``i`` again, its moves recorded: its hidden deal from its seed, then greedy play."""
            log = np.full(ROLLOUT_MAX_MOVES, -1, dtype=np.int64)
            state = new_state(seed_list[i])
            pool = np.zeros(max(law.size, 1), dtype=np.int64)
            drawn = np.zeros(max(law.size, 1), dtype=np.int64)
            board[:] = base
            _deal_hidden(board, law.places, law.place_start, law.cards, law.card_start, law.comp_start,
                         law.thresholds, law.size, law.whole, zone, state, drawn, pool)
            _play(board, opts, np.zeros(2, dtype=np.int64), tab, state, ROLLOUT_MAX_MOVES, int(one_turn), 0, _EMPTY,
                  _NO_TAPE_AT, _EMPTY, _EMPTY, log, np.zeros(RING, dtype=np.int64))
            return [move_text(int(m)) for m in log[:board[MOVES]]]

        raise jitkit.kernel_failure("Spite and Malice", what, STATUS_TEXT.get(int(status), str(status)),
                                    f"play-out {i} of {n}, viewpoint {viewpoint}", int(seed_list[i]), replay)
    return out


def deal_hidden(game: Any, viewpoint: int | None, seed_list: Sequence[int]) -> IntArray:
    """The boards play-outs of :func:`win_rollouts` start from, one row per seed: the game's position with
    its hidden places (as ``viewpoint`` knows the game) drawn from the chance law by SplitMix64(seed)."""
    base = board_of(game)
    chance_law = game.chance_law(viewpoint)
    law = LawArrays.of(chance_law, encode=code_of)
    zone = _zones(chance_law.names, base) if law.size else _EMPTY
    boards = np.empty((len(seed_list), BOARD), dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    work = np.zeros(max(law.size, 1), dtype=np.int64)
    pool = np.zeros(max(law.size, 1), dtype=np.int64)
    with np.errstate(over="ignore"):
        for i, seed in enumerate(seed_list):
            boards[i] = base
            state[0] = np.uint64(seed)
            state[1] = np.uint64(seed)
            _deal_hidden(boards[i], law.places, law.place_start, law.cards, law.card_start, law.comp_start,
                         law.thresholds, law.size, law.whole, zone, state, work, pool)
    return boards


def win_rollouts(game: Any, viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` greedy play-outs from the game's position, the hidden cards (as ``viewpoint`` knows the game)
    drawn from ``game.chance_law(viewpoint)`` for each: the winner of each (-1: none). One 64-bit seed per
    play-out is drawn from ``rng``; the real hidden cards are never read."""
    jitkit.check_playouts(game, SpiteMalice, viewpoint, n, rng, "win_rollouts")
    if game.is_over:
        return np.full(int(n), -1 if game.winner is None else game.winner, dtype=np.int64)
    return _run(game, viewpoint, int(n), rng, False, "win_rollouts")


def _all_move_codes() -> dict[str, int]:
    """Every kernel move code by its canonical text (:func:`move_text`)."""
    codes = [(K_PAYOFF << 12) | b for b in range(CENTRES)]
    codes += [(K_SIDE << 12) | (a << 4) | b for a in range(SIDES) for b in range(CENTRES)]
    codes += [(K_HAND << 12) | (a << 4) | b for a in range(52) for b in range(CENTRES)]
    codes += [(K_DISCARD << 12) | (a << 4) | b for a in range(52) for b in range(SIDES)]
    return {move_text(code): code for code in codes}


_MOVE_CODES: dict[str, int] = {}


def move_code(move: Any) -> int:
    """The kernel's code of an engine move (by its canonical text, :func:`move_text`)."""
    if not _MOVE_CODES:
        _MOVE_CODES.update(_all_move_codes())
    text = getattr(move, "text", None)
    code = _MOVE_CODES.get(text) if isinstance(text, str) else None
    if code is None:
        raise InvalidInputError(f"move {move!r} is not a Spite and Malice move")
    return code


def move_rollouts(game: Any, viewpoint: int | None, moves: Sequence[Any], seeds: Any) -> IntArray:
    """Play-out ``r`` of ``moves[k]`` (legal moves of the player to move): the hidden cards drawn from
    ``game.chance_law(viewpoint)`` by SplitMix64 seeded with ``seeds[r, k]``, the move played, then greedy
    play to the end. Returns the winners, shaped like ``seeds`` (-1: none). Equal seeds in a row give every
    move the same hidden cards and the same later shuffles (common random numbers). The real hidden cards
    are never read."""
    jitkit.check_playouts(game, SpiteMalice, viewpoint, 1, np.random.default_rng(0), "move_rollouts")
    grid = np.asarray(seeds, dtype=np.uint64).reshape(-1, len(moves))
    out = np.full(grid.shape, -1, dtype=np.int64)
    if game.is_over or not len(moves):
        return out
    codes = np.array([move_code(m) for m in moves], dtype=np.int64)
    prepared = _prepare(game, viewpoint)
    law = prepared.law
    opts = options_array(game.options)
    flat = out.reshape(-1)
    with np.errstate(over="ignore"):
        failed, status = _rollouts(prepared.base, grid.reshape(-1), law.places, law.place_start, law.cards,
                                   law.card_start, law.comp_start, law.thresholds, law.size, law.whole, prepared.zone,
                                   opts, rule_tables(bool(opts[O_KING_STARTS])), 0, flat,
                                   np.empty(BOARD, dtype=np.int64), np.tile(codes, grid.shape[0]))
    if failed >= 0:
        i, k = divmod(int(failed), len(moves))
        raise KernelError(f"Spite and Malice kernel: {STATUS_TEXT.get(int(status), status)} in play-out {i} of "
                          f"move {moves[k]!r} (its seed {int(grid[i, k])}), viewpoint {viewpoint}; from {game!r}")
    return flat.reshape(grid.shape)


def payoff_this_turn(game: Any, viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` greedy play-outs of the rest of the current turn, hidden cards drawn as in :func:`win_rollouts`:
    1 where the player to move played at least one payoff card before the turn ended, else 0."""
    jitkit.check_playouts(game, SpiteMalice, viewpoint, n, rng, "payoff_this_turn")
    if game.is_over:
        return np.zeros(int(n), dtype=np.int64)
    return _run(game, viewpoint, int(n), rng, True, "payoff_this_turn")


def compiled() -> bool:
    """True when numba is installed (else the kernel runs as plain Python: the same results, slower)."""
    return HAVE_NUMBA


def compile_now() -> float:
    """Compile the kernel now (or load it from numba's cache): a few games and play-outs of every entry
    point (:func:`cardlab.chance.jitkit.compile_kernel`). Returns the seconds taken."""
    return jitkit.compile_kernel("spite-and-malice", play_shard, [
        lambda game, rng: win_rollouts(game, None, 2, rng), lambda game, rng: payoff_this_turn(game, 0, 2, rng),
        lambda game, rng: play_position(game, max_moves=10),
        lambda game, rng: move_rollouts(game, game.current_player, game.legal_moves(),
                                        seeds(2 * len(game.legal_moves()), rng))])
