"""What every game's compiled kernel shares: the optional numba, a seeded generator, and the chance law as arrays.

numba is optional
-----------------
numba is the ``fast`` extra (``pip install "cardlab[fast]"``; ``make lab``, ``make test`` and Binder
install it). :func:`jit` compiles a function with numba's ``njit`` (lazily, on its first call, cached
on disk); without numba it returns the function itself, so the very same kernel runs as plain Python
on the same numpy arrays, card for card, only much slower (:data:`HAVE_NUMBA` says which).

Randomness
----------
Every number a kernel draws comes from the one dealer, :mod:`cardlab.dealer` (SplitMix64, its ``below`` and
Fisher-Yates ``shuffle``, re-exported here): a fresh game's deal and every in-game shuffle from the streams of
the game's key, exactly as the engine deals the same game, and the ``random`` bot's moves from the key's play
stream. Nothing draws from a global generator.

Runs: seeds, policies, checks, failures, compiling
--------------------------------------------------
What every kernel's Python side does alike is written here once. **Seeds:** game ``i`` of a run with
seed ``s`` (a kernel's ``play_shard``) is the game whose key is :func:`~cardlab.dealer.game_key` ``(s, i)``
(:func:`~cardlab.dealer.game_state` computes it inside a kernel): the engine's ``new_game(name, seed=s,
index=i)``, card for card, and shards of any size give the same games. A play-out from a position takes its seed
from the caller's generator (:func:`seeds`), one per play-out. **Policies:** :func:`policy_codes` turns
the seats' policy names into the codes of :data:`POLICY_CODES` (every kernel plays ``greedy``, its
game's bot, and ``random``, uniform over the legal moves) and :func:`plays` says whether a kernel can
play them. **Checks:** :func:`check_playouts` refuses a play-out request the kernel cannot answer (the
wrong game, a seat that does not exist, no play-outs, no generator) with an
:class:`~cardlab.errors.InvalidInputError`. **Failures:** a broken invariant inside a compiled batch
comes back as a status and an index; the kernel replays that one game or play-out with its moves
recorded and :func:`kernel_failure` raises the bug report, a :class:`~cardlab.errors.KernelError`
naming the seed and every move. **Compiling:** :func:`compile_kernel` runs a few games and play-outs of
every entry point once, so numba compiles them (or loads them from its cache) before they are timed.

The chance law as arrays
------------------------
A game's chance law (:class:`cardlab.chance.law.ChanceLaw`) places hidden cards on hidden places
group by group, inner groups first, each card on a uniformly chosen free place of its group
(:meth:`ChanceLaw.draw <cardlab.chance.law.ChanceLaw.draw>` explains why that is uniform over the
valid assignments). :class:`LawArrays` flattens a law into int64 arrays and :func:`draw_law` makes the
same draw inside a kernel, from a SplitMix64 state: the law is stated once, in ``chance.py``, and
every kernel of such a law samples it through this one function (Shithead's law is of another kind:
see *Hidden hands read through their play*).

A mixture (:class:`cardlab.chance.law.MixedLaw`) becomes one :class:`LawArrays` too: the components'
groups one after another, ``comp_start`` saying which groups are component ``k``'s, and ``thresholds``
its cumulative weights in units of ``2**-62`` (exact Fractions rounded down; the last is ``2**62``).
:func:`draw_mixed` first picks component ``k`` for the draw, the first whose threshold exceeds the top
62 bits of one SplitMix64 output (so each component's chance is its weight up to the rounding, less than
``2**-62``), then draws that component's groups as :func:`draw_law` does. For a single law it draws
nothing for the component and is exactly :func:`draw_law` (the same numbers from the same state).

Hidden hands read through their play
------------------------------------
A :class:`cardlab.chance.hands_law.HandsLaw` (Shithead) is not uniform over assignments: each hidden hand
has weights over its *states* (how many of its cards lie in each class), and given the states the cards
are uniform. :class:`HandsArrays` flattens it into int64 arrays (the pool in its order, sorted by class,
with ``class_start`` marking each class's block; the hands' places; the free places; every hand's
states as rows of class counts with their cumulative thresholds) and :func:`draw_hands` makes the same
kind of draw as :meth:`HandsLaw.draw <cardlab.chance.hands_law.HandsLaw.draw>`, by rejection, from a
SplitMix64 state. Per try, each hand picks a state from its proposal ``W_p(x) prod_c falling(n_c,
x_c)`` (:meth:`HandsLaw.solo <cardlab.chance.hands_law.HandsLaw.solo>`): the first state whose threshold
exceeds the top 62 bits of one output, the thresholds being the exact cumulative weights in units of
``2**-62``, rounded down (the last is exactly ``2**62``), so each state's chance is its weight up to
less than ``2**-62``. With two or more hands the try is kept with chance ``prod_c falling(n_c, A_c) /
prod_p prod_c falling(n_c, x_pc)`` (:meth:`HandsLaw.accept <cardlab.chance.hands_law.HandsLaw.accept>`):
the kernel computes it as a float, the product over each class and hand of ``(n_c - t - i) / (n_c -
i)`` (``t`` cards of the class wanted by the earlier hands), and keeps the try when a uniform double
made of the top 53 bits of one output (``k / 2**53``) is below it. That is exact up to rounding of the
order of ``2**-53``: each of the ``f`` factors' division and product rounds by a relative ``2**-53`` at
most and the double's grid adds less than ``2**-53``, so the kept chance is off by at most about ``(2f
+ 1) 2**-53``; a keeping chance of exactly 1 (no two hands want one class) or 0 (a class is short of
cards) is computed exactly. Then the cards: hand by hand, class by class, a uniformly
chosen untaken card of the class (:func:`below`, swapped to the front of the class's untaken block of
the pool), the hand's cards shuffled onto its places (Fisher-Yates), and the rest of the pool, class by
class, shuffled onto the free places in order. Without hidden hands no state is drawn and the draw is
the one shuffle of the pool onto the free places.

A law whose states carry tags (a mixture: :class:`~cardlab.chance.hands_law.HandsLaw` notes, *Mixtures*)
has one block of rows per tag and hand (:meth:`HandsLaw.parts <cardlab.chance.hands_law.HandsLaw.parts>`),
and each try first picks the tag, the first whose cumulative threshold (the parts' exact weights in units
of ``2**-62``, rounded down; the last is exactly ``2**62``) exceeds the top 62 bits of one output; a law
with one part draws nothing for it, so an untagged law's draws are as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card
from cardlab.chance.hands_law import HandsLaw
from cardlab.chance.law import ChanceLaw, MixedLaw
from cardlab.dealer import (  # the one dealer's constants and Python generator, re-exported for the kernels
    CHOICES as CHOICES,
)
from cardlab.dealer import (
    DEAL as DEAL,
)
from cardlab.dealer import (
    GAMMA,
    LOW32,
    MIX1,
    MIX2,
    PLAY,
    STATE_SIZE,
    TWO32,
    U27,
    U30,
    U31,
    U32,
)
from cardlab.dealer import (
    MASK64 as MASK64,
)
from cardlab.dealer import (
    SplitMix64 as SplitMix64,
)
from cardlab.dealer import (
    game_key as game_key,
)
from cardlab.dealer import (
    run_seed as run_seed,
)
from cardlab.errors import InvalidInputError, KernelError, shown

IntArray = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])

numba: Any
try:
    import numba
except ImportError:  # the core install: kernels run as plain Python
    numba = None
HAVE_NUMBA = numba is not None
"""Whether the kernels are compiled by numba (the ``fast`` extra) or run as plain Python."""


def jit(fn: F) -> F:
    """numba's ``njit`` with an on-disk cache, compiled lazily on the first call; without numba, ``fn`` itself."""
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True)(fn))


def jit_inline(fn: F) -> F:
    """:func:`jit` for a small helper that numba inlines into every compiled caller (``inline="always"``,
    at numba's level: no call, no reference counting of array arguments); without numba, ``fn`` itself."""
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True, inline="always")(fn))


# ------------------------------------------------------------------------------------------ the one dealer, compiled
# :mod:`cardlab.dealer`'s generator and streams, number for number, for the kernels (tests/test_dealer.py).
@jit
def next_u64(state: Any) -> Any:
    """SplitMix64: step the counter ``state[0]`` (a ``uint64`` array) by the golden-ratio constant and mix it."""
    z = state[0] + GAMMA
    state[0] = z
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@jit
def below(state: Any, bound: int) -> Any:
    """A uniform integer in ``[0, bound)``, ``1 <= bound < 2**32`` (Lemire's method with rejection)."""
    b = np.uint64(bound)
    m = (next_u64(state) >> U32) * b
    low = m & LOW32
    if low < b:
        threshold = (TWO32 - b) % b
        while low < threshold:
            m = (next_u64(state) >> U32) * b
            low = m & LOW32
    return np.int64(m >> U32)


@jit
def shuffle(a: Any, m: int, state: Any) -> None:
    """Fisher-Yates on ``a[:m]`` in place."""
    for i in range(m - 1, 0, -1):
        j = below(state, i + 1)
        a[i], a[j] = a[j], a[i]


@jit
def game_state(base: Any, i: int, state: Any) -> None:
    """Set ``state[0]`` to output ``i`` of SplitMix64 seeded with ``base`` (its counter stepped ``i + 1``
    times, then mixed): game ``i``'s key in the run whose base (:func:`~cardlab.dealer.run_seed`) is ``base``,
    or stream ``i``'s seed of the key ``base`` (:func:`~cardlab.dealer.stream_seed`)."""
    state[0] = base + np.uint64(i) * GAMMA
    state[0] = next_u64(state)


@jit
def start_game(key: Any, state: Any) -> None:
    """Make ``state`` (:data:`~cardlab.dealer.STATE_SIZE` ``uint64``) the generator of the game with ``key``:
    ``state[1]`` the key, ``state[0]`` its :data:`~cardlab.dealer.PLAY` stream."""
    state[1] = key
    game_state(key, PLAY, state)


@jit
def set_stream(state: Any, stream: int) -> Any:
    """The scratch generator (``state[2:3]``) set to stream ``stream`` of the game's key ``state[1]``."""
    scratch = state[2:3]
    game_state(state[1], stream, scratch)
    return scratch


@jit
def deal_shuffle(a: Any, m: int, state: Any, stream: int) -> None:
    """Fisher-Yates on ``a[:m]`` from stream ``stream`` of the game's key: :data:`~cardlab.dealer.DEAL` for a
    deal, ``c + 1`` for in-game shuffle ``c`` (:meth:`~cardlab.dealer.Dealer.deal`,
    :meth:`~cardlab.dealer.Dealer.shuffle`)."""
    shuffle(a, m, set_stream(state, stream))


def kernel_state(key: int) -> npt.NDArray[np.uint64]:
    """A kernel's generator state (:func:`start_game`) for the game with ``key``, made in Python."""
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    with np.errstate(over="ignore"):
        start_game(np.uint64(key), state)
    return state


G = TypeVar("G")


def seeds(n: int, rng: np.random.Generator) -> npt.NDArray[np.uint64]:
    """``n`` 64-bit seeds from the caller's generator, one per game or play-out."""
    return rng.integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64, endpoint=True)


def new_state(seed: Any) -> npt.NDArray[np.uint64]:
    """A play-out's generator state (:data:`~cardlab.dealer.STATE_SIZE` ``uint64``) for ``seed``: its draws
    start from ``seed`` itself, and a shuffle inside the play-out takes its stream from ``seed`` as a game's
    key (:func:`~cardlab.dealer.deal_shuffle`)."""
    state = np.zeros(STATE_SIZE, dtype=np.uint64)
    state[0] = np.uint64(seed)
    state[1] = np.uint64(seed)
    return state


# ---------------------------------------------------------------------------------------------- runs
GREEDY, RANDOM = 0, 1
POLICY_CODES = {"greedy": GREEDY, "random": RANDOM}
"""The policies every kernel plays, by name, with their codes in the kernels' policy arrays."""


def plays(policies: object) -> bool:
    """True when ``policies`` is a list or tuple of built-in names a kernel plays (``"greedy"`` or
    ``"random"``, any mix)."""
    return isinstance(policies, (list, tuple)) and all(isinstance(p, str) and p in POLICY_CODES for p in policies)


def policy_codes(policies: Sequence[object], players: int, what: str, width: int | None = None) -> IntArray:
    """The seats' policy codes (:data:`POLICY_CODES`), padded with ``greedy`` up to ``width`` entries when
    given; a wrong number of seats or a policy no kernel plays is refused, naming ``what``."""
    if not plays(policies) or len(policies) != players:
        raise InvalidInputError(f"{what}: policies={shown(policies)} is not allowed; give one of 'greedy' or "
                                f"'random' per seat ({players} seats)")
    codes = [POLICY_CODES[str(p)] for p in policies]
    return np.array(codes + [GREEDY] * ((width or players) - players), dtype=np.int64)


def check_range(start: int, stop: int, what: str) -> tuple[int, int]:
    """Games ``start..stop-1`` of a run: whole numbers with ``0 <= start <= stop``, else refused."""
    whole = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (start, stop))
    if not whole or not 0 <= start <= stop:
        raise InvalidInputError(f"{what}: start={shown(start)}, stop={shown(stop)} is not a range of games; give "
                                "whole numbers 0 <= start <= stop")
    return int(start), int(stop)


def check_playouts(game: object, kind: type[G], viewpoint: object, n: object, rng: object, what: str) -> G:
    """Refuse a play-out request a kernel cannot answer: a game that is not a ``kind`` (the kernel's game
    class), a viewpoint that is not a seat of it (or ``None``, the table), a number of play-outs that is
    not a whole number >= 1, or an ``rng`` that is not a ``numpy.random.Generator``. Returns the game."""
    if not isinstance(game, kind):
        title = getattr(kind, "title", kind.__name__)
        raise InvalidInputError(f"{what}: the {title} kernel plays {title} games only, not "
                                f"{shown(getattr(game, 'name', game))}")
    players = int(getattr(game, "players", 0))
    if viewpoint is not None and (isinstance(viewpoint, bool) or not isinstance(viewpoint, (int, np.integer))
                                  or not 0 <= viewpoint < players):
        raise InvalidInputError(f"{what}: viewpoint={shown(viewpoint)} is not a seat of this game (0 to "
                                f"{players - 1}) or None for the table")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidInputError(f"{what}: n={shown(n)} is not allowed; give a whole number of play-outs, 1 or more")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"{what}: rng={shown(rng)} is not a numpy.random.Generator; pass "
                                "numpy.random.default_rng(seed)")
    return game


def kernel_failure(kernel: str, what: str, why: str, detail: str, seed: int,
                   replay: Callable[[], Sequence[str]]) -> KernelError:
    """The bug report of a broken invariant: ``replay`` plays the failing game or play-out again with its
    moves recorded and returns their texts; the error names the kernel, the entry point ``what``, what
    broke, where (``detail``), the seed and every move."""
    with np.errstate(over="ignore"):  # SplitMix64 wraps around on purpose (plain Python mode)
        moves = list(replay())
    return KernelError(f"{kernel} kernel, {what}: {why} ({detail}, seed {seed}); moves: "
                       f"{', '.join(moves) or 'none'}")


def compile_kernel(name: str, play_shard: Callable[..., object],
                   playouts: Sequence[Callable[[Any, np.random.Generator], object]]) -> float:
    """Compile a kernel now (or load it from numba's cache): ``play_shard`` for two games with a greedy
    and a random seat, then each of ``playouts`` (a function of a game and a generator) from a fresh game
    of ``name``. Returns the seconds taken."""
    from cardlab.engine.registry import new_game  # the registry imports the games, which import this module

    start = time.perf_counter()
    game = new_game(name, seed=0)
    play_shard(2, game.options, 0, 0, 2, ("greedy", "random"))
    for run in playouts:
        run(game, np.random.default_rng(0))
    return time.perf_counter() - start


# ---------------------------------------------------------------------------------------------- chance law
@dataclass(frozen=True)
class LawArrays:
    """A :class:`~cardlab.chance.law.ChanceLaw` (or a :class:`~cardlab.chance.law.MixedLaw`) as arrays a
    kernel reads.

    Group ``g`` may use the places ``places[place_start[g]:place_start[g + 1]]`` (indices into the law's
    ``names``, in the law's order) and holds the cards ``cards[card_start[g]:card_start[g + 1]]``, encoded
    by the kernel's own card code. Component ``k`` of a mixture is the groups ``comp_start[k]`` to
    ``comp_start[k + 1] - 1``, drawn with chance ``(thresholds[k] - thresholds[k - 1]) / 2**62`` (a single
    law is one component). ``whole`` is 1 when the law is a single group covering every place (then a
    draw is one Fisher-Yates shuffle of the cards onto the places, in order).
    """

    places: IntArray
    place_start: IntArray
    cards: IntArray
    card_start: IntArray
    size: int
    whole: int
    comp_start: IntArray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    thresholds: IntArray = field(default_factory=lambda: np.full(1, 1 << 62, dtype=np.int64))

    @classmethod
    def of(cls, law: ChanceLaw | MixedLaw, encode: Callable[[Card], int] = lambda c: c.id) -> LawArrays:
        parts = law.components
        groups = [g for _, comp in parts for g in comp.groups]
        places = [q for g in groups for q in g.places]
        cards = [encode(c) for g in groups for c in g.cards]
        place_start = np.cumsum([0] + [len(g.places) for g in groups]).astype(np.int64)
        card_start = np.cumsum([0] + [len(g.cards) for g in groups]).astype(np.int64)
        comp_start = np.cumsum([0] + [len(comp.groups) for _, comp in parts]).astype(np.int64)
        total = Fraction(0)
        thresholds = []
        for w, _ in parts:
            total += w
            thresholds.append(int(total * (1 << 62)))  # rounded down; the last is exactly 2**62
        n = len(law.names)
        whole = int(len(groups) == 1 and groups[0].places == tuple(range(n)))
        return cls(np.array(places, dtype=np.int64), place_start, np.array(cards, dtype=np.int64),
                   card_start, n, whole, comp_start, np.array(thresholds, dtype=np.int64))

    def draw(self, state: Any, out: IntArray) -> int:
        """One draw into ``out`` (``size`` entries: the card code on each place), from a SplitMix64 state;
        returns the component drawn (0 for a single law)."""
        return int(draw_mixed(self.places, self.place_start, self.cards, self.card_start, self.comp_start,
                              self.thresholds, self.size, self.whole, state, out,
                              np.empty(max(self.size, 1), dtype=np.int64)))


@jit_inline
def _place_on_free(places: Any, place_start: Any, g: int, src: Any, first: int, stop: int, state: Any, out: Any,
                   pool: Any) -> None:
    """``src[first:stop]`` in order, each on a uniformly chosen place of group ``g`` still free (``out`` is
    -1 there); the last free place takes the chosen one's slot in the pool."""
    m = 0
    for i in range(place_start[g], place_start[g + 1]):
        q = places[i]
        if out[q] < 0:
            pool[m] = q
            m += 1
    for k in range(first, stop):
        pick = below(state, m)
        out[pool[pick]] = src[k]
        pool[pick] = pool[m - 1]
        m -= 1


@jit_inline
def _draw_groups(places: Any, place_start: Any, cards: Any, card_start: Any, first: int, stop: int, state: Any,
                 out: Any, pool: Any) -> None:
    """Groups ``first`` to ``stop - 1`` in order, each group's cards on its free places."""
    for g in range(first, stop):
        _place_on_free(places, place_start, g, cards, card_start[g], card_start[g + 1], state, out, pool)


@jit_inline
def _pick_component(comp_start: Any, thresholds: Any, state: Any) -> Any:
    """A mixture's component: the first ``k`` whose ``thresholds[k]`` exceeds the top 62 bits of one
    SplitMix64 output (nothing drawn, 0, for a single law)."""
    n_comp = comp_start.shape[0] - 1
    k = 0
    if n_comp > 1:
        u = np.int64(next_u64(state) >> U2)
        while k < n_comp - 1 and u >= thresholds[k]:
            k += 1
    return k


@jit
def draw_law(places: Any, place_start: Any, cards: Any, card_start: Any, size: int, whole: int, state: Any,
             out: Any, pool: Any) -> None:
    """Fill ``out[:size]`` with one assignment of the law's cards to its places (``pool``: scratch of ``size``).

    Group by group (inner groups first), card by card: the card goes to a uniformly chosen place among
    the group's places still free; the last free place takes the chosen one's slot in the pool. When
    one group covers every place, the cards are shuffled onto the places in order.
    """
    for q in range(size):
        out[q] = -1
    if size == 0:
        return
    if whole == 1:
        for q in range(size):
            out[q] = cards[q]
        shuffle(out, size, state)
        return
    _draw_groups(places, place_start, cards, card_start, 0, place_start.shape[0] - 1, state, out, pool)


@jit
def draw_mixed(places: Any, place_start: Any, cards: Any, card_start: Any, comp_start: Any, thresholds: Any,
               size: int, whole: int, state: Any, out: Any, pool: Any) -> Any:
    """:func:`draw_law` for a law that may be a mixture: with more than one component, pick component
    ``k`` (the first whose ``thresholds[k]`` exceeds the top 62 bits of one SplitMix64 output), then draw
    its groups. Returns ``k``. A single law draws exactly as :func:`draw_law`."""
    if comp_start.shape[0] <= 2:
        draw_law(places, place_start, cards, card_start, size, whole, state, out, pool)
        return 0
    k = _pick_component(comp_start, thresholds, state)
    for q in range(size):
        out[q] = -1
    if size > 0:
        _draw_groups(places, place_start, cards, card_start, comp_start[k], comp_start[k + 1], state, out, pool)
    return k


# ---------------------------------------------------------------------------------------------- hands law
U2 = np.uint64(2)
U11 = np.uint64(11)
TWO_M53 = 1.0 / (1 << 53)


@dataclass(frozen=True)
class HandsArrays:
    """A :class:`~cardlab.chance.hands_law.HandsLaw` as arrays a kernel reads (module notes).

    ``cards``: the pool in the law's order (sorted by class), encoded by the kernel's own card code;
    class ``c``'s cards are ``cards[class_start[c]:class_start[c + 1]]``. Hidden hand ``h`` has the places
    ``hand_places[hand_start[h]:hand_start[h + 1]]`` and the states ``states[state_start[h]:state_start[h +
    1]]`` (rows of class counts, the states of :meth:`HandsLaw.solo
    <cardlab.chance.hands_law.HandsLaw.solo>` in its order), state ``r`` proposed with chance ``(thresholds[r]
    - thresholds[r - 1]) / 2**62`` (from 0 at each hand's first state). ``free``: the other places, in
    order. ``size``: how many places. With tags (module notes), ``part_thresholds`` holds the cumulative
    chance of each part (tag) in units of ``2**-62``, and the states of hand ``h`` in part ``k`` are the block
    ``k * hands + h`` of ``state_start``; one part (``[2**62]``) otherwise.
    """

    cards: IntArray
    class_start: IntArray
    hand_places: IntArray
    hand_start: IntArray
    free: IntArray
    states: IntArray
    state_start: IntArray
    thresholds: IntArray
    size: int
    part_thresholds: IntArray

    @classmethod
    def of(cls, law: HandsLaw, encode: Callable[[Card], int] = lambda c: c.id) -> HandsArrays:
        parts = law.parts()  # never empty, nor a hand's proposal in a part: HandsLaw refuses such a law
        solo = [props for _, hands in parts for props in hands]
        counts = law.counts
        class_start = np.cumsum([0, *counts]).astype(np.int64)
        thresholds: list[int] = []
        for props in solo:
            total = sum(w for _, w in props)
            run = 0
            for _, w in props:
                run += w
                thresholds.append(run * (1 << 62) // total)  # rounded down; the last is exactly 2**62
        whole = sum(w for w, _ in parts)
        part_thresholds: list[int] = []
        run = 0
        for w, _ in parts:
            run += w
            part_thresholds.append(run * (1 << 62) // whole)  # rounded down; the last is exactly 2**62
        states = np.array([s for props in solo for s, _ in props], dtype=np.int64).reshape(-1, law.n_classes)
        return cls(np.array([encode(c) for c in law.cards], dtype=np.int64), class_start,
                   np.array([q for h in law.hands for q in h], dtype=np.int64),
                   np.cumsum([0] + [len(h) for h in law.hands]).astype(np.int64),
                   np.array(law.free, dtype=np.int64), states,
                   np.cumsum([0] + [len(props) for props in solo]).astype(np.int64),
                   np.array(thresholds, dtype=np.int64), len(law.names),
                   np.array(part_thresholds, dtype=np.int64))

    def work(self) -> IntArray:
        """Scratch for :func:`draw_hands`: twice the places, one per class, one per hidden hand."""
        return np.zeros(2 * self.size + self.class_start.shape[0] + self.hand_start.shape[0] - 2, dtype=np.int64)

    def draw(self, state: Any, out: IntArray) -> int:
        """One draw into ``out`` (``size`` entries: the card code on each place), from a SplitMix64 state;
        returns the number of tries it took (1 with fewer than two hidden hands)."""
        return int(draw_hands(self.cards, self.class_start, self.hand_places, self.hand_start, self.free,
                              self.states, self.state_start, self.thresholds, self.size, state, out, self.work(),
                              self.part_thresholds))


@jit
def draw_hands(cards: Any, class_start: Any, hand_places: Any, hand_start: Any, free: Any, states: Any,
               state_start: Any, thresholds: Any, size: int, state: Any, out: Any, work: Any,
               part_thresholds: Any) -> Any:
    """Fill ``out[:size]`` with one draw of a hands law (:class:`HandsArrays`; ``work``: its scratch).
    Returns the number of tries.

    Per try, with more than one part (tags), the part ``k``: the first whose ``part_thresholds`` entry
    exceeds the top 62 bits of one output. Then each hand's state in the part's blocks: the first row whose
    threshold exceeds the top 62 bits of one output (found by bisection).
    With two or more hands, the try is kept when a uniform double ``k / 2**53`` (the top 53 bits of one
    output) is below the keeping chance, the product over classes and hands of ``(n - t - i) / (n - i)``
    for ``i`` below the hand's count (``n`` cards in the class, ``t`` of them wanted by earlier hands):
    ``prod_c falling(n_c, A_c) / prod_p prod_c falling(n_c, x_pc)``. Then, hand by hand and class by
    class, each card a uniformly chosen untaken card of its class (swapped to the front of the class's
    untaken block of the pool), the hand's cards shuffled onto its places, and the rest of the pool
    shuffled onto the free places in order.
    """
    n_classes = class_start.shape[0] - 1
    m = hand_start.shape[0] - 1
    deck = work[:size]
    mine = work[size:2 * size]
    pos = work[2 * size:2 * size + n_classes]
    pick = work[2 * size + n_classes:2 * size + n_classes + m]
    tries = 0
    n_parts = part_thresholds.shape[0]
    while True:
        tries += 1
        k = 0
        if n_parts > 1:
            u = np.int64(next_u64(state) >> U2)
            while k < n_parts - 1 and u >= part_thresholds[k]:
                k += 1
        for h in range(m):
            u = np.int64(next_u64(state) >> U2)
            lo = state_start[k * m + h]
            hi = state_start[k * m + h + 1] - 1  # its threshold is 2**62: it exceeds u
            while lo < hi:  # the first row whose threshold exceeds u (thresholds never decrease)
                mid = (lo + hi) // 2
                if thresholds[mid] > u:
                    hi = mid
                else:
                    lo = mid + 1
            pick[h] = lo
        if m < 2:
            break
        keep = 1.0
        for c in range(n_classes):
            n = class_start[c + 1] - class_start[c]
            t = 0
            for h in range(m):
                x = states[pick[h], c]
                for i in range(x):
                    keep *= (n - t - i) / (n - i)
                t += x
        if np.float64(next_u64(state) >> U11) * TWO_M53 < keep:
            break
    for i in range(size):
        deck[i] = cards[i]
    for c in range(n_classes):
        pos[c] = class_start[c]
    for h in range(m):
        k = 0
        for c in range(n_classes):
            for _ in range(states[pick[h], c]):
                j = pos[c] + below(state, class_start[c + 1] - pos[c])
                t = deck[pos[c]]
                deck[pos[c]] = deck[j]
                deck[j] = t
                mine[k] = deck[pos[c]]
                pos[c] += 1
                k += 1
        shuffle(mine, k, state)
        for i in range(k):
            out[hand_places[hand_start[h] + i]] = mine[i]
    k = 0
    for c in range(n_classes):
        for i in range(pos[c], class_start[c + 1]):
            mine[k] = deck[i]
            k += 1
    shuffle(mine, k, state)
    for i in range(k):
        out[free[i]] = mine[i]
    return tries
