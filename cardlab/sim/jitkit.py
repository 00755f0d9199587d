"""What every game's compiled kernel shares: the optional numba, a seeded generator, and the chance law as arrays.

numba is optional
-----------------
numba is the ``fast`` extra (``pip install "cardlab[fast]"``; ``make lab``, ``make test`` and Binder
install it). :func:`jit` compiles a function with numba's ``njit`` (lazily, on its first call, cached
on disk); without numba it returns the function itself, so the very same kernel runs as plain Python
on the same numpy arrays, card for card, only much slower (:data:`HAVE_NUMBA` says which).

Randomness
----------
A kernel call receives 64-bit seeds drawn by the caller from its ``numpy.random.Generator`` (one per
game or play-out) and draws its numbers from **SplitMix64** seeded with them (Steele, Lea and Flood
2014: a 64-bit counter stepped by the golden-ratio odd constant, then mixed; it passes BigCrush).
:func:`below` returns a uniform integer in ``[0, b)`` for ``1 <= b < 2**32``: it takes the high 32 bits
``x`` of one output and returns ``(x * b) >> 32``, rejecting the ``2**32 mod b`` values of
``x * b mod 2**32`` that would make some results one count more likely (Lemire 2019), so every value
has probability exactly ``1/b``. :func:`shuffle` is Fisher-Yates (position ``i`` from the top down
swaps with a uniform position ``<= i``): each of the ``m!`` orders has probability ``1/m!``. Nothing
draws from a global generator. :class:`SplitMix64` is the same generator in Python, for tests that
replay a kernel's choices.

The chance law as arrays
------------------------
A game's chance law (:class:`cardlab.sim.chance.ChanceLaw`) places hidden cards on hidden places
group by group, inner groups first, each card on a uniformly chosen free place of its group
(:meth:`ChanceLaw.draw <cardlab.sim.chance.ChanceLaw.draw>` explains why that is uniform over the
valid assignments). :class:`LawArrays` flattens a law into int64 arrays and :func:`draw_law` makes the
same draw inside a kernel, from a SplitMix64 state: the law is stated once, in ``chance.py``, and
every kernel samples it through this one function.

A mixture (:class:`cardlab.sim.chance.MixedLaw`) becomes one :class:`LawArrays` too: the components'
groups one after another, ``comp_start`` saying which groups are component ``k``'s, and ``thresholds``
its cumulative weights in units of ``2**-62`` (exact Fractions rounded down; the last is ``2**62``).
:func:`draw_mixed` first picks component ``k`` for the draw, the first whose threshold exceeds the top
62 bits of one SplitMix64 output (so each component's chance is its weight up to the rounding, less than
``2**-62``), then draws that component's groups as :func:`draw_law` does. For a single law it draws
nothing for the component and is exactly :func:`draw_law` (the same numbers from the same state).

A group may limit some of its places to a prefix of its cards (a chain, see :mod:`cardlab.sim.chance`):
``lim_places[lim_start[g]:lim_start[g + 1]]`` are group ``g``'s limited places, shortest prefix first,
each limited to the first ``lim_len[i]`` cards of its group. :func:`draw_limited` draws such a law (or
a mixture of them): each group fills its limited places first, the ``i``-th with the card at a uniform
position in ``[i, L_i)`` of the group's card pool (taken cards stay at the front, so every prefix's
untaken cards stay inside it), then places its other cards as :func:`draw_law` does. A law without
limits it draws exactly as :func:`draw_mixed` (the same numbers from the same state).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card
from cardlab.errors import InvalidInputError
from cardlab.sim.chance import ChanceLaw, MixedLaw

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


# ---------------------------------------------------------------------------------------------- SplitMix64
GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U27, U30, U31, U32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
U2 = np.uint64(2)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
MASK64 = (1 << 64) - 1


@jit
def next_u64(state: Any) -> Any:
    """SplitMix64: step the counter ``state[0]`` (a ``uint64`` array of one) by the golden-ratio constant and mix it."""
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


class SplitMix64:
    """The kernels' generator in Python: the same numbers as :func:`next_u64`, :func:`below`, :func:`shuffle`."""

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
        """A uniform integer in ``[0, bound)``: the kernels' :func:`below`."""
        if not 1 <= bound < 1 << 32:
            raise InvalidInputError(f"SplitMix64.below: bound={bound!r} is not allowed; give 1 to 2**32 - 1")
        m = (self.next() >> 32) * bound
        if m & 0xFFFFFFFF < bound:
            threshold = ((1 << 32) - bound) % bound
            while m & 0xFFFFFFFF < threshold:
                m = (self.next() >> 32) * bound
        return m >> 32

    def permute(self, n: int) -> list[int]:
        """A permutation of ``range(n)`` by the kernels' Fisher-Yates: ``[a[i] for i in permute(n)]`` is
        the order the in-place :func:`shuffle` gives ``a``."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


def seeds(n: int, rng: np.random.Generator) -> npt.NDArray[np.uint64]:
    """``n`` 64-bit seeds from the caller's generator, one per game or play-out."""
    return rng.integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64, endpoint=True)


def new_state(seed: Any) -> npt.NDArray[np.uint64]:
    """A SplitMix64 state (a ``uint64`` array of one) for ``seed``."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    return state


# ---------------------------------------------------------------------------------------------- chance law
@dataclass(frozen=True)
class LawArrays:
    """A :class:`~cardlab.sim.chance.ChanceLaw` (or a :class:`~cardlab.sim.chance.MixedLaw`) as arrays a
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
    lim_places: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    lim_len: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    lim_start: IntArray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

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
        order = [lims for _, comp in parts for lims in comp.limit_order]
        whole = int(len(groups) == 1 and not order[0] and groups[0].places == tuple(range(n)))
        lim_places = np.array([q for lims in order for q, _ in lims], dtype=np.int64)
        lim_len = np.array([length for lims in order for _, length in lims], dtype=np.int64)
        lim_start = np.cumsum([0] + [len(lims) for lims in order]).astype(np.int64)
        return cls(np.array(places, dtype=np.int64), place_start, np.array(cards, dtype=np.int64),
                   card_start, n, whole, comp_start, np.array(thresholds, dtype=np.int64), lim_places, lim_len,
                   lim_start)

    @property
    def limited(self) -> bool:
        """Whether some group limits places (then only :func:`draw_limited` draws the law right)."""
        return bool(self.lim_places.shape[0])

    def draw(self, state: Any, out: IntArray) -> int:
        """One draw into ``out`` (``size`` entries: the card code on each place), from a SplitMix64 state;
        returns the component drawn (0 for a single law)."""
        if self.limited:
            return int(draw_limited(self.places, self.place_start, self.cards, self.card_start, self.comp_start,
                                    self.thresholds, self.lim_places, self.lim_len, self.lim_start, self.size,
                                    self.whole, state, out, np.empty(max(self.size, 1), dtype=np.int64),
                                    np.empty(max(self.size, 1), dtype=np.int64)))
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


@jit
def draw_limited(places: Any, place_start: Any, cards: Any, card_start: Any, comp_start: Any, thresholds: Any,
                 lim_places: Any, lim_len: Any, lim_start: Any, size: int, whole: int, state: Any, out: Any,
                 pool: Any, deck: Any) -> Any:
    """:func:`draw_mixed` for a law whose groups may limit places to a prefix of their cards (``deck``:
    scratch of ``size``). After the component is picked, group by group: copy its cards into ``deck``;
    the ``i``-th limited place (shortest prefix first) swaps a uniform position of ``[i, L_i)`` to
    position ``i`` and takes that card; the group's other cards (``deck[m:]``) then each go to a
    uniformly chosen free place of the group. Returns the component. With no limits at all this is
    :func:`draw_mixed` itself."""
    if lim_places.shape[0] == 0:
        return draw_mixed(places, place_start, cards, card_start, comp_start, thresholds, size, whole, state, out,
                          pool)
    k = _pick_component(comp_start, thresholds, state)
    for q in range(size):
        out[q] = -1
    for g in range(comp_start[k], comp_start[k + 1]):
        c0 = card_start[g]
        n = card_start[g + 1] - c0
        for i in range(n):
            deck[i] = cards[c0 + i]
        first = lim_start[g]
        m = lim_start[g + 1] - first
        for i in range(m):
            j = i + below(state, lim_len[first + i] - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
            out[lim_places[first + i]] = deck[i]
        _place_on_free(places, place_start, g, deck, m, n, state, out, pool)
    return k
