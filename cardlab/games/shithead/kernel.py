"""Shithead's one fast kernel: the rules of :mod:`cardlab.games.shithead.rules` and the greedy bot of
:mod:`cardlab.games.shithead.bot`, compiled with numba through :mod:`cardlab.chance.jitkit`.

It plays whole games from fresh deals (:func:`play_shard`, for ``simulate``), greedy play-outs from a
position with the hidden cards redrawn from the game's chance law (:func:`win_rollouts`, for P(win)),
the panel's "seat picks up on its next turn" (:func:`must_pick_up`), and the play-outs of move values
(:func:`move_rollouts`: a chosen move first, then greedy play; :mod:`cardlab.sim.move_values`). Seats
play ``"greedy"`` or ``"random"``, in any mix. Without numba the same functions run as plain Python on the same arrays
and give the same results, only slower.

Cards and the table
-------------------
A card is its :attr:`Card.id <cardlab.cards.Card.id>` (``pack*52 + suit*13 + rank - 1``; one pack
for 2 players, two for 3–5), so every physical card is kept apart and a kernel position converts to
the engine's and back card for card. A position is a handful of ``int64`` arrays (:class:`Table`):

* ``cnt[z, p, r]`` and ``ids[z, p, r, :cnt]``: the cards of power ``r`` (3–14, J=11 … A=14, the 2
  is 2, the 10 is 10) in seat ``p``'s hand (``z=0``) or face-up cards (``z=1``), each list kept in the
  engine's hand order (suit, then pack). Two packs hold at most 8 cards of a rank.
* ``known[c]``: 1 while card ``c`` is in a hand and the table saw it picked up (the engine's ``known``).
* ``down[p, i]``: the face-down card at position ``i + 1``, -1 once turned.
* ``draw[:n]`` bottom first (the top is the last), ``pile[:n]`` bottom first; ``sc``: the scalars
  (seat to move, phase, turn, the pile's top power and run of equal ranks, counts, finishing order).
  Cards burned or cleared are counted, not listed (they are every card not elsewhere).

The rules, as the engine applies them
-------------------------------------
Every rule is read from the rules' one statement of it, tabulated into the rules array when a run is set up
(:func:`house_tables`); the kernel restates none. *Set-up*: each seat in turn puts three hand cards face up,
one per move; then the first player (seat 0, or with ``first="lowest3"`` the holder of the lowest card in hand
that counts as low, :func:`~cardlab.games.shithead.ranks.counts_low`, lowest seat on a tie) turns the draw
pile's top as the starting card (a card that burns, :func:`~cardlab.games.shithead.rules.burns`, burns at once,
not counted as a burn).
*A play* of ``k`` cards of one rank that fits (the rules' fit table :func:`~cardlab.games.shithead.rules.fit_table`
on the pile's rank ``S_TOP``, which an invisible 3 leaves as it was; ``S_LAST`` is the top card's own power,
for runs) from the hand while it holds cards, else from the face-up cards, else
one face-down card blind (it goes to the hand with the pile if it does not fit). A play that burns (the 10)
burns the pile and the player plays again; a run of equal ranks on top that clears
(:func:`~cardlab.games.shithead.rules.clears`: four or more, counted in ``S_RUN``) clears it (the next player
plays, or with ``four_kind_plays_again`` the same one). After a play the player draws up to three while the draw
pile lasts. No fitting card: pick up the pile. A play of a rank that skips (``eight_skips``) passes the move
over the next player. First out of cards wins (``play_to_last``: play on and
rank everyone). ``max_turns`` finished turns stop the game (no winner). ``turns`` counts finished
turns as the engine does (a turn in which the player goes out counts once).

*Which cards of a rank leave a hand* (the engine's ``_take``): cards the table saw picked up first (in
hand order), then the rest; when more unseen cards of the rank are held than are played, the engine
chooses them uniformly at random from a generator keyed by its shuffle key, and so does the kernel
(from its own generator). For the card-for-card tests a *script* (the engine's actual choices) may
be given instead; the kernel then checks that the script obeys the seen-cards-first rule.

The policies
------------
``greedy`` is the bot, exactly, read from the rules' tables (:func:`house_tables`, compared card for card
with :class:`~cardlab.games.shithead.rules.House` by the tests): set-up, the first rank held in
``House.setup_order`` (a 10, else a 2, else the highest card; the lowest suit, then pack, among equals);
play, the first fitting rank held in ``House.play_order`` (the lowest fitting rank that is not a 2 or 10
with all its cards, else one 10, else one 2), else pick up; blind, the lowest-numbered face-down
position. ``random`` is uniform over the engine's legal moves: set-up, over the distinct faces in hand
(two cards of one face from two packs are one move: the first in hand order); play, over every (rank
that fits, count from 1 to the number held); blind, over the positions still there.

Randomness
----------
Every number comes from the one dealer, :mod:`cardlab.dealer`. Game ``i`` of a run with seed ``s``
is the game with the key :func:`~cardlab.dealer.game_key` ``(s, i)`` (every kernel's seed scheme), so it
depends on ``(s, i)`` only and shards of any size agree; its deck is the key's deal stream, one
Fisher-Yates shuffle, dealt as the engine deals: ``new_game("shithead", seed=s, index=i)`` is the same
game (:func:`deal_codes` also gives it as a stacked deck
for the engine). A play-out of :func:`win_rollouts` takes one seed from the caller's generator, draws
the hidden cards with :func:`jitkit.draw_hands <cardlab.chance.jitkit.draw_hands>` from the game's
chance law (a :class:`~cardlab.chance.hands_law.HandsLaw`: each hidden hand's class counts weighed by
what its play showed, then the cards uniform given them; the draw is by rejection, from the play-out's
own SplitMix64 stream) and plays on greedily. The kernel never reads where the hidden cards really
are: :meth:`Table.of` with ``viewpoint`` builds the position from what that viewer knows and the law
alone.

Speed
-----
numba counts references to arrays with atomic operations: a compiled call that passes ``k`` arrays pays
``2k`` of them, and in a loop of a few hundred cycles per move they were a third of the time. So every
helper that :func:`_run` calls once or more per move is inlined at numba's level
(:func:`jitkit.jit_inline <cardlab.chance.jitkit.jit_inline>`): the move loop is one function and its arrays
are counted once per game. The greedy scan reads a row of the rules' tables per pile rank: the ranks that
fit that pile, in the bot's order (:func:`house_tables`), so it tests no rank that cannot be played.
``benchmarks/bench_kernel_trees.py`` times this kernel against another source tree's.

Invariants
----------
A game that loses or duplicates a card, leaves a seat with no move, or does not end within its bound
of moves (``max_turns`` plus set-up, extra plays after burns and clears, and going out) raises
:class:`KernelError` naming the seed, the game and its moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab import dealer
from cardlab.cards import Card, Rank, card_from_id
from cardlab.chance import jitkit
from cardlab.chance.jitkit import (
    GREEDY,
    HAVE_NUMBA,
    HandsArrays,
    below,
    deal_shuffle,
    draw_hands,
    game_state,
    jit,
    jit_inline,
    new_state,
    plays,
    start_game,
)
from cardlab.chance.jitkit import seeds as draw_seeds
from cardlab.dealer import DEAL, STATE_SIZE, Dealer, game_key, stream_seed
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, KernelError
from cardlab.games.shithead import rules as rulebook
from cardlab.games.shithead.rules import (
    FACE_DOWN,
    FACE_UP,
    HAND_DEAL,
    PILE_RANKS,
    REFILL,
    House,
    Shithead,
    fit_table,
    rank_power,
)

__all__ = ["HAVE_NUMBA", "KernelError", "Table", "compile_now", "compiled", "deal_codes", "game_moves", "move_code",
           "move_rollouts", "move_text", "must_pick_up", "play_shard", "plays", "win_rollouts"]

IntArray = npt.NDArray[np.int64]


# ---------------------------------------------------------------------------------------------- constants
MAX_PLAYERS = 5
MAX_CARDS = 104             # two packs
LOW = min(rank_power(r) for r in Rank)    # the lowest power (the 2's)
HIGH = max(rank_power(r) for r in Rank)   # the highest power (the Ace's)
POWERS = HIGH + 1           # indexed by power LOW..HIGH (the rules' powers; lower indices unused)
SLOTS = 8                   # cards of one rank: two packs of four suits

# scalars of a position (sc)
S_PLAYERS, S_TO_MOVE, S_PHASE, S_TURN, S_OVER, S_WINNER, S_STOPPED = 0, 1, 2, 3, 4, 5, 6
S_DRAW_N, S_PILE_N, S_TOP, S_RUN, S_OUT_N = 7, 8, 9, 10, 11
S_BLIND_PLAYS, S_BLIND_FITS, S_PICKUPS, S_BURNS, S_CLEARS = 12, 13, 14, 15, 16
S_RANK_N, S_MOVES, S_SCRIPT_AT, S_PICKED, S_DECK = 17, 18, 19, 20, 21
S_RANKING = 22                       # (MAX_PLAYERS,) seats in the order they went out
S_HAND_N = S_RANKING + MAX_PLAYERS   # (MAX_PLAYERS,) hand sizes
S_UP_N = S_HAND_N + MAX_PLAYERS      # face-up counts
S_DOWN_N = S_UP_N + MAX_PLAYERS      # face-down counts
S_LAST = S_DOWN_N + MAX_PLAYERS      # the power of the pile's top card (S_TOP is the rank to fit, see _push)
SC_SIZE = S_LAST + 1
SETUP, PLAY = 0, 1

# rules (rules array): the options, the seats' policies, then the rules' tables (see house_tables)
R_FOUR, R_LAST, R_LOW3, R_MAX_TURNS, R_POLICY = 0, 1, 2, 3, 4
R_FIT = R_POLICY + MAX_PLAYERS       # (POWERS, POWERS): 1 where power r fits a pile of rank power top (0: none)
RANKS = len(Rank)
R_PLAYS = R_FIT + POWERS * POWERS    # (POWERS, 1 + RANKS): per pile rank power, how many ranks fit, then the
PLAY_ROW = 1 + RANKS                 # greedy play preference among them: 2 * power + (all cards), in order
R_SETUP_ORDER = R_PLAYS + POWERS * PLAY_ROW   # (RANKS,): the greedy set-up preference, powers
R_INVISIBLE = R_SETUP_ORDER + RANKS   # (POWERS,): 1 where a card leaves the pile's rank as it was
R_SKIP = R_INVISIBLE + POWERS         # (POWERS,): 1 where a play makes the next player miss a turn
R_BURN = R_SKIP + POWERS              # (POWERS,): 1 where a play burns the pile (rules.burns)
R_LOW = R_BURN + POWERS               # (POWERS,): 1 where a card counts as low for first="lowest3" (counts_low)
R_CLEAR = R_LOW + POWERS              # (SLOTS + 1,): 1 where a run of that many equal ranks clears (rules.clears)
RULES_SIZE = R_CLEAR + SLOTS + 1

# move codes: kind * 1000 + detail
M_SETUP, M_HAND, M_UP, M_BLIND, M_PICKUP = 0, 1000, 2000, 3000, 4000

# results of a run
DONE = 0        # the game is over (or the watched turn has ended)
PAUSED = 1      # the move budget of the call is used up
STUCK = -1      # more moves than a game can take
LOST = -2       # the cards do not add up
SCRIPT = -3     # the script of the engine's choices does not fit the kernel's position
NO_MOVE = -4    # a seat without cards is to move
FULL = -5       # the move record is full
FAILURES = {STUCK: "the game did not end within its bound of moves", LOST: "the cards do not add up",
            SCRIPT: "the engine's choice of cards does not fit the kernel's position",
            NO_MOVE: "a seat with no cards is to move", FULL: "the move record is full"}

POWER = np.array([rank_power(card_from_id(c).rank) for c in range(MAX_CARDS)], dtype=np.int64)
"""The power of each card id (2–14; J 11, Q 12, K 13, A 14)."""
ORDER = np.array([int(card_from_id(c).suit) * 4 + card_from_id(c).pack for c in range(MAX_CARDS)], dtype=np.int64)
"""Within one rank the engine's hand order: suit, then pack."""


# ---------------------------------------------------------------------------------------------- kernel helpers
@jit_inline
def _fits(rules: Any, r: int, top: int) -> bool:
    """Does a card of power ``r`` go on a pile of rank power ``top`` (0: none)? The rules' fit table."""
    return bool(rules[R_FIT + top * POWERS + r] == 1)


@jit_inline
def _add(cnt: Any, ids: Any, z: int, p: int, c: int) -> None:
    """Put card ``c`` into zone ``z`` of seat ``p`` at its place in hand order (sizes are the caller's)."""
    r = POWER[c]
    j = cnt[z, p, r]
    key = ORDER[c]
    while j > 0 and ORDER[ids[z, p, r, j - 1]] > key:
        ids[z, p, r, j] = ids[z, p, r, j - 1]
        j -= 1
    ids[z, p, r, j] = c
    cnt[z, p, r] += 1


@jit_inline
def _remove(cnt: Any, ids: Any, z: int, p: int, r: int, j: int) -> None:
    """Take the ``j``-th card of power ``r`` out of zone ``z`` of seat ``p``, keeping the order."""
    n = cnt[z, p, r]
    for i in range(j, n - 1):
        ids[z, p, r, i] = ids[z, p, r, i + 1]
    cnt[z, p, r] = n - 1


@jit_inline
def _push(pile: Any, sc: Any, rules: Any, c: int) -> None:
    """Card ``c`` on top of the discard pile; the top card's power, the run of equal ranks and the rank to
    fit follow (an invisible card leaves the rank to fit as it was: ``House.pile_rank``)."""
    pile[sc[S_PILE_N]] = c
    sc[S_PILE_N] += 1
    r = POWER[c]
    if sc[S_LAST] == r:
        sc[S_RUN] += 1
    else:
        sc[S_LAST] = r
        sc[S_RUN] = 1
    if rules[R_INVISIBLE + r] == 0:
        sc[S_TOP] = r


@jit_inline
def _burn(sc: Any) -> None:
    """Every card of the pile out of play."""
    sc[S_OUT_N] += sc[S_PILE_N]
    sc[S_PILE_N] = 0
    sc[S_TOP] = 0
    sc[S_LAST] = 0
    sc[S_RUN] = 0


@jit_inline
def _record(moves: Any, sc: Any, code: int) -> bool:
    """Count a move and, when a record is kept, write its code; False when the record is full."""
    m = sc[S_MOVES]
    sc[S_MOVES] = m + 1
    if moves.shape[0] == 0:
        return True
    if m >= moves.shape[0]:
        return False
    moves[m] = code
    return True


@jit_inline
def _setup_choice(cnt: Any, ids: Any, p: int, policy: int, state: Any, rules: Any) -> Any:
    """The card seat ``p`` puts face up (greedy: the first rank held in the rules' set-up order, a 10,
    else a 2, else the highest; random: a uniform face)."""
    if policy == GREEDY:
        for i in range(RANKS):
            r = rules[R_SETUP_ORDER + i]
            if cnt[0, p, r] > 0:
                return ids[0, p, r, 0]
        return -1
    faces = 0
    for r in range(LOW, HIGH + 1):
        for j in range(cnt[0, p, r]):
            if j == 0 or ids[0, p, r, j] % 52 != ids[0, p, r, j - 1] % 52:
                faces += 1
    if faces == 0:
        return -1
    pick = below(state, faces)
    for r in range(LOW, HIGH + 1):
        for j in range(cnt[0, p, r]):
            if j == 0 or ids[0, p, r, j] % 52 != ids[0, p, r, j - 1] % 52:
                if pick == 0:
                    return ids[0, p, r, j]
                pick -= 1
    return -1


@jit_inline
def _play_choice(cnt: Any, z: int, p: int, top: int, policy: int, state: Any, rules: Any) -> tuple[int, int]:
    """(power, count) that seat ``p`` plays from zone ``z``, or (0, 0) to pick up the pile. Greedy: the
    first fitting rank held in the rules' play order, all its cards or one."""
    if policy == GREEDY:
        row = R_PLAYS + top * PLAY_ROW
        for i in range(row + 1, row + 1 + rules[row]):
            code = rules[i]
            r = code >> 1
            if cnt[z, p, r] > 0:
                return r, cnt[z, p, r] if code & 1 else 1
        return 0, 0
    total = 0
    for r in range(LOW, HIGH + 1):
        if _fits(rules, r, top):
            total += cnt[z, p, r]
    if total == 0:
        return 0, 0
    pick = below(state, total)
    for r in range(LOW, HIGH + 1):
        if _fits(rules, r, top):
            if pick < cnt[z, p, r]:
                return r, pick + 1
            pick -= cnt[z, p, r]
    return 0, 0


@jit_inline
def _take_hand(cnt: Any, ids: Any, known: Any, pile: Any, sc: Any, rules: Any, p: int, r: int, k: int, state: Any,
               script: Any, scratch: Any) -> bool:
    """Play ``k`` cards of power ``r`` from seat ``p``'s hand onto the pile, as the engine chooses them:
    the cards the table saw picked up first (hand order), then uniformly chosen unseen ones, each group
    in hand order. With a script, its next ``k`` card ids are the choice (checked against that rule;
    False when they do not fit)."""
    n = cnt[0, p, r]
    if k == n and script.shape[0] == 0:  # every card of the rank: the seen ones first, no choice to make
        for j in range(n):
            c = ids[0, p, r, j]
            if known[c] == 1:
                _push(pile, sc, rules, c)
        for j in range(n):
            c = ids[0, p, r, j]
            if known[c] == 0:
                _push(pile, sc, rules, c)
            known[c] = 0
        cnt[0, p, r] = 0
        sc[S_HAND_N + p] -= k
        return True
    sel = scratch[:SLOTS]
    pool = scratch[SLOTS:2 * SLOTS]
    seen = 0
    for j in range(n):
        sel[j] = 0
        if known[ids[0, p, r, j]] == 1:
            seen += 1
    from_seen = min(k, seen)
    need = k - from_seen
    if script.shape[0] > 0:
        at = sc[S_SCRIPT_AT]
        if at + k > script.shape[0]:
            return False
        for t in range(k):
            found = -1
            for j in range(n):
                if ids[0, p, r, j] == script[at + t]:
                    found = j
            if found < 0 or sel[found] == 1:
                return False
            sel[found] = 1
        sc[S_SCRIPT_AT] = at + k
        taken = 0
        for j in range(n):  # the first ``from_seen`` seen cards, and no other seen card
            if known[ids[0, p, r, j]] == 1:
                if (taken < from_seen) != (sel[j] == 1):
                    return False
                taken += 1
    else:
        unseen = 0
        taken = 0
        for j in range(n):
            if known[ids[0, p, r, j]] == 1:
                if taken < from_seen:
                    sel[j] = 1
                    taken += 1
            else:
                pool[unseen] = j
                unseen += 1
        if unseen == need:
            for t in range(unseen):
                sel[pool[t]] = 1
        else:  # a uniform choice of ``need`` of the ``unseen`` cards: a partial Fisher-Yates
            for t in range(need):
                u = t + below(state, unseen - t)
                j = pool[u]
                pool[u] = pool[t]
                pool[t] = j
                sel[j] = 1
    for j in range(n):
        c = ids[0, p, r, j]
        if sel[j] == 1 and known[c] == 1:
            _push(pile, sc, rules, c)
    for j in range(n):
        c = ids[0, p, r, j]
        if sel[j] == 1 and known[c] == 0:
            _push(pile, sc, rules, c)
    left = 0
    for j in range(n):
        c = ids[0, p, r, j]
        if sel[j] == 1:
            known[c] = 0
        else:
            ids[0, p, r, left] = c
            left += 1
    cnt[0, p, r] = left
    sc[S_HAND_N + p] -= k
    return True


@jit_inline
def _pick_up(cnt: Any, ids: Any, known: Any, pile: Any, sc: Any, p: int) -> None:
    """Seat ``p`` takes the whole pile into its hand; the table has seen every card of it."""
    for i in range(sc[S_PILE_N]):
        c = pile[i]
        _add(cnt, ids, 0, p, c)
        known[c] = 1
    sc[S_HAND_N + p] += sc[S_PILE_N]
    sc[S_PILE_N] = 0
    sc[S_TOP] = 0
    sc[S_LAST] = 0
    sc[S_RUN] = 0
    sc[S_PICKUPS] += 1


@jit_inline
def _refill(cnt: Any, ids: Any, draw: Any, sc: Any, p: int) -> None:
    """Draw back up to three hand cards while the draw pile lasts."""
    while sc[S_HAND_N + p] < REFILL and sc[S_DRAW_N] > 0:
        sc[S_DRAW_N] -= 1
        _add(cnt, ids, 0, p, draw[sc[S_DRAW_N]])
        sc[S_HAND_N + p] += 1


@jit_inline
def _finished(sc: Any, p: int) -> bool:
    for i in range(sc[S_RANK_N]):
        if sc[S_RANKING + i] == p:
            return True
    return False


@jit_inline
def _next_seat(sc: Any, p: int) -> Any:
    """The next seat after ``p`` that has not finished."""
    players = sc[S_PLAYERS]
    nxt = (p + 1) % players
    while _finished(sc, nxt):
        nxt = (nxt + 1) % players
    return nxt


@jit_inline
def _end_turn(sc: Any, rules: Any, p: int, skip: bool) -> None:
    """Pass the move on; the turn counts unless the player just went out (counted then). With ``skip``
    the next player in line misses the turn (not counted)."""
    n = sc[S_RANK_N]
    if n == 0 or sc[S_RANKING + n - 1] != p:
        sc[S_TURN] += 1
    if sc[S_TURN] >= rules[R_MAX_TURNS]:
        sc[S_OVER] = 1
        sc[S_STOPPED] = 1
        return
    nxt = _next_seat(sc, p)
    if skip:
        nxt = _next_seat(sc, nxt)
    sc[S_TO_MOVE] = nxt


@jit_inline
def _go_out(sc: Any, rules: Any, p: int) -> None:
    """Seat ``p`` has no cards left: first out wins; with ``play_to_last`` the last with cards ends it."""
    sc[S_RANKING + sc[S_RANK_N]] = p
    sc[S_RANK_N] += 1
    sc[S_TURN] += 1
    if rules[R_LAST] == 0:
        sc[S_OVER] = 1
        sc[S_WINNER] = p
        return
    if sc[S_WINNER] < 0:
        sc[S_WINNER] = p
    players = sc[S_PLAYERS]
    if sc[S_RANK_N] == players - 1:
        for q in range(players):
            if not _finished(sc, q):
                sc[S_RANKING + sc[S_RANK_N]] = q
                sc[S_RANK_N] += 1
        sc[S_OVER] = 1


@jit
def _start_play(cnt: Any, draw: Any, pile: Any, sc: Any, rules: Any) -> None:
    """After the set-up: the first player, and the starting card (a 10 burns at once)."""
    sc[S_PHASE] = PLAY
    first = 0
    if rules[R_LOW3] == 1:
        best = HIGH + 1
        for p in range(sc[S_PLAYERS]):
            for r in range(LOW, HIGH + 1):
                if rules[R_LOW + r] == 1 and cnt[0, p, r] > 0:
                    if r < best:
                        best = r
                        first = p
                    break
    sc[S_TO_MOVE] = first
    sc[S_DRAW_N] -= 1
    _push(pile, sc, rules, draw[sc[S_DRAW_N]])
    if rules[R_BURN + sc[S_LAST]] == 1:
        _burn(sc)


@jit
def _cards_total(cnt: Any, sc: Any) -> Any:
    """Cards accounted for in every zone, or -1 when a hand's or face-up size disagrees with its lists."""
    total = sc[S_DRAW_N] + sc[S_PILE_N] + sc[S_OUT_N]
    for p in range(sc[S_PLAYERS]):
        h = 0
        u = 0
        for r in range(LOW, HIGH + 1):
            h += cnt[0, p, r]
            u += cnt[1, p, r]
        if h != sc[S_HAND_N + p] or u != sc[S_UP_N + p]:
            return -1
        total += h + u + sc[S_DOWN_N + p]
    return total


@jit
def _first_of_face(cnt: Any, ids: Any, p: int, code: int) -> Any:
    """The set-up move ``code`` (its face): seat ``p``'s first card of that face in hand order, -1 if none."""
    face = (code - M_SETUP) % 52
    r = POWER[face]
    for j in range(cnt[0, p, r]):
        if ids[0, p, r, j] % 52 == face:
            return ids[0, p, r, j]
    return -1


@jit
def _run(cnt: Any, ids: Any, known: Any, down: Any, draw: Any, pile: Any, sc: Any, rules: Any, state: Any,
         moves: Any, script: Any, scratch: Any, watch: Any, budget: Any, first: Any) -> int:
    """Play the position on with the seats' policies until the game ends (:data:`DONE`), ``budget`` moves
    have been made (:data:`PAUSED`; -1 for no budget), or, with ``watch`` a seat, that seat's next turn
    in the play phase has ended (``sc[S_PICKED]`` is 1 when it ended by picking up the pile).
    A broken invariant returns a negative code (:data:`FAILURES`). ``first`` (a move code, legal here; -1
    for none) is played as the first move in place of the policy's choice (see :func:`move_rollouts`).
    Every caller passes ``watch``, ``budget`` and ``first`` as plain ``int64`` values (never constants,
    which numba would compile a copy of this function for)."""
    players = sc[S_PLAYERS]
    start = sc[S_MOVES]
    bound = rules[R_MAX_TURNS] + 4 * players + sc[S_DECK] + 8
    watching = False
    sc[S_PICKED] = 0
    while sc[S_OVER] == 0:
        made = sc[S_MOVES] - start
        if budget >= 0 and made >= budget:
            return PAUSED
        if made > bound:
            return STUCK
        p = sc[S_TO_MOVE]
        policy = rules[R_POLICY + p]
        if sc[S_PHASE] == SETUP:
            c = _setup_choice(cnt, ids, p, policy, state, rules) if first < 0 else _first_of_face(cnt, ids, p, first)
            first = -1
            if c < 0:
                return NO_MOVE
            r = POWER[c]
            for j in range(cnt[0, p, r]):
                if ids[0, p, r, j] == c:
                    _remove(cnt, ids, 0, p, r, j)
                    break
            _add(cnt, ids, 1, p, c)
            sc[S_HAND_N + p] -= 1
            sc[S_UP_N + p] += 1
            if not _record(moves, sc, M_SETUP + c):
                return FULL
            if sc[S_UP_N + p] >= FACE_UP:
                if p + 1 < players:
                    sc[S_TO_MOVE] = p + 1
                else:
                    _start_play(cnt, draw, pile, sc, rules)
            continue
        if p == watch:
            watching = True
        top = sc[S_TOP]
        if sc[S_HAND_N + p] > 0 or sc[S_UP_N + p] > 0:
            z = 0 if sc[S_HAND_N + p] > 0 else 1
            if first < 0:
                r, k = _play_choice(cnt, z, p, top, policy, state, rules)
            else:
                r, k = (first % 1000) // 10, first % 10
                first = -1
            if r == 0:
                if not _record(moves, sc, M_PICKUP):
                    return FULL
                _pick_up(cnt, ids, known, pile, sc, p)
                if watching:
                    sc[S_PICKED] = 1
                    return DONE
                _end_turn(sc, rules, p, False)
                continue
            if not _record(moves, sc, (M_HAND if z == 0 else M_UP) + 10 * r + k):
                return FULL
            if z == 0:
                if not _take_hand(cnt, ids, known, pile, sc, rules, p, r, k, state, script, scratch):
                    return SCRIPT
            else:
                for j in range(k):
                    _push(pile, sc, rules, ids[1, p, r, j])
                for j in range(cnt[1, p, r] - k):
                    ids[1, p, r, j] = ids[1, p, r, j + k]
                cnt[1, p, r] -= k
                sc[S_UP_N + p] -= k
        else:
            if sc[S_DOWN_N + p] == 0:
                return NO_MOVE
            pick = 0 if policy == GREEDY or first >= 0 else below(state, sc[S_DOWN_N + p])
            i = 0
            for j in range(FACE_DOWN):
                if down[p, j] >= 0:
                    if pick == 0:
                        i = j
                        break
                    pick -= 1
            if first >= 0:
                i = first - M_BLIND
                first = -1
            if not _record(moves, sc, M_BLIND + i):
                return FULL
            c = down[p, i]
            down[p, i] = -1
            sc[S_DOWN_N + p] -= 1
            sc[S_BLIND_PLAYS] += 1
            r = POWER[c]
            if _fits(rules, r, top):
                sc[S_BLIND_FITS] += 1
                _push(pile, sc, rules, c)
            else:
                pile[sc[S_PILE_N]] = c
                sc[S_PILE_N] += 1
                _pick_up(cnt, ids, known, pile, sc, p)
                if watching:
                    sc[S_PICKED] = 1
                    return DONE
                _end_turn(sc, rules, p, False)
                continue
        # after a play of power r: burn or clear, refill, out of cards, pass on
        again = False
        if rules[R_BURN + r] == 1:
            sc[S_BURNS] += 1
            _burn(sc)
            again = True
        elif rules[R_CLEAR + sc[S_RUN]] == 1:
            sc[S_CLEARS] += 1
            _burn(sc)
            again = rules[R_FOUR] == 1
        _refill(cnt, ids, draw, sc, p)
        skip = rules[R_SKIP + r] == 1
        if sc[S_HAND_N + p] + sc[S_UP_N + p] + sc[S_DOWN_N + p] == 0:
            _go_out(sc, rules, p)
            if sc[S_OVER] == 1 or watching:
                break
            _end_turn(sc, rules, p, skip)
            continue
        if again:
            continue
        _end_turn(sc, rules, p, skip)
        if watching:
            return DONE
    if _cards_total(cnt, sc) != sc[S_DECK]:
        return LOST
    return DONE


@jit
def _clear(cnt: Any, known: Any, down: Any, sc: Any) -> None:
    cnt[:] = 0
    known[:] = 0
    down[:] = -1
    sc[:] = 0


@jit
def _deal(deck: Any, players: int, cnt: Any, ids: Any, known: Any, down: Any, draw: Any, sc: Any) -> None:
    """Deal ``deck`` (top card first) as the engine does: three face-down cards to each seat, six hand
    cards to each, the rest is the draw pile (the deck's next card on top)."""
    _clear(cnt, known, down, sc)
    size = 52 if players == 2 else MAX_CARDS
    sc[S_PLAYERS] = players
    sc[S_DECK] = size
    sc[S_WINNER] = -1
    at = 0
    for p in range(players):
        for i in range(FACE_DOWN):
            down[p, i] = deck[at]
            at += 1
        sc[S_DOWN_N + p] = FACE_DOWN
    for p in range(players):
        for _ in range(HAND_DEAL):
            _add(cnt, ids, 0, p, deck[at])
            at += 1
        sc[S_HAND_N + p] = HAND_DEAL
    n = size - at
    for i in range(n):
        draw[i] = deck[size - 1 - i]
    sc[S_DRAW_N] = n


@jit
def _shard(players: int, rules: Any, seed: Any, start: int, stop: int, winners: Any, turns: Any, extras: Any,
           failure: Any) -> None:
    """Games ``start``..``stop-1`` of the run, each from its own deal; on a broken invariant the code and
    the game go into ``failure`` and the shard stops."""
    cnt = np.zeros((2, players, POWERS), dtype=np.int64)
    ids = np.zeros((2, players, POWERS, SLOTS), dtype=np.int64)
    known = np.zeros(MAX_CARDS, dtype=np.int64)
    down = np.full((players, FACE_DOWN), -1, dtype=np.int64)
    draw = np.zeros(MAX_CARDS, dtype=np.int64)
    pile = np.zeros(MAX_CARDS, dtype=np.int64)
    sc = np.zeros(SC_SIZE, dtype=np.int64)
    deck = np.zeros(MAX_CARDS, dtype=np.int64)
    scratch = np.zeros(2 * SLOTS, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    size = 52 if players == 2 else MAX_CARDS
    no = np.int64(-1)  # no watched seat, no budget, no first move: an int64, not a constant (see _run)
    for g in range(start, stop):
        game_state(seed, g, state)
        start_game(state[0], state)
        for c in range(size):
            deck[c] = c
        deal_shuffle(deck, size, state, DEAL)
        _deal(deck, players, cnt, ids, known, down, draw, sc)
        status = _run(cnt, ids, known, down, draw, pile, sc, rules, state, none, none, scratch, no, no, no)
        if status < 0:
            failure[0] = status
            failure[1] = g
            return
        k = g - start
        winners[k] = sc[S_WINNER]
        turns[k] = sc[S_TURN]
        extras[0, k] = sc[S_BLIND_PLAYS]
        extras[1, k] = sc[S_BLIND_FITS]
        extras[2, k] = sc[S_PICKUPS]
        extras[3, k] = sc[S_BURNS]
        extras[4, k] = sc[S_CLEARS]
        extras[5, k] = sc[S_STOPPED]


@jit
def _deal_hidden(cnt0: Any, ids0: Any, known0: Any, down0: Any, draw0: Any, pile0: Any, sc0: Any, cnt: Any, ids: Any,
                 known: Any, down: Any, draw: Any, pile: Any, sc: Any, cards: Any, class_start: Any, hand_places: Any,
                 hand_start: Any, free: Any, states: Any, state_start: Any, thresholds: Any, part_thresholds: Any,
                 size: int, work: Any, where: Any, state: Any, drawn: Any) -> None:
    """The base position copied into the play-out's arrays, its hidden places (``where[q]`` = zone 0
    face-down, 1 draw, 2 hand; seat; index) filled by one draw of the chance law (:func:`draw_hands`)."""
    cnt[:] = cnt0
    ids[:] = ids0
    known[:] = known0
    down[:] = down0
    draw[:] = draw0
    pile[:] = pile0
    sc[:] = sc0
    draw_hands(cards, class_start, hand_places, hand_start, free, states, state_start, thresholds, size, state,
               drawn, work, part_thresholds)
    for q in range(size):
        c = drawn[q]
        kind = where[q, 0]
        if kind == 0:
            down[where[q, 1], where[q, 2]] = c
        elif kind == 1:
            draw[where[q, 2]] = c
        else:
            _add(cnt, ids, 0, where[q, 1], c)


@jit
def _rollouts(cnt0: Any, ids0: Any, known0: Any, down0: Any, draw0: Any, pile0: Any, sc0: Any, rules: Any,
              cards: Any, class_start: Any, hand_places: Any, hand_start: Any, free: Any, states: Any,
              state_start: Any, thresholds: Any, part_thresholds: Any, size: int, work: Any, where: Any, seeds: Any,
              watch: int, out: Any, firsts: Any, failure: Any) -> None:
    """One play-out per seed from the base position: the hidden places (``where[q]`` = zone 0 face-down, 1
    draw, 2 hand; seat; index) filled by one draw of the chance law (:func:`draw_hands`, the arrays of
    :class:`HandsArrays` and its scratch ``work``), then greedy play to the end (the winner) or, with
    ``watch``, through that seat's next turn (1 if it picked up the pile). Play-out ``i`` starts with the move
    ``firsts[i]`` when ``firsts`` is not empty (:func:`move_rollouts`)."""
    cnt = cnt0.copy()
    ids = ids0.copy()
    known = known0.copy()
    down = down0.copy()
    draw = draw0.copy()
    pile = pile0.copy()
    sc = sc0.copy()
    drawn = np.zeros(max(size, 1), dtype=np.int64)
    scratch = np.zeros(2 * SLOTS, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    no = np.int64(-1)  # no budget, no first move (see _run)
    for i in range(seeds.shape[0]):
        state[0] = seeds[i]  # a play-out's state, as jitkit.new_state makes it
        state[1] = seeds[i]
        _deal_hidden(cnt0, ids0, known0, down0, draw0, pile0, sc0, cnt, ids, known, down, draw, pile, sc, cards,
                     class_start, hand_places, hand_start, free, states, state_start, thresholds, part_thresholds,
                     size, work, where, state, drawn)
        status = _run(cnt, ids, known, down, draw, pile, sc, rules, state, none, none, scratch, watch, no,
                      firsts[i] if firsts.shape[0] > 0 else no)
        if status < 0:
            failure[0] = status
            failure[1] = i
            return
        out[i] = sc[S_PICKED] if watch >= 0 else sc[S_WINNER]


# ---------------------------------------------------------------------------------------------- Python side
def move_text(code: int) -> str:
    """The engine's text (``Move.text``) of a kernel move code."""
    kind, detail = divmod(int(code), 1000)
    if kind * 1000 == M_SETUP:
        return f"face up {card_from_id(detail)}"
    if kind * 1000 == M_PICKUP:
        return "pick up"
    if kind * 1000 == M_BLIND:
        return f"play face-down card {detail + 1}"
    r, k = divmod(detail, 10)
    label = _LABELS[r]
    return ("play " if kind * 1000 == M_HAND else "play face-up ") + label + ("" if k == 1 else f" x{k}")


_LABELS = {rank_power(r): r.label for r in Rank}
"""A rank's label by its power."""


def _rules(options: Mapping[str, Any], policies: Sequence[int]) -> IntArray:
    rules = np.zeros(RULES_SIZE, dtype=np.int64)
    rules[R_FOUR] = int(bool(options.get("four_kind_plays_again", False)))
    rules[R_LAST] = int(bool(options.get("play_to_last", False)))
    rules[R_LOW3] = int(options.get("first", "seat0") == "lowest3")
    rules[R_MAX_TURNS] = int(options.get("max_turns", Shithead.option_specs["max_turns"].default))
    for p, code in enumerate(policies):
        rules[R_POLICY + p] = code
    rules[R_FIT:] = house_tables(House.of(options))
    return rules


def house_tables(house: House) -> IntArray:
    """The rules' tables (:mod:`cardlab.games.shithead.rules`) as the kernel reads them, the part of the rules
    array from :data:`R_FIT` on: the fit table by powers (:func:`~cardlab.games.shithead.rules.fit_table`),
    the greedy play and set-up orders (:meth:`House.play_order`, :meth:`House.setup_order`), the invisible
    ranks, the ranks that skip the next player, the ranks that burn the pile
    (:func:`~cardlab.games.shithead.rules.burns`), the ranks that count as low
    (:func:`~cardlab.games.shithead.ranks.counts_low`) and the runs that clear the pile
    (:func:`~cardlab.games.shithead.rules.clears`). The rules are read from their module at each call, so the
    kernel plays them as they are written."""
    out = np.zeros(RULES_SIZE - R_FIT, dtype=np.int64)
    table = fit_table(house)
    for top in PILE_RANKS:
        row = 0 if top is None else rank_power(top)
        for r in table[top]:
            out[row * POWERS + rank_power(r)] = 1
    order = house.play_order()
    for top in PILE_RANKS:
        row = R_PLAYS - R_FIT + (0 if top is None else rank_power(top)) * PLAY_ROW
        codes = [2 * rank_power(r) + int(every) for r, every in order if r in table[top]]
        out[row] = len(codes)
        out[row + 1:row + 1 + len(codes)] = codes
    for i, r in enumerate(house.setup_order()):
        out[R_SETUP_ORDER - R_FIT + i] = rank_power(r)
    for r in Rank:
        out[R_INVISIBLE - R_FIT + rank_power(r)] = int(house.invisible(r))
        out[R_SKIP - R_FIT + rank_power(r)] = int(house.skips(r))
        out[R_BURN - R_FIT + rank_power(r)] = int(rulebook.burns(r))
        out[R_LOW - R_FIT + rank_power(r)] = int(rulebook.counts_low(r))
    for run in range(SLOTS + 1):
        out[R_CLEAR - R_FIT + run] = int(rulebook.clears(run))
    return out


@dataclass
class Table:
    """A Shithead position as the kernel's arrays (see the module notes), with the rules it plays by."""

    cnt: IntArray
    ids: IntArray
    known: IntArray
    down: IntArray
    draw: IntArray
    pile: IntArray
    sc: IntArray
    rules: IntArray
    hidden: list[tuple[int, int, int]]

    @classmethod
    def of(cls, game: Game[Any], viewpoint: int | None = None, *, hide: bool = False,
           policies: Sequence[str] | None = None) -> Table:
        """The game's position. With ``hide`` it is what ``viewpoint`` knows (``None``: the table): the
        face-down cards, the draw pile and the unseen part of every other hand are left empty and
        listed in ``hidden`` in the order of the game's chance law, ``(zone, seat, index)`` with zone 0
        face-down, 1 draw pile, 2 hand; their cards are never read."""
        g = _shithead(game, "Table.of")
        s = g.state
        players = g.players
        pol = jitkit.policy_codes(["greedy"] * players if policies is None else policies, players, "Table.of").tolist()
        cnt = np.zeros((2, players, POWERS), dtype=np.int64)
        ids = np.zeros((2, players, POWERS, SLOTS), dtype=np.int64)
        known = np.zeros(MAX_CARDS, dtype=np.int64)
        down = np.full((players, FACE_DOWN), -1, dtype=np.int64)
        draw = np.zeros(MAX_CARDS, dtype=np.int64)
        pile = np.zeros(MAX_CARDS, dtype=np.int64)
        sc = np.zeros(SC_SIZE, dtype=np.int64)
        hidden: list[tuple[int, int, int]] = []
        for p in range(players):
            for i, c in enumerate(s.face_down[p]):
                if c is not None:
                    down[p, i] = MAX_CARDS if hide else c.id  # a place to fill, or the card
                    if hide:
                        hidden.append((0, p, i))
            sc[S_DOWN_N + p] = sum(c is not None for c in s.face_down[p])
        for i in range(len(s.draw)):
            if hide:
                hidden.append((1, -1, i))
            else:
                draw[i] = s.draw[i].id
        for p in range(players):
            for c in s.known[p]:
                known[c.id] = 1
            if hide and p != viewpoint:
                for c in s.known[p]:
                    _add(cnt, ids, 0, p, c.id)
                hidden.extend((2, p, k) for k in range(len(s.hands[p]) - len(s.known[p])))
            else:
                for c in s.hands[p]:
                    _add(cnt, ids, 0, p, c.id)
            for c in s.face_up[p]:
                _add(cnt, ids, 1, p, c.id)
            sc[S_HAND_N + p] = len(s.hands[p])
            sc[S_UP_N + p] = len(s.face_up[p])
        rules = _rules(g.options, pol)
        for c in s.pile:
            _push(pile, sc, rules, c.id)
        sc[S_PLAYERS] = players
        sc[S_TO_MOVE] = s.to_move
        sc[S_PHASE] = SETUP if s.phase == "setup" else PLAY
        sc[S_TURN] = s.turn
        sc[S_OVER] = int(s.over)
        sc[S_WINNER] = -1 if s.winner is None else s.winner
        sc[S_STOPPED] = int(s.stopped)
        sc[S_DRAW_N] = len(s.draw)
        sc[S_OUT_N] = len(s.out)
        sc[S_BLIND_PLAYS], sc[S_BLIND_FITS], sc[S_PICKUPS] = s.blind_plays, s.blind_fits, s.pickups
        sc[S_BURNS], sc[S_CLEARS] = s.burns, s.clears
        sc[S_RANK_N] = len(s.ranking)
        for i, p in enumerate(s.ranking):
            sc[S_RANKING + i] = p
        sc[S_DECK] = 52 * g.packs
        return cls(cnt, ids, known, down, draw, pile, sc, rules, hidden)

    def copy(self) -> Table:
        return Table(self.cnt.copy(), self.ids.copy(), self.known.copy(), self.down.copy(), self.draw.copy(),
                     self.pile.copy(), self.sc.copy(), self.rules.copy(), list(self.hidden))

    def run(self, seed: int = 0, *, record: int = 0, script: Sequence[int] | None = None,
            budget: int = -1, watch: int = -1) -> tuple[int, list[int]]:
        """Play this table on in place (see :func:`_run`) with a generator seeded ``seed``: to the end,
        for ``budget`` moves (-1: no limit) or through seat ``watch``'s next turn. Returns the status
        (:data:`DONE` or :data:`PAUSED`) and, with ``record`` > 0, the codes of up to that many moves.
        A broken invariant raises :class:`KernelError` with the seed and the moves from this position."""
        if self.hidden:
            raise InvalidInputError("Table.run: this table has hidden places still empty (Table.of with hide=True "
                                    "is for play-outs); build it with hide=False to play it")
        before = self.copy()
        status, moves = self._play(seed, record, script, budget, watch)
        if status < 0:
            raise _failure("Table.run", status, seed, f"{int(self.sc[S_PLAYERS])} players", before, seed, script)
        return status, moves

    def _play(self, seed: int, record: int, script: Sequence[int] | None, budget: int,
             watch: int) -> tuple[int, list[int]]:
        moves = np.zeros(record, dtype=np.int64)
        plan = np.asarray(list(script) if script is not None else [], dtype=np.int64)
        start = int(self.sc[S_MOVES])
        with np.errstate(over="ignore"):
            status = _run(self.cnt, self.ids, self.known, self.down, self.draw, self.pile, self.sc, self.rules,
                          new_state(seed), moves, plan, np.zeros(2 * SLOTS, dtype=np.int64), watch, budget, -1)
        made = int(self.sc[S_MOVES]) - start
        return int(status), moves[:min(made, record)].tolist()

    def position(self) -> dict[str, Any]:
        """The position in the engine's terms: cards by code (hands and face-up cards in hand order,
        face-down by position, draw pile and discard pile bottom first), known cards, scalars."""
        sc = self.sc
        players = int(sc[S_PLAYERS])

        def zone(z: int, p: int) -> list[str]:
            return [card_from_id(int(self.ids[z, p, r, j])).code
                    for r in range(LOW, HIGH + 1) for j in range(int(self.cnt[z, p, r]))]

        hands = [zone(0, p) for p in range(players)]
        return {
            "hands": hands, "face_up": [zone(1, p) for p in range(players)],
            "face_down": [[None if c < 0 else card_from_id(int(c)).code for c in self.down[p]]
                          for p in range(players)],
            "known": [[c for c in hands[p] if self.known[Card.parse(c).id]] for p in range(players)],
            "draw": [card_from_id(int(c)).code for c in self.draw[:sc[S_DRAW_N]]],
            "pile": [card_from_id(int(c)).code for c in self.pile[:sc[S_PILE_N]]],
            "out": int(sc[S_OUT_N]), "to_move": int(sc[S_TO_MOVE]),
            "phase": "setup" if sc[S_PHASE] == SETUP else "play", "turn": int(sc[S_TURN]),
            "ranking": [int(x) for x in sc[S_RANKING:S_RANKING + sc[S_RANK_N]]],
            "winner": None if sc[S_WINNER] < 0 else int(sc[S_WINNER]), "over": bool(sc[S_OVER]),
            "stopped": bool(sc[S_STOPPED]), "blind_plays": int(sc[S_BLIND_PLAYS]),
            "blind_fits": int(sc[S_BLIND_FITS]), "pickups": int(sc[S_PICKUPS]), "burns": int(sc[S_BURNS]),
            "clears": int(sc[S_CLEARS])}


def _shithead(game: Any, what: str) -> Shithead:
    if not isinstance(game, Shithead):
        name = getattr(game, "name", type(game).__name__)
        raise InvalidInputError(f"{what}: the Shithead kernel plays Shithead games only, not {name!r}")
    return game


def deal_codes(seed: int, index: int, players: int) -> list[str]:
    """Game ``index`` of a :func:`play_shard` run with ``seed``, as a stacked deck for the engine
    (``new_game("shithead", deck=...)``, top card first): the kernel's own shuffle, replayed in Python."""
    order = Dealer(game_key(seed, index)).deal().permute(52 if players == 2 else MAX_CARDS)
    return [card_from_id(c).code for c in order]


def _failure(what: str, status: int, seed: int, detail: str, replay: Table, state_seed: int,
             script: Sequence[int] | None = None) -> KernelError:
    """A bug report: the failure, the seed, and the moves of the failing game replayed with a record."""
    def moves() -> list[str]:
        return [move_text(m) for m in replay._play(state_seed, 100_000, script, -1, -1)[1]]

    return jitkit.kernel_failure("Shithead", what, FAILURES.get(status, f"status {status}"), detail, seed, moves)


def play_shard(players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
               policies: Sequence[str]) -> tuple[IntArray, IntArray, dict[str, np.ndarray]]:
    """Games ``start``..``stop-1`` of the run with ``seed``, each from its own deal (see the module notes):
    winners (-1 for none), turns, and the per-game figures of ``Shithead.stats()`` (float64)."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 2 <= players <= MAX_PLAYERS:
        raise InvalidInputError(f"play_shard: players={players!r} is not allowed; Shithead takes 2 to 5 players")
    codes = jitkit.policy_codes(policies, int(players), "play_shard").tolist()
    start, stop = jitkit.check_range(start, stop, "play_shard")
    base = jitkit.run_seed(seed, "play_shard")
    rules = _rules(options, codes)
    n = stop - start
    winners = np.full(n, -1, dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    extras = np.zeros((6, n), dtype=np.int64)
    failure = np.zeros(2, dtype=np.int64)
    with np.errstate(over="ignore"):
        _shard(int(players), rules, base, start, stop, winners, turns, extras, failure)
    if failure[0] < 0:
        g = int(failure[1])
        table = _dealt_table(int(players), rules, seed, g)
        raise _failure("play_shard", int(failure[0]), seed, f"game {g}, {players} players, options "
                       f"{dict(options)}, policies {list(policies)}", table,
                       stream_seed(game_key(seed, g), dealer.PLAY))
    keys = ("blind_plays", "blind_fits", "pickups", "burns", "clears", "stopped")
    return winners, turns, {k: extras[i].astype(np.float64) for i, k in enumerate(keys)}


def game_moves(players: int, options: Mapping[str, Any], seed: int, index: int,
               policies: Sequence[str]) -> list[str]:
    """Game ``index`` of the run with ``seed`` (:func:`play_shard`'s), its moves as the engine's texts: with
    deterministic bots, the moves the engine plays in ``new_game("shithead", seed=seed, index=index)``."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 2 <= players <= MAX_PLAYERS:
        raise InvalidInputError(f"game_moves: players={players!r} is not allowed; Shithead takes 2 to 5 players")
    codes = jitkit.policy_codes(policies, int(players), "game_moves").tolist()
    index, _ = jitkit.check_range(index, index, "game_moves")
    table = _dealt_table(int(players), _rules(options, codes), seed, index)
    _, moves = table.run(stream_seed(game_key(seed, index), dealer.PLAY), record=100_000)
    return [move_text(m) for m in moves]


def _dealt_table(players: int, rules: IntArray, seed: int, game: int) -> Table:
    """Game ``game`` of a run, dealt, as a :class:`Table` (to replay a failure with a record)."""
    deck = np.array([Card.parse(c).id for c in deal_codes(seed, game, players)], dtype=np.int64)
    t = Table(np.zeros((2, players, POWERS), dtype=np.int64), np.zeros((2, players, POWERS, SLOTS), dtype=np.int64),
              np.zeros(MAX_CARDS, dtype=np.int64), np.full((players, FACE_DOWN), -1, dtype=np.int64),
              np.zeros(MAX_CARDS, dtype=np.int64), np.zeros(MAX_CARDS, dtype=np.int64),
              np.zeros(SC_SIZE, dtype=np.int64), rules.copy(), [])
    _deal(deck, players, t.cnt, t.ids, t.known, t.down, t.draw, t.sc)
    return t


def _law_table(g: Shithead, viewpoint: int | None, what: str) -> tuple[Table, HandsArrays, IntArray]:
    """The position as ``viewpoint`` knows it (hidden places empty), its chance law as arrays, and where each
    of the law's places is on the table."""
    table = Table.of(g, viewpoint, hide=True)
    law = HandsArrays.of(g.chance_law(viewpoint))
    if law.size != len(table.hidden):
        raise KernelError(f"Shithead kernel, {what}: the chance law has {law.size} places, the position "
                          f"{len(table.hidden)} hidden cards")
    return table, law, np.array(table.hidden, dtype=np.int64).reshape(-1, 3)


def _playouts(g: Shithead, viewpoint: int | None, n: int, rng: np.random.Generator, watch: int,
              what: str) -> IntArray:
    table, law, where = _law_table(g, viewpoint, what)
    seeds = draw_seeds(int(n), rng)
    out = np.zeros(int(n), dtype=np.int64)
    failure = np.zeros(2, dtype=np.int64)
    with np.errstate(over="ignore"):
        _rollouts(table.cnt, table.ids, table.known, table.down, table.draw, table.pile, table.sc, table.rules,
                  law.cards, law.class_start, law.hand_places, law.hand_start, law.free, law.states,
                  law.state_start, law.thresholds, law.part_thresholds, law.size, law.work(), where, seeds, watch,
                  out, np.zeros(0, dtype=np.int64), failure)
    if failure[0] < 0:
        i = int(failure[1])
        replay = Table.of(g, viewpoint, hide=True)
        drawn = np.zeros(max(law.size, 1), dtype=np.int64)
        state = new_state(seeds[i])
        with np.errstate(over="ignore"):
            law.draw(state, drawn)
        for q, (kind, p, k) in enumerate(table.hidden):
            if kind == 0:
                replay.down[p, k] = drawn[q]
            elif kind == 1:
                replay.draw[k] = drawn[q]
            else:
                _add(replay.cnt, replay.ids, 0, p, int(drawn[q]))
        raise _failure(what, int(failure[0]), int(seeds[i]), f"play-out {i} of {n}, viewpoint {viewpoint}",
                       replay, int(state[0]))
    return out


def win_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` greedy play-outs from the game's position, the hidden cards (as ``viewpoint`` knows the
    game) drawn from ``game.chance_law(viewpoint)`` for each; the winner of each (-1: stopped by the
    safety rule). Only the law is read, never where the hidden cards really are."""
    g = jitkit.check_playouts(game, Shithead, viewpoint, n, rng, "win_rollouts")
    return _playouts(g, viewpoint, int(n), rng, -1, "win_rollouts")


def move_code(move: Any) -> int:
    """The kernel's code of an engine move (by its canonical text, :func:`move_text`)."""
    text = getattr(move, "text", None)
    codes = [M_PICKUP] + [M_BLIND + i for i in range(FACE_DOWN)] + [M_SETUP + c for c in range(52)] + \
        [kind + 10 * r + k for kind in (M_HAND, M_UP) for r in range(LOW, HIGH + 1) for k in range(1, SLOTS + 1)]
    for code in codes:
        if move_text(code) == text:
            return code
    raise InvalidInputError(f"move {move!r} is not a Shithead move")


def move_rollouts(game: Game[Any], viewpoint: int | None, moves: Sequence[Any], seeds: Any) -> IntArray:
    """Play-out ``r`` of ``moves[k]`` (legal moves of the player to move): the hidden cards drawn from
    ``game.chance_law(viewpoint)`` by SplitMix64 seeded with ``seeds[r, k]``, the move played, then greedy
    play to the end. Returns the winners, shaped like ``seeds`` (-1: stopped by the safety rule). Equal seeds
    in a row give every move the same hidden cards and the same later draws (common random numbers). Only
    the law is read, never where the hidden cards really are."""
    g = _shithead(game, "move_rollouts")
    grid = np.asarray(seeds, dtype=np.uint64).reshape(-1, len(moves))
    out = np.full(grid.shape, -1, dtype=np.int64)
    if g.is_over or not len(moves):
        return out
    codes = np.array([move_code(m) for m in moves], dtype=np.int64)
    table, law, where = _law_table(g, viewpoint, "move_rollouts")
    failure = np.zeros(2, dtype=np.int64)
    flat = out.reshape(-1)
    with np.errstate(over="ignore"):
        _rollouts(table.cnt, table.ids, table.known, table.down, table.draw, table.pile, table.sc, table.rules,
                  law.cards, law.class_start, law.hand_places, law.hand_start, law.free, law.states,
                  law.state_start, law.thresholds, law.part_thresholds, law.size, law.work(), where, grid.reshape(-1),
                  -1, flat, np.tile(codes, grid.shape[0]), failure)
    if failure[0] < 0:
        i, k = divmod(int(failure[1]), len(moves))
        raise KernelError(f"Shithead kernel, move_rollouts: {FAILURES.get(int(failure[0]), 'failure')} in play-out "
                          f"{i} of move {moves[k]!r} (seed {int(grid[i, k])}, viewpoint {viewpoint}) from {game!r}")
    return flat.reshape(grid.shape)


def must_pick_up(game: Game[Any], seat: int, viewpoint: int | None, n: int, rng: np.random.Generator) -> IntArray:
    """``n`` play-outs as in :func:`win_rollouts`, each stopped when ``seat`` ends its next turn of the
    play phase (the current one if it is to move): 1 where that turn ended by picking up the pile (no
    card fitted, or its blind card did not), else 0 (also where the game ended first)."""
    g = jitkit.check_playouts(game, Shithead, viewpoint, n, rng, "must_pick_up")
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < g.players:
        raise InvalidInputError(f"must_pick_up: seat={seat!r} is not a seat of this game (0 to {g.players - 1})")
    if g.is_over:
        return np.zeros(int(n), dtype=np.int64)
    return _playouts(g, viewpoint, int(n), rng, int(seat), "must_pick_up")


def compiled() -> bool:
    """Whether the kernel runs compiled (numba installed) rather than as plain Python."""
    return HAVE_NUMBA


def compile_now() -> float:
    """Compile the kernel now (or load it from numba's cache): a few games and play-outs of every kind
    (:func:`cardlab.chance.jitkit.compile_kernel`). Returns the seconds taken."""
    return jitkit.compile_kernel("shithead", play_shard, [
        lambda game, rng: win_rollouts(game, None, 2, rng), lambda game, rng: must_pick_up(game, 0, None, 2, rng),
        lambda game, rng: Table.of(game).run(0, record=10, budget=3),
        lambda game, rng: move_rollouts(game, 0, game.legal_moves(), draw_seeds(2 * len(game.legal_moves()), rng))])

