"""Garbage hands played by the greedy bot, many at once, in numpy arrays.

The greedy bot (``cardlab/games/garbage/bot.py``) leaves Garbage without a single real choice: it takes
the discard exactly when it can use it, always places a wild on the lowest face-down spot, and always
displaces a wild with its pip card. A hand is then fixed by the order of the cards nobody has seen, so
many hands can advance side by side, one array row each.

Why it plays the same game as the engine
----------------------------------------
*Lazy dealing.* The face-down layout cards and the stock are a uniformly shuffled arrangement of the
cards nobody has seen. Nothing in the game depends on an unseen card until it is turned over, so by
exchangeability the next card revealed — under a face-down spot, or on top of the stock — is a uniform
draw from the unseen cards that remain. Each row keeps those cards in an unordered *pool* and draws only
when a card is revealed: a uniform index ``j``, take ``pool[j]``, move the last pool card into its
place. A fresh deal is a copy of the pack, with no shuffle at all; resampling a position for a
rollout is the same thing (the pool is the unseen cards).

*Reshuffles.* When the stock is empty after a turn, the discard pile except its top becomes the new
stock in random order: a known multiset, kept in its own buffer and drawn from uniformly, while the
pool keeps only the face-down layout cards (the engine's ``stock_known``).

*Exact starts.* :func:`play_from` can keep a game's real card order instead (face-down cards where
they lie, the stock in its order); then only later reshuffles are new chance, and until the first
reshuffle a hand is played card for card as the engine plays it (the tests check this).

Encoding
--------
A card is stored as one bit: a pip card ``c`` (1-10) as ``1 << (c-1)``, a dead card (Q, and K or J
when not wild) as ``1 << 10``, the wild as ``1 << 11``. A seat's layout is two 10-bit masks: ``up``
(spot k+1 face up; spots beyond the layout size count as face up, so a number above the size is dead
and a full layout is ``1023``) and ``wild`` (spot k+1 shows a wild). One chain step is bit arithmetic:
with ``down = ~up``, a pip card is placed when ``card & down`` is set, displaces a wild when
``card & wild`` is set, and is dead otherwise; a wild goes to ``down & -down``, the lowest face-down
spot.

Each loop iteration moves every row on by one card: the card in hand is placed, displaces a wild, or
ends the turn. A placement leaves the hand empty; the card under the spot is drawn from the pool at the
start of the next iteration, together with stock draws (the same pool before any reshuffle). Rows whose
turn ended discard, rotate their seats (the player to move is always seat slot 0), reshuffle if the
stock is empty, and take the discard or draw. Rows whose hand is over get the next game of the batch,
so the arrays stay full; only the last hands of a batch run in shrinking (compacted) arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from cardlab.errors import InvalidInputError
from cardlab.games.garbage.rules import MAX_SPOTS, PACKS_BY_PLAYERS, Garbage

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
BitArray = npt.NDArray[np.int16]

ALL_UP = (1 << MAX_SPOTS) - 1
DEAD = np.int16(1 << 10)
WILD = np.int16(1 << 11)
NOT_COMPLETED = 0
CHUNK = 1 << 13          # rows held in the arrays at once
MAX_TURNS = 50_000       # a hand longer than this means a bug, not bad luck

# LOWEST[m]: index (0-9) of the lowest set bit of a 10-bit mask (0 for m = 0)
LOWEST = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, ALL_UP + 1)], dtype=np.int64)
# UP_START[size]: the up mask of a fresh layout of that size
UP_START = np.array([ALL_UP & ~((1 << s) - 1) for s in range(MAX_SPOTS + 1)], dtype=np.int16)


def bit_table(wild: str) -> BitArray:
    """Card bit by rank (index 1-13): pip c -> 1 << (c-1), the wild rank -> WILD, other courts -> DEAD."""
    table = np.array([0, *(1 << np.arange(10)), DEAD, DEAD, DEAD], dtype=np.int16)
    table[11 if wild == "J" else 13] = WILD
    return table


def pack_bits(packs: int, wild: str) -> BitArray:
    """The bits of every card of ``packs`` packs, in no particular order."""
    return bit_table(wild)[np.tile(np.arange(1, 14), 4 * packs)]


@dataclass(frozen=True)
class Rules:
    """The options shared by every hand of one batch (layout sizes may differ per row)."""

    players: int
    wild: str = "J"
    last_round: bool = False
    match: bool = False

    @property
    def cards(self) -> int:
        return 52 * PACKS_BY_PLAYERS[self.players]

    @property
    def has_last_round(self) -> bool:
        return self.last_round and self.players > 1


class Outcome(NamedTuple):
    """What a batch produced, one entry per game in order (``done`` is filled by play_from and rollouts_from).

    ``winners`` (-1: none), ``turns`` (the game's ``turns`` at the end), ``hands`` (the hand number at
    the end), ``shuffles`` (the game's shuffle counter: reshuffles of the stock plus redeals), and
    ``done``, shape ``(n, players)``: for each seat, how many of its own turns it took to complete its
    layout in the last hand played, counting a turn in progress at the start as its first; 0 if it did
    not complete.
    """

    winners: IntArray
    turns: IntArray
    hands: IntArray
    shuffles: IntArray
    done: IntArray


@dataclass
class _Out:
    """Result arrays of a batch, indexed by game number."""

    table: IntArray          # (4, n): winners, turns, hands, shuffles
    done: IntArray           # (n, players)

    @classmethod
    def empty(cls, n: int, players: int) -> _Out:
        table = np.zeros((4, n), dtype=np.int64)
        table[0] = -1
        return cls(table, np.zeros((n, players), dtype=np.int64))

    def outcome(self) -> Outcome:
        return Outcome(self.table[0], self.table[1], self.table[2], self.table[3], self.done)


# rows of _Hands.ints (one int64 figure per hand)
RID, TURN, TURN0, SEAT0, POOL_N, STOCK_N, DN, FIRST, LAST_LEFT, N_DONE, HANDS, SHUFFLES = range(12)
# rows of _Hands.flags
MERGED, ORDERED, EXACT, ACTIVE = range(4)
# rows of _Hands.seats (one figure per hand and absolute seat)
SIZE, ORDER, WINS, COMP = range(4)


class _Hands:
    """Many Garbage hands, one row each, as a structure of arrays.

    Figures of one kind are grouped in one array so that a new deal is a handful of array writes:
    ``ints`` (12, rows), ``flags`` (4, rows), ``seats`` (rows, 4, players), ``slots`` (2, players,
    rows) — the up and wild masks by seat slot, slot 0 being the player to move — and the card buffers
    ``pool``, ``stock``, ``disc`` (rows, cards) and ``layout`` (rows, players * 10, for exact starts).
    The named attributes (``turn``, ``pool_n``, ``up0``...) are views into them, changed in place only.
    """

    held: BitArray
    top: BitArray

    def __init__(self, rows: int, rules: Rules, rng: np.random.Generator, out: _Out, until_hand: bool,
                 games: int | None = None, sizes: IntArray | None = None, track_done: bool = True) -> None:
        p, n = rules.players, rules.cards
        self.rules, self.players, self.n_cards = rules, p, n
        self.bits, self.out, self.until_hand, self.track_done = rng.bit_generator, out, until_hand, track_done
        self.deck = pack_bits(PACKS_BY_PLAYERS[p], rules.wild)
        self.ints = np.zeros((12, rows), dtype=np.int64)
        self.ints[RID] = np.arange(rows)
        self.ints[FIRST] = -1
        self.flags = np.zeros((4, rows), dtype=bool)
        self.flags[ACTIVE] = True
        self.seats = np.zeros((rows, 4, p), dtype=np.int64)
        self.slots = np.zeros((2, p, rows), dtype=np.int16)
        self.held = np.zeros(rows, dtype=np.int16)
        self.top = np.zeros(rows, dtype=np.int16)
        self.pool = np.zeros((rows, n), dtype=np.int16)
        self.stock = np.zeros((rows, n), dtype=np.int16)
        self.disc = np.zeros((rows, n), dtype=np.int16)
        self.layout = np.zeros((rows, p * MAX_SPOTS), dtype=np.int16)
        self.any_exact = False
        self.n_active = rows
        # a batch of fresh games: a row whose game is over takes the next one until ``games`` are dealt
        self.games = rows if games is None else games
        self.next_game = rows
        if sizes is not None:
            self.fresh_ints = np.array([0, 0, 0, 0, n, n - int(sizes.sum()) - 1, 0, -1, 0, 0, 1, 0], dtype=np.int64)
            self.fresh_seats = np.zeros((4, p), dtype=np.int64)
            self.fresh_seats[SIZE] = sizes
            self.fresh_slots = np.zeros((2, p, 1), dtype=np.int16)
            self.fresh_slots[0, :, 0] = UP_START[sizes]
        self._views()

    def _views(self) -> None:
        self.rows = int(self.ints.shape[1])
        self.base = np.arange(self.rows, dtype=np.int64) * self.n_cards
        ints, flags = self.ints, self.flags
        self.rid, self.turn, self.turn0, self.seat0 = ints[RID], ints[TURN], ints[TURN0], ints[SEAT0]
        self.pool_n, self.stock_n, self.dn, self.first = ints[POOL_N], ints[STOCK_N], ints[DN], ints[FIRST]
        self.last_left, self.n_done, self.hands, self.shuffles = ints[LAST_LEFT], ints[N_DONE], ints[HANDS], \
            ints[SHUFFLES]
        self.merged, self.ordered, self.exact, self.active = flags[MERGED], flags[ORDERED], flags[EXACT], \
            flags[ACTIVE]
        self.size, self.order, self.wins, self.comp = (self.seats[:, k, :] for k in range(4))
        self.up, self.wild = self.slots[0], self.slots[1]
        self.up0, self.wild0 = self.slots[0, 0], self.slots[1, 0]
        self.pool_f = self.pool.reshape(-1)
        self.stock_f = self.stock.reshape(-1)
        self.disc_f = self.disc.reshape(-1)
        self.layout_f = self.layout.reshape(-1)

    def compact(self) -> None:
        keep = np.flatnonzero(self.active)
        self.ints, self.flags = self.ints[:, keep], self.flags[:, keep]
        self.slots = self.slots[:, :, keep]
        self.seats, self.held, self.top = self.seats[keep], self.held[keep], self.top[keep]
        self.pool, self.stock, self.disc, self.layout = (a[keep] for a in (self.pool, self.stock, self.disc,
                                                                          self.layout))
        self.any_exact = bool(self.flags[EXACT].any())
        self._views()

    def repeat_first_row(self) -> None:
        """Make every row a copy of row 0 (many play-outs of one position); game numbers stay apart."""
        rid = self.rid.copy()
        self.ints[:, 1:] = self.ints[:, :1]
        self.rid[:] = rid
        self.flags[:, 1:] = self.flags[:, :1]
        self.slots[:, :, 1:] = self.slots[:, :, :1]
        for arr in (self.seats, self.held, self.top, self.pool, self.stock, self.disc, self.layout):
            arr[1:] = arr[0]

    # ------------------------------------------------------------------ dealing
    def fresh(self, rows: IntArray) -> None:
        """Start the next games of the batch in ``rows``: hand 1, seat 0 to play.

        The first player cannot take from the empty discard pile, so the stock draw is booked here
        (``stock_n`` is one lower) and the card itself comes from the pool at the next step."""
        self.ints[:, rows] = self.fresh_ints[:, None]
        self.ints[RID, rows] = np.arange(self.next_game, self.next_game + rows.size)
        self.next_game += rows.size
        self.flags[:, rows] = FRESH_FLAGS
        self.seats[rows] = self.fresh_seats
        self.slots[:, :, rows] = self.fresh_slots
        self.pool[rows] = self.deck
        self.held[rows] = 0
        self.top[rows] = 0

    def redeal(self, rows: IntArray) -> None:
        """The next hand of a match in ``rows``: fresh pack, the last hand's winner to play."""
        p, n = self.players, self.n_cards
        first = self.first[rows]
        sizes = self.size[rows]
        seats = (first[:, None] + np.arange(p)) % p
        self.slots[0][:, rows] = UP_START[np.take_along_axis(sizes, seats, axis=1)].T
        self.slots[1][:, rows] = 0
        self.pool[rows] = self.deck
        for k, value in ((POOL_N, n), (DN, 0), (LAST_LEFT, 0), (N_DONE, 0)):
            self.ints[k, rows] = value
        self.ints[STOCK_N, rows] = n - sizes.sum(axis=1) - 1
        self.ints[SEAT0, rows] = first
        self.ints[TURN0, rows] = self.turn[rows]
        self.ints[FIRST, rows] = -1
        self.seats[rows, ORDER] = 0
        self.seats[rows, COMP] = 0
        self.flags[:, rows] = FRESH_FLAGS
        self.held[rows] = 0
        self.top[rows] = 0

    # ------------------------------------------------------------------ one iteration
    def step(self) -> None:
        self._draw_from_pool()
        ended, complete = self._chain()
        if ended.any():
            self._end_turns(ended, complete)

    def _uniform_below(self, n: IntArray) -> IntArray:
        """A uniform integer in [0, n) per entry, from 32 random bits (bias below 2**-24)."""
        size = n.size
        raw = self.bits.random_raw((size + 1) // 2).view(np.uint32)[:size]
        j: IntArray = (raw.astype(np.int64) * n) >> 32
        return j

    def _draw_from_pool(self) -> None:
        """Rows with an empty hand get a uniform card from their pool (a card under a spot, or the stock)."""
        need = self.held == 0
        size = self.pool_n * need       # rows that draw nothing pick index 0 and move it onto itself
        pos = self.base + self._uniform_below(size)
        card = self.pool_f[pos]
        self.pool_f[pos] = self.pool_f[self.base + (size - need)]
        self.pool_n -= need
        self.held += card * need

    def _chain(self) -> tuple[BoolArray, BoolArray]:
        """One chain step for every row: place the held card, displace a wild with it, or end the turn."""
        h = self.held
        cu, cw = self.up0, self.wild0
        down = cu ^ np.int16(ALL_UP)
        wild_mask = -(h >> 11)                         # all ones when h is the wild
        placed = (h & down) | (down & -down & wild_mask)
        displaced = h & cw
        displaced *= down != 0                         # a complete layout takes nothing more
        cu |= placed
        cw ^= displaced
        cw |= placed & wild_mask
        if self.rules.has_last_round:
            # the card under the last spot is drawn next step, since it becomes the discard the others see
            ended = ((placed | displaced) == 0) & self.active
            complete = ended & (down == 0)
        else:  # the hand ends at once: the card under the last spot is never seen
            complete = (cu == ALL_UP) & self.active
            ended = (((placed | displaced) == 0) & self.active) | complete
        held = (h ^ displaced) + (displaced != 0) * WILD   # a displaced wild comes back to hand
        held *= placed == 0                                 # after a placement the next card is drawn
        if self.any_exact:
            self._reveal_exact(held, placed)
        self.held = held
        return ended, complete

    def _reveal_exact(self, held: BitArray, placed: BitArray) -> None:
        """Rows playing their real cards: the card under a placed spot is the one that lies there."""
        rows = np.flatnonzero((placed != 0) & self.exact)
        if rows.size:
            p = self.players
            seat = (self.seat0[rows] + self.turn[rows] - self.turn0[rows]) % p
            spot = LOWEST[placed[rows]]
            held[rows] = self.layout_f[(rows * p + seat) * MAX_SPOTS + spot]

    def _end_turns(self, ended: BoolArray, complete: BoolArray) -> None:
        """Count the turn, settle completions, discard, pass the turn, reshuffle, start the next turn."""
        self.turn += ended
        special = complete | (ended & (self.last_left > 0)) if self.rules.has_last_round else complete
        if special.any():
            over = self._completions(np.flatnonzero(special), complete)
            ended[over] = False
        self.disc_f[self.base + self.dn] = self.held   # rows whose turn goes on write above their pile
        self.dn += ended
        keep = -ended.astype(np.int16)
        self.top ^= (self.top ^ self.held) & keep
        p = self.players
        if p == 2:
            swap = (self.slots[:, 0] ^ self.slots[:, 1]) & keep
            self.slots[:, 0] ^= swap
            self.slots[:, 1] ^= swap
        elif p > 2:
            self.slots ^= (self.slots ^ np.roll(self.slots, -1, axis=1)) & keep
        empty = ended & (self.stock_n == 0)
        if empty.any():
            stuck = self._reshuffle(np.flatnonzero(empty))
            ended[stuck] = False
        self.begin_turns(ended)

    def begin_turns(self, starting: BoolArray) -> None:
        """Greedy rule 1 for the player to move: take the discard's top card when usable, else draw."""
        top, cu, cw = self.top, self.up0, self.wild0
        usable = ((top & ((cu ^ np.int16(ALL_UP)) | cw)) != 0) | ((top == WILD) & (cu != ALL_UP))
        take = starting & usable
        draw = starting & ~usable
        if take.any():
            rows = np.flatnonzero(take)
            self.held[rows] = top[rows]
            dn = self.dn[rows] - 1
            self.dn[rows] = dn
            below = self.disc_f[self.base[rows] + np.maximum(dn - 1, 0)]
            self.top[rows] = below * (dn > 0)
        self.held *= ~draw
        self.stock_n -= draw
        known = draw & ~self.merged
        if known.any():
            self._draw_known_stock(np.flatnonzero(known))

    def _draw_known_stock(self, rows: IntArray) -> None:
        """Draw from a stock of known cards (after a reshuffle, or a given order): top card or uniform."""
        last = self.stock_n[rows]                 # already lowered: the index of the card drawn now
        j = np.where(self.ordered[rows], last, self._uniform_below(last + 1))
        pos = self.base[rows] + j
        self.held[rows] = self.stock_f[pos]
        self.stock_f[pos] = self.stock_f[self.base[rows] + last]

    def _reshuffle(self, rows: IntArray) -> IntArray:
        """Empty stock: every discard but the top one becomes the new stock. Returns rows now over.

        With at most one discard there is nothing to reshuffle and the hand is a draw; that never
        happens with the standard pack counts, but it is the engine's rule, so it is here too."""
        stuck: IntArray = rows[self.dn[rows] <= 1]
        if stuck.size:
            self._game_over(stuck, np.full(stuck.size, -1, dtype=np.int64))
            rows = rows[self.dn[rows] > 1]
        self.stock[rows] = self.disc[rows]
        self.stock_n[rows] = self.dn[rows] - 1
        self.disc_f[self.base[rows]] = self.top[rows]
        self.dn[rows] = 1
        self.merged[rows] = False
        self.ordered[rows] = False
        self.shuffles[rows] += 1
        return stuck

    # ------------------------------------------------------------------ completions and results
    def _completions(self, rows: IntArray, complete: BoolArray) -> IntArray:
        """Book completions and last turns; returns the rows whose hand is over."""
        p = self.players
        played = self.turn[rows] - self.turn0[rows]
        seat = (self.seat0[rows] + played - 1) % p
        if not self.rules.has_last_round:       # every row here completed, and its hand is over
            self.first[rows] = seat
            self.order[rows, seat] = 1
            if self.track_done:
                self.comp[rows, seat] = (played - 1) // p + 1
            self._hand_over(rows)
            return rows
        comp = complete[rows]
        c, sc = rows[comp], seat[comp]
        if c.size:
            self.n_done[c] += 1
            self.order[c, sc] = self.n_done[c]
            self.first[c] = np.where(self.first[c] < 0, sc, self.first[c])
            self.comp[c, sc] = (played[comp] - 1) // p + 1
        lr_start = comp & (self.n_done[rows] == 1)
        left = self.last_left[rows]
        in_last = (left > 0) & ~lr_start
        left = np.where(lr_start, p - 1, left - in_last)
        self.last_left[rows] = left
        over: IntArray = rows[(in_last & (left == 0)) | (comp & ~lr_start & ~in_last)]
        if over.size:
            self._hand_over(over)
        return over

    def _hand_over(self, rows: IntArray) -> None:
        if not self.rules.match or self.until_hand:
            self._game_over(rows, self.first[rows])
            return
        order = self.order[rows]
        done = order > 0
        self.wins[rows] += done
        finishers = done & (self.size[rows] == 1)
        ends = finishers.any(axis=1)
        if ends.any():
            ranked = np.where(finishers[ends], order[ends], np.iinfo(np.int64).max)
            self._game_over(rows[ends], np.argmin(ranked, axis=1).astype(np.int64))
        go = rows[~ends]
        if go.size:
            self.size[go] -= done[~ends]
            self.hands[go] += 1
            self.shuffles[go] += 1
            self.redeal(go)

    def _game_over(self, rows: IntArray, winners: IntArray) -> None:
        """Record finished games; their rows take the next games of the batch, or fall idle."""
        out, rid = self.out, self.rid[rows]
        out.table[0, rid] = winners
        out.table[1:, rid] = self.ints[RESULT_ROWS[:, None], rows]
        if self.track_done:
            out.done[rid] = self.comp[rows]
        more = min(rows.size, self.games - self.next_game)
        if more:
            self.fresh(rows[:more])
        idle = rows[more:]
        self.active[idle] = False
        self.held[idle] = DEAD
        self.n_active -= idle.size

    def run(self) -> None:
        """Play until every game of the batch is over."""
        steps = 0
        while self.n_active:
            self.step()
            steps += 1
            if self.next_game >= self.games and self.n_active < self.rows // 2:
                self.compact()
            if steps % 4096 == 0 and int((self.turn - self.turn0).max()) > MAX_TURNS:
                raise RuntimeError(f"a garbage hand did not end within {MAX_TURNS} turns")


FRESH_FLAGS = np.zeros((4, 1), dtype=bool)
FRESH_FLAGS[MERGED] = FRESH_FLAGS[ACTIVE] = True
RESULT_ROWS = np.array([TURN, HANDS, SHUFFLES])


# ---------------------------------------------------------------------------------------------- fresh deals
def _rules(players: int, wild: str, last_round: bool, match: bool) -> Rules:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in PACKS_BY_PLAYERS:
        raise InvalidInputError(f"players={players!r} is not allowed for garbage; it takes 1 to 6 players")
    if wild not in ("J", "K"):
        raise InvalidInputError(f"option wild={wild!r} is not allowed for garbage; accepted: 'J' or 'K'")
    return Rules(int(players), wild, bool(last_round), bool(match))


def _sizes(players: int, layout_sizes: Sequence[int] | None) -> IntArray:
    if layout_sizes is None:
        return np.full(players, MAX_SPOTS, dtype=np.int64)
    sizes = list(layout_sizes)
    if len(sizes) != players or any(isinstance(v, bool) or not isinstance(v, (int, np.integer))
                                    or not 1 <= v <= MAX_SPOTS for v in sizes):
        raise InvalidInputError(f"option layout_sizes={layout_sizes!r} is not allowed; give one size 1-10 for "
                                f"each of the {players} players")
    return np.array(sizes, dtype=np.int64)


def play_fresh(games: int, rng: np.random.Generator, players: int = 2, *, wild: str = "J",
               last_round: bool = False, layout_sizes: Sequence[int] | None = None, match: bool = False,
               chunk: int = CHUNK) -> Outcome:
    """Deal and play ``games`` Garbage games with greedy (whole matches with ``match=True``).

    At most ``chunk`` games are in the arrays at once; a row whose game ends takes the next one, so the
    memory used does not grow with ``games`` beyond the result arrays.
    """
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 0:
        raise InvalidInputError(f"games={games!r} is not allowed; give a whole number of games")
    rules = _rules(players, wild, last_round, match)
    out = _Out.empty(int(games), rules.players)
    rows = min(int(games), chunk)
    if rows:
        hands = _Hands(rows, rules, rng, out, until_hand=False, games=int(games),
                       sizes=_sizes(rules.players, layout_sizes), track_done=False)
        hands.next_game = 0
        hands.fresh(np.arange(rows, dtype=np.int64))
        hands.run()
    return out.outcome()


# ---------------------------------------------------------------------------------------------- given states
def supports(game: Any) -> bool:
    """Whether the fast path can play on from this game: any Garbage game, with any options."""
    return isinstance(game, Garbage)


def _rules_of(game: Garbage) -> Rules:
    o = game.options
    return Rules(game.players, o["wild"], bool(o["last_round"]), bool(o["match"]))


def _load(hands: _Hands, row: int, game: Garbage, exact: bool) -> None:
    """Copy one engine position into ``row``; ``exact`` keeps its real card order."""
    s = game.state
    if s.phase == "draw" and not s.stock and not game.is_over:
        raise InvalidInputError(f"{game} has an empty stock at the start of a turn, which the rules never leave "
                                "(the discard pile is reshuffled first); give a position reached by play")
    bits = bit_table(game.options["wild"])
    p = game.players
    hidden: list[int] = []
    for seat in range(p):
        up, wild = int(UP_START[s.sizes[seat]]), 0
        for i, (card, face_up) in enumerate(zip(s.spots[seat], s.up[seat], strict=True)):
            b = int(bits[int(card.rank)])
            if face_up:
                up |= 1 << i
                wild |= (1 << i) if b == WILD else 0
            else:
                hidden.append(b)
                hands.layout[row, seat * MAX_SPOTS + i] = b
        slot = (seat - s.to_move) % p
        hands.up[slot, row] = up
        hands.wild[slot, row] = wild
        hands.size[row, seat] = s.sizes[seat]
        hands.wins[row, seat] = s.wins[seat]
    stock = [int(bits[int(c.rank)]) for c in s.stock]
    discard = [int(bits[int(c.rank)]) for c in s.discard]
    known = exact or s.stock_known
    pool = hidden if known else hidden + stock
    if not exact:  # the chance law's view: unseen cards in a fixed order, never in the order they really lie
        pool = sorted(pool)
        stock = sorted(stock)
    if known:
        hands.stock[row, :len(stock)] = stock
    hands.pool[row, :len(pool)] = pool
    hands.pool_n[row] = len(pool)
    hands.stock_n[row] = len(stock)
    hands.merged[row] = not known
    hands.ordered[row] = exact
    hands.exact[row] = exact
    hands.disc[row, :len(discard)] = discard
    hands.dn[row] = len(discard)
    hands.top[row] = discard[-1] if discard else 0
    hands.held[row] = int(bits[int(s.held[0].rank)]) if s.held else 0
    hands.seat0[row] = s.to_move
    hands.turn[row] = hands.turn0[row] = s.turn
    hands.hands[row] = s.hand
    hands.shuffles[row] = s.shuffles
    hands.first[row] = s.completed[0] if s.completed else -1
    hands.n_done[row] = len(s.completed)
    for k, seat in enumerate(s.completed, start=1):
        hands.order[row, seat] = k
    hands.last_left[row] = len(s.last_turns)


def _final_winner(game: Garbage, until_hand: bool) -> int:
    s = game.state
    if until_hand and len(s.hand_winners) >= s.hand:
        return int(s.hand_winners[s.hand - 1][0])
    return -1 if game.winner is None else game.winner


def _play_group(games: Sequence[Garbage], copies: int, rng: np.random.Generator, exact: bool,
                until_hand: bool) -> Outcome:
    rules = _rules_of(games[0])
    n = len(games) * copies
    out = _Out.empty(n, rules.players)
    hands = _Hands(n, rules, rng, out, until_hand)
    for k, g in enumerate(games):
        _load(hands, k * copies, g, exact)
    if copies > 1:
        hands.repeat_first_row()
    hands.any_exact = exact
    over = np.repeat(np.array([g.is_over for g in games], dtype=bool), copies)
    if over.any():
        rows = np.flatnonzero(over)
        won = np.repeat(np.array([_final_winner(g, until_hand) for g in games], dtype=np.int64), copies)
        hands._game_over(rows, won[rows])
    hands.begin_turns(hands.active & (hands.held == 0))
    hands.run()
    return out.outcome()


def play_from(games: Sequence[Garbage], rng: np.random.Generator, *, until: Literal["hand", "game"] = "hand",
              resample: bool = False) -> Outcome:
    """Play each given Garbage game on with greedy, all at once, from whatever position it is in.

    Any phase ("draw", "wild", "displace") and any stock (as dealt, or reshuffled) is accepted. With
    ``resample=False`` the games' real cards are used where they lie, so only later reshuffles are new
    chance; with ``resample=True`` the cards nobody has seen are redealt, as ``game.resample(None, rng)``
    would. ``until="hand"`` stops at the end of the current hand (``winners`` is its first completer);
    ``until="game"`` plays a match on to its end. The games themselves are not changed.

    Returns an :class:`Outcome` with one entry per game, in order (``done`` has one column per seat
    of the largest game).
    """
    if until not in ("hand", "game"):
        raise InvalidInputError(f"until={until!r} is not allowed; accepted: 'hand' or 'game'")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={rng!r} is not a numpy.random.Generator")
    items = list(games)
    bad = [g for g in items if not isinstance(g, Garbage)]
    if bad:
        raise InvalidInputError(f"play_from plays Garbage games only; got {bad[0]!r}")
    groups: dict[Rules, list[int]] = {}
    for i, g in enumerate(items):
        groups.setdefault(_rules_of(g), []).append(i)
    out = _Out.empty(len(items), max((r.players for r in groups), default=1))
    for idx in groups.values():
        part = _play_group([items[i] for i in idx], 1, rng, not resample, until == "hand")
        out.table[:, idx] = np.stack(part[:4])
        out.done[idx, :part.done.shape[1]] = part.done
    return out.outcome()


def rollouts_from(game: Garbage, viewpoint: int | None, n: int,
                  rng: np.random.Generator) -> tuple[IntArray, IntArray]:
    """``n`` greedy play-outs of the current hand of ``game``, the unseen cards redealt for each.

    The resampling happens inside the arrays (each play-out draws the unseen cards from its own copy of
    the pool); no engine game is built. Garbage has no private cards, so every ``viewpoint`` sees the
    same table and gets the same answer; it is checked and accepted for a uniform interface.

    Returns ``(winners, done)``. ``winners``: shape ``(n,)``, the seat that completed first (-1: the
    hand was a draw). ``done``: shape ``(n, players)``, for each play-out and seat the number of that
    seat's own turns (a turn in progress now counts as its first) it took to complete its layout, or
    ``0`` (:data:`NOT_COMPLETED`) if it did not complete in this hand. The chance that ``seat``
    completes within its next ``k`` turns is the share of rows with ``1 <= done[:, seat] <= k``.
    """
    if not isinstance(game, Garbage):
        raise InvalidInputError(f"rollouts_from plays Garbage games only; got {game!r}")
    game.check_seat(viewpoint, "rollouts_from")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidInputError(f"n={n!r} is not allowed; give a positive whole number of play-outs")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={rng!r} is not a numpy.random.Generator")
    result = _play_group([game], int(n), rng, exact=False, until_hand=True)
    return result.winners, result.done
