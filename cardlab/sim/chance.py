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

Cards within a group are kept in a canonical order (rank, suit, pack), and places in the game's
public order, so the law is a function of what the viewer knows alone: two games that the viewer
cannot tell apart (they differ in where the hidden cards really are, or in which of two identical
cards from two packs is which) give the same law, the same exact answers and, for the same
generator, the same resampled faces. This holds as long as the game builds the groups from public
information only; one known exception is documented in :mod:`cardlab.games.spite_malice` (a hidden hand
playing a face whose two copies carry different public labels).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

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
        sizes = [f - k for f, g in zip(free, self.groups, strict=True) for k in range(len(g.cards))]
        object.__setattr__(self, "_free", free)
        object.__setattr__(self, "_sizes", tuple(sizes))

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every hidden card, group by group (the order :meth:`draw` indexes)."""
        return tuple(c for g in self.groups for c in g.cards)

    @property
    def sizes(self) -> tuple[int, ...]:
        """For each card in :attr:`cards` order, how many free places it chooses from."""
        return self._sizes

    def draw(self, rng: np.random.Generator) -> list[int]:
        """One assignment from the law: for each place, the index of its card in :attr:`cards`.

        All the choices come from one ``rng.integers`` call over :attr:`sizes` (or, when a single group
        covers every place, one ``rng.permutation``), so a fast play-out that makes the same call builds
        the same position from the same generator state.
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
        for g in self.groups:
            pool = [q for q in g.places if result[q] < 0]
            for _ in g.cards:
                pick = picks[k]
                result[pool[pick]] = k
                pool[pick] = pool[-1]
                pool.pop()
                k += 1
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
