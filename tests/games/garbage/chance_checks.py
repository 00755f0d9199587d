"""Garbage's chance checks (registered with :mod:`tests.sim.chance_checks`, which runs them for every game).

The count of "the next stock card can be used" is made here from the public view alone (with the reshuffled
stock tracked through the public events); the twins move face-down spots and stock cards among themselves.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, face_of
from cardlab.sim import prob
from tests.sim import chance_checks as cc


def garbage_known_stock(g: cardlab.Game[Any]) -> Counter[Card] | None:
    """The reshuffled stock's faces, tracked from the public views alone by replaying the game: at a
    reshuffle event the stock is the discard pile just before it minus its top; each stock draw then
    removes the face drawn. None before any reshuffle."""
    record = g.to_json()
    replay = cardlab.load_game(record.replace(record[record.index('"moves"'):], '"moves": []}'))
    known: Counter[Card] | None = None
    before = replay.observe(None)
    for move in g.moves:
        for snap in replay.stepwise(move.text):
            event = snap.events[-1] if snap.events else None
            view = snap.observe(None)
            if event is not None and event.kind == "reshuffle":
                known = Counter(before.discard[:-1])
            elif event is not None and event.kind == "draw" and event.data.get("source") == "stock" and known:
                known[face_of(event.data["card"])] -= 1
            before = view
        replay.play(move.text)
    return +known if known is not None else None


def garbage_count(g: cardlab.Game[Any], viewpoint: int | None) -> Fraction | None:
    """The next stock card can be used by the seat that draws it, counted from the public view."""
    v = g.observe(viewpoint)
    s = g.state
    if v.over:
        return None
    if v.phase == "draw":
        seat = v.to_move
    elif s.last_turns:
        if len(s.last_turns) < 2:
            return None
        seat = s.last_turns[1]
    else:
        seat = (v.to_move + 1) % v.players
    if v.stock_size == 0:
        pool = Counter(v.discard)
    elif v.stock_known:
        known = garbage_known_stock(g)
        assert known is not None and sum(known.values()) == v.stock_size
        pool = known
    else:
        seen = [c for lay in v.layouts for c in lay if c is not None] + list(v.discard)
        seen += [v.held] if v.held is not None else []
        pool = cc.all_faces(g.packs) - Counter(seen)
    if not pool:
        return None
    usable = sum(k for c, k in pool.items() if g.can_use(seat, c))
    return Fraction(usable, sum(pool.values()))


def garbage_exact(g: cardlab.Game[Any], viewpoint: int | None) -> cc.Answers:
    return {"next": cc.attempt(lambda: prob.garbage_next_card_placeable(g, viewpoint))}


def garbage_twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """Face-down spots and the stock: one pool before a reshuffle, two after it."""
    t = g.copy()
    s: Any = t._state
    spots = [(p, i) for p in range(g.players) for i in range(s.sizes[p]) if not s.up[p][i]]
    down = [s.spots[p][i] for p, i in spots]
    if s.stock_known:
        down, s.stock = cc.shuffle_within(down, rng), cc.shuffle_within(s.stock, rng)
    else:
        both = cc.shuffle_within(down + s.stock, rng)
        down, s.stock = both[:len(spots)], both[len(spots):]
    for (p, i), c in zip(spots, down, strict=True):
        s.spots[p][i] = c
    return t


def garbage_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[cc.Outcome]:
    s: Any = g.state
    seat = prob.garbage_next_drawer(g)
    if not s.stock or seat is None:
        return []
    return [("next", (s.hand, s.shuffles, s.stock[-1]), bool(g.can_use(seat, s.stock[-1])),
             lambda: cc.attempt(lambda: prob.garbage_next_card_placeable(g, viewpoint)))]


def garbage_hidden(g: cardlab.Game[Any], viewer: int | None) -> set[Card]:
    """Nobody knows a face-down spot or the stock (Garbage has no private hand)."""
    st: Any = g.state
    hidden = {c for spots, up in zip(st.spots, st.up, strict=True)
              for c, face_up in zip(spots, up, strict=True) if not face_up}
    return hidden | set(st.stock)


CHECKS = cc.register_checks(cc.GameChecks(
    name="garbage", count=lambda g, v: cc.Counts({"next": garbage_count(g, v)}), exact=garbage_exact,
    twin=garbage_twin, outcomes=garbage_outcomes, hidden=garbage_hidden,
    positions=[(2, {}, range(10), 1), (3, {}, range(4), 1), (2, {"last_round": True}, range(3), 1)],
    calibration=(2, {}, range(100, 190)), choices=(range(12), 1, {})))
