"""One chance law per game: where the hidden cards may be, as a viewer knows the game.

A viewer (a seat, or the table) sees some cards and not others. The cards it cannot locate lie in
*hidden places* (face-down spots, a stock, the cards under a payoff top, an opponent's hand). What the
viewer knows about them comes in *groups*: a group is a set of hidden cards together with the set of
hidden places they may occupy (cards seen in a completed Spite and Malice pile can only be in the
stock layer where that pile went; the cards of a tied payoff top can only be in that payoff pile;
cards never seen can be anywhere not reserved). The **chance law** is the uniform distribution over
every assignment of the hidden cards to the hidden places that respects the groups.

Modelling assumption
--------------------
Uniformity means that nothing else is learned from play: the opponents' choices (which card they
discard, which card of a rank they put down) are treated as carrying no information about their
hidden cards. Real players (and the package's greedy bots) do choose with their cards in mind, so
this is an assumption, not a fact. ``benchmarks/bench_chance_law.py`` compares the law's predictions
with the cards that were really there over many bot-played games, which measures how well it holds.

Laminar groups
--------------
The place sets of the groups must be *laminar*: two of them are disjoint or one contains the other,
and a group comes after every group whose places lie inside its own. Then placing the groups in
order, each card on a uniformly chosen free place of its group, gives every valid assignment the
same chance: when a group's turn comes, the number of its places already taken is the number of
cards of the groups inside it, whatever the earlier choices were. That count also gives the exact
chance that a given place receives a given card (:meth:`ChanceLaw.place_law`).

Cards within a group are kept in a fixed order (canonical: rank, suit, pack; a game whose places
have limits lists them in its chain's order, see below), and places in the game's public order, so
the law is a function of what the viewer knows alone: two games that the viewer cannot tell apart
(they differ in where the hidden cards really are, or in which of two identical cards from two packs
is which) give the same law, the same exact answers and, for the same generator, the same resampled
faces. This holds as long as the game builds the groups from public
information only.

Mixtures
--------
Sometimes what a viewer knows is not one laminar law but a weighted choice between several. In Spite
and Malice, when a hand hidden from the viewer plays a face whose two copies (one per pack) carry
different public labels, nobody but the engine knows which label lost a card (see
:mod:`cardlab.games.spite_malice.rules`): the honest law is then a **mixture**, one laminar law per
possibility, each weighted by its chance given what the viewer saw (Bayes' rule under the modelling
assumption above, which reads "the card a hidden hand plays is a uniformly random card of that hand,
whose face is then seen"). :class:`MixedLaw` is that law: ``MixedLaw(components)`` with ``components``
a tuple of ``(weight, ChanceLaw)``, positive Fraction weights adding up to 1, every component over the
same hidden places (``names``), in an order the game fixes from public information only. Its exact
functions (:meth:`MixedLaw.place_law`, :meth:`MixedLaw.chance`) are the weighted sums of the
components'; :meth:`MixedLaw.draw` first picks a component with chance equal to its weight (one
``rng.random()`` call), then makes that component's :meth:`ChanceLaw.draw` calls. A plain
:class:`ChanceLaw` also has ``components`` (itself, weight 1), so code that reads ``law.components``
handles both; the kernels sample a mixture the same way from their own generator
(:class:`cardlab.sim.jitkit.LawArrays`). A game that keeps a mixture updates it by Bayes' rule;
:meth:`ChanceLaw.face_chances` gives, per group, the chance that revealed places show a face.

Limited places: a chain
-----------------------
A game may know more about some places than their group: in Shithead a player who must pick up the
pile held no card that fitted it, so each of that hand's unseen cards is an ordinary rank below the
pile's top. A group may therefore *limit* some of its places: ``Group(places, cards, limits)`` with
``limits`` a tuple of ``(place, length)``, meaning that ``place`` may only receive one of the first
``length`` cards of the group, in the order ``cards`` lists them (the game states that order, from
public information only; Shithead lists ordinary cards from the lowest power up, then 2s and 10s).
Every limit is a prefix of one order, so the allowed sets form a **chain** (any two are nested), and
the uniform law over assignments that respect them stays exactly computable and samplable: sort the
limited places by length ``L_0 <= L_1 <= ...``; the ``i``-th (from 0) has ``L_i - i`` free choices,
whatever the earlier ones were, because the ``i`` cards already taken all lie inside its own prefix.
So a draw fills the limited places first, in that order, each with a uniformly chosen card among the
untaken ones of its prefix, and then places the group's other cards as before; the number of valid
assignments is a product (:func:`limited_ways`), the chance that some places all hold cards of a
shorter prefix is a ratio of two such products (:meth:`ChanceLaw.within`), and a card's chance to be
still untaken after each limited place shrinks by the deterministic factor ``1 - 1/(L_i - i)`` when
it lies in that prefix, which gives every place's exact law (:meth:`ChanceLaw.place_law`). A limited
place must belong to no other group; a set of limits that leaves some place without a card is refused
(:class:`~cardlab.errors.CorruptRecordError`, naming the place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from cardlab.cards import Card, face_of
from cardlab.errors import CorruptRecordError


def limited_ways(lengths: Sequence[int], places: int, cards: int) -> int:
    """How many ways ``cards`` distinct cards go on ``places`` places one card each (``places >= cards``),
    when the places with a limit must take one of the first ``lengths[i]`` cards of one order.

    The limited places, sorted by length, choose in turn: the ``i``-th has ``L_i - i`` choices (0 if
    none is left); the other ``cards - m`` cards then go on the ``places - m`` other places.
    """
    m = len(lengths)
    if m > cards or cards > places:
        return 0
    ways = 1
    for i, length in enumerate(sorted(lengths)):
        if length - i <= 0:
            return 0
        ways *= length - i
    for k in range(cards - m):
        ways *= places - m - k
    return ways


def canonical(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in the law's fixed order: by rank, then suit, then pack."""
    return tuple(sorted(cards, key=lambda c: (int(c.rank), int(c.suit), c.pack)))


@dataclass(frozen=True)
class Group:
    """Hidden cards that may lie only on ``places`` (indices into the law's list of places).

    ``limits`` (optional) holds ``(place, length)`` pairs: that place may only take one of the first
    ``length`` cards of ``cards`` (see the module notes on chains).
    """

    places: tuple[int, ...]
    cards: tuple[Card, ...]
    limits: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ChanceLaw:
    """The uniform law over assignments of hidden cards to hidden places that respect the groups.

    ``names`` gives each hidden place a public name (``"stock 0"`` is the bottom of the stock, and so
    on); ``groups`` come in an order where every group follows the groups nested inside it.
    """

    names: tuple[str, ...]
    groups: tuple[Group, ...]
    _sizes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _free: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _order: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False, compare=False)
    _left: dict[int, list[Fraction]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.names)
        taken = [0] * len(self.groups)
        sets = [frozenset(g.places) for g in self.groups]
        if sum(len(g.cards) for g in self.groups) != n or any(q < 0 or q >= n for s in sets for q in s):
            raise CorruptRecordError(f"the chance law has {n} hidden places but "
                                     f"{sum(len(g.cards) for g in self.groups)} hidden cards")
        for i, s in enumerate(sets):
            for j in range(i):
                inner = sets[j]
                if inner <= s:
                    taken[i] += len(self.groups[j].cards)
                elif inner & s:
                    raise CorruptRecordError("the chance law's groups are not nested: "
                                             f"group {j} overlaps group {i} without lying inside it")
        free = tuple(len(s) - t for s, t in zip(sets, taken, strict=True))
        if any(f < len(g.cards) for f, g in zip(free, self.groups, strict=True)):
            raise CorruptRecordError("the chance law has a group with more cards than free places")
        order = tuple(self._check_limits(i, sets) for i in range(len(self.groups)))
        sizes: list[int] = []
        for f, g, lims in zip(free, self.groups, order, strict=True):
            m = len(lims)
            sizes += [length - i for i, (_, length) in enumerate(lims)]
            sizes += [f - m - k for k in range(len(g.cards) - m)]
        object.__setattr__(self, "_free", free)
        object.__setattr__(self, "_sizes", tuple(sizes))
        object.__setattr__(self, "_order", order)
        object.__setattr__(self, "_left", {})

    def _check_limits(self, i: int, sets: list[frozenset[int]]) -> tuple[tuple[int, int], ...]:
        """Group ``i``'s limits sorted by length (then place), checked: places of the group and of no
        other group, each once, lengths from 1 to the group's size, every limited place left a card."""
        g = self.groups[i]
        if not g.limits:
            return ()
        seen: set[int] = set()
        for q, length in g.limits:
            if q not in sets[i] or q in seen or any(q in s for j, s in enumerate(sets) if j != i):
                raise CorruptRecordError(f"the chance law limits place {q} ({self._name(q)}) in group {i}, but "
                                         "a limited place must be a place of that group only, limited once")
            if not 1 <= length <= len(g.cards):
                raise CorruptRecordError(f"the chance law limits place {q} ({self._name(q)}) to the first "
                                         f"{length} cards of group {i}, which has {len(g.cards)}")
            seen.add(q)
        lims = tuple(sorted(g.limits, key=lambda t: (t[1], t[0])))
        for k, (q, length) in enumerate(lims):
            if length - k <= 0:
                raise CorruptRecordError(f"the chance law's limits leave place {q} ({self._name(q)}) no card: "
                                         f"{k + 1} places share the first {length} cards of group {i}")
        if len(lims) > len(g.cards):
            raise CorruptRecordError(f"the chance law limits {len(lims)} places of group {i}, which has "
                                     f"only {len(g.cards)} cards")
        return lims

    def _name(self, q: int) -> str:
        return self.names[q] if 0 <= q < len(self.names) else "no such place"

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every hidden card, group by group (the order :meth:`draw` indexes)."""
        return tuple(c for g in self.groups for c in g.cards)

    @property
    def limit_order(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per group, its limits ``(place, length)`` in the order a draw fills them (shortest first)."""
        return self._order

    @property
    def sizes(self) -> tuple[int, ...]:
        """For each choice a draw makes, how many options it has: per group, each limited place (shortest
        prefix first) and then each of the group's other cards (how many free places it chooses from)."""
        return self._sizes

    def draw(self, rng: np.random.Generator) -> list[int]:
        """One assignment from the law: for each place, the index of its card in :attr:`cards`.

        All the choices come from one ``rng.integers`` call over :attr:`sizes` (or, when a single group
        without limits covers every place, one ``rng.permutation``), so a fast play-out that makes the
        same call builds the same position from the same generator state. A group's limited places come
        first, shortest prefix first: the ``i``-th takes the card at a uniform position in ``[i, L_i)``
        of the group's pool, which keeps the taken cards at the front (a swap inside ``[i, L_i)`` keeps
        every prefix's untaken cards inside that prefix); the group's other cards then each choose a
        free place.
        """
        n = len(self.names)
        result = [-1] * n
        if n == 0:
            return result
        if len(self.groups) == 1 and not self.groups[0].limits and self.groups[0].places == tuple(range(n)):
            order: list[int] = rng.permutation(n).tolist()  # one group on every place: a random permutation
            return order
        picks = rng.integers(np.array(self._sizes, dtype=np.int64)).tolist()
        k = 0
        base = 0
        for g, lims in zip(self.groups, self._order, strict=True):
            cards = list(range(base, base + len(g.cards)))
            for i, (q, _) in enumerate(lims):
                j = i + picks[k]
                cards[i], cards[j] = cards[j], cards[i]
                result[q] = cards[i]
                k += 1
            pool = [q for q in g.places if result[q] < 0]
            for card in cards[len(lims):]:
                pick = picks[k]
                result[pool[pick]] = card
                pool[pick] = pool[-1]
                pool.pop()
                k += 1
            base += len(g.cards)
        return result

    def sample(self, rng: np.random.Generator) -> list[Card]:
        """One assignment from the law: the card on each hidden place."""
        cards = self.cards
        return [cards[i] for i in self.draw(rng)]

    def group_chances(self, place: int) -> list[Fraction]:
        """For each group, the exact chance that ``place`` receives one of its cards."""
        out: list[Fraction] = []
        survive = Fraction(1)
        for g, free, lims in zip(self.groups, self._free, self._order, strict=True):
            if place not in g.places or not g.cards:
                out.append(Fraction(0))
                continue
            if any(q == place for q, _ in lims):
                out.append(survive)
                survive = Fraction(0)
                continue
            m = len(lims)
            out.append(survive * Fraction(len(g.cards) - m, free - m))
            survive *= Fraction(free - len(g.cards), free - m)
        return out

    def _untaken(self, i: int) -> list[Fraction]:
        """Group ``i``: for each of its cards, the chance that no limited place took it (1 without limits)."""
        left = self._left.get(i)
        if left is None:
            left = [Fraction(1)] * len(self.groups[i].cards)
            for k, (_, length) in enumerate(self._order[i]):
                keep = 1 - Fraction(1, length - k)
                for c in range(length):
                    left[c] *= keep
            self._left[i] = left
        return left

    def _card_chances(self, i: int, place: int, share: Fraction) -> list[Fraction]:
        """Group ``i``, which fills ``place`` with chance ``share``: the chance of each of its cards there."""
        g, lims = self.groups[i], self._order[i]
        if not lims:
            return [share / len(g.cards)] * len(g.cards)
        for k, (q, length) in enumerate(lims):
            if q == place:
                left = [Fraction(1)] * length
                for j, (_, before) in enumerate(lims[:k]):
                    keep = 1 - Fraction(1, before - j)
                    for c in range(before):
                        left[c] *= keep
                pick = Fraction(1, length - k)
                return [p * pick for p in left] + [Fraction(0)] * (len(g.cards) - length)
        rest = len(g.cards) - len(lims)
        return [share * p / rest for p in self._untaken(i)]

    def place_law(self, place: int) -> dict[Card, Fraction]:
        """The exact law of the card on ``place``, by face (pack forgotten): face -> chance.

        A group whose places hold ``place`` fills it with chance ``n / free`` if it is still free
        (``n`` cards choosing among ``free`` places), each of its cards equally likely; the place is
        still free for a later group with the product of the earlier ``1 - n / free``. With limits
        (module notes), a limited place takes a card of its prefix with the chance that the card is
        still untaken times ``1 / (L_i - i)``; an unlimited place takes each card with the chance that
        no limited place took it, shared among the group's unlimited free places.
        """
        law: dict[Card, Fraction] = {}
        for i, share in enumerate(self.group_chances(place)):
            if not share:
                continue
            for card, p in zip(self.groups[i].cards, self._card_chances(i, place, share), strict=True):
                if p:
                    face = face_of(card)
                    law[face] = law.get(face, Fraction(0)) + p
        return law

    def chance(self, place: int, predicate: Callable[[Card], bool]) -> Fraction:
        """Exact chance that the card on ``place`` satisfies ``predicate`` (a function of the face)."""
        return sum((p for face, p in self.place_law(place).items() if predicate(face)), Fraction(0))

    def ways(self, extra: dict[int, int] | None = None) -> int:
        """How many assignments respect the groups and the limits, with ``extra`` limits
        ``{place: length}`` added (the shorter one wins): per group, its cards on its free places."""
        total = 1
        for g, free, lims in zip(self.groups, self._free, self._order, strict=True):
            lengths = dict(lims)
            for q, length in (extra or {}).items():
                if q in g.places:
                    lengths[q] = min(lengths.get(q, length), length)
            total *= limited_ways(list(lengths.values()), free, len(g.cards))
        return total

    def within(self, places: Sequence[int], length: int) -> Fraction:
        """Exact chance that every place of ``places`` holds one of the first ``length`` cards of its
        group (in the group's order): the ratio of two :meth:`ways` counts. Each place must belong to
        one group only (a place that an inner group may take is refused)."""
        for q in places:
            owners = [i for i, g in enumerate(self.groups) if q in g.places]
            if len(owners) != 1:
                raise CorruptRecordError(f"ChanceLaw.within: place {q} ({self._name(q)}) belongs to "
                                         f"{len(owners)} groups; give places of exactly one group")
        if not places:
            return Fraction(1)
        return Fraction(self.ways({q: max(length, 0) for q in places}), self.ways())

    def faces(self) -> list[Card]:
        """The hidden cards by face, in canonical order."""
        return sorted((face_of(c) for c in self.cards), key=lambda c: (int(c.rank), int(c.suit)))

    @property
    def components(self) -> tuple[tuple[Fraction, ChanceLaw], ...]:
        """This law as a mixture of one component (so callers treat :class:`MixedLaw` alike)."""
        return ((Fraction(1), self),)

    def face_chances(self, places: Sequence[int], face: Card) -> list[Fraction]:
        """For each group, the exact expected number of ``places`` that receive a card of ``face``'s face
        from that group (for one place: the chance that it does).

        Divided by ``len(places)`` this is the chance that a uniformly random one of ``places`` shows the
        face, split by the group the card came from: the likelihood a mixture needs to reweight its
        components when a hidden card is revealed (:class:`MixedLaw`).
        """
        out = [Fraction(0)] * len(self.groups)
        for q in places:
            for i, share in enumerate(self.group_chances(q)):
                if share:
                    g = self.groups[i]
                    out[i] += sum((p for c, p in zip(g.cards, self._card_chances(i, q, share), strict=True)
                                   if c.face == face.face), Fraction(0))
        return out


@dataclass(frozen=True)
class MixedLaw:
    """A weighted mixture of chance laws over the same hidden places: ``components`` is a tuple of
    ``(weight, ChanceLaw)`` with positive :class:`~fractions.Fraction` weights adding up to 1.

    The law of the hidden cards is: pick a component with chance equal to its weight, then deal the
    hidden cards by that component. Exact questions are the weighted sums of the components' exact
    answers. Components come in an order the game fixes from public information only, so the mixture
    is, like each component, a function of what the viewer knows.
    """

    components: tuple[tuple[Fraction, ChanceLaw], ...]

    def __post_init__(self) -> None:
        if not self.components or any(w <= 0 for w, _ in self.components) or \
                sum(w for w, _ in self.components) != 1:
            raise CorruptRecordError("a mixed chance law needs positive weights that add up to 1")
        names = self.components[0][1].names
        if any(law.names != names for _, law in self.components):
            raise CorruptRecordError("the components of a mixed chance law must share their hidden places")

    @property
    def names(self) -> tuple[str, ...]:
        """The hidden places' public names (the same in every component)."""
        return self.components[0][1].names

    def choose(self, rng: np.random.Generator) -> int:
        """The index of a component, drawn with its weight from one ``rng.random()`` call (a uniform
        double: each chance is exact up to its rounding to a multiple of 2**-53)."""
        u = Fraction(float(rng.random()))
        total = Fraction(0)
        for i, (w, _) in enumerate(self.components):
            total += w
            if u < total:
                return i
        return len(self.components) - 1

    def draw(self, rng: np.random.Generator) -> tuple[int, list[int]]:
        """A component index and one assignment from that component (indices into its ``cards``)."""
        k = self.choose(rng)
        return k, self.components[k][1].draw(rng)

    def sample(self, rng: np.random.Generator) -> list[Card]:
        """One assignment from the mixture: the card on each hidden place."""
        k, order = self.draw(rng)
        cards = self.components[k][1].cards
        return [cards[i] for i in order]

    def place_law(self, place: int) -> dict[Card, Fraction]:
        """The exact law of the card on ``place`` by face: the weighted sum of the components' laws."""
        law: dict[Card, Fraction] = {}
        for w, comp in self.components:
            for face, p in comp.place_law(place).items():
                law[face] = law.get(face, Fraction(0)) + w * p
        return {face: p for face, p in law.items() if p}

    def chance(self, place: int, predicate: Callable[[Card], bool]) -> Fraction:
        """Exact chance that the card on ``place`` satisfies ``predicate`` (a function of the face)."""
        return sum((w * law.chance(place, predicate) for w, law in self.components), Fraction(0))

    def faces(self) -> list[Card]:
        """The hidden cards by face, in canonical order (the same multiset in every component)."""
        return self.components[0][1].faces()


AnyLaw = ChanceLaw | MixedLaw
"""What a game's ``chance_law`` returns: one laminar law, or a mixture of them."""
