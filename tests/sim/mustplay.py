"""Prototype: Shithead's hidden hands under "a player plays a uniformly random card among those that fit".

A forward filter per hidden hand over the multiset of *classes* of its unseen cards (13 classes: the
ordinary ranks by power, then 2, then 10), and an exact joint over the hidden hands by counting the
physical cards (a falling factorial per class). Used to measure whether reading the must-play rule
closes the table's pick-up calibration; not part of the package.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import gcd, prod
from typing import Any

import numpy as np

from cardlab.cards import Card, Rank
from cardlab.games.shithead import Shithead
from cardlab.games.shithead.rules import shithead_move

ORDER = (Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK,
         Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO, Rank.TEN)
CLS = {r: i for i, r in enumerate(ORDER)}
K = len(ORDER)
State = tuple[int, ...]


def threshold(g: Shithead) -> int:
    """The first class that fits the pile now (every class from it on fits)."""
    top = g.top
    if top is None or top.rank == Rank.TWO:
        return 0
    assert top.rank != Rank.TEN
    return CLS[top.rank]


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


class HandFilter:
    """Unnormalised weights over the class multiset of one hand's unseen cards (labelled slots)."""

    def __init__(self) -> None:
        self.w: dict[State, int] = {(0,) * K: 1}

    def _norm(self) -> None:
        g = 0
        for v in self.w.values():
            g = gcd(g, v)
        if g > 1:
            self.w = {s: v // g for s, v in self.w.items()}

    def draw(self, k: int) -> None:
        for _ in range(k):
            out: dict[State, int] = {}
            for s, v in self.w.items():
                for c in range(K):
                    t = s[:c] + (s[c] + 1,) + s[c + 1:]
                    out[t] = out.get(t, 0) + v
            self.w = out

    def play(self, t: int, known_fit: int, known_r: int, cls: int, hidden: int) -> None:
        """A play of rank class ``cls`` (``hidden`` of its cards unseen before) on a pile whose first
        fitting class is ``t``: the rank is chosen with chance (known_r + a_r) / #fit; which labelled
        slots held the ``hidden`` revealed cards (a falling factorial of ways) and the engine's uniform
        pick of them among the hand's unseen cards of the rank (one over a binomial) cancel to ``h!``,
        the same in every state."""
        raw: dict[State, Fraction] = {}
        for s, v in self.w.items():
            a = s[cls]
            if a < hidden:
                continue
            fit = known_fit + sum(s[t:])
            like = Fraction(known_r + a, fit)
            u = s[:cls] + (a - hidden,) + s[cls + 1:]
            raw[u] = raw.get(u, Fraction(0)) + v * like
        den = 1
        for x in raw.values():
            den = den * x.denominator // gcd(den, x.denominator)
        self.w = {s: int(x * den) for s, x in raw.items() if x}
        self._norm()

    def pick_up(self, t: int) -> None:
        self.w = {s: v for s, v in self.w.items() if sum(s[t:]) == 0}
        self._norm()

    def size(self) -> int:
        return sum(next(iter(self.w)))


class Tracker:
    """Filters for every viewer (0 the table, p + 1 seat p) and every hand it cannot see, fed move by move."""

    def __init__(self, g: Shithead) -> None:
        self.n = g.players
        self.filters: list[dict[int, HandFilter]] | None = None

    def _start(self, g: Shithead) -> None:
        s = g.state
        self.filters = []
        for vi in range(self.n + 1):
            hands: dict[int, HandFilter] = {}
            for q in range(self.n):
                if q == vi - 1:
                    continue
                f = HandFilter()
                f.draw(len(s.hands[q]) - len(s.known[q]))
                hands[q] = f
            self.filters.append(hands)

    def play(self, g: Shithead, move: Any) -> None:
        """Play ``move`` on ``g`` and update the filters from what everyone saw."""
        s = g.state
        if self.filters is None and s.phase == "play":
            self._start(g)
        seat = g.current_player
        pre_known = list(s.known[seat]) if self.filters is not None else []
        t = threshold(g) if self.filters is not None and s.pile is not None else 0
        before = len(g.events)
        if isinstance(move, str):
            move = g.parse_move(move)
        g.play(move)
        if self.filters is None:
            return
        for e in g.events[before:]:
            if e.kind == "play" and e.data.get("source") == "hand":
                cards: list[Card] = list(e.data["cards"])
                rank = cards[0].rank
                known = list(pre_known)
                hidden = 0
                for c in cards:
                    if c in known:
                        known.remove(c)
                    else:
                        hidden += 1
                known_fit = sum(1 for c in pre_known if CLS[c.rank] >= t)
                known_r = sum(1 for c in pre_known if c.rank == rank)
                for hands in self.filters:
                    if seat in hands:
                        hands[seat].play(t, known_fit, known_r, CLS[rank], hidden)
                pre_known = known
                t = 0  # a second play in this move only follows a burn or a clear: the pile is empty
            elif e.kind == "pickup":
                for hands in self.filters:
                    if seat in hands:
                        hands[seat].pick_up(t)
            elif e.kind == "draw":
                for hands in self.filters:
                    if e.seat in hands:
                        hands[e.seat].draw(int(e.data["count"]))
        for vi, hands in enumerate(self.filters):
            for q, f in hands.items():
                assert f.size() == len(s.hands[q]) - len(s.known[q]), (vi, q)


def pool(g: Shithead, viewpoint: int | None) -> list[int]:
    s = g.state
    unseen = [c for d in s.face_down for c in d if c is not None] + list(s.draw)
    for p in range(g.players):
        if p != viewpoint:
            unseen += g._unseen_hand(p)
    counts = Counter(CLS[c.rank] for c in unseen)
    return [counts.get(c, 0) for c in range(K)]


def joint(tracker: Tracker, g: Shithead, viewpoint: int | None, exact: bool
          ) -> tuple[list[int], list[Any], list[list[State]], Any]:
    """The hidden hands, their states, the pool and the joint weights (exact ints, or numpy floats)."""
    assert tracker.filters is not None
    hands = tracker.filters[0 if viewpoint is None else viewpoint + 1]
    seats = sorted(q for q, f in hands.items() if f.size() > 0)
    n = pool(g, viewpoint)
    states = [list(hands[q].w) for q in seats]
    if exact:
        rows = []
        for combo in itertools.product(*states):
            a = [sum(st[c] for st in combo) for c in range(K)]
            w = prod(hands[q].w[st] for q, st in zip(seats, combo, strict=True)) * \
                prod(falling(n[c], a[c]) for c in range(K))
            if w:
                rows.append((combo, w))
        return seats, rows, states, n
    # floats: every hand's weights scaled to at most 1, a log-space product of the counts
    logs = []
    for q in seats:
        ws = hands[q].w
        top = max(ws.values())
        logs.append(np.array([np.log(float(Fraction(ws[st], top))) if ws[st] else -np.inf for st in ws]))
    arr = [np.array(st, dtype=np.int64) for st in states]
    lf = np.full((K, 16), -np.inf)
    for c in range(K):
        for k in range(16):
            f = falling(n[c], k)
            if f > 0:
                lf[c, k] = np.log(float(f))
    return seats, (logs, arr, lf), states, n


def predictions(tracker: Tracker, g: Shithead, viewpoint: int | None, exact: bool = False) -> dict[str, Any]:
    """The must-play law's answers: the mover picks up (hand source, a hand the viewer cannot see), the
    draw pile's top fits, a face-down card fits."""
    s = g.state
    t = threshold(g)
    seats, rows, states, n = joint(tracker, g, viewpoint, exact)
    free = sum(1 for d in s.face_down for c in d if c is not None) + len(s.draw)
    mover = g.current_player
    out: dict[str, Any] = {}
    ask_pickup = mover != viewpoint and g.source(mover) == "hand"
    if exact:
        total = sum(w for _, w in rows)
        exp_a = [Fraction(sum(w * sum(st[c] for st in combo) for combo, w in rows), total) for c in range(K)]
        if free:
            out["free_fits"] = sum((n[c] - exp_a[c] for c in range(t, K)), Fraction(0)) / free
        if ask_pickup:
            if any(CLS[c.rank] >= t for c in s.known[mover]):
                out["pickup"] = Fraction(0)
            elif mover in seats:
                i = seats.index(mover)
                out["pickup"] = Fraction(sum(w for combo, w in rows if sum(combo[i][t:]) == 0), total)
            else:
                out["pickup"] = Fraction(1)
        return out
    logs, arr, lf = rows
    m = len(seats)
    # every combination of the hands' states, as a grid
    grids = np.meshgrid(*[np.arange(len(x)) for x in states], indexing="ij") if m else []
    idx = [gr.ravel() for gr in grids]
    if m:
        a = sum(arr[i][idx[i]] for i in range(m))
        lw = sum(logs[i][idx[i]] for i in range(m)) + lf[np.arange(K)[None, :], a].sum(axis=1)
        lw = lw - lw.max()
        w = np.exp(lw)
        w /= w.sum()
        exp_a = (w[:, None] * a).sum(axis=0)
    else:
        exp_a = np.zeros(K)
    if free:
        out["free_fits"] = float(sum(n[c] - exp_a[c] for c in range(t, K)) / free)
    if ask_pickup:
        if any(CLS[c.rank] >= t for c in s.known[mover]):
            out["pickup"] = 0.0
        elif mover in seats:
            i = seats.index(mover)
            mine = arr[i][idx[i]]
            out["pickup"] = float(w[mine[:, t:].sum(axis=1) == 0].sum())
        else:
            out["pickup"] = 1.0
    return out


def hand_play_weight(w: Shithead, text: str, want: list[Card]) -> Fraction:
    """In one world, the chance that an uninformed player made this move and that the engine took these
    cards: a hand play of rank r is (cards of r in hand) / (cards that fit), the engine's pick of its
    unseen cards of r one over the number of ways; every other move 1 (forced or public)."""
    from math import comb
    move = w.parse_move(text)
    if move.kind != "play" or shithead_move(move).source != "hand":
        return Fraction(1)
    m = w.current_player
    hand = w.state.hands[m]
    rank = shithead_move(move).rank
    fit = sum(1 for c in hand if w.fits(c))
    same = sum(1 for c in hand if c.rank == rank)
    unseen = w._unseen_hand(m)
    hidden = [c for c in want if c in unseen]
    same_unseen = sum(1 for c in unseen if c.rank == rank)
    return Fraction(same, fit) / comb(same_unseen, len(hidden))
