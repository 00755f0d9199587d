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

Cards within a group are kept in a fixed order (canonical: rank, suit, pack), and places in the
game's public order, so
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
(:class:`cardlab.chance.jitkit.LawArrays`). A game that keeps a mixture updates it by Bayes' rule;
:meth:`ChanceLaw.face_chances` gives, per group, the chance that revealed places show a face.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, runtime_checkable

import numpy as np

from cardlab.cards import Card, face_of
from cardlab.errors import CorruptRecordError


def canonical(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in the law's fixed order: by rank, then suit, then pack."""
    return tuple(sorted(cards, key=lambda c: (int(c.rank), int(c.suit), c.pack)))


@dataclass(frozen=True)
class Group:
    """Hidden cards that may lie only on ``places`` (indices into the law's list of places)."""

    places: tuple[int, ...]
    cards: tuple[Card, ...]


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
        sizes: list[int] = []
        for f, g in zip(free, self.groups, strict=True):
            sizes += [f - k for k in range(len(g.cards))]
        object.__setattr__(self, "_free", free)
        object.__setattr__(self, "_sizes", tuple(sizes))

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every hidden card, group by group (the order :meth:`draw` indexes)."""
        return tuple(c for g in self.groups for c in g.cards)

    @property
    def sizes(self) -> tuple[int, ...]:
        """For each choice a draw makes, how many options it has: per group, each of its cards (how many
        free places it chooses from)."""
        return self._sizes

    def draw(self, rng: np.random.Generator) -> list[int]:
        """One assignment from the law: for each place, the index of its card in :attr:`cards`.

        All the choices come from one ``rng.integers`` call over :attr:`sizes` (or, when a single group
        covers every place, one ``rng.permutation``), so a fast play-out that makes the same call builds
        the same position from the same generator state. Group by group, each card chooses a free place
        of its group.
        """
        n = len(self.names)
        result = [-1] * n
        if n == 0:
            return result
        if len(self.groups) == 1 and self.groups[0].places == tuple(range(n)):
            order: list[int] = rng.permutation(n).tolist()  # one group on every place: a random permutation
            return order
        picks = rng.integers(np.array(self._sizes, dtype=np.int64)).tolist()
        k = 0
        base = 0
        for g in self.groups:
            pool = [q for q in g.places if result[q] < 0]
            for card in range(base, base + len(g.cards)):
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
        for g, free in zip(self.groups, self._free, strict=True):
            if place not in g.places or not g.cards:
                out.append(Fraction(0))
                continue
            out.append(survive * Fraction(len(g.cards), free))
            survive *= Fraction(free - len(g.cards), free)
        return out

    def place_law(self, place: int) -> dict[Card, Fraction]:
        """The exact law of the card on ``place``, by face (pack forgotten): face -> chance.

        A group whose places hold ``place`` fills it with chance ``n / free`` if it is still free
        (``n`` cards choosing among ``free`` places), each of its cards equally likely; the place is
        still free for a later group with the product of the earlier ``1 - n / free``.
        """
        law: dict[Card, Fraction] = {}
        for g, share in zip(self.groups, self.group_chances(place), strict=True):
            for card in g.cards if share else ():
                face = face_of(card)
                law[face] = law.get(face, Fraction(0)) + share / len(g.cards)
        return law

    def chance(self, place: int, predicate: Callable[[Card], bool]) -> Fraction:
        """Exact chance that the card on ``place`` satisfies ``predicate`` (a function of the face)."""
        return sum((p for face, p in self.place_law(place).items() if predicate(face)), Fraction(0))

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
                    out[i] += share * Fraction(sum(c.face == face.face for c in g.cards), len(g.cards))
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
"""What a laminar game's ``chance_law`` returns: one laminar law, or a mixture of them."""


@runtime_checkable
class Law(Protocol):
    """What every chance law answers, whatever its model: :class:`ChanceLaw`, :class:`MixedLaw` and
    :class:`~cardlab.chance.hands_law.HandsLaw` (hands read through their play) all do, and
    :meth:`Game.chance_law <cardlab.engine.game.Game.chance_law>` returns one.

    The hidden places have public names (:attr:`names`, in the game's public order); :meth:`sample` deals
    the hidden cards onto them from a generator (two games a viewer cannot tell apart give the same cards
    for the same generator state); :meth:`place_law` and :meth:`chance` are exact (a law that computes them
    only in some positions says so, as :attr:`HandsLaw.exact <cardlab.chance.hands_law.HandsLaw.exact>`
    does, and raises :class:`~cardlab.errors.InvalidInputError` elsewhere); :meth:`faces` lists the hidden
    cards by face. How a law draws (its ``draw``) is its own: the kernels read each kind of law through
    their own arrays (:mod:`cardlab.chance.jitkit`).
    """

    @property
    def names(self) -> tuple[str, ...]:
        """Each hidden place's public name."""

    def sample(self, rng: np.random.Generator) -> list[Card]:
        """One assignment from the law: the card on each hidden place."""

    def place_law(self, place: int) -> dict[Card, Fraction]:
        """The exact law of the card on ``place``, by face: face -> chance."""

    def chance(self, place: int, predicate: Callable[[Card], bool]) -> Fraction:
        """Exact chance that the card on ``place`` satisfies ``predicate`` (a function of the face)."""

    def faces(self) -> list[Card]:
        """The hidden cards by face, in canonical order."""
