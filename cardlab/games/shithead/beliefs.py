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
the law a **mixture**: one component per way the played cards can have been split among the cohorts,
weighted by the number of assignments that lead to it, i.e. the old weight times
``prod C(n_c, j_c) * ways(after) / ways(before)`` (``ways`` counts the assignments a component allows,
:func:`cardlab.sim.chance.limited_ways`). A card revealed from an unlimited place (the starting card, a
blind card, the viewer's own draws) reweights the components by ``ways(after) / ways(before)``, and
so does a pick-up (the chance, in each component, that every unseen card of the hand lies below the
top). A single component needs none of this: it is the uniform law on what it allows.

Components are kept as text (``"num/den|hand 0|hand 1|..."``, a hand as ``"P:n,P:n"``, cohorts by
``P`` ascending, the free cohort left implicit), merged when equal, sorted by that text, and capped at
:data:`MAX_COMPONENTS`, the heaviest kept (weight, then text: still a function of what the viewer
knows); past the cap the law is no longer exact. If every kept component were ruled out, the viewer
starts again from the last pick-up alone (an approximation, reachable only past the cap). An empty
list means no constraint at all (nothing is computed while no hand has a constrained cohort).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

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


@lru_cache(maxsize=4096)
def parse(text: str) -> tuple[Fraction, Hands]:
    """A component from its text (checked: a clear error for a malformed record)."""
    try:
        head, *hands = text.split("|")
        weight = Fraction(head)
        out: list[tuple[Cohort, ...]] = []
        for h in hands:
            cohorts = tuple((int(p), int(n)) for p, n in (c.split(":") for c in h.split(",") if c))
            if any(p not in ORDINARY_POWERS[1:] or n <= 0 for p, n in cohorts) or \
                    [p for p, _ in cohorts] != sorted({p for p, _ in cohorts}):
                raise ValueError(h)
            out.append(cohorts)
    except (ValueError, ZeroDivisionError) as exc:
        raise CorruptRecordError(f"record field beliefs holds {text[:80]!r}, which is not a component "
                                 "'weight|P:n,P:n|...' (P a power bound from 4 to 14, not 10; n >= 1)") from exc
    if not 0 < weight <= 1:
        raise CorruptRecordError(f"record field beliefs holds the weight {weight}; expected one in (0, 1]")
    return weight, tuple(out)


def text_of(weight: Fraction, hands: Hands) -> str:
    return f"{weight.numerator}/{weight.denominator}|" + "|".join(",".join(f"{p}:{n}" for p, n in h) for h in hands)


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

    def plus(self, powers: Sequence[int], specials: int) -> Pool:
        """The pool with ``powers`` (ordinary cards) and ``specials`` (2s and 10s) added back."""
        new = Pool((), 0)
        new.below = list(self.below)
        for q in powers:
            for p in range(q + 1, TOP + 1):
                new.below[p] += 1
        new.n = self.n + len(powers) + specials
        return new


def ways(pool: Pool, hands: Hands) -> int:
    """How many assignments of the pool to its places respect the cohorts (every place distinct)."""
    lengths = [pool.below[p] for h in hands for p, n in h for _ in range(n)]
    return limited_ways(lengths, pool.n, pool.n)


def settle(parts: list[tuple[Fraction, Hands]]) -> list[str]:
    """Components normalised: zero weights dropped, equal ones merged, sorted by text, capped (heaviest
    kept), weights adding up to 1; ``[]`` when what is left constrains nothing."""
    merged: dict[Hands, Fraction] = {}
    for w, hands in parts:
        if w:
            merged[hands] = merged.get(hands, Fraction(0)) + w
    if not merged:
        return []
    items = sorted(merged.items(), key=lambda kv: text_of(Fraction(1), kv[0]))
    if len(items) > MAX_COMPONENTS:
        items = sorted(items, key=lambda kv: (-kv[1], text_of(Fraction(1), kv[0])))[:MAX_COMPONENTS]
        items.sort(key=lambda kv: text_of(Fraction(1), kv[0]))
    total = sum((w for _, w in items), Fraction(0))
    if len(items) == 1 and not any(items[0][0]):
        return []
    return [text_of(w / total, hands) for hands, w in items]


def _with(hands: Hands, seat: int, cohorts: tuple[Cohort, ...]) -> Hands:
    return hands[:seat] + (cohorts,) + hands[seat + 1:]


def blank(players: int) -> Hands:
    return tuple(() for _ in range(players))


def pick_up(comps: list[str], players: int, seat: int, bound: int, unseen: int, pool: Pool | None) -> list[str]:
    """``seat`` picks up under a top of power ``bound`` holding ``unseen`` cards the viewer has not seen.

    With one component the new cohort needs no weight; with several, each is reweighted by its chance
    that every unseen card of the hand lies below ``bound`` (``pool`` must then be given)."""
    if unseen <= 0:
        return comps
    parts = [parse(c) for c in comps] or [(Fraction(1), blank(players))]
    out: list[tuple[Fraction, Hands]] = []
    for w, hands in parts:
        kept = tuple((p, n) for p, n in hands[seat] if p < bound)
        rest = unseen - sum(n for _, n in kept)
        new = _with(hands, seat, kept + (((bound, rest),) if rest > 0 else ()))
        if pool is None:
            out.append((w, new))
            continue
        before = ways(pool, hands)
        out.append((w * Fraction(ways(pool, new), before) if before else Fraction(0), new))
    # every component ruled out happens only past the cap (see the module notes)
    return settle(out) or settle([(Fraction(1), _with(blank(players), seat, ((bound, unseen),)))])


def _splits(j: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``j`` cards from cohorts of ``sizes``, at most ``sizes[i]`` from cohort ``i``."""
    if not sizes:
        if j == 0:
            yield ()
        return
    for k in range(min(j, sizes[0]), -1, -1):
        for rest in _splits(j - k, sizes[1:]):
            yield (k, *rest)


def play(comps: list[str], seat: int, power: int | None, j: int, unseen: int,
         pools: Callable[[], tuple[Pool, Pool]]) -> list[str]:
    """``seat`` plays ``j`` unseen cards of one rank (``power``; None for a 2 or a 10) out of ``unseen``.

    A cohort of bound ``P`` may have held them when ``power < P``; the free cohort always. With one
    component and one such cohort holding cards, that cohort simply shrinks; otherwise every split of
    the ``j`` cards among the possible cohorts is a component, weighted as the module notes say
    (``pools()`` gives the viewer's pool before the play and after it, asked only when needed)."""
    if j <= 0 or not comps:
        return comps
    parts = [parse(c) for c in comps]
    out: list[tuple[Fraction, Hands]] = []
    for w, hands in parts:
        cohorts = list(hands[seat])
        free = unseen - sum(n for _, n in cohorts)
        allowed = [i for i, (p, _) in enumerate(cohorts) if power is not None and power < p]
        sizes = [cohorts[i][1] for i in allowed] + [free]
        if len(parts) == 1 and sum(1 for s in sizes if s) == 1:
            i = next(k for k, s in enumerate(sizes) if s)
            if i < len(allowed):
                p, n = cohorts[allowed[i]]
                cohorts[allowed[i]] = (p, n - j)
            out.append((w, _with(hands, seat, tuple(c for c in cohorts if c[1] > 0))))
            continue
        pool, after = pools()
        before = ways(pool, hands)
        for split in _splits(j, sizes):
            new = list(cohorts)
            factor = 1
            for i, k in zip(allowed, split, strict=False):
                new[i] = (new[i][0], new[i][1] - k)
                factor *= comb(cohorts[i][1], k)
            factor *= comb(free, split[-1])
            post = _with(hands, seat, tuple(c for c in new if c[1] > 0))
            out.append((w * Fraction(factor * ways(after, post), before) if before else Fraction(0), post))
    if not any(w for w, _ in out):  # every component ruled out: only past the cap (module notes)
        return comps
    return settle(out)


def reveal(comps: list[str], pool: Pool, after: Pool) -> list[str]:
    """Cards leave unlimited hidden places face up (``pool`` before, ``after`` without them): each
    component is reweighted by its chance of showing them, ``ways(after) / ways(before)``."""
    if len(comps) <= 1:
        return comps
    out = []
    for w, hands in (parse(c) for c in comps):
        before = ways(pool, hands)
        out.append((w * Fraction(ways(after, hands), before) if before else Fraction(0), hands))
    if not any(w for w, _ in out):  # every component ruled out: only past the cap (module notes)
        return comps
    return settle(out)
