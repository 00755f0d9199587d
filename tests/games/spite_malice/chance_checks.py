"""Spite and Malice's chance checks (registered with :mod:`tests.sim.chance_checks`, which runs them for every
game), and its copy twins: two games that differ only in which of two packs' copies a hidden hand put down.

The count of "the next stock card fits a centre pile" is made here from the public view and events, where it
is unambiguous; the twins move cards of one public label among the places that accept it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, face_of
from cardlab.games.spite_malice.rules import hand_card, spite_move
from cardlab.sim import prob
from tests.sim import chance_checks as cc


def spite_tie_faces(g: cardlab.Game[Any]) -> list[Card]:
    """The tied payoff tops of this round, read from the public opening announcement."""
    out = []
    for part in g.state.opening.split(";"):
        if " tie" in part and "payoff tops " in part:
            words = part.split("payoff tops ", 1)[1].split(" tie")[0].split(" and ")
            out += [Card.parse(w) for w in words]
    return out


def spite_count(g: cardlab.Game[Any], viewpoint: int | None) -> Fraction | None:
    """Next stock card fits, counted from the public view and events, where that count is unambiguous:
    the stock's top layer is the deal's never-seen rest, and no tied face is in view (else which copy
    is in view would matter). Never-seen = all faces - visible now - completed piles - tied tops."""
    v = g.observe(viewpoint)
    if v.over or v.stock_size == 0 or v.stock_layers[0][:2] != (0, 0) or g.options["completed_to"] != "bottom":
        return None
    visible = [c for c in v.payoff_tops if c is not None] + list(v.hand or ())
    visible += [c for seat in v.sides for pile in seat for c in pile] + [c for pile in v.centre for c in pile]
    ties = [face_of(c) for c in spite_tie_faces(g)]
    seat_faces = list(zip(ties[0::2], ties[1::2], strict=True))
    if set(ties) & set(visible) or len(set(ties[0::2])) < len(seat_faces) or len(set(ties[1::2])) < len(seat_faces):
        return None  # a tied face in view, or one pile showing a face twice: which copy is which is unknown
    completed: list[Card] = []
    building: dict[int, list[Card]] = {}
    round_start = max((i for i, e in enumerate(g.events) if e.kind == "deal"), default=-1)
    for e in g.events[round_start + 1:]:
        if e.kind == "centre":
            building.setdefault(e.data["pile"], []).append(face_of(e.data["card"]))
        elif e.kind == "complete":
            completed += building.pop(e.data["pile"], [])
    never = cc.all_faces(2) - Counter(visible) - Counter(completed) - Counter(ties)
    fits = sum(k for c, k in never.items() if g.can_play_on_centre(c))
    return Fraction(fits, sum(never.values()))


def spite_exact(g: cardlab.Game[Any], viewpoint: int | None) -> cc.Answers:
    return {"next": cc.attempt(lambda: prob.spite_next_stock_playable(g, viewpoint)),
            "payoff": cc.attempt(lambda: prob.spite_payoff_playable_now(g, viewpoint))}


def spite_twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """Cards of one public label moved among the places that accept it."""
    t = g.copy()
    s: Any = t._state
    places = t._hidden_places(viewpoint)
    # places that accept the same labels: each stock card's layer, payoff piles (labels 0 and their
    # own tie label), hand slots (their marks); swap cards of one label among places accepting it
    labels = s.labels
    classes: dict[int, list[int]] = {}
    for i, place in enumerate(places):
        classes.setdefault(labels[place[4].id], []).append(i)
    cards = [p[4] for p in places]
    for members in classes.values():
        # a label's cards move among the places holding that label's cards (any of them accepts it)
        moved = cc.shuffle_within([cards[i] for i in members], rng)
        for i, c in zip(members, moved, strict=True):
            cards[i] = c
    payoff: list[list[Card]] = [[], []]
    hands: list[list[Card]] = [[], []]
    stock: list[Card] = []
    for (zone, seat, *_), c in zip(places, cards, strict=True):
        (payoff[seat] if zone == "payoff" else hands[seat] if zone == "hand" else stock).append(c)
    for seat in (0, 1):
        s.payoff[seat] = payoff[seat] + s.payoff[seat][-1:]
        if seat != viewpoint:
            s.hands[seat] = sorted(hands[seat])
    s.stock = stock
    return t


def spite_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[cc.Outcome]:
    s: Any = g.state
    if not s.stock:
        return []
    # the subject is the exposure (round, completions, stock size), not the card: a card that was
    # on top once can come back through a completed pile, and skipping it then would pick the
    # sample by the card's history (which depends on its face)
    return [("next", (s.round, s.completions, len(s.stock)), bool(g.can_play_on_centre(s.stock[-1])),
             lambda: cc.attempt(lambda: prob.spite_next_stock_playable(g, viewpoint)))]


def spite_copy_twins(seeds: range, viewpoint: int | None = None, **options: Any
                     ) -> Iterator[tuple[cardlab.Game[Any], cardlab.Game[Any]]]:
    """Spite and Malice twins that differ exactly in which copy an ambiguous hand play put down.

    Over greedy bot games (``completed_to="bottom"`` marks are single labels), whenever a hand hidden
    from ``viewpoint`` plays (to a centre pile below the Queen, or to a side pile) a face of which it
    holds both packs' cards, with different labels, the game just after the play is paired with the
    game in which the engine had picked the other copy (the same game before the play, played on
    with the engine's copy choice forced to the other card): the engine does all the bookkeeping in
    both. No viewer can tell the two apart, so every answer for ``viewpoint`` must be the same in both.
    """
    for seed in seeds:
        g = cardlab.new_game("spite-and-malice", players=2, seed=seed, **options)
        policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(seed))
        for _ in range(3000):
            if g.is_over:
                break
            move = cardlab.policies.choose(policy, g)
            s: Any = g.state
            m = g.current_player
            before = None
            if move.kind in ("hand", "discard") and m != viewpoint:
                copies = [c for c in s.hands[m] if c.face == hand_card(move).face]
                if len(copies) == 2 and s.labels[copies[0].id] != s.labels[copies[1].id]:
                    played = spite_move(move)
                    pile = (played.centre if move.kind == "hand" else played.side) - 1
                    if move.kind == "discard" or len(s.centre[pile]) + 1 < 12:
                        before = (g.copy(), copies, move.kind, pile)
            g.play(move)
            if before is None or g.is_over:
                continue
            t, copies, kind, pile = before
            gs: Any = g.state
            played = (gs.sides[m][pile] if kind == "discard" else gs.centre[pile])[-1]
            other = copies[1] if played == copies[0] else copies[0]
            t._pick_copy = lambda _seat, _copies, o=other: o  # the engine's seam: this play puts down the other copy
            t.play(move)
            del t._pick_copy
            ts: Any = t.state
            assert (ts.sides[m][pile] if kind == "discard" else ts.centre[pile])[-1] == other
            t._check_conservation("copy twin")
            yield g, t


def spite_hidden(g: cardlab.Game[Any], viewer: int | None) -> set[Card]:
    """The other hand, the payoff piles under their tops and the stock."""
    st: Any = g.state
    hidden = {c for seat, hand in enumerate(st.hands) if seat != viewer for c in hand}
    hidden |= {c for pile in st.payoff for c in pile[:-1]}
    return hidden | set(st.stock)


CHECKS = cc.register_checks(cc.GameChecks(
    name="spite-and-malice", count=lambda g, v: cc.Counts({"next": spite_count(g, v)}), exact=spite_exact,
    twin=spite_twin, outcomes=spite_outcomes, hidden=spite_hidden,
    positions=[(2, {"payoff_size": 5}, range(8), 2), (2, {"completed_to": "shuffle", "payoff_size": 5}, range(3), 3)],
    calibration=(2, {"payoff_size": 8}, range(100, 130)), choices=(range(3), 4, {"payoff_size": 5})))
