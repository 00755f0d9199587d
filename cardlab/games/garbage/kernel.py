"""Garbage's one fast kernel: whole games and play-outs, card for card the engine's rules, compiled with numba.

The readable rules are :mod:`cardlab.games.garbage.rules` (the specification) and the greedy bot
:mod:`cardlab.games.garbage.bot`. The game's spec registers this module as its kernel: ``simulate`` plays
fresh games with :func:`play_shard` whenever every seat is ``greedy`` or ``random``, P(win) runs
:func:`win_rollouts`, the panel's completion curves run :func:`completion_turns`, and move values
(:mod:`cardlab.sim.move_values`) run :func:`move_rollouts` (the same play-outs with a chosen first move).

This module plays the very same game on one flat ``int64`` array per game (the *board*), one game after
another in a compiled loop (:func:`cardlab.chance.jitkit.jit`; without numba the same functions run as plain
Python on the same arrays, with the same results). It replaced a numpy row-vectorised play-out (every
hand one array row, greedy only, card ranks only), which it beats about 2-3x on the same machine in the
same run (``benchmarks/bench_kernel_garbage.py``, docs/performance.md).

The board
---------
Cards are the engine's card ids (``pack*52 + suit*13 + rank-1``), so a kernel position is an engine
position card for card. The board holds, at the offsets below: each seat's ten spots (card ids) and
face-up flags, its layout size, its count of face-down spots and its hand wins; the completed seats
of this hand in order and the queue of seats owed a last turn; the stock (bottom first, the top is the
last card) and the discard pile (bottom first); and the held card (``-1``: none), the phase, the seat to
move, the turn, hand and shuffle counters, and the end of the game. ``kinds[id]`` says what a card is
for the rules: its spot 1-10, :data:`WILD`, or :data:`DEAD` (a Queen, and the King or Jack that is not
wild), the table :func:`kinds_of` builds from the rules' one statement of it,
:func:`~cardlab.games.garbage.rules.card_role`.

One move
--------
A move is a code (:data:`STOCK`, :data:`TAKE`, :data:`DISCARD`, ``WILD_TO + k``, ``DISPLACE_ON + k``),
applied as :meth:`Garbage._apply <cardlab.games.garbage.rules.Garbage>` applies it: a draw or a placement
runs the chain (forced placements, then a choice, a completion or the end of the turn: what a card in play
does is the rules' one statement of the slot and chain rule, :func:`~cardlab.games.garbage.rules.placement`,
which :func:`place_table` tabulates into the rules array; the draw reads it too, to offer the discard only
when its card can be used), a turn ends
with a discard, the turn passes (the discard pile but its top reshuffled into the stock when the stock
is empty; a draw when there is nothing to reshuffle), a completion starts the last round or ends the
hand, and a hand of a match ends with the winners' layouts shrinking and a redeal. :func:`move_text`
gives the engine's canonical text of a code.

Policies
--------
Each seat plays ``greedy`` (the bot, to the letter: take the discard when it can be used, else draw;
a wild to the lowest face-down spot; always displace) or ``random`` (uniform over the legal moves, in
the engine's order: draw stock, take discard; the wild's spots in order, then discard; displace,
discard). A random seat with a single legal move draws no number. The greedy seat is not written here:
it makes the legal move that comes first in the bot's one statement of its preference
(:func:`cardlab.games.garbage.bot.preference`), which :func:`prefer_table` tabulates over the kernel's
move codes into the rules array (``rules[R_PREFER + code]``, lower is preferred).

Randomness
----------
Every random number comes from :mod:`cardlab.chance.jitkit`'s SplitMix64 (``below`` and ``shuffle``), one
state per game or play-out. A fresh deal is a Fisher-Yates shuffle of the cards in id order, laid out
as the engine lays out a deck (seat 0's spots A, 2, ... first, the rest is the stock, its first card on
top); a reshuffle shuffles the discard pile but its top (bottom first) into the new stock; a match
redeal shuffles a fresh deck in id order. These are exactly the engine's steps with the engine's
``rng.permutation`` replaced by the kernel's Fisher-Yates permutation (``SplitMix64.permute``), so a
test that gives the engine those permutations (and a random policy drawing ``below`` from the same
generator) sees the engine play the kernel's game card for card, reshuffles and redeals included.

Game ``i`` of a run with seed ``s`` (:func:`play_shard`) draws from SplitMix64 seeded with output ``i``
of SplitMix64 seeded with ``SeedSequence(s)``'s first 64-bit word (:func:`cardlab.chance.jitkit.game_key`,
every kernel's scheme): it depends only on ``(s, i)``, so shards of any size give the same results. A
play-out from a position (:func:`win_rollouts`, :func:`completion_turns`) draws its seed from the
caller's generator and its hidden cards from the game's chance law through
:func:`cardlab.chance.jitkit.draw_law` (the face-down spots seat by seat, then the stock from the bottom
up, as the law names its places); the real hidden cards are never read.

Errors
------
A broken invariant (a card lost or duplicated, no legal move, a game longer than :data:`MAX_MOVES`
moves) raises :class:`KernelError` with the seed, the game or play-out and its move list (replayed with
a record: :func:`cardlab.chance.jitkit.kernel_failure`): a bug report, never bad input. Bad input is refused
by :mod:`cardlab.chance.jitkit`'s shared checks with an :class:`~cardlab.errors.InvalidInputError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.cards import card_from_id
from cardlab.chance import jitkit
from cardlab.chance.jitkit import (
    GREEDY,
    HAVE_NUMBA,
    LawArrays,
    below,
    deal_shuffle,
    draw_law,
    game_state,
    jit,
    new_state,
    plays,
    start_game,
)
from cardlab.dealer import DEAL, STATE_SIZE
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, KernelError, shown
from cardlab.games.garbage import rules as rulebook
from cardlab.games.garbage.bot import preference
from cardlab.games.garbage.rules import (
    CHOOSE_SPOT,
    DEAD_ROLE,
    DISPLACE,
    MAX_SPOTS,
    NOTHING,
    PACKS_BY_PLAYERS,
    PLACE,
    SPOT_DOWN,
    SPOT_NONE,
    SPOT_STATES,
    SPOT_UP,
    SPOT_WILD,
    WILD_RANKS,
    WILD_ROLE,
    Garbage,
    GarbageMove,
    card_role,
    spot_label,
)

IntArray = npt.NDArray[np.int64]

__all__ = ["HAVE_NUMBA", "board_of", "compile_now", "compiled", "completion_turns", "engine_move", "game_moves",
           "move_code", "move_rollouts", "move_text", "place_table", "play_exact", "play_shard", "plays",
           "prefer_table",
           "win_rollouts"]


MAXP = 6
CARDS = 156
MAX_MOVES = 1_000_000
"""A game longer than this (a 6-player match is a few tens of thousands of moves) is a kernel bug."""

# board layout (offsets into one int64 array)
SPOTS = 0                          # (MAXP, 10) card on each spot
UP = SPOTS + MAXP * MAX_SPOTS      # (MAXP, 10) 1 where the spot is face up
SIZES = UP + MAXP * MAX_SPOTS      # (MAXP,) layout sizes
DOWN_N = SIZES + MAXP              # (MAXP,) face-down spots left
WINS = DOWN_N + MAXP               # (MAXP,) hands won (match)
COMP = WINS + MAXP                 # (MAXP,) seats that completed this hand, in order
LAST = COMP + MAXP                 # (MAXP,) seats still owed a last turn, in order
STOCK = LAST + MAXP                # (CARDS,) stock, bottom first
DISC = STOCK + CARDS               # (CARDS,) discard pile, bottom first
STOCK_N = DISC + CARDS
DISC_N = STOCK_N + 1
HELD = DISC_N + 1                  # the card in play, -1 for none
PHASE = HELD + 1
TO_MOVE = PHASE + 1
TURN = TO_MOVE + 1
HAND = TURN + 1
SHUFFLES = HAND + 1
OVER = SHUFFLES + 1                # 1 when the game is over
WINNER = OVER + 1                  # -1 for none
COMP_N = WINNER + 1
LAST_N = COMP_N + 1
PLAYERS = LAST_N + 1
N_CARDS = PLAYERS + 1
HAND_OVER = N_CARDS + 1            # 1 when the hand is over (a run that stops at the hand's end)
HAND_FIRST = HAND_OVER + 1         # the first completer of the hand that ended last, -1 for none
CHECK = HAND_FIRST + 1             # sum of the card ids in play, for the conservation check
BOARD = CHECK + 1

# phases
DRAW, WILD_PHASE, DISPLACE_PHASE = 0, 1, 2
PHASES = ("draw", "wild", "displace")
# card kinds: 1-10 the spot, else (the rules' card_role)
DEAD, WILD = DEAD_ROLE, WILD_ROLE
# move codes
STOCK_MOVE, TAKE, DISCARD, WILD_TO, DISPLACE_ON = 0, 1, 2, 100, 200
CODES = (STOCK_MOVE, TAKE, DISCARD, *(WILD_TO + k for k in range(1, MAX_SPOTS + 1)),
         *(DISPLACE_ON + k for k in range(1, MAX_SPOTS + 1)))
"""Every move code."""
# rules array: the options, the greedy preference of every move code (prefer_table), then the slot and chain
# rule (place_table): at R_PLACE + ((spot state) * 2 + (a face-down spot left)) * ROLES + role, what a card of
# that role does (rules.placement)
R_LAST_ROUND, R_MATCH, R_STOP_HAND, R_PREFER = 0, 1, 2, 3
R_PLACE = R_PREFER + DISPLACE_ON + MAX_SPOTS + 1
ROLES = max(WILD_ROLE, DEAD_ROLE, MAX_SPOTS) + 1
RULES_SIZE = R_PLACE + ROLES * len(SPOT_STATES) * 2
# the rows of the chain (a face-down spot is left while the chain runs) and of the draw, by the spot's state
P_NONE = R_PLACE + (SPOT_NONE * 2 + 1) * ROLES
P_DOWN = R_PLACE + (SPOT_DOWN * 2 + 1) * ROLES
P_UP = R_PLACE + (SPOT_UP * 2 + 1) * ROLES
P_WILD = R_PLACE + (SPOT_WILD * 2 + 1) * ROLES
# status of a run
OK, TOO_LONG, NO_MOVE, LOST = 0, 1, 2, 3


def _why(status: int) -> str:
    """What a run's status says broke."""
    return {TOO_LONG: f"the game did not end within {MAX_MOVES:,} moves", NO_MOVE: "no legal move",
            LOST: "cards were lost or duplicated"}[int(status)]


# ---------------------------------------------------------------------------------------------- the rules
# The hot path (choosing a move, drawing, the chain, the end of a turn) is one loop in :func:`_run`:
# numba does not inline one compiled function into another, and a call that passes arrays costs more
# than a whole chain step. What happens once a hand (a completion, a reshuffle, a redeal) is a call.
@jit
def _lay_out(b: Any, deck: Any) -> None:
    """``Garbage._lay_out``: seat 0 takes the first cards for spots A.., then seat 1, ...; the rest is the
    stock, the deck's next card on top. The discard pile and the hand are empty."""
    p = b[PLAYERS]
    n = b[N_CARDS]
    pos = 0
    for seat in range(p):
        size = b[SIZES + seat]
        for k in range(MAX_SPOTS):
            i = seat * MAX_SPOTS + k
            b[UP + i] = 0
            if k < size:
                b[SPOTS + i] = deck[pos]
                pos += 1
            else:
                b[SPOTS + i] = -1
        b[DOWN_N + seat] = size
    m = n - pos
    for j in range(m):
        b[STOCK + j] = deck[n - 1 - j]
    b[STOCK_N] = m
    b[DISC_N] = 0
    b[HELD] = -1
    total = 0
    for j in range(n):
        total += deck[j]
    b[CHECK] = total


@jit
def _deal(b: Any, deck: Any, state: Any, stream: int) -> None:
    """A fresh deck in id order, shuffled from the game's stream ``stream`` (the engine's ``shuffled_deck``:
    the deal stream, or a match's redeal's shuffle stream), laid out."""
    n = b[N_CARDS]
    for j in range(n):
        deck[j] = j
    deal_shuffle(deck, n, state, stream)
    _lay_out(b, deck)


@jit
def _restock(b: Any, state: Any) -> None:
    """The end of ``Garbage._pass_turn`` when the stock is empty: the discard pile but its top, shuffled
    (bottom first, as the engine lists it), is the new stock; with nothing to reshuffle the hand (and the
    game) is a draw."""
    dn = b[DISC_N]
    if dn <= 1:
        b[HAND_OVER] = 1
        b[HAND_FIRST] = -1
        b[OVER] = 1
        b[WINNER] = -1
        return
    m = dn - 1
    top = b[DISC + m]
    for j in range(m):
        b[STOCK + j] = b[DISC + j]
    deal_shuffle(b[STOCK:STOCK + m], m, state, b[SHUFFLES] + 1)
    b[STOCK_N] = m
    b[DISC] = top
    b[DISC_N] = 1
    b[SHUFFLES] += 1


@jit
def _pass_turn(b: Any, state: Any) -> None:
    """``Garbage._pass_turn``: the next seat (or the next one owed a last turn) is to draw."""
    b[PHASE] = DRAW
    if b[LAST_N] > 0:
        b[TO_MOVE] = b[LAST]
    else:
        b[TO_MOVE] = (b[TO_MOVE] + 1) % b[PLAYERS]
    if b[STOCK_N] == 0:
        _restock(b, state)


@jit
def _pop_last(b: Any) -> None:
    """The seat at the head of the last-round queue has had its turn."""
    n = b[LAST_N]
    for j in range(n - 1):
        b[LAST + j] = b[LAST + j + 1]
    b[LAST_N] = n - 1


@jit
def _finish_hand(b: Any, rules: Any, deck: Any, state: Any) -> None:
    """``Garbage._finish_hand``: the first completer wins the hand; a match counts the wins, ends when a
    winner had a single spot, or shrinks the winners' layouts and redeals (the first winner plays first).
    With ``rules[R_STOP_HAND]`` the run stops at the hand's end instead."""
    first = b[COMP]
    b[PHASE] = DRAW
    b[HELD] = -1
    b[HAND_OVER] = 1
    b[HAND_FIRST] = first
    if rules[R_STOP_HAND] == 1:
        return
    if rules[R_MATCH] == 0:
        b[OVER] = 1
        b[WINNER] = first
        return
    nc = b[COMP_N]
    for j in range(nc):
        b[WINS + b[COMP + j]] += 1
    for j in range(nc):
        w = b[COMP + j]
        if b[SIZES + w] == 1:
            b[OVER] = 1
            b[WINNER] = w
            return
    for j in range(nc):
        b[SIZES + b[COMP + j]] -= 1
    b[HAND] += 1
    b[COMP_N] = 0
    b[LAST_N] = 0
    b[TO_MOVE] = first
    b[HAND_OVER] = 0
    b[SHUFFLES] += 1
    _deal(b, deck, state, b[SHUFFLES])  # in-game shuffle number SHUFFLES - 1: stream SHUFFLES


@jit
def _complete(b: Any, rules: Any, deck: Any, state: Any) -> None:
    """``Garbage._complete``: every spot of the mover is face up; the last card revealed goes on the
    discard pile; the last round starts (option ``last_round``), goes on, or the hand is over."""
    seat = b[TO_MOVE]
    if b[HELD] >= 0:
        b[DISC + b[DISC_N]] = b[HELD]
        b[DISC_N] += 1
        b[HELD] = -1
    b[COMP + b[COMP_N]] = seat
    b[COMP_N] += 1
    b[TURN] += 1
    p = b[PLAYERS]
    if rules[R_LAST_ROUND] == 1 and b[COMP_N] == 1 and p > 1:
        for k in range(1, p):
            b[LAST + k - 1] = (seat + k) % p
        b[LAST_N] = p - 1
        _pass_turn(b, state)
        return
    if b[LAST_N] > 0:
        _pop_last(b)
        if b[LAST_N] > 0:
            _pass_turn(b, state)
            return
    _finish_hand(b, rules, deck, state)


@jit
def _conserved(b: Any) -> Any:
    """Every card is in exactly one place: the count of cards and the sum of their ids are unchanged."""
    p = b[PLAYERS]
    count = b[STOCK_N] + b[DISC_N]
    total = 0
    for j in range(b[STOCK_N]):
        total += b[STOCK + j]
    for j in range(b[DISC_N]):
        total += b[DISC + j]
    if b[HELD] >= 0:
        count += 1
        total += b[HELD]
    for seat in range(p):
        for k in range(b[SIZES + seat]):
            count += 1
            total += b[SPOTS + seat * MAX_SPOTS + k]
    return count == b[N_CARDS] and total == b[CHECK]


@jit
def _run(b: Any, kinds: Any, pol: Any, rules: Any, deck: Any, state: Any, own: Any, done: Any, trace: Any,
         limit: int, first: int = -1) -> int:
    """Play from the board's position until the game is over (or, with ``rules[R_STOP_HAND]``, the hand).

    Each pass of the loop is one move: the mover's policy chooses it, then it is applied as
    ``Garbage._apply`` applies it. ``own[seat]``: turns ``seat`` finished in this run (a turn in
    progress at the start counts when it ends); ``done[seat]``: its ``own`` count when it completed (0:
    not). ``trace`` (length > 1) records the move codes (``trace[0]`` is their count). Returns a status
    (:data:`OK` or the invariant that broke). ``first`` (a move code, legal here) is played as the first
    move in place of the policy's choice (a move's value is its play-outs: :func:`move_rollouts`)."""
    record = trace.shape[0] > 1
    stop_hand = rules[R_STOP_HAND] == 1
    p = b[PLAYERS]
    moves = 0
    stock_first = rules[R_PREFER + STOCK_MOVE] <= rules[R_PREFER + TAKE]
    while b[OVER] == 0 and not (stop_hand and b[HAND_OVER] == 1):
        if moves >= limit:
            return TOO_LONG
        seat = b[TO_MOVE]
        base = seat * MAX_SPOTS
        size = b[SIZES + seat]
        phase = b[PHASE]
        greedy = pol[seat] == GREEDY
        # ---- the policy's choice, among the engine's legal moves in the engine's order
        move = -1
        if first >= 0:
            move = first
            first = -1
        elif phase == DRAW:
            can_stock = b[STOCK_N] > 0
            can_take = False       # Garbage.can_use(seat, top of the discard pile): the rules' placement
            if b[DISC_N] > 0:
                kd = kinds[b[DISC + b[DISC_N] - 1]]
                # the row of what the layout shows at the card's spot (Garbage.spot_state)
                if 0 < kd <= size:
                    i = base + kd - 1
                    row = P_DOWN if b[UP + i] == 0 else P_WILD if kinds[b[SPOTS + i]] == WILD else P_UP
                else:
                    row = P_NONE
                if b[DOWN_N + seat] == 0:  # every spot face up: the rows without a face-down spot left
                    row -= ROLES
                can_take = rules[row + kd] != NOTHING
            if can_stock and can_take:
                if greedy:  # the bot's first choice (the first of equals in the engine's order, as min)
                    move = STOCK_MOVE if stock_first else TAKE
                else:
                    move = STOCK_MOVE if below(state, 2) == 0 else TAKE
            elif can_take:
                move = TAKE
            elif can_stock:
                move = STOCK_MOVE
        elif phase == WILD_PHASE:
            if greedy:  # the first preferred of the wild's face-down spots and the discard, in the engine's order
                for k in range(size):
                    if b[UP + base + k] == 0 and (move < 0 or rules[R_PREFER + WILD_TO + k + 1] <
                                                  rules[R_PREFER + move]):
                        move = WILD_TO + k + 1
                if move < 0 or rules[R_PREFER + DISCARD] < rules[R_PREFER + move]:
                    move = DISCARD
            else:
                pick = below(state, b[DOWN_N + seat] + 1)
                if pick == b[DOWN_N + seat]:
                    move = DISCARD
                else:
                    for k in range(size):
                        if b[UP + base + k] == 0:
                            if pick == 0:
                                move = WILD_TO + k + 1
                                break
                            pick -= 1
        else:
            move = DISPLACE_ON + kinds[b[HELD]]
            if greedy:
                if rules[R_PREFER + DISCARD] < rules[R_PREFER + move]:
                    move = DISCARD
            elif below(state, 2) == 1:
                move = DISCARD
        if move < 0:
            return NO_MOVE
        if record and trace[0] + 1 < trace.shape[0]:
            trace[0] += 1
            trace[trace[0]] = move
        moves += 1
        # ---- the move: a draw or a placement runs the chain; a discard ends the turn
        if move == STOCK_MOVE:
            b[STOCK_N] -= 1
            b[HELD] = b[STOCK + b[STOCK_N]]
        elif move == TAKE:
            b[DISC_N] -= 1
            b[HELD] = b[DISC + b[DISC_N]]
        elif move >= DISPLACE_ON:
            i = SPOTS + base + move - DISPLACE_ON - 1
            card = b[HELD]
            b[HELD] = b[i]
            b[i] = card
        elif move >= WILD_TO:
            i = base + move - WILD_TO - 1
            card = b[SPOTS + i]
            b[SPOTS + i] = b[HELD]
            b[UP + i] = 1
            b[DOWN_N + seat] -= 1
            b[HELD] = card
        ends = move == DISCARD
        while not ends:   # Garbage._chain
            if b[DOWN_N + seat] == 0:
                own[seat] += 1
                if done[seat] == 0:
                    done[seat] = own[seat]
                _complete(b, rules, deck, state)
                break
            card = b[HELD]
            kd = kinds[card]
            i = base + kd - 1      # the rules' placement, a face-down spot left, by what the card's spot shows
            if 0 < kd <= size:
                what = rules[(P_DOWN if b[UP + i] == 0 else P_WILD if kinds[b[SPOTS + i]] == WILD else P_UP) + kd]
            else:
                what = rules[P_NONE + kd]
            if what == PLACE:
                b[HELD] = b[SPOTS + i]
                b[SPOTS + i] = card
                b[UP + i] = 1
                b[DOWN_N + seat] -= 1
                continue
            if what == CHOOSE_SPOT:
                b[PHASE] = WILD_PHASE
                break
            if what == DISPLACE:
                b[PHASE] = DISPLACE_PHASE
                break
            ends = True
        if ends:          # Garbage._end_turn, then _pass_turn
            b[DISC + b[DISC_N]] = b[HELD]
            b[DISC_N] += 1
            b[HELD] = -1
            b[TURN] += 1
            own[seat] += 1
            if b[LAST_N] > 0:
                _pop_last(b)
                if b[LAST_N] == 0:
                    _finish_hand(b, rules, deck, state)
                    ends = False
            if ends:
                b[PHASE] = DRAW
                b[TO_MOVE] = b[LAST] if b[LAST_N] > 0 else (seat + 1) % p
                if b[STOCK_N] == 0:
                    _restock(b, state)
        if b[HAND_OVER] == 1 and b[OVER] == 0 and not stop_hand:
            b[HAND_OVER] = 0   # a match went on to its next hand
    if not _conserved(b):
        return LOST
    return OK


# ---------------------------------------------------------------------------------------------- batch loops
@jit
def _fresh_games(b: Any, kinds: Any, pol: Any, rules: Any, sizes: Any, base: Any, start: int, stop: int,
                 winners: Any, turns: Any, hands: Any, shuffles: Any, trace: Any, limit: int) -> Any:
    """Deal and play games ``start``..``stop-1``; game ``i`` draws from SplitMix64 seeded with output ``i``
    of SplitMix64 seeded with ``base`` (:func:`~cardlab.chance.jitkit.game_state`). Returns (status, index of
    the failing game or -1)."""
    p = b[PLAYERS]
    deck = np.empty(CARDS, dtype=np.int64)
    own = np.zeros(MAXP, dtype=np.int64)
    done = np.zeros(MAXP, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    for i in range(start, stop):
        game_state(base, i, state)
        start_game(state[0], state)
        for seat in range(p):
            b[SIZES + seat] = sizes[seat]
            b[WINS + seat] = 0
        b[PHASE] = DRAW
        b[TO_MOVE] = 0
        b[TURN] = 0
        b[HAND] = 1
        b[SHUFFLES] = 0
        b[OVER] = 0
        b[WINNER] = -1
        b[COMP_N] = 0
        b[LAST_N] = 0
        b[HAND_OVER] = 0
        b[HAND_FIRST] = -1
        _deal(b, deck, state, DEAL)
        status = _run(b, kinds, pol, rules, deck, state, own, done, trace, limit)
        if status != OK:
            return status, i
        k = i - start
        winners[k] = b[WINNER]
        turns[k] = b[TURN]
        hands[k] = b[HAND]
        shuffles[k] = b[SHUFFLES]
    return OK, -1


@jit
def _deal_law(b: Any, board: Any, places: Any, place_start: Any, law_cards: Any, card_start: Any, size: int,
              whole: int, where: Any, state: Any, out: Any, pool: Any) -> None:
    """``b`` becomes ``board`` with the law's cards drawn onto its places (``where[q]``: the board index of
    place ``q``) from the SplitMix64 ``state``."""
    for j in range(BOARD):
        b[j] = board[j]
    draw_law(places, place_start, law_cards, card_start, size, whole, state, out, pool)
    extra = 0
    for q in range(size):
        b[where[q]] = out[q]
        extra += out[q]
    b[CHECK] += extra


@jit
def _rollouts(board: Any, kinds: Any, pol: Any, rules: Any, places: Any, place_start: Any, law_cards: Any,
              card_start: Any, size: int, whole: int, where: Any, seeds: Any, winners: Any, done: Any,
              limit: int, firsts: Any) -> Any:
    """One play-out per seed from ``board``: the law's cards drawn onto its places (``where[q]``: the board
    index of place ``q``), then played on (play-out ``r`` starting with the move ``firsts[r]`` when
    ``firsts`` is not empty). Returns (status, index of the failing play-out or -1)."""
    p = board[PLAYERS]
    b = np.empty(BOARD, dtype=np.int64)
    deck = np.empty(CARDS, dtype=np.int64)
    out = np.empty(max(size, 1), dtype=np.int64)
    pool = np.empty(max(size, 1), dtype=np.int64)
    own = np.zeros(MAXP, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    trace = np.zeros(1, dtype=np.int64)
    for r in range(seeds.shape[0]):
        state[0] = seeds[r]  # a play-out's state, as jitkit.new_state makes it
        state[1] = seeds[r]
        _deal_law(b, board, places, place_start, law_cards, card_start, size, whole, where, state, out, pool)
        for seat in range(p):
            own[seat] = 0
        status = _run(b, kinds, pol, rules, deck, state, own, done[r], trace, limit,
                      firsts[r] if firsts.shape[0] > 0 else -1)
        if status != OK:
            return status, r
        winners[r] = b[WINNER] if rules[R_STOP_HAND] == 0 else b[HAND_FIRST]
    return OK, -1


@jit
def _play_board(b: Any, kinds: Any, pol: Any, rules: Any, state: Any, trace: Any, limit: int) -> int:
    """Play on from the board as it is (real cards), from the SplitMix64 ``state``."""
    deck = np.empty(CARDS, dtype=np.int64)
    own = np.zeros(MAXP, dtype=np.int64)
    done = np.zeros(MAXP, dtype=np.int64)
    return _run(b, kinds, pol, rules, deck, state, own, done, trace, limit)


# ---------------------------------------------------------------------------------------------- Python side
def kinds_of(wild: str) -> IntArray:
    """``kinds[id]`` for every card id: the spot of a pip card (1-10), :data:`WILD` or :data:`DEAD`, the
    rules' :func:`~cardlab.games.garbage.rules.card_role` of its rank."""
    if not isinstance(wild, str) or wild not in WILD_RANKS:
        raise InvalidInputError(f"option wild={shown(wild)} is not allowed for garbage; accepted: 'J' or 'K'")
    return np.array([card_role(card_from_id(i).rank, wild) for i in range(CARDS)], dtype=np.int64)


def engine_move(code: int, wild: str = "J") -> GarbageMove:
    """The engine's move of a kernel move code: its text (:func:`move_text`), kind, source and spot."""
    text = move_text(code, wild)
    if code in (STOCK_MOVE, TAKE):
        return GarbageMove(text, "draw", source="stock" if code == STOCK_MOVE else "discard")
    if code == DISCARD:
        return GarbageMove(text, "discard")
    if code >= DISPLACE_ON:
        return GarbageMove(text, "displace", spot=code - DISPLACE_ON)
    return GarbageMove(text, "wild", spot=code - WILD_TO)


def prefer_table() -> IntArray:
    """The greedy bot's preference (:func:`cardlab.games.garbage.bot.preference`) tabulated over the move
    codes, the part of the rules array from :data:`R_PREFER` on: at ``code``, the place of that move in the
    bot's order (0 is its first choice; a number that is not a move code comes last). Read from the bot
    each time, so the kernel always plays the bot as it is written."""
    keys = {code: preference(engine_move(code)) for code in CODES}
    order = sorted(set(keys.values()))
    out = np.full(R_PLACE - R_PREFER, len(order), dtype=np.int64)
    for code, key in keys.items():
        out[code] = order.index(key)
    return out


def place_table() -> IntArray:
    """The slot and chain rule (:func:`cardlab.games.garbage.rules.placement`) tabulated, the part of the rules
    array from :data:`R_PLACE` on: at ``(spot state * 2 + face-down spot left) * ROLES + role``, what a card
    of that role does. Read from the rules each time, so the kernel always plays the rule as it is
    written."""
    out = np.zeros(RULES_SIZE - R_PLACE, dtype=np.int64)
    for role in range(ROLES):
        for st in SPOT_STATES:
            for left in (0, 1):
                out[(st * 2 + left) * ROLES + role] = rulebook.placement(role, st, bool(left))
    return out


def _rules(options: Mapping[str, Any], stop_hand: bool) -> IntArray:
    rules = np.zeros(RULES_SIZE, dtype=np.int64)
    rules[:R_PREFER] = [int(bool(options["last_round"])), int(bool(options["match"])), int(stop_hand)]
    rules[R_PREFER:R_PLACE] = prefer_table()
    rules[R_PLACE:] = place_table()
    return rules


def _options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's normalised options, checked by the engine (the rules' one statement of what is allowed)."""
    return dict(Garbage(players, seed=0, **dict(options)).options)


def _blank_board(players: int) -> IntArray:
    b = np.zeros(BOARD, dtype=np.int64)
    b[PLAYERS] = players
    b[N_CARDS] = 52 * PACKS_BY_PLAYERS[players]
    return b


def _run_setup(players: int, options: Mapping[str, Any], seed: int, policies: Sequence[str],
               what: str) -> tuple[int, dict[str, Any], IntArray, IntArray, IntArray, IntArray, np.uint64]:
    """A run's checked arguments as the compiled loop takes them: players, options, policy codes, layout
    sizes, card kinds, rules and the run's base seed."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in PACKS_BY_PLAYERS:
        raise InvalidInputError(f"players={shown(players)} is not allowed for garbage; it takes 1 to 6 players")
    players = int(players)
    opts = _options(players, options)
    pol = jitkit.policy_codes(policies, players, what, MAXP)
    sizes = np.array(opts["layout_sizes"] or [MAX_SPOTS] * players, dtype=np.int64)
    return players, opts, pol, sizes, kinds_of(opts["wild"]), _rules(opts, False), jitkit.run_seed(seed, what)


def game_moves(players: int, options: Mapping[str, Any], seed: int, index: int,
               policies: Sequence[str]) -> list[str]:
    """Game ``index`` of the run with ``seed`` (:func:`play_shard`'s), its moves as the engine's texts: with
    deterministic bots, the moves the engine plays in ``new_game("garbage", seed=seed, index=index)``."""
    players, opts, pol, sizes, kinds, rules, base = _run_setup(players, options, seed, policies, "game_moves")
    index, _ = jitkit.check_range(index, index, "game_moves")
    trace = np.zeros(MAX_MOVES + 1, dtype=np.int64)
    one = np.empty(1, dtype=np.int64)
    with np.errstate(over="ignore"):
        _fresh_games(_blank_board(players), kinds, pol, rules, sizes, base, index, index + 1,
                     one, one.copy(), one.copy(), one.copy(), trace, MAX_MOVES)
    return _texts(trace, opts["wild"])


def play_shard(players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
               policies: Sequence[str]) -> tuple[IntArray, IntArray, dict[str, IntArray]]:
    """Games ``start``..``stop-1`` of the run with this seed, each from its own fresh deal, to the end of the
    game (a whole match with ``match=True``). Returns winners (-1: the hand was drawn), turns (the
    engine's ``turns``) and the extras ``hands`` (hands played) and ``shuffles`` (reshuffles and redeals)."""
    players, opts, pol, sizes, kinds, rules, base = _run_setup(players, options, seed, policies, "play_shard")
    start, stop = jitkit.check_range(start, stop, "play_shard")
    n = stop - start
    winners, turns, hands, shuffles = (np.empty(n, dtype=np.int64) for _ in range(4))
    with np.errstate(over="ignore"):  # SplitMix64 wraps around on purpose (plain Python mode)
        status, bad = _fresh_games(_blank_board(players), kinds, pol, rules, sizes, base, int(start), int(stop),
                                   winners, turns, hands, shuffles, np.zeros(1, dtype=np.int64), MAX_MOVES)
    if status != OK:
        def replay() -> list[str]:
            """Game ``bad`` again, its moves recorded."""
            return game_moves(players, opts, seed, int(bad), policies)

        raise jitkit.kernel_failure("Garbage", "play_shard", _why(status), f"game {int(bad)}, {players} players, "
                                    f"options {opts}, policies {list(policies)}", seed, replay)
    return winners, turns, {"hands": hands, "shuffles": shuffles}


def move_text(code: int, wild: str = "J") -> str:
    """The engine's canonical text (``Move.text``) of a kernel move code."""
    word = "jack" if wild == "J" else "king"
    if code == STOCK_MOVE:
        return "draw stock"
    if code == TAKE:
        return "take discard"
    if code == DISCARD:
        return "discard"
    if code >= DISPLACE_ON:
        return f"displace {word} on {spot_label(code - DISPLACE_ON)}"
    return f"{word} to {spot_label(code - WILD_TO)}"


def _texts(trace: IntArray, wild: str) -> list[str]:
    return [move_text(int(c), wild) for c in trace[1:1 + int(trace[0])]]


# ---------------------------------------------------------------------------------------------- positions
def board_of(game: Garbage, hidden: bool = True) -> IntArray:
    """The game's position as a board. ``hidden=True`` copies the real cards everywhere; ``hidden=False``
    leaves the places of the chance law (the face-down spots and the stock) empty (``-1``), for a
    play-out to fill from the law, so that nothing of the real hidden cards reaches it."""
    if not isinstance(game, Garbage):
        raise InvalidInputError(f"game={shown(game)} is not a Garbage game")
    s = game.state
    p = game.players
    b = _blank_board(p)
    for seat in range(p):
        size = s.sizes[seat]
        b[SIZES + seat] = size
        b[WINS + seat] = s.wins[seat]
        down = 0
        for k in range(MAX_SPOTS):
            i = seat * MAX_SPOTS + k
            if k < size:
                up = bool(s.up[seat][k])
                b[UP + i] = int(up)
                b[SPOTS + i] = s.spots[seat][k].id if (up or hidden) else -1
                down += not up
            else:
                b[SPOTS + i] = -1
        b[DOWN_N + seat] = down
    b[STOCK:STOCK + len(s.stock)] = [c.id for c in s.stock] if hidden else -1
    b[STOCK_N] = len(s.stock)
    b[DISC:DISC + len(s.discard)] = [c.id for c in s.discard]
    b[DISC_N] = len(s.discard)
    b[HELD] = s.held[0].id if s.held else -1
    b[PHASE] = PHASES.index(s.phase)
    b[TO_MOVE] = s.to_move
    b[TURN] = s.turn
    b[HAND] = s.hand
    b[SHUFFLES] = s.shuffles
    b[OVER] = int(s.over)
    b[WINNER] = -1 if s.winner is None else s.winner
    b[COMP:COMP + len(s.completed)] = s.completed
    b[COMP_N] = len(s.completed)
    b[LAST:LAST + len(s.last_turns)] = s.last_turns
    b[LAST_N] = len(s.last_turns)
    b[HAND_OVER] = int(s.hand_over)
    b[HAND_FIRST] = s.hand_winners[-1][0] if s.hand_winners and s.hand_over else -1
    known = [c.id for seat in range(p) for k, c in enumerate(s.spots[seat]) if s.up[seat][k] or hidden]
    known += [c.id for c in s.discard] + [c.id for c in s.held] + ([c.id for c in s.stock] if hidden else [])
    b[CHECK] = sum(known)
    return b


def position_of(b: IntArray) -> dict[str, Any]:
    """A board as the engine's state fields (cards as ids), for comparisons with ``game.state``."""
    p = int(b[PLAYERS])
    sizes = [int(v) for v in b[SIZES:SIZES + p]]
    return {
        "sizes": sizes,
        "spots": [[int(b[SPOTS + s * MAX_SPOTS + k]) for k in range(sizes[s])] for s in range(p)],
        "up": [[bool(b[UP + s * MAX_SPOTS + k]) for k in range(sizes[s])] for s in range(p)],
        "stock": [int(v) for v in b[STOCK:STOCK + b[STOCK_N]]],
        "discard": [int(v) for v in b[DISC:DISC + b[DISC_N]]],
        "held": [int(b[HELD])] if b[HELD] >= 0 else [],
        "to_move": int(b[TO_MOVE]), "phase": PHASES[int(b[PHASE])], "turn": int(b[TURN]), "hand": int(b[HAND]),
        "wins": [int(v) for v in b[WINS:WINS + p]], "completed": [int(v) for v in b[COMP:COMP + b[COMP_N]]],
        "last_turns": [int(v) for v in b[LAST:LAST + b[LAST_N]]], "shuffles": int(b[SHUFFLES]),
        "over": bool(b[OVER]), "winner": None if b[WINNER] < 0 else int(b[WINNER]),
    }


def state_position(game: Garbage) -> dict[str, Any]:
    """The engine's state in the shape of :func:`position_of`."""
    s = game.state
    return {
        "sizes": list(s.sizes), "spots": [[c.id for c in row] for row in s.spots], "up": [list(u) for u in s.up],
        "stock": [c.id for c in s.stock], "discard": [c.id for c in s.discard], "held": [c.id for c in s.held],
        "to_move": s.to_move, "phase": s.phase, "turn": s.turn, "hand": s.hand, "wins": list(s.wins),
        "completed": list(s.completed), "last_turns": list(s.last_turns), "shuffles": s.shuffles,
        "over": s.over, "winner": s.winner,
    }


def play_exact(game: Garbage, policies: Sequence[str], seed: int,
               until: str = "game") -> tuple[list[str], dict[str, Any]]:
    """Play on from the game's real position (its real hidden cards) with the kernel's generator seeded
    with ``seed``; returns the moves' texts and the final position (:func:`position_of`). For tests that
    compare the kernel with the engine card for card. The game is not changed."""
    if until not in ("game", "hand"):
        raise InvalidInputError(f"until={shown(until)} is not allowed; accepted: 'game' or 'hand'")
    b = board_of(game, hidden=True)
    trace = np.zeros(MAX_MOVES + 1, dtype=np.int64)
    pol = jitkit.policy_codes(policies, game.players, "play_exact", MAXP)
    with np.errstate(over="ignore"):
        status = _play_board(b, kinds_of(game.options["wild"]), pol, _rules(game.options, until == "hand"),
                             new_state(seed), trace, MAX_MOVES)
    moves = _texts(trace, game.options["wild"])
    if status != OK:
        raise jitkit.kernel_failure("Garbage", "play_exact", _why(status),
                                    f"playing on from move {len(game.moves)}", seed, lambda: moves)
    return moves, position_of(b)


# ---------------------------------------------------------------------------------------------- play-outs
def _law_setup(game: Garbage, viewpoint: int | None) -> tuple[IntArray, LawArrays, IntArray]:
    """The board without the hidden cards, the chance law as arrays, and the board index of each law place."""
    law = game.chance_law(viewpoint)
    s = game.state
    where = [SPOTS + seat * MAX_SPOTS + k for seat in range(game.players) for k in range(s.sizes[seat])
             if not s.up[seat][k]]
    where += [STOCK + j for j in range(len(s.stock))]
    if len(where) != len(law.names):
        raise KernelError(f"Garbage kernel: the chance law of {game!r} names {len(law.names)} places, the board "
                          f"has {len(where)}")
    return board_of(game, hidden=False), LawArrays.of(law), np.array(where, dtype=np.int64)


def _playouts(given: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator,
              stop_hand: bool) -> tuple[IntArray, IntArray]:
    what = "completion_turns" if stop_hand else "win_rollouts"
    game = jitkit.check_playouts(given, Garbage, viewpoint, n, rng, what)
    n = int(n)
    p = game.players
    s = game.state
    done = np.zeros((n, MAXP), dtype=np.int64)
    if game.is_over or (stop_hand and s.hand_over):
        first = game.winner if not stop_hand else (s.hand_winners[-1][0] if s.hand_winners else None)
        return np.full(n, -1 if first is None else first, dtype=np.int64), done[:, :p]
    if s.phase == "draw" and not s.stock:
        raise InvalidInputError(f"{game!r} has an empty stock at the start of a turn, which the rules never leave "
                                "(the discard pile is reshuffled first); give a position reached by play")
    board, law, where = _law_setup(game, viewpoint)
    seeds = jitkit.seeds(n, rng)
    winners = np.empty(n, dtype=np.int64)
    pol = np.full(MAXP, GREEDY, dtype=np.int64)
    kinds, rules = kinds_of(game.options["wild"]), _rules(game.options, stop_hand)
    with np.errstate(over="ignore"):
        status, bad = _rollouts(board, kinds, pol, rules,
                                law.places, law.place_start, law.cards, law.card_start, law.size, law.whole, where,
                                seeds, winners, done, MAX_MOVES, np.zeros(0, dtype=np.int64))
    if status != OK:
        def replay() -> list[str]:
            """Play-out ``bad`` again, its moves recorded: its hidden deal from its seed, then greedy play."""
            trace = np.zeros(MAX_MOVES + 1, dtype=np.int64)
            state = new_state(seeds[bad])
            b = board.copy()
            drawn = np.empty(max(law.size, 1), dtype=np.int64)
            draw_law(law.places, law.place_start, law.cards, law.card_start, law.size, law.whole, state, drawn,
                     np.empty(max(law.size, 1), dtype=np.int64))
            b[where] = drawn[:law.size]
            b[CHECK] += int(drawn[:law.size].sum())
            _play_board(b, kinds, pol, rules, state, trace, MAX_MOVES)
            return _texts(trace, game.options["wild"])

        raise jitkit.kernel_failure("Garbage", what, _why(status), f"play-out {int(bad)} of {n}, viewpoint "
                                    f"{viewpoint}", int(seeds[bad]), replay)
    return winners, done[:, :p]


def win_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` greedy play-outs to the end of the game (a whole match with ``match=True``) from the current
    position, the hidden cards drawn from ``game.chance_law(viewpoint)`` for each: the winner of each
    (-1 for none). The real hidden cards are never read."""
    return _playouts(game, viewpoint, n, rng, stop_hand=False)[0]


def move_code(move: Any, wild: str = "J") -> int:
    """The kernel's code of an engine move (by its canonical text, :func:`move_text`)."""
    codes = [STOCK_MOVE, TAKE, DISCARD] + [WILD_TO + k for k in range(1, MAX_SPOTS + 1)] + \
        [DISPLACE_ON + k for k in range(1, MAX_SPOTS + 1)]
    for code in codes:
        if move_text(code, wild) == getattr(move, "text", None):
            return code
    raise InvalidInputError(f"move {shown(move)} is not a Garbage move")


def move_rollouts(game: Game[Any], viewpoint: int | None, moves: Sequence[Any], seeds: Any) -> IntArray:
    """Play-out ``r`` of ``moves[k]`` (legal moves of the player to move): the hidden cards drawn from
    ``game.chance_law(viewpoint)`` by SplitMix64 seeded with ``seeds[r, k]``, the move played, then greedy
    play to the end of the game. Returns the winners, shaped like ``seeds`` (-1: none). Equal seeds in a row
    give every move the same hidden cards and the same later shuffles (common random numbers). The real
    hidden cards are never read."""
    if not isinstance(game, Garbage):
        raise InvalidInputError(f"game={shown(game)} is not a Garbage game")
    game.check_seat(viewpoint, "Garbage move play-outs")
    grid = np.asarray(seeds, dtype=np.uint64).reshape(-1, len(moves))
    codes = np.array([move_code(m, game.options["wild"]) for m in moves], dtype=np.int64)
    winners = np.full(grid.shape, -1, dtype=np.int64)
    if game.is_over or not len(moves):
        return winners
    board, law, where = _law_setup(game, viewpoint)
    pol = np.full(MAXP, GREEDY, dtype=np.int64)
    flat = winners.reshape(-1)
    with np.errstate(over="ignore"):
        status, bad = _rollouts(board, kinds_of(game.options["wild"]), pol, _rules(game.options, False), law.places,
                                law.place_start, law.cards, law.card_start, law.size, law.whole, where,
                                grid.reshape(-1), flat, np.zeros((flat.size, MAXP), dtype=np.int64), MAX_MOVES,
                                np.tile(codes, grid.shape[0]))
    if status != OK:
        r, k = divmod(int(bad), len(moves))
        raise KernelError(f"Garbage kernel: {_why(status)} in play-out {r} of move {moves[k]} from {game!r} "
                          f"(play-out seed {int(grid[r, k])})")
    return flat.reshape(grid.shape)


def completion_turns(game: Game[Any], viewpoint: int | None, n: int,
                     rng: np.random.Generator) -> tuple[IntArray, IntArray]:
    """``n`` greedy play-outs to the end of the current hand, hidden cards from the chance law.

    Returns ``(winners, done)``: ``winners[i]`` the hand's first completer (-1: the hand was drawn);
    ``done[i, seat]`` how many of ``seat``'s own turns (a turn in progress now counts as its first) it
    took to complete its layout, 0 if it did not complete in this hand. The chance that ``seat``
    completes within its next ``k`` turns is the share of play-outs with ``1 <= done[:, seat] <= k``."""
    return _playouts(game, viewpoint, n, rng, stop_hand=True)


def compiled() -> bool:
    """Whether the kernel is compiled by numba (else it runs as plain Python, with the same results)."""
    return HAVE_NUMBA


def compile_now() -> float:
    """Compile the kernel now (or load it from numba's cache): a few fresh games with both policies and a
    few play-outs of every kind (:func:`cardlab.chance.jitkit.compile_kernel`). Returns the seconds taken."""
    return jitkit.compile_kernel("garbage", play_shard, [
        lambda game, rng: win_rollouts(game, None, 2, rng),
        lambda game, rng: completion_turns(game, None, 2, rng),
        lambda game, rng: move_rollouts(game, 0, game.legal_moves(), jitkit.seeds(2 * len(game.legal_moves()), rng))])

