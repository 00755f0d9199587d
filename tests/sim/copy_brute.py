"""Brute force for Spite and Malice's mixture of bookkeepings (same-face copies with different labels).

Independent of :mod:`cardlab.chance.law` and of the game's law: a small position (few hidden cards,
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
import json
import math
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, full_deck
from cardlab.games.spite_malice.rules import hand_card

World = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
# (payoff 0 hidden part bottom..top, payoff 1 hidden part, hand 0 sorted, hand 1 sorted, stock bottom..top)


def small_position(seed: int, hidden_faces: int = 5, tied: bool = False) -> cardlab.Game[Any]:
    """A valid Spite and Malice position with 10 hidden cards: both copies of ``hidden_faces`` low faces.

    One hidden card under each payoff top (label 0), two cards in each hand (each label 0 or 1, its slot
    marked alike), a stock of a label-0 layer of 2 on top of a label-1 layer of 2 (one completed pile so
    far). Centre piles hold A-2, A and nothing, so low cards are playable; everything else is face up in
    the side piles. Seat ``seed % 2`` is to move, mid-turn.

    ``tied``: seat 0's payoff pile holds two hidden cards, the one just under its top seen as a tied
    payoff top (label -1: known to be in that pile) and the other copy of its face hidden anywhere, hand 1
    holds one card, and the payoff tops fit the centre piles (a 3 and a 2), so that payoff plays turn up a
    face whose copies carry different labels.
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
    if tied:
        s.payoff = [[h[0], h[1], take(3)], [h[2], take(2)]]
        s.hands = [sorted(h[3:5]), sorted(h[5:6])]
        for c in h[3:6]:
            s.labels[c.id] = int(rng.integers(2))
        s.labels[h[1].id] = -1
    else:
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
    tied = [[c for c in cards if s.labels[c.id] == -1 - seat] for seat in (0, 1)]  # seen tied: in that pile
    piles = [[q for q, p in enumerate(places) if p[0] == f"payoff{seat}"] for seat in (0, 1)]
    worlds: dict[World, Fraction] = {}
    labels = sorted(by_label)
    for ties in itertools.product(*(itertools.permutations(piles[seat], len(tied[seat])) for seat in (0, 1))):
        taken = {q for qs in ties for q in qs}
        free = {lb: [q for q in by_label[lb] if q not in taken] for lb in labels}
        if any(len(free[lb]) != len(per_label[lb]) for lb in labels):
            continue
        for combo in itertools.product(*(itertools.permutations(per_label[lb]) for lb in labels)):
            at: dict[int, Card] = {}
            for seat in (0, 1):
                at.update(zip(ties[seat], tied[seat], strict=True))
            for label, perm in zip(labels, combo, strict=True):
                at.update(zip(free[label], perm, strict=True))
            zones: dict[str, list[Card]] = {"payoff0": [], "payoff1": [], "hand0": [], "hand1": [], "stock": []}
            for q, (zone, _, _) in enumerate(places):
                zones[zone].append(at[q])
            world = (tuple(zones["payoff0"]), tuple(zones["payoff1"]), tuple(sorted(zones["hand0"])),
                     tuple(sorted(zones["hand1"])), tuple(zones["stock"]))
            worlds[world] = worlds.get(world, Fraction(0)) + 1
    total = sum(worlds.values())
    return {w: p / total for w, p in worlds.items()}


def walk(seed: int, viewpoint: int | None, moves: int = 8, tied: bool = False
         ) -> Iterator[tuple[int, cardlab.Game[Any], dict[World, Fraction]]]:
    """Small position ``seed`` (``tied``: see :func:`small_position`) and its worlds for ``viewpoint``, then
    after each of up to ``moves`` random legal moves (seeded by ``seed``): ``(moves made, game, worlds)``,
    until a move leaves the brute force's domain (:func:`step`)."""
    g = small_position(seed, tied=tied)
    worlds = prior(g, viewpoint)
    yield 0, g, worlds
    rng = np.random.default_rng(seed)
    for k in range(1, moves + 1):
        legal = g.legal_moves()
        if tied and any(m.kind == "payoff" for m in legal):  # turn up the payoff cards first
            legal = [m for m in legal if m.kind == "payoff"]
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


# ------------------------------------------------------------------------------------------- swapped-copy twins
def swap_twin(record: str, face: Card, labels_stay: bool) -> cardlab.Game[Any] | None:
    """The game of ``record`` (its dealt position, no move played) with the two physical copies of ``face``
    exchanged wherever they lie. ``labels_stay``: each copy keeps its own bookkeeping label, so the twin's
    bookkeeping differs (after a tied opening: which copy of a tied face is the tied one); else the labels
    move with the cards (the same bookkeeping; the twins part later, when the engine picks which of two
    same-face hand cards a move plays). None when that twin is not a valid position (a tied copy would
    leave its payoff pile). Views and events are by face, so no viewer can tell the twins apart."""
    data = json.loads(record)
    a, b = (Card(face.rank, face.suit, pack) for pack in (0, 1))

    def swap(x: Any) -> Any:
        if isinstance(x, list):
            return [swap(y) for y in x]
        return {a.code: b.code, b.code: a.code}.get(x, x)

    init = data["initial"]
    labels = init["labels"]
    if labels_stay and labels[a.id] == labels[b.id]:
        return None  # the same twin as with the labels moved
    if labels_stay:
        _keep_tied_copy_home(data, a, b)
    for key in ("payoff", "hands", "sides", "centre", "stock"):
        init[key] = swap(init[key])
    if not labels_stay:
        labels[a.id], labels[b.id] = labels[b.id], labels[a.id]
    data["moves"] = []
    try:
        return cardlab.load_game(json.dumps(data))
    except cardlab.errors.CorruptRecordError:
        return None


def _keep_tied_copy_home(data: dict[str, Any], a: Card, b: Card) -> None:
    """Before ``a`` and ``b`` swap places keeping their labels: if one of them is a tied copy (known to be in
    its seat's payoff pile) and the other lies deep in the other payoff pile, first exchange that other copy
    with a card of the tied pile that is never turned up in the whole game (both places stay hidden from
    everybody to the end), so that after the swap the tied copy is still in its own pile."""
    init = data["initial"]
    piles = init["payoff"]
    end = cardlab.load_game(json.dumps(data)).state.payoff
    where = {c: (seat, i) for seat in (0, 1) for i, c in enumerate(piles[seat])}
    for tied, other in ((a, b), (b, a)):
        label = init["labels"][tied.id]
        if label >= 0 or tied.code not in where or other.code not in where:
            continue
        seat = -1 - label
        o_seat, o_i = where[other.code]
        if o_seat == seat or o_i >= len(end[o_seat]) - 1:
            continue
        deep = [i for i in range(len(end[seat]) - 1) if init["labels"][Card.parse(piles[seat][i]).id] == 0
                and piles[seat][i] not in (a.code, b.code)]
        if deep:
            piles[seat][deep[0]], piles[o_seat][o_i] = piles[o_seat][o_i], piles[seat][deep[0]]
        return


def tied_faces(g: cardlab.Game[Any]) -> list[Card]:
    """The faces seen tied in this round's opening, read from the public announcement."""
    return [Card.parse(t) for t in re.findall(r"payoff tops (\S+) and (\S+) tie: ", g.state.opening) for t in t]


def swap_twin_walk(seed: int, faces_to_swap: int = 2, every: int = 60, policy: str = "greedy", **options: Any
                   ) -> Iterator[tuple[str, cardlab.Game[Any], cardlab.Game[Any]]]:
    """Twins of a real game (seed ``seed``, ``policy`` bots, ``options``): for the faces tied in its opening
    and ``faces_to_swap`` other faces (drawn by the seed), each swapped twin (:func:`swap_twin`, both ways)
    replays the game's moves beside it. After every move the views of the table and both seats and the new
    events (as each viewer reads them) must be identical, else ``("seen", game, twin)``. Checkpoints, as
    ``(kind, game, twin)``: ``"opening"`` the dealt position after a tied opening, ``"reveal"`` a payoff
    pile just turned up the swapped face, ``"face"`` any other move that showed it (a hand play, a draw
    seen by its seat, a completed pile), ``"later"`` every ``every``-th move."""
    g = cardlab.new_game("spite-and-malice", players=2, seed=seed, **options)
    bot = cardlab.policies.make_policy(policy, g.name, np.random.default_rng([seed, 7]))
    while not g.is_over and g.move_count < 3000:
        g.play(cardlab.policies.choose(bot, g))
    record = g.to_json()
    rng = np.random.default_rng(seed)
    ties = list(dict.fromkeys(c.face for c in tied_faces(g)))
    others = [c for c in full_deck(1) if c.face not in ties]
    chosen = [Card(*f) for f in ties] + [others[i] for i in rng.choice(len(others), faces_to_swap, replace=False)]
    for face in chosen:
        for labels_stay in (True, False):
            twin = swap_twin(record, face, labels_stay)
            if twin is None:
                continue
            yield from _walk_twins(record, twin, face, every)


def _walk_twins(record: str, twin: cardlab.Game[Any], face: Card, every: int
                ) -> Iterator[tuple[str, cardlab.Game[Any], cardlab.Game[Any]]]:
    data = json.loads(record)
    moves = data["moves"]
    data["moves"] = []
    g = cardlab.load_game(json.dumps(data))
    shown = str(face)
    if face.face in {c.face for c in tied_faces(g)}:
        yield "opening", g, twin
    for k, text in enumerate(moves):
        start = len(g.events)
        g.play(text)
        twin.play(text)
        new = [(e.kind, dict(e.data)) for e in g.events[start:]], [(e.kind, dict(e.data)) for e in twin.events[start:]]
        if new[0] != new[1] or any(g.observe(v) != twin.observe(v) or [e.describe(v) for e in g.events[start:]] !=
                                   [e.describe(v) for e in twin.events[start:]] for v in (None, 0, 1)):
            yield "seen", g, twin
            return
        texts = [e.describe(v) for e in g.events[start:] for v in (None, 0, 1)]
        if any(f"the payoff pile shows {shown} " in t for t in texts):
            yield "reveal", g, twin
        elif any(shown in t for t in texts):
            yield "face", g, twin
        elif k % every == every - 1:
            yield "later", g, twin


# ------------------------------------------------------------------------------------------- tied openings
def opening_brute(g: cardlab.Game[Any], viewpoint: int | None) -> dict[tuple[str, Any], Fraction]:
    """The exact law, at a dealt position after a tied opening, of the face on a hidden place of each payoff
    pile and on the stock's top, for the faces shown in the opening; counted apart from the package's law.

    The deal is uniform: each payoff pile gets ``n`` cards, the other ``104 - 2n`` cards go to the hands and
    the stock. Each top shown in the opening (the first ones, and after each tie the ones of the reshuffled
    piles) is a uniformly random card of its whole pile, so it shows face f with chance (copies of f in the
    pile) / n, whichever copies they are. The worlds are the numbers of copies of each face shown that lie
    in pile 0, pile 1 and the rest (the viewer's own hand, known, left out), weighed by the number of deals
    (the other cards fill the remaining places) times those chances; the viewer's hand is given.
    """
    s: Any = g.state
    n = len(s.payoff[0])
    shown = [(Card.parse(a), Card.parse(b)) for a, b in re.findall(r"payoff tops (\S+) and (\S+) tie: ", s.opening)]
    shown.append((s.payoff[0][-1], s.payoff[1][-1]))
    faces = sorted({c.face for pair in shown for c in pair})
    own = [] if viewpoint is None else list(s.hands[viewpoint])
    copies = {f: 2 - sum(c.face == f for c in own) for f in faces}
    fillers = 104 - len(own) - sum(copies.values())
    rest_places = 104 - 2 * n - len(own)
    splits = {f: [(a, b, k - a - b) for a in range(k + 1) for b in range(k + 1 - a)] for f, k in copies.items()}
    total = Fraction(0)
    sums: dict[tuple[str, Any], Fraction] = {}
    for combo in itertools.product(*(splits[f] for f in faces)):
        counts = dict(zip(faces, combo, strict=True))
        in0, in1, out = (sum(c[i] for c in combo) for i in range(3))
        if in0 > n or in1 > n or out > rest_places:
            continue
        weight = Fraction(math.comb(fillers, n - in0) * math.comb(fillers - n + in0, n - in1))
        for a, b, c in combo:  # which copies of a face go where
            weight *= math.factorial(a + b + c) // (math.factorial(a) * math.factorial(b) * math.factorial(c))
        for top0, top1 in shown:
            weight *= Fraction(counts[top0.face][0], n) * Fraction(counts[top1.face][1], n)
        if not weight:
            continue
        total += weight
        last = shown[-1]
        for f, (a, b, c) in counts.items():
            for key, x in ((("payoff 0", f), Fraction(a - (f == last[0].face), n - 1)),
                           (("payoff 1", f), Fraction(b - (f == last[1].face), n - 1)),
                           (("stock", f), Fraction(c, rest_places))):
                sums[key] = sums.get(key, Fraction(0)) + weight * x
    return {key: x / total for key, x in sums.items()}


def opening_package(g: cardlab.Game[Any], viewpoint: int | None) -> dict[tuple[str, Any], Fraction]:
    """The same chances from the package's law: a hidden place of each payoff pile and the stock's top."""
    law = g.chance_law(viewpoint)
    faces = set(opening_brute_faces(g))
    out: dict[tuple[str, Any], Fraction] = {}
    for name, q in (("payoff 0", law.names.index("payoff 0")), ("payoff 1", law.names.index("payoff 1")),
                    ("stock", len(law.names) - 1)):
        for face in faces:
            out[(name, face)] = sum((p for c, p in law.place_law(q).items() if c.face == face), Fraction(0))
    return out


def opening_brute_faces(g: cardlab.Game[Any]) -> list[Any]:
    """The faces shown in the opening (tied tops and the tops now)."""
    s: Any = g.state
    return sorted({c.face for c in tied_faces(g)} | {s.payoff[0][-1].face, s.payoff[1][-1].face})

