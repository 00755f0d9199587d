"""Shithead's chance law against a brute force over hidden deals, in small real positions.

A position is a real two-player game loaded from a record in the play phase with few cards left
unplayed (most of the pack is already out of play), continued by uniformly random legal moves. For a
viewpoint, the *worlds* are every way to put the cards it cannot see at the start onto the places it
cannot see (each equally likely: nothing has been learned yet). Each world replays the real moves:
it stays **consistent** while every move is legal in it — in particular every pick-up is forced, no
hand card fitting — and the viewer sees exactly what it saw in the real game (views and event texts
for that viewer: played faces, turned blind cards, its own draws). Each consistent world carries a
**weight**: the chance, in that world, that players of the law's model made the moves seen (a play
from the hand of rank ``r``: the cards of ``r`` in the hand over the cards that fit, times one over the
number of ways the engine could have taken the unseen cards it showed; every other move is forced or
public). After each move, the consistent worlds, by weight, give the truth: the chance that the first
face-down card fits, that the draw pile's top fits, that the mover picks up, the law of each face-down
and draw-pile place, and each face's expected count in each hand. None of it reads the package's chance
law, its beliefs or its resampler; the worlds do not even keep beliefs.

Who starts (``first="lowest3"``) is evidence about the hands as play starts. :func:`small_start` makes a
small position at the last set-up move, so that the worlds go through the start of play and a world in
which another seat would have started shows another event and drops out. In a full deal, at the first
position of play, :func:`first_position` counts instead: every way to fill the hidden hands by rank (each
weighted by the number of physical card sets it stands for), kept when the start rule as the rules text
states it (:func:`starter`) names the real starter; the face-down cards and the draw pile are then a
uniformly random arrangement of the rest (nothing else has been learned about them).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from fractions import Fraction
from math import comb, prod
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, face_of, full_deck
from cardlab.chance.law import ChanceLaw, Group, canonical
from cardlab.engine.game import RECORD_FORMAT, RECORD_VERSION
from cardlab.games.shithead import Shithead, ShitheadState, sort_key
from cardlab.sim import prob


class Inconsistent(Exception):
    """This world cannot have produced what the viewer saw."""


def small_position(seed: int, hand: int = 2, draws: int = 2, options: dict[str, Any] | None = None) -> Shithead:
    """A random two-player play-phase position with few unplayed cards: hands of ``hand`` cards (none
    known), at most one face-down card each, a face-up card or none, a draw pile of 1 to ``draws``
    cards, a pile whose top is high (pick-ups are likely); everything else out of play. With the house
    rule ``seven_lower`` the top may be a 7 (the rule then bites at once), with ``invisible_three`` an
    invisible 3 may lie on it."""
    options = options or {}
    rng = np.random.default_rng(seed)
    deck = full_deck(1)
    order = [deck[i] for i in rng.permutation(len(deck))]
    high = [c for c in order if int(c.rank) in (1, 9, 11, 12, 13) + ((7,) if options.get("seven_lower") else ())]
    top = high[0]
    pile = [top]
    if options.get("invisible_three") and rng.random() < 0.5:
        pile.append(next(c for c in order if int(c.rank) == 3))
    rest = [c for c in order if c not in pile]
    take = iter(rest)
    hands = [sorted([next(take) for _ in range(hand)], key=sort_key) for _ in range(2)]
    downs: list[list[Card | None]] = [[next(take) if rng.random() < 0.6 else None, None, None] for _ in range(2)]
    ups = [[next(take)] if rng.random() < 0.4 else [] for _ in range(2)]
    draw = [next(take) for _ in range(int(rng.integers(1, draws + 1)))]
    used = {*pile, *draw, *(c for h in hands for c in h), *(c for d in downs for c in d if c is not None),
            *(c for u in ups for c in u)}
    state = ShitheadState(
        hands=hands, face_up=ups, face_down=downs, known=[[], []], draw=draw, pile=pile,
        out=[c for c in deck if c not in used], to_move=int(rng.integers(2)), phase="play", turn=0, ranking=[],
        blind_plays=0, blind_fits=0, pickups=0, burns=0, clears=0, stopped=False, shuffles=0, over=False,
        winner=None, beliefs=((), ()))
    record = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": "shithead", "players": 2,
              "options": options, "shuffle_key": seed, "initial": state.to_data(), "moves": []}
    g = cardlab.load_game(json.dumps(record))
    assert isinstance(g, Shithead)
    return g


def small_start(seed: int, hand: int = 2, draws: int = 2, first: str = "lowest3") -> Shithead:
    """A small two-player position at the last set-up move, with option ``first``: the play-phase
    position of :func:`small_position`, put back into the set-up (the starting card back on the draw
    pile, seat 0's three face-up cards placed, seat 1 holding one more hand card and two face-up
    cards), so that the next move starts play. Made by rewriting the state: a record in the set-up may
    not have cards out of play."""
    g = small_position(seed, hand + 1, draws)
    g.options["first"] = first
    s = g.state
    deck = set(full_deck(1))
    rng = np.random.default_rng(seed + 3)
    out = [s.out[i] for i in rng.permutation(len(s.out))]
    for p, want in ((0, 3), (1, 2)):
        if p == 0:  # seat 0's extra card goes back out of play
            out.append(s.hands[0].pop(int(rng.integers(len(s.hands[0])))))
        s.face_up[p] = sorted(s.face_up[p][:want] + [out.pop() for _ in range(want - len(s.face_up[p][:want]))],
                              key=sort_key)
    s.draw = s.draw + [s.pile.pop()]
    s.out = out
    s.phase, s.to_move = "setup", 1
    assert sorted(c.id for z in g.zones().values() for c in z) == sorted(c.id for c in deck)
    return g


def starter(hands: list[list[Card]]) -> int:
    """Who starts under ``first="lowest3"``, restated from the rules text: the holder of the lowest card in
    hand, a 3 if anyone holds one, else a 4, and so on up to the Ace (2s and 10s do not count); several
    holders: the lowest seat; nobody: seat 0."""
    for r in LADDER:
        for p, h in enumerate(hands):
            if any(int(c.rank) == r for c in h):
                return p
    return 0


LADDER = (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 1)
"""The ranks that count for who starts, lowest first (Rank values: 11 to 13 the J, Q, K; 1 the Ace)."""


def _low(ranks: Any) -> int:
    """The place on :data:`LADDER` of the lowest rank among ``ranks`` (past its end for none)."""
    return min((LADDER.index(r) for r in ranks if r in LADDER), default=len(LADDER))


def first_position(g: Shithead, viewpoint: int | None) -> dict[str, Any]:
    """At the first position of play of a two-player game (no card known, nothing played): the truth by
    counting (module notes). Returns the chance that the mover must pick up, that the draw pile's top
    fits, and each hidden hand's expected count of each rank."""
    s = g.state
    assert s.phase == "play" and not s.known[0] and not s.known[1] and g.players == 2
    places = g._hidden_places(viewpoint)
    pool: dict[int, list[Card]] = {}
    for _, _, c in places:
        pool.setdefault(int(c.rank), []).append(c)
    ranks = sorted(pool)
    real = g.current_player
    hidden = [p for p in range(2) if p != viewpoint]
    sizes = [len(s.hands[p]) for p in hidden]

    def fills(size: int, left: dict[int, int], i: int = 0) -> Iterator[dict[int, int]]:
        if size == 0:
            yield {}
            return
        if i == len(ranks):
            return
        r = ranks[i]
        for k in range(min(size, left[r]), -1, -1):
            for rest in fills(size - k, left, i + 1):
                yield ({r: k} if k else {}) | rest

    fit_ranks = {r for r in ranks if g.fits(pool[r][0])}
    total = Fraction(0)
    pick = Fraction(0)
    draw_fits = Fraction(0)
    means: list[dict[int, Fraction]] = [{} for _ in hidden]
    left0 = {r: len(pool[r]) for r in ranks}
    rest_size = len(places) - sum(sizes)
    for first in fills(sizes[0], left0):
        left1 = {r: left0[r] - first.get(r, 0) for r in ranks}
        w0 = prod(comb(left0[r], k) for r, k in first.items())
        seconds = fills(sizes[1], left1) if len(hidden) == 2 else iter([{}])
        for second in seconds:
            w = w0 * prod(comb(left1[r], k) for r, k in second.items())
            fill = [first, second]
            lows = [_low([int(c.rank) for c in s.hands[p]]) if p == viewpoint else _low(fill[hidden.index(p)])
                    for p in range(2)]
            if (0 if min(lows) == len(LADDER) else lows.index(min(lows))) != real:  # as starter() says
                continue
            mover = s.hands[real] if real == viewpoint else [pool[r][0] for r, k in fill[hidden.index(real)].items()
                                                             for _ in range(k)]
            total += w
            pick += w * (not any(g.fits(c) for c in mover))
            left = {r: left1[r] - second.get(r, 0) for r in ranks}
            draw_fits += w * Fraction(sum(left[r] for r in fit_ranks), rest_size)
            for h, counts in enumerate(fill[:len(hidden)]):
                for r, k in counts.items():
                    means[h][r] = means[h].get(r, Fraction(0)) + w * k
    return {"pickup": pick / total, "draw_fits": draw_fits / total,
            "hands": {p: {r: v / total for r, v in means[h].items()} for h, p in enumerate(hidden)}}


def first_position_diffs(g: Shithead, viewpoint: int | None) -> list[str]:
    """The game's exact answers and law (for ``viewpoint``) against :func:`first_position`: the mover's
    pick-up, the draw pile's top, and each hidden hand's expected count of each rank."""
    want = first_position(g, viewpoint)
    bad = []
    if prob.shithead_mover_picks_up(g, viewpoint) != want["pickup"]:
        bad.append(f"pickup: exact {prob.shithead_mover_picks_up(g, viewpoint)}, brute force {want['pickup']}")
    if prob.shithead_draw_top_fits(g, viewpoint) != want["draw_fits"]:
        bad.append("draw top fits")
    law = g.chance_law(viewpoint)
    for p, means in want["hands"].items():
        mine: dict[int, Fraction] = {}
        for q, name in enumerate(law.names):
            if name == f"hand {p}":
                for f, x in law.place_law(q).items():
                    mine[int(f.rank)] = mine.get(int(f.rank), Fraction(0)) + x
        if {r: x for r, x in mine.items() if x} != means:
            bad.append(f"hand {p} rank counts")
    return bad


def play_on(g: Shithead, moves: int, seed: int) -> tuple[list[str], list[list[Card]]]:
    """Random legal moves on ``g`` (in place); the move texts, and for each move the cards it took from a
    hand or the face-up cards (empty for other moves)."""
    rng = np.random.default_rng(seed + 7)
    texts: list[str] = []
    taken: list[list[Card]] = []
    real_take = g._take

    def spy(cards: list[Card], known: list[Card] | None, rank: Any, count: int) -> list[Card]:
        out = real_take(cards, known, rank, count)
        taken[-1] = list(out)
        return out

    g._take = spy  # type: ignore[method-assign]
    try:
        for _ in range(moves):
            if g.is_over:
                break
            legal = g.legal_moves()
            move = legal[int(rng.integers(len(legal)))]
            texts.append(move.text)
            taken.append([])
            g.play(move)
    finally:
        del g._take
    return texts, taken


def _seen(g: Shithead, viewpoint: int | None, start: int) -> tuple[Any, list[str]]:
    return g.observe(viewpoint), [e.describe(viewpoint) for e in g.events[start:]]


def truth(g: Shithead, viewpoint: int | None) -> dict[str, Any]:
    """What one world says now, for ``viewpoint``: the answers and the faces on the hidden places."""
    s = g.state
    out: dict[str, Any] = {}
    downs = [c for p in range(2) for c in s.face_down[p] if c is not None]
    out["down"] = tuple(face_of(c) for c in downs)
    out["draw"] = tuple(face_of(c) for c in s.draw)
    hands = []
    for p in range(2):
        if p == viewpoint:
            hands.append(())
            continue
        known = list(s.known[p])
        unseen = []
        for c in s.hands[p]:
            if c in known:
                known.remove(c)
            else:
                unseen.append(face_of(c))
        hands.append(tuple(sorted(unseen, key=sort_key)))
    out["hands"] = tuple(hands)
    out["blind"] = bool(g.fits(downs[0])) if downs and not g.is_over else None
    out["draw_fits"] = bool(g.fits(s.draw[-1])) if s.draw and not g.is_over else None
    out["pickup"] = None
    if not g.is_over:
        m = g.current_player
        src = g.source(m)
        if src == "hand":
            out["pickup"] = not any(g.fits(c) for c in s.hands[m])
        elif src == "up":
            out["pickup"] = not any(g.fits(c) for c in s.face_up[m])
        elif src == "down":
            out["pickup"] = not g.fits(next(c for c in s.face_down[m] if c is not None))
    return out


def worlds(start: Shithead, viewpoint: int | None) -> Iterator[Shithead]:
    """Every placement of the cards ``viewpoint`` cannot see at the start on the places it cannot see
    (a hand's cards as a set: each placement once)."""
    places = start._hidden_places(viewpoint)
    cards = [c for _, _, c in places]
    seen: set[tuple[Any, ...]] = set()
    for perm in itertools.permutations(cards):
        key: list[Any] = []
        for (zone, seat, _), c in zip(places, perm, strict=True):
            key.append((zone, seat, c) if zone != "hand" else None)
        hands = tuple(tuple(sorted((c for (z, p, _), c in zip(places, perm, strict=True) if z == "hand" and p == q),
                                   key=sort_key)) for q in range(2))
        sig = (tuple(k for k in key if k is not None), hands)
        if sig in seen:
            continue
        seen.add(sig)
        w = start.copy()
        s = w.state
        it = iter(perm)
        for p in range(2):
            for i, c in enumerate(s.face_down[p]):
                if c is not None:
                    s.face_down[p][i] = next(it)
        s.draw = [next(it) for _ in s.draw]
        for p in range(2):
            if p != viewpoint:
                s.hands[p] = sorted(list(s.known[p]) + [next(it) for _ in range(len(s.hands[p]) - len(s.known[p]))],
                                    key=sort_key)
        w._learn = lambda *a: None  # type: ignore[method-assign]
        yield w


def model_weight(w: Shithead, text: str, want: list[Card]) -> Fraction:
    """In world ``w``, the chance that a player of the law's model made the move ``text`` and that the
    engine took the cards ``want``: for a play from the hand of rank ``r``, (cards of ``r`` in the hand) /
    (cards that fit) times one over the ways to take the shown unseen cards among the hand's unseen cards
    of ``r``; 1 for every other move (forced, or chosen among public cards)."""
    move = w.parse_move(text)
    if move.kind != "play" or getattr(move, "source", "") != "hand":
        return Fraction(1)
    m = w.current_player
    hand = w.state.hands[m]
    rank = want[0].rank
    unseen = w._unseen_hand(m)
    hidden = [c for c in want if c in unseen]
    return Fraction(sum(1 for c in hand if c.rank == rank), sum(1 for c in hand if w.fits(c))) / \
        comb(sum(1 for c in unseen if c.rank == rank), len(hidden))


def brute_force(start: Shithead, texts: list[str], taken: list[list[Card]], viewpoint: int | None,
                real_views: list[tuple[Any, list[str]]]) -> list[list[dict[str, Any]]]:
    """For each step (0 = the start, k = after move k), the truths of the worlds still consistent, each
    with its ``"weight"`` (:func:`model_weight` over the moves so far)."""
    steps: list[list[dict[str, Any]]] = [[] for _ in range(len(texts) + 1)]
    for w in worlds(start, viewpoint):
        weight = Fraction(1)
        steps[0].append(dict(truth(w, viewpoint), weight=weight))
        for k, text in enumerate(texts):
            want = taken[k]

            def forced(cards: list[Card], known: list[Card] | None, rank: Any, count: int,
                       want: list[Card] = want) -> list[Card]:
                if any(c not in cards for c in want):
                    raise Inconsistent
                for c in want:
                    if known is not None and c in known:
                        known.remove(c)
                    cards.remove(c)
                return list(want)

            legal = [m.text for m in w.legal_moves()]
            if text not in legal:
                break
            m = w.current_player
            if want and any(c not in w.state.hands[m] + w.state.face_up[m] for c in want):
                break
            weight *= model_weight(w, text, want)
            w._take = forced  # type: ignore[method-assign]
            before = len(w.events)
            try:
                w.play(text)
            except Inconsistent:
                break
            if _seen(w, viewpoint, before) != real_views[k]:
                break
            steps[k + 1].append(dict(truth(w, viewpoint), weight=weight))
    return steps


def compare(g: Shithead, viewpoint: int | None, rows: list[dict[str, Any]]) -> list[str]:
    """Differences between the game's exact answers and law (for ``viewpoint``) and the worlds' truth;
    ``"plain law differs"`` among them when the law that ignores how hands played (every unseen card
    alike) would give another answer somewhere (the positions then test what the brute force is for)."""
    total = sum(r["weight"] for r in rows)
    bad: list[str] = []
    if total == 0:
        return ["no consistent world (the brute force is wrong)"]

    def share(key: str) -> Fraction | None:
        if rows[0][key] is None:
            return None
        hits: Fraction = sum((r["weight"] for r in rows if r[key]), Fraction(0))
        return hits / total

    def attempt(f: Any) -> Fraction | None:
        try:
            return f()  # type: ignore[no-any-return]
        except cardlab.CardlabError:
            return None

    exact = {"blind": attempt(lambda: prob.shithead_blind_fits(g, viewpoint)),
             "draw_fits": attempt(lambda: prob.shithead_draw_top_fits(g, viewpoint)),
             "pickup": attempt(lambda: prob.shithead_mover_picks_up(g, viewpoint))}
    for key, value in exact.items():
        if value != share(key):
            bad.append(f"{key}: exact {value}, brute force {share(key)}")
    law = g.chance_law(viewpoint)
    names = law.names
    plain = ChanceLaw(names, (Group(tuple(range(len(names))), canonical(law.cards)),))

    def counted(key: str, i: int | None = None) -> dict[Card, Fraction]:
        out: dict[Card, Fraction] = {}
        for r in rows:
            faces_here = r[key] if i is None else (r[key][i],)
            for f in faces_here:
                out[f] = out.get(f, Fraction(0)) + r["weight"] / total
        return out

    plain_differs = False
    downs = [q for q, name in enumerate(names) if name.startswith("down")]
    draws = [q for q, name in enumerate(names) if name == "draw"]
    for i, q in enumerate(downs):
        want = counted("down", i)
        plain_differs = plain_differs or plain.place_law(q) != want
        if law.place_law(q) != want:
            bad.append(f"place {names[q]} #{i}")
    for i, q in enumerate(draws):
        want = counted("draw", i)
        plain_differs = plain_differs or plain.place_law(q) != want
        if law.place_law(q) != want:
            bad.append(f"draw place {i}")
    for p in range(2):
        slots = [q for q, name in enumerate(names) if name == f"hand {p}"]
        want = {}
        for r in rows:
            for f in r["hands"][p]:
                want[f] = want.get(f, Fraction(0)) + r["weight"] / total
        for which, target in (("law", law), ("plain", plain)):
            mine: dict[Card, Fraction] = {}
            for q in slots:
                for f, x in target.place_law(q).items():
                    mine[f] = mine.get(f, Fraction(0)) + x
            mine = {f: x for f, x in mine.items() if x}
            if mine != want:
                if which == "law":
                    bad.append(f"hand {p}")
                else:
                    plain_differs = True
    if plain_differs:
        bad.append("plain law differs")
    return bad


def check(seed: int, moves: int = 10, hand: int = 2, draws: int = 2,
          viewpoints: tuple[int | None, ...] = (None, 0, 1), first: str | None = None,
          options: dict[str, Any] | None = None) -> tuple[int, int, int, list[str]]:
    """One small position followed for ``moves`` random moves, every viewpoint: (positions x viewpoints
    compared, with two hidden hands that play has told something about, where the law that ignores how
    hands played would give another answer or place law somewhere, differences). With ``first``, the
    position is :func:`small_start` with that option (compared from the start of play on); ``options``
    (house rules) go into the :func:`small_position`."""
    start = small_position(seed, hand, draws, options) if first is None else small_start(seed, hand, draws, first)
    real = start.copy()
    texts, taken = play_on(real, moves, seed)
    compared = two_hands = plain_wrong = 0
    bad: list[str] = []
    for viewpoint in viewpoints:
        views, games = _replay(start, texts, taken, viewpoint)
        steps = brute_force(start, texts, taken, viewpoint, views)
        for k, (game, rows) in enumerate(zip(games, steps, strict=True)):
            if game.is_over or game.state.phase == "setup":
                continue
            diffs = compare(game, viewpoint, rows)
            plain_wrong += "plain law differs" in diffs
            bad += [f"seed {seed} viewpoint {viewpoint} step {k}: {d}" for d in diffs if d != "plain law differs"]
            compared += 1
            two_hands += len(game.chance_law(viewpoint).hands) == 2
    return compared, two_hands, plain_wrong, bad


def _replay(start: Shithead, texts: list[str], taken: list[list[Card]], viewpoint: int | None
            ) -> tuple[list[tuple[Any, list[str]]], list[Shithead]]:
    """The real moves replayed from ``start``, card for card: what ``viewpoint`` saw at each move, and the
    game before the first move and after each one."""
    replay = start.copy()
    views: list[tuple[Any, list[str]]] = []
    games = [replay.copy()]
    for text in texts:
        before = len(replay.events)
        replay._take = _replaying(taken[len(views)])  # type: ignore[method-assign]
        replay.play(text)
        del replay._take
        views.append(_seen(replay, viewpoint, before))
        games.append(replay.copy())
    return views, games


def _replaying(want: list[Card]) -> Any:
    """A ``_take`` that takes the cards the real game took (so a replay is the real game, card for card)."""
    def take(cards: list[Card], known: list[Card] | None, rank: Any, count: int) -> list[Card]:
        for c in want:
            if known is not None and c in known:
                known.remove(c)
            cards.remove(c)
        return list(want)
    return take
