"""Brute force for Spite and Malice's mixture of bookkeepings (same-face copies with different labels).

Independent of :mod:`cardlab.sim.chance` and of the game's law: a small position (few hidden cards,
every other card face up in the side piles) is built by hand with public labels and slot marks; every
assignment of its hidden physical cards that respects those labels (a label-l card only on a place
marked l) is a *world*, all equally likely. Then the real moves are replayed in every world, with the
modelling assumption written out as a likelihood:

* a hand hidden from the viewer plays a card: it is a uniformly random card of that hand (chance 1/k
  for each of its k cards), and it shows the face of the card really played, so each card of that face
  in the world's hand is a branch of weight 1/k, whichever copy it is;
* the viewer draws: the world's top stock cards must show the faces the viewer saw, in order;
* a hand hidden from the viewer draws: the world's top stock cards go to that hand, unseen;
* a payoff card is played: the card under it must show the face everybody sees.

The worlds' weights then give the exact law of what is still hidden, which the package's answers must
equal: the face on each stock and payoff place, and how many cards of each face a hidden hand holds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, full_deck
from cardlab.games.spite_malice.rules import hand_card

World = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
# (payoff 0 hidden part bottom..top, payoff 1 hidden part, hand 0 sorted, hand 1 sorted, stock bottom..top)


def small_position(seed: int, hidden_faces: int = 5) -> cardlab.Game[Any]:
    """A valid Spite and Malice position with 10 hidden cards: both copies of ``hidden_faces`` low faces.

    One hidden card under each payoff top (label 0), two cards in each hand (each label 0 or 1, its slot
    marked alike), a stock of a label-0 layer of 2 on top of a label-1 layer of 2 (one completed pile so
    far). Centre piles hold A-2, A and nothing, so low cards are playable; everything else is face up in
    the side piles. Seat ``seed % 2`` is to move, mid-turn.
    """
    rng = np.random.default_rng(seed)
    g = cardlab.new_game("spite-and-malice", players=2, seed=seed, first="seat0")
    s: Any = g.state.clone()
    deck = full_deck(2)
    low = sorted({c.face for c in deck if int(c.rank) <= 5})
    chosen = [low[i] for i in rng.choice(len(low), size=hidden_faces, replace=False)]
    hidden = [c for c in deck if c.face in chosen]
    rest = [c for c in deck if c.face not in chosen]
    order = rng.permutation(len(rest))
    rest = [rest[i] for i in order]

    def take(rank: int) -> Card:
        card = next(c for c in rest if int(c.rank) == rank)
        rest.remove(card)
        return card

    s.centre = [[take(1), take(2)], [take(1)], []]
    h = [hidden[i] for i in rng.permutation(len(hidden))]
    s.labels = [0] * 104
    for c in h[8:10]:
        s.labels[c.id] = 1
    s.payoff = [[h[0], rest.pop()], [h[1], rest.pop()]]
    s.hands = [sorted(h[2:4]), sorted(h[4:6])]
    for c in h[2:6]:
        s.labels[c.id] = int(rng.integers(2))
    s.hand_marks = [sorted([s.labels[c.id], s.labels[c.id]] for c in hand) for hand in s.hands]
    s.stock = [h[8], h[9], h[6], h[7]]  # bottom..top
    s.stock_parts = [[1, 1, 2], [0, 0, 2]]
    s.completions = 1
    s.sides = [[rest[i::8] for i in range(j, 8, 2)] for j in (0, 1)]
    s.to_move = seed % 2
    g._state = s
    g._validate_state()
    g._check_conservation("small position")
    return g


def prior(g: cardlab.Game[Any], viewpoint: int | None) -> dict[World, Fraction]:
    """Every assignment of the hidden cards that respects the labels and marks, equally likely."""
    s: Any = g.state
    places: list[tuple[str, int, int]] = []  # (zone, index, label)
    cards: list[Card] = []
    for seat in (0, 1):
        for i, c in enumerate(s.payoff[seat][:-1]):
            places.append((f"payoff{seat}", i, 0))
            cards.append(c)
    for seat in (0, 1):
        if seat != viewpoint:
            for i, (c, m) in enumerate(zip(s.hands[seat], s.hand_marks[seat], strict=True)):
                places.append((f"hand{seat}", i, m[0]))
                cards.append(c)
    pos = 0
    for lo, _hi, count in s.stock_parts:
        for i in range(pos, pos + count):
            places.append(("stock", i, lo))
            cards.append(s.stock[i])
        pos += count
    by_label: dict[int, list[int]] = {}
    for q, (_, _, label) in enumerate(places):
        by_label.setdefault(label, []).append(q)
    per_label = {label: [c for c in cards if s.labels[c.id] == label] for label in by_label}
    worlds: dict[World, Fraction] = {}
    labels = sorted(by_label)
    for combo in itertools.product(*(itertools.permutations(per_label[lb]) for lb in labels)):
        at: dict[int, Card] = {}
        for label, perm in zip(labels, combo, strict=True):
            at.update(zip(by_label[label], perm, strict=True))
        zones: dict[str, list[Card]] = {"payoff0": [], "payoff1": [], "hand0": [], "hand1": [], "stock": []}
        for q, (zone, _, _) in enumerate(places):
            zones[zone].append(at[q])
        world = (tuple(zones["payoff0"]), tuple(zones["payoff1"]), tuple(sorted(zones["hand0"])),
                 tuple(sorted(zones["hand1"])), tuple(zones["stock"]))
        worlds[world] = worlds.get(world, Fraction(0)) + 1
    total = sum(worlds.values())
    return {w: p / total for w, p in worlds.items()}


def walk(seed: int, viewpoint: int | None, moves: int = 8
         ) -> Iterator[tuple[int, cardlab.Game[Any], dict[World, Fraction]]]:
    """Small position ``seed`` and its worlds for ``viewpoint``, then after each of up to ``moves`` random
    legal moves (seeded by ``seed``): ``(moves made, game, worlds)``, until a move leaves the brute force's
    domain (:func:`step`)."""
    g = small_position(seed)
    worlds = prior(g, viewpoint)
    yield 0, g, worlds
    rng = np.random.default_rng(seed)
    for k in range(1, moves + 1):
        legal = g.legal_moves()
        stepped = step(worlds, g, legal[int(rng.integers(len(legal)))], viewpoint)
        if stepped is None:
            return
        worlds = stepped
        yield k, g, worlds


def step(worlds: dict[World, Fraction], g: cardlab.Game[Any], move: Any, viewpoint: int | None
         ) -> dict[World, Fraction] | None:
    """Play ``move`` in ``g`` and in every world; None when the move completed a centre pile or ended the
    round (the brute force stops there)."""
    s: Any = g.state
    seat = s.to_move
    before_events = len(g.events)
    payoff_shown = s.payoff[seat][-2] if move.kind == "payoff" and len(s.payoff[seat]) > 1 else None
    completions = s.completions
    g.play(move)
    s = g.state
    if g.is_over or s.completions != completions:
        return None
    new: dict[World, Fraction] = {}
    for world, p in worlds.items():
        for w2, q in _move_world(world, seat, move, viewpoint, payoff_shown):
            new[w2] = new.get(w2, Fraction(0)) + p * q
    worlds = new
    for e in g.events[before_events:]:
        if e.kind != "draw":
            continue
        drawer, count = e.seat, e.data["count"]
        seen = None
        if drawer == viewpoint:
            seen = [c.face for c in _drawn_faces(e)]
        worlds = _draw_world(worlds, drawer, count, seen)
    total = sum(worlds.values())
    return {w: p / total for w, p in worlds.items() if p}


def _drawn_faces(event: Any) -> list[Card]:
    text = event.private.split(": ", 1)[1]
    return [Card.parse(t) for t in text.split(", ")]


def _move_world(world: World, seat: int, move: Any, viewpoint: int | None, payoff_shown: Card | None
                ) -> Iterator[tuple[World, Fraction]]:
    pay0, pay1, hand0, hand1, stock = world
    if move.kind in ("hand", "discard") and seat != viewpoint:
        hand = hand0 if seat == 0 else hand1
        face = hand_card(move).face
        for i, c in enumerate(hand):
            if c.face == face:
                rest = hand[:i] + hand[i + 1:]
                yield ((pay0, pay1, rest, hand1, stock) if seat == 0 else (pay0, pay1, hand0, rest, stock),
                       Fraction(1, len(hand)))
        return
    if payoff_shown is not None:
        pay = pay0 if seat == 0 else pay1
        if pay[-1].face == payoff_shown.face:
            yield ((pay[:-1], pay1, hand0, hand1, stock) if seat == 0 else (pay0, pay[:-1], hand0, hand1, stock),
                   Fraction(1))
        return
    yield world, Fraction(1)


def _draw_world(worlds: dict[World, Fraction], drawer: int, count: int, seen: list[Any] | None
                ) -> dict[World, Fraction]:
    out: dict[World, Fraction] = {}
    for (pay0, pay1, hand0, hand1, stock), p in worlds.items():
        top = stock[len(stock) - count:][::-1]  # top card first
        if seen is not None and [c.face for c in top] != seen:
            continue
        left = stock[:len(stock) - count]
        if seen is None:
            if drawer == 0:
                hand0 = tuple(sorted(hand0 + top))
            else:
                hand1 = tuple(sorted(hand1 + top))
        w = (pay0, pay1, hand0, hand1, left)
        out[w] = out.get(w, Fraction(0)) + p
    return out


def brute_answers(worlds: dict[World, Fraction], viewpoint: int | None
                  ) -> dict[tuple[str, int], dict[Any, Fraction]]:
    """Per stock place (bottom first) and payoff place: the law of its face; per hidden hand: the expected
    number of cards of each face."""
    out: dict[tuple[str, int], dict[Any, Fraction]] = {}
    for world, p in worlds.items():
        pay0, pay1, hand0, hand1, stock = world
        for name, zone in (("payoff 0", pay0), ("payoff 1", pay1), ("stock", stock)):
            for i, c in enumerate(zone):
                d = out.setdefault((name, i), {})
                d[c.face] = d.get(c.face, Fraction(0)) + p
        for seat, hand in ((0, hand0), (1, hand1)):
            if seat != viewpoint:
                for c in hand:
                    d = out.setdefault((f"hand {seat}", 0), {})
                    d[c.face] = d.get(c.face, Fraction(0)) + p
    return out


def package_answers(g: cardlab.Game[Any], viewpoint: int | None) -> dict[tuple[str, int], dict[Any, Fraction]]:
    """The same quantities from the package's chance law."""
    law = g.chance_law(viewpoint)
    out: dict[tuple[str, int], dict[Any, Fraction]] = {}
    count: dict[str, int] = {}
    for q, name in enumerate(law.names):
        key = (name, 0) if name.startswith("hand") else (name, count.get(name, 0))
        count[name] = count.get(name, 0) + 1
        d = out.setdefault(key, {})
        for face, p in law.place_law(q).items():
            d[face.face] = d.get(face.face, Fraction(0)) + p
    return {k: {f: p for f, p in d.items() if p} for k, d in out.items()}
