"""A chance law for hidden hands read through their play: weights over the class counts of each hand.

Some games learn about a hidden hand from *how* it plays, not only from which cards it shows: in
Shithead a player who can play must play a card that fits, so a hand that played often keeps the
cards that did not fit (:mod:`cardlab.games.shithead.beliefs`). What such a viewer knows is, per hidden
hand, a weight for each **state**: how many of the hand's unseen cards lie in each *class* of cards (a
public function of the face, such as the rank). :class:`HandsLaw` turns those weights into the law of
the hidden cards.

The law
-------
The hidden cards (the viewer's *pool*) lie on the hidden places: each hidden hand's places, and the
*free* places (face-down cards, a draw pile). A joint choice of states ``x_1, ..., x_m`` for the ``m``
hidden hands has weight ``W_1(x_1) ... W_m(x_m)`` times the number of ways to give the hands physical
cards of those classes, ``prod_c n_c (n_c - 1) ... (n_c - A_c + 1)`` (a falling factorial: ``n_c``
cards of class ``c`` in the pool, ``A_c`` of them wanted by all the hands together). Given the states,
each hand holds a uniformly random set of cards of its classes, in a uniformly random order on its
places, and the rest of the pool lies uniformly on the free places. So every card of class ``c`` is in
some hand with chance ``E[A_c] / n_c``, and otherwise on each free place alike.

Exact answers
-------------
With one hidden hand the marginal of its state is ``W(x) prod_c falling(n_c, x_c)``, normalised. With
two, the joint couples the hands only through the falling factorials; writing ``falling(n, a + b) =
falling(n, b) falling(n - b, a)`` and expanding ``falling(n_c - b_c, a_c)`` as a polynomial of degree
``a_c`` in ``b_c``, hand 1's marginal needs, from hand 2, only the moments of degree at most the size
of hand 1 of its counts (under ``W_2(x_2) prod_c falling(n_c, b_c)``): a few thousand whole-number
operations instead of one per pair of states. Everything is whole numbers and fractions: the answers
are exact. With three or more hidden hands the law is still the law (and is sampled exactly), but
its exact answers are not computed (:attr:`HandsLaw.exact` is False): estimate them from draws.

Mixtures (tagged states)
------------------------
Some evidence couples the hands: in Shithead with ``first="lowest3"`` who starts depends on every hand
at once. When it is a sum over a **tag** ``k`` of products of per-hand factors, each hand keeps a weight
per state *and tag* (a state then carries its tag as one more entry after the class counts), and the joint
weight is ``sum_k c_k prod_p W_p(x_p, k)`` times the pool count, ``c_k`` (:attr:`HandsLaw.components`,
whole numbers) being what the viewer knows of tag ``k`` outside the hidden hands (a hand with no hidden
place left, the viewer's own hand). That is a mixture over ``k`` of the product-form laws above, with
unnormalised weights: every exact answer is the sum over ``k`` of the component's unnormalised answer (a
hand's marginal weights add up: the moment expansion is linear in each hand's weights), then normalised
once. Without tags (``components`` empty) the law is the one above.

Draws
-----
:meth:`HandsLaw.draw` samples the law exactly by rejection: each hand's state from its law alone
(``W_p(x) prod_c falling(n_c, x_c)``), accepted with chance ``prod_c falling(n_c, A_c) / prod_p prod_c
falling(n_c, x_pc)`` (at most 1: cards that two hands want from one class can collide), which makes the
accepted states follow the joint; then the cards. With tags, each try first picks a tag ``k`` with chance
proportional to ``c_k prod_p Z_pk`` (``Z_pk``: the total of hand ``p``'s proposal weights of tag ``k``), then
each hand's state of that tag from its proposal: a try proposes ``(k, x)`` with chance proportional to
``c_k prod_p W_p(x_p, k) falling(n, x_p)``, and the same keeping chance makes the kept tries follow the
mixture exactly. Every choice depends on the viewer's knowledge and the
generator alone (the pool is listed by class, then in the canonical order), so two games a viewer
cannot tell apart give the same draws. The kernels make the same draw from their own generator
(:class:`cardlab.chance.jitkit.HandsArrays`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import prod
from typing import TypeVar

import numpy as np

from cardlab.cards import Card, face_of
from cardlab.errors import CorruptRecordError, InvalidInputError

StateWeights = tuple[tuple[tuple[int, ...], int], ...]
"""One hand's states (a count per class, then its tag if the law has tags), each with its whole weight."""
Weights = dict[tuple[int, ...], int]
"""One hand's whole weight per state."""
Term = tuple[int, list[Weights], tuple[StateWeights, ...]]
"""One term of the mixture: ``c_k``, each hand's weights of tag ``k`` and each hand's proposal of that tag."""
Part = tuple[int, tuple[StateWeights, ...]]
"""What a draw proposes from for one tag: its weight, then each hand's proposal."""
T = TypeVar("T")


def falling(n: int, k: int) -> int:
    """``n (n - 1) ... (n - k + 1)``: ways to take ``k`` of ``n`` distinct cards in order (0 if ``k > n``)."""
    out = 1
    for i in range(k):
        out *= n - i
    return out if out > 0 or k == 0 else 0


Monomial = tuple[tuple[int, int], ...]
"""A product of powers of class counts: ``((class, power), ...)`` by class, powers >= 1."""


def _falling_poly(n: int, a: int) -> list[int]:
    """``falling(n - b, a)`` as a polynomial in ``b``: its coefficients from ``b**0`` up."""
    poly = [1]
    for i in range(a):
        # multiply by (n - i - b)
        nxt = [0] * (len(poly) + 1)
        for k, c in enumerate(poly):
            nxt[k] += c * (n - i)
            nxt[k + 1] -= c
        poly = nxt
    return poly


def _moments(weights: Weights, degree: int) -> dict[Monomial, int]:
    """Sum over states of weight times each monomial of the state's counts, every monomial of total
    degree at most ``degree`` (the empty monomial is the total weight)."""
    out: dict[Monomial, int] = {}
    for state, w in weights.items():
        support = [c for c, k in enumerate(state) if k]
        for mono in _monomials(support, degree):
            out[mono] = out.get(mono, 0) + w * prod(state[c] ** p for c, p in mono)
    return out


def _monomials(support: Sequence[int], degree: int) -> list[Monomial]:
    out: list[Monomial] = [()]
    for c in support:
        more: list[Monomial] = []
        for mono in out:
            used = sum(p for _, p in mono)
            for p in range(1, degree - used + 1):
                more.append((*mono, (c, p)))
        out += more
    return out


def _coupled(weights: Weights, other: dict[Monomial, int],
             n: Sequence[int]) -> Weights:
    """For each state ``x`` of one hand: ``W(x)`` times the sum over the other hand's states ``y`` of
    ``V(y) prod_c falling(n_c - y_c, x_c)``, from ``other``, the moments of ``V``."""
    out: Weights = {}
    for state, w in weights.items():
        terms: dict[Monomial, int] = {(): 1}
        for c, a in enumerate(state):
            if not a:
                continue
            poly = _falling_poly(n[c], a)
            nxt: dict[Monomial, int] = {}
            for mono, coef in terms.items():
                for p, pc in enumerate(poly):
                    if pc:
                        key = (*mono, (c, p)) if p else mono
                        nxt[key] = nxt.get(key, 0) + coef * pc
            terms = nxt
        total = sum(coef * other.get(mono, 0) for mono, coef in terms.items())
        if total:
            out[state] = w * total
    return out


def _pick(weighted: Sequence[tuple[T, int]], rng: np.random.Generator) -> T:
    """One item, with chance proportional to its whole weight: the first whose running total exceeds one
    ``rng.random()`` times the total."""
    total = sum(w for _, w in weighted)
    u = Fraction(float(rng.random())) * total
    run = 0
    for item, w in weighted:
        run += w
        if u < run:
            return item
    return weighted[-1][0]


@dataclass(frozen=True)
class HandsLaw:
    """The law of the hidden cards given weights over the class counts of each hidden hand (module notes).

    ``names``: each hidden place's public name; ``cards``: the pool, sorted by class (then in the
    canonical order); ``classes``: each card's class (non-decreasing along ``cards``), out of
    ``n_classes``; ``hands``: each hidden hand's places (a hand with no hidden place is left out);
    ``beliefs``: for each of those hands, its states (a count per class, adding up to its number of
    places) with positive whole weights. The other places are free. ``components`` (module notes:
    *Mixtures*): empty, or the weight ``c_k >= 0`` of each tag ``k``; then every state is its class counts
    followed by its tag.
    """

    names: tuple[str, ...]
    cards: tuple[Card, ...]
    classes: tuple[int, ...]
    n_classes: int
    hands: tuple[tuple[int, ...], ...]
    beliefs: tuple[StateWeights, ...]
    components: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.names)
        if len(self.cards) != n or len(self.classes) != n or list(self.classes) != sorted(self.classes) or \
                any(not 0 <= c < self.n_classes for c in self.classes):
            raise CorruptRecordError(f"a hands law needs one card per hidden place ({n}), sorted by class")
        if len(self.hands) != len(self.beliefs):
            raise CorruptRecordError("a hands law needs one belief per hidden hand")
        seen: set[int] = set()
        for places, belief in zip(self.hands, self.beliefs, strict=True):
            if not places or any(q in seen or not 0 <= q < n for q in places) or not belief:
                raise CorruptRecordError("a hands law's hands need distinct places and a non-empty belief")
            seen.update(places)
            size = self.n_classes + bool(self.components)
            if any(len(s) != size or sum(s[:self.n_classes]) != len(places) or w <= 0 for s, w in belief) or \
                    len({s for s, _ in belief}) != len(belief) or \
                    any(not 0 <= s[-1] < len(self.components) for s, _ in belief if self.components):
                raise CorruptRecordError("a hands law's states must be distinct, count each class and add up to "
                                         "the hand's places (then a tag, if the law has components), with "
                                         "positive weights")
        if any(c < 0 for c in self.components):
            raise CorruptRecordError("a hands law's component weights must be whole numbers >= 0")
        if not self.parts():
            raise CorruptRecordError("a hands law with a hand that no state lets the pool deal")

    # ------------------------------------------------------------------ structure
    @property
    def counts(self) -> tuple[int, ...]:
        """How many pool cards lie in each class."""
        out = [0] * self.n_classes
        for c in self.classes:
            out[c] += 1
        return tuple(out)

    @property
    def free(self) -> tuple[int, ...]:
        """The places of no hidden hand, in order."""
        taken = {q for h in self.hands for q in h}
        return tuple(q for q in range(len(self.names)) if q not in taken)

    @property
    def exact(self) -> bool:
        """Whether the exact answers are computed: at most two hidden hands hold unseen cards."""
        return len(self.hands) <= 2

    def faces(self) -> list[Card]:
        """The hidden cards by face, in canonical order."""
        return sorted((face_of(c) for c in self.cards), key=lambda c: (int(c.rank), int(c.suit)))

    # ------------------------------------------------------------------ exact answers
    def _need_exact(self, what: str) -> None:
        if not self.exact:
            raise InvalidInputError(f"HandsLaw.{what}: the exact answer is computed for at most two hidden hands "
                                    f"with unseen cards; this law has {len(self.hands)} (estimate it from draws)")

    def _raw(self) -> tuple[tuple[Weights, int], ...]:
        """Each hidden hand's state weights (whole numbers, proportional to its state law) and their total."""
        self._need_exact("hand_laws")
        return self._raw_weights

    @cached_property
    def _raw_weights(self) -> tuple[tuple[Weights, int], ...]:
        """:meth:`_raw`, computed once (the law is frozen)."""
        n = self.counts
        sizes = [len(h) for h in self.hands]
        raws: list[Weights] = [{} for _ in self.hands]
        for c_k, ws, solos in self._components():   # one term per tag (a single one without tags)
            solo = [dict(p) for p in solos]   # each hand alone: W(x) prod_c falling(n_c, x_c)
            if len(solo) <= 1:
                terms = solo
            else:
                terms = [_coupled(ws[0], _moments(solo[1], sizes[0]), n),
                         _coupled(ws[1], _moments(solo[0], sizes[1]), n)]
            for raw, term in zip(raws, terms, strict=True):
                for st, v in term.items():
                    raw[st] = raw.get(st, 0) + c_k * v
        out = []
        for raw in raws:
            kept = {s: v for s, v in raw.items() if v}
            total = sum(kept.values())
            if total == 0:
                raise CorruptRecordError("a hands law whose hands cannot all be dealt from the pool")
            out.append((kept, total))
        return tuple(out)

    def hand_laws(self) -> tuple[dict[tuple[int, ...], Fraction], ...]:
        """Each hidden hand's state law (exact; at most two hidden hands): state -> chance."""
        return tuple({s: Fraction(v, total) for s, v in raw.items()} for raw, total in self._raw())

    def class_means(self) -> tuple[tuple[Fraction, ...], ...]:
        """For each hidden hand, the expected number of its unseen cards in each class (exact)."""
        return self._means

    @cached_property
    def _means(self) -> tuple[tuple[Fraction, ...], ...]:
        """:meth:`class_means`, computed once."""
        return tuple(tuple(Fraction(sum(v * s[c] for s, v in raw.items()), total) for c in range(self.n_classes))
                     for raw, total in self._raw())

    def place_law(self, place: int) -> dict[Card, Fraction]:
        """The exact law of the card on ``place``, by face (pack forgotten): face -> chance.

        A card of class ``c`` is in hand ``p`` with chance ``E[a_pc] / n_c`` (then on each of the hand's
        places alike), and on each free place alike otherwise."""
        self._need_exact("place_law")
        n = self.counts
        means = self.class_means()
        share: list[Fraction]
        for h, places in enumerate(self.hands):
            if place in places:
                share = [means[h][c] / n[c] / len(places) if n[c] else Fraction(0) for c in range(self.n_classes)]
                break
        else:
            free = len(self.free)
            if place not in self.free:
                raise InvalidInputError(f"HandsLaw.place_law: place {place} is not a hidden place "
                                        f"(0 to {len(self.names) - 1})")
            share = [(1 - sum((m[c] for m in means), Fraction(0)) / n[c]) / free if n[c] else Fraction(0)
                     for c in range(self.n_classes)]
        law: dict[Card, Fraction] = {}
        for card, c in zip(self.cards, self.classes, strict=True):
            if share[c]:
                f = face_of(card)
                law[f] = law.get(f, Fraction(0)) + share[c]
        return law

    def chance(self, place: int, predicate: Callable[[Card], bool]) -> Fraction:
        """Exact chance that the card on ``place`` satisfies ``predicate`` (a function of the face)."""
        return sum((p for face, p in self.place_law(place).items() if predicate(face)), Fraction(0))

    def free_chance(self, places: Sequence[int], predicate: Callable[[Card], bool]) -> Fraction:
        """Exact chance that every one of ``places`` (free places) holds a card satisfying ``predicate`` (a
        function of the class: of the face, alike for every card of a class). Given the hands' states the
        free places hold a uniformly random arrangement of the rest of the pool, so this is
        ``falling(R_ok, k) / falling(R, k)`` for ``k`` places, ``R`` cards left for the free places and
        ``R_ok`` of them satisfying it, averaged over the one hidden hand's states (with two hidden hands
        it would need their joint law: refused, estimate it)."""
        if any(q not in self.free for q in places):
            raise InvalidInputError("HandsLaw.free_chance: give free places (of no hidden hand)")
        if len(self.hands) > 1:
            raise InvalidInputError("HandsLaw.free_chance is computed exactly for at most one hidden hand; this "
                                    f"law has {len(self.hands)} (estimate it from draws)")
        ok = [False] * self.n_classes
        for card, c in zip(self.cards, self.classes, strict=True):
            ok[c] = bool(predicate(card))
        n = self.counts
        k = len(places)
        rest = len(self.free)
        good = sum(n[c] for c in range(self.n_classes) if ok[c])
        if not self.hands:
            return Fraction(falling(good, k), falling(rest, k))
        raw, total = self._raw()[0]
        num = sum(v * falling(good - sum(s[c] for c in range(self.n_classes) if ok[c]), k) for s, v in raw.items())
        return Fraction(num, total * falling(rest, k))

    def hand_chance(self, hand: int, predicate: Callable[[tuple[int, ...]], bool]) -> Fraction:
        """Exact chance that hidden hand ``hand`` (an index into :attr:`hands`) is in a state satisfying
        ``predicate`` (a function of the class counts)."""
        raw, total = self._raw()[hand]
        return Fraction(sum(v for s, v in raw.items() if predicate(s)), total)

    # ------------------------------------------------------------------ draws
    def _components(self) -> list[Term]:
        """The mixture's terms (module notes: *Mixtures*): for each tag ``k`` with ``c_k > 0``, ``c_k``, each
        hand's weights of that tag (states without the tag) and each hand's proposal of that tag (as
        :meth:`solo`), leaving out the tags in which some hand has no state the pool can deal (their term
        is 0); one term ``(1, beliefs, solo)`` without tags."""
        return self._terms

    @cached_property
    def _terms(self) -> list[Term]:
        """:meth:`_components`, computed once."""
        if not self.components:
            return [(1, [dict(b) for b in self.beliefs], self.solo())]
        k_of = self.n_classes
        out: list[Term] = []
        for k, c_k in enumerate(self.components):
            if c_k:
                ws = [{st[:k_of]: w for st, w in b if st[k_of] == k} for b in self.beliefs]
                solos = tuple(tuple((st[:k_of], w) for st, w in p if st[k_of] == k) for p in self.solo())
                if all(solos):  # else some hand cannot be dealt with this tag: the term is 0
                    out.append((c_k, ws, solos))
        return out

    def parts(self) -> tuple[Part, ...]:
        """What a draw proposes from: for each tag ``k`` that can occur, its weight ``c_k prod_p Z_pk`` and
        each hand's proposal of that tag (states without the tag, as :meth:`solo`); without tags, one part,
        ``(1, solo())``. Empty when no tag lets the pool deal every hand."""
        return self._parts

    @cached_property
    def _parts(self) -> tuple[Part, ...]:
        """:meth:`parts`, computed once."""
        out: list[Part] = []
        for c_k, _, solos in self._components():
            if all(solos):
                out.append((c_k * prod(sum(w for _, w in p) for p in solos) if self.components else 1, solos))
        return tuple(out)

    def solo(self) -> tuple[StateWeights, ...]:
        """Each hand's proposal for :meth:`draw`: its states (with their tags, if any) with weight ``W(x)
        prod_c falling(n_c, x_c)`` (zero-weight states left out), in the belief's order."""
        return self._solo

    @cached_property
    def _solo(self) -> tuple[StateWeights, ...]:
        """:meth:`solo`, computed once."""
        n = self.counts
        out = []
        for b in self.beliefs:
            ways = ((s, w, prod(falling(n[c], s[c]) for c in range(self.n_classes) if s[c])) for s, w in b)
            out.append(tuple((s, w * f) for s, w, f in ways if f))
        return tuple(out)

    def accept(self, states: Sequence[tuple[int, ...]]) -> Fraction:
        """The chance of keeping a proposal: ``prod_c falling(n_c, A_c) / prod_p prod_c falling(n_c, x_pc)``."""
        n = self.counts
        num = den = 1
        for c in range(self.n_classes):
            num *= falling(n[c], sum(s[c] for s in states))
            den *= prod(falling(n[c], s[c]) for s in states)
        return Fraction(num, den)

    def draw(self, rng: np.random.Generator) -> list[int]:
        """One assignment from the law: for each place, the index of its card in :attr:`cards`.

        Per try, with more than one of :meth:`parts` (tags), one ``rng.random()`` picks the part (the first
        whose running share exceeds it); then each hand picks a state from the part's proposal with one
        ``rng.random()`` (likewise); with two or more hands, one more ``rng.random()`` keeps the try with
        chance :meth:`accept`. Then, class by class in each hand, a uniformly chosen untaken card of the
        class (``rng.integers``), the hand's cards shuffled onto its places (``rng.permutation``), and
        the rest of the pool shuffled onto the free places in order (``rng.permutation``)."""
        parts = self.parts()
        while True:
            props = parts[0][1] if len(parts) == 1 else _pick([(p, w) for w, p in parts], rng)
            states = [_pick(p, rng) for p in props]
            if len(states) < 2 or Fraction(float(rng.random())) < self.accept(states):
                break
        start = [0] * (self.n_classes + 1)
        for c in self.classes:
            start[c + 1] += 1
        for c in range(self.n_classes):
            start[c + 1] += start[c]
        pos = list(start[:-1])
        deck = list(range(len(self.cards)))
        result = [-1] * len(self.names)
        for places, s in zip(self.hands, states, strict=True):
            mine: list[int] = []
            for c, k in enumerate(s):
                for _ in range(k):
                    j = pos[c] + int(rng.integers(start[c + 1] - pos[c]))
                    deck[pos[c]], deck[j] = deck[j], deck[pos[c]]
                    mine.append(deck[pos[c]])
                    pos[c] += 1
            for q, i in zip(places, rng.permutation(len(mine)).tolist(), strict=True):
                result[q] = mine[i]
        rest = [deck[i] for c in range(self.n_classes) for i in range(pos[c], start[c + 1])]
        free = self.free
        for q, i in zip(free, rng.permutation(len(rest)).tolist(), strict=True):
            result[q] = rest[i]
        return result

    def sample(self, rng: np.random.Generator) -> list[Card]:
        """One assignment from the law: the card on each hidden place."""
        return [self.cards[i] for i in self.draw(rng)]
