"""What a viewer has learned about the unseen cards of each hand from forced pick-ups (Shithead).

A player who cannot play must pick up the pile. So at a pick-up under a top card ``t``, every card
of that hand was an ordinary rank (not a 2, not a 10) of power below ``power(t)``: public information
forced by the rules, not a choice. For one viewer, the unseen cards of a hand fall into **cohorts**:
the cards that were in the hand at a pick-up under a top of power ``P`` (and are still there) may only
be ordinary ranks of power below ``P``; a later pick-up under a lower top tightens them; cards drawn
since the last pick-up are free. Every such allowed set is a prefix of one order (3 < 4 < ... < 9 < J <
Q < K < A, then the 2s and 10s, never allowed), so the constraints form a chain and the law stays
exact (:mod:`cardlab.sim.chance`, *Limited places*).

Which cohort lost a card
------------------------
When a hand plays an unseen card of rank ``r`` that several of its cohorts allow, the viewer cannot
tell which cohort held it. Under the modelling assumption (the card a hand plays is a uniformly
random card of that hand, whose face is then seen: choices carry no information), Bayes' rule makes
the law a **mixture**: one component per way the played cards can have been split among the cohorts.
Every consistent history is equally likely, so a component's weight is proportional to the number of
histories that lead to it: its *multiplicity* ``m`` (how many ways the plays so far could have taken
their cards from its cohorts: at each split, the old ``m`` times ``prod C(n_c, j_c)`` for ``j_c`` cards
taken from a cohort of ``n_c``) times the number of assignments of the viewer's unseen cards that it
allows now (:func:`ways`, a product: :func:`cardlab.sim.chance.limited_ways`). That second factor is
what reweights the components when a card is revealed from an unlimited place (the starting card, a
blind card, the viewer's own draws) or a hand picks up again: nothing needs to be stored for those
events, the weights are worked out from the viewer's unseen cards when the law is asked
(:func:`weights`). A single component needs no weight at all.

Components are kept as ``(m, cohorts per hand)`` tuples, a viewer's components as a tuple of them
(a hand's cohorts ``(P, n)`` by ``P`` ascending, its free cards left implicit). Equal components are
merged (multiplicities add), sorted, divided by their common divisor, and capped at
:data:`MAX_COMPONENTS`: past it the heaviest are kept (weight, then cohorts: still a function of what
the viewer knows) and the law is no longer exact. An empty tuple means no constraint at all (nothing
is computed while no hand has a constrained cohort).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from math import comb, gcd

from cardlab.errors import CorruptRecordError
from cardlab.sim.chance import limited_ways

MAX_COMPONENTS = 64
"""The largest number of components kept per viewer (the heaviest; past it the law is approximate)."""

Cohort = tuple[int, int]
"""``(P, n)``: ``n`` unseen cards of a hand, each an ordinary rank of power below ``P``."""
Hands = tuple[tuple[Cohort, ...], ...]
"""Per seat, its constrained cohorts by ``P`` ascending (the rest of its unseen cards are free)."""

ORDINARY_POWERS = (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)
TOP = 16  # above every power: the bound of a free card


Component = tuple[int, Hands]
"""``(m, hands)``: a multiplicity and the cohorts of each hand."""


def check(value: object, players: int) -> list[Component]:
    """A viewer's components read from a record (lists or tuples), checked: a clear error otherwise."""
    try:
        assert isinstance(value, (list, tuple)) and len(value) <= MAX_COMPONENTS
        out: list[Component] = []
        for comp in value:
            m, hands = comp
            assert type(m) is int and m >= 1 and len(hands) == players
            cohorts: list[tuple[Cohort, ...]] = []
            for h in hands:
                pairs = tuple((int(p), int(n)) for p, n in h)
                assert all(type(p) is int and type(n) is int for p, n in h)
                assert all(p in ORDINARY_POWERS[1:] and n >= 1 for p, n in pairs)
                assert [p for p, _ in pairs] == sorted({p for p, _ in pairs})
                cohorts.append(pairs)
            out.append((m, tuple(cohorts)))
    except (AssertionError, TypeError, ValueError) as exc:
        raise CorruptRecordError(f"record field beliefs holds {str(value)[:80]!r}; expected up to "
                                 f"{MAX_COMPONENTS} components [m, [[[P, n], ...] per hand]] with m >= 1, "
                                 "P a power bound from 4 to 14 (not 10) and n >= 1") from exc
    return out


class Pool:
    """A viewer's unseen cards as the chain needs them: ``n`` of them, ``below[P]`` ordinary ones of power
    below ``P`` (the length of the prefix a cohort with bound ``P`` may use)."""

    __slots__ = ("n", "below")

    def __init__(self, powers: Sequence[int], specials: int) -> None:
        counts = [0] * (TOP + 1)
        for p in powers:
            counts[p] += 1
        below = [0] * (TOP + 1)
        for p in range(1, TOP + 1):
            below[p] = below[p - 1] + counts[p - 1]
        self.below = below
        self.n = len(powers) + specials


def ways(pool: Pool, hands: Hands) -> int:
    """How many assignments of the pool to its places respect the cohorts (every card distinct)."""
    lengths = [pool.below[p] for h in hands for p, n in h for _ in range(n)]
    return limited_ways(lengths, pool.n, pool.n)


def weights(comps: Sequence[Component], pool: Pool) -> list[tuple[Fraction, Hands]]:
    """The components' exact weights for a viewer whose unseen cards are ``pool`` (those ruled out by
    what was revealed since, weight 0, left out), in their order."""
    raw = [(m * ways(pool, hands), hands) for m, hands in comps]
    total = sum(w for w, _ in raw)
    if total == 0:  # every component ruled out: only past the cap (module notes)
        return [(Fraction(1, len(raw)), hands) for _, hands in raw]
    return [(Fraction(w, total), hands) for w, hands in raw if w]


def settle(parts: Sequence[Component], pool: Callable[[], Pool]) -> tuple[Component, ...]:
    """Components normalised: equal ones merged, sorted, multiplicities divided by their common divisor,
    capped at :data:`MAX_COMPONENTS` (``pool()`` gives the weights then); ``[]`` when nothing is left
    constrained."""
    merged: dict[Hands, int] = {}
    for m, hands in parts:
        merged[hands] = merged.get(hands, 0) + m
    if len(merged) == 1:
        (hands, _), = merged.items()
        return ((1, hands),) if any(hands) else ()
    items = sorted(merged.items())
    if len(items) > MAX_COMPONENTS:
        now = pool()
        heavy = sorted(items, key=lambda kv: (-kv[1] * ways(now, kv[0]), kv[0]))[:MAX_COMPONENTS]
        items = sorted(heavy)
    g = 0
    for _, m in items:
        g = gcd(g, m)
    return tuple((m // g, hands) for hands, m in items)


def _with(hands: Hands, seat: int, cohorts: tuple[Cohort, ...]) -> Hands:
    return hands[:seat] + (cohorts,) + hands[seat + 1:]


def blank(players: int) -> Hands:
    return tuple(() for _ in range(players))


def pick_up(comps: Sequence[Component], players: int, seat: int, bound: int, unseen: int,
            pool: Callable[[], Pool]) -> tuple[Component, ...]:
    """``seat`` picks up under a top of power ``bound`` holding ``unseen`` cards the viewer has not seen:
    in every component they all lie below ``bound`` now (the new weights follow from :func:`ways`)."""
    if unseen <= 0:
        return tuple(comps)
    if len(comps) <= 1:  # one component: no multiplicity to keep
        return ((1, _after_pick_up(comps[0][1] if comps else blank(players), seat, bound, unseen)),)
    return settle([(m, _after_pick_up(hands, seat, bound, unseen)) for m, hands in comps], pool)


def _after_pick_up(hands: Hands, seat: int, bound: int, unseen: int) -> Hands:
    """``hands`` once ``seat``'s ``unseen`` cards all lie below ``bound``: cohorts already below it stay,
    the rest of the hand's unseen cards become one cohort of bound ``bound``."""
    kept = tuple((p, n) for p, n in hands[seat] if p < bound)
    rest = unseen - sum(n for _, n in kept)
    return _with(hands, seat, kept + (((bound, rest),) if rest > 0 else ()))


def _splits(j: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``j`` cards from cohorts of ``sizes``, at most ``sizes[i]`` from cohort ``i``."""
    if not sizes:
        if j == 0:
            yield ()
        return
    for k in range(min(j, sizes[0]), -1, -1):
        for rest in _splits(j - k, sizes[1:]):
            yield (k, *rest)


def play(comps: Sequence[Component], seat: int, power: int | None, j: int, unseen: int,
         pool: Callable[[], Pool]) -> tuple[Component, ...]:
    """``seat`` plays ``j`` unseen cards of one rank (``power``; None for a 2 or a 10) out of ``unseen``.

    A cohort of bound ``P`` may have held them when ``power < P``; the free cards always. Every split of
    the ``j`` cards among the possible cohorts is a component, its multiplicity the old one times
    ``prod C(n_c, j_c)`` (module notes); with one possible cohort that cohort simply shrinks."""
    if j <= 0 or not comps:
        return tuple(comps)
    if len(comps) == 1:
        cohorts = comps[0][1][seat]
        if not cohorts:
            return tuple(comps)  # one component, nothing known about this hand: its free cards shrink
        possible = [i for i, (p, n) in enumerate(cohorts) if power is not None and power < p]
        if not possible and unseen > sum(n for _, n in cohorts):
            return tuple(comps)  # only the free cards could have held them
        if len(possible) == 1 and unseen == sum(n for _, n in cohorts):
            i = possible[0]  # only one cohort could have held them
            p, n = cohorts[i]
            shrunk = cohorts[:i] + (((p, n - j),) if n > j else ()) + cohorts[i + 1:]
            hands = _with(comps[0][1], seat, shrunk)
            return ((1, hands),) if any(hands) else ()
    out: list[Component] = []
    for m, hands in comps:
        cohorts = hands[seat]
        if not cohorts:  # only free cards: the same factor C(unseen, j) as a split of free cards
            out.append((m * comb(unseen, j), hands))
            continue
        free = unseen - sum(n for _, n in cohorts)
        allowed = [i for i, (p, _) in enumerate(cohorts) if power is not None and power < p]
        sizes = [cohorts[i][1] for i in allowed] + [free]
        for split in _splits(j, sizes):
            new = list(cohorts)
            factor = comb(free, split[-1])
            for i, k in zip(allowed, split, strict=False):
                new[i] = (new[i][0], new[i][1] - k)
                factor *= comb(cohorts[i][1], k)
            out.append((m * factor, _with(hands, seat, tuple(c for c in new if c[1] > 0))))
    return settle(out, pool)
