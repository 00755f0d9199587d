"""Checks of the games' chance laws that could catch a modelling error (used by the tests and by
``benchmarks/bench_chance_law.py``, which runs them bigger).

1. **Independent counts.** Each exact function against a count made here from the viewer's public view
   and the public events only (the unseen multiset counted by faces; enumeration of hands for the
   hypergeometric). The rule predicates (does a card fit) are the engine's; which cards are unseen, and
   how many, is counted here, not read from the chance law.
2. **Information-set twins.** A copy of a position changed only in what the viewer cannot see (hidden
   cards moved among places that the public record cannot tell apart, and the two packs' cards of some
   faces swapped everywhere): the view, the public events and the table's HTML must be identical
   (non-interference), and so must every exact answer, the resampled faces and the estimates for the
   same seed.
3. **Calibration against real deals.** Over bot-played games, each exact prediction is compared with
   what the hidden card really was (the real state), binned, with a z-test per bin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import combinations
from math import comb, sqrt
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, face_of, faces, full_deck
from cardlab.engine.state import State
from cardlab.games.spite_malice.rules import hand_card, spite_move
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.table import table_html

GAMES = ("garbage", "spite-and-malice", "shithead")
POLICY_STREAM = 99  # the bots' generator: [seed, POLICY_STREAM], never the game's own seed


# ---------------------------------------------------------------------------------------------- positions
def bot_games(name: str, players: int, seed: int, policy: str = "greedy", **options: Any
              ) -> Iterator[cardlab.Game[Any]]:
    """Every position of one game between bots of ``policy`` ("greedy", "uninformed" or "random"), the
    game itself advanced in place (copy what you keep).

    The chance laws assume that choices carry no information about hidden cards. The ``uninformed``
    players make that true as far as the rules allow, so calibration against them tests the law itself;
    against greedy play it measures how far the assumption is from a real strategy. (Uniformly random
    legal moves are not uninformed: how many moves are legal depends on the hand.) The bots draw from a
    generator of their own: one seeded like the game's would repeat the deal's random numbers in the
    players' choices and tie those choices to the hidden cards."""
    g = cardlab.new_game(name, players=players, seed=seed, **options)
    bot = make_policy(policy, name, np.random.default_rng([seed, POLICY_STREAM]))
    for _ in range(3000):
        yield g
        if g.is_over:
            return
        g.play(choose(bot, g))


def sample_positions(name: str, players: int, seeds: range, every: int, **options: Any) -> list[cardlab.Game[Any]]:
    out = []
    for seed in seeds:
        for i, g in enumerate(bot_games(name, players, seed, **options)):
            if i % every == every - 1 and not g.is_over:
                out.append(g.copy())
    return out


def viewpoints(g: cardlab.Game[Any]) -> tuple[int | None, ...]:
    return (None, *range(g.players))


# ---------------------------------------------------------------------------------------------- 1. counts
def _all_faces(packs: int) -> Counter[Card]:
    return Counter(faces(full_deck(packs)))


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
        pool = _all_faces(g.packs) - Counter(seen)
    if not pool:
        return None
    usable = sum(k for c, k in pool.items() if g.can_use(seat, c))
    return Fraction(usable, sum(pool.values()))


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
    never = _all_faces(2) - Counter(visible) - Counter(completed) - Counter(ties)
    fits = sum(k for c, k in never.items() if g.can_play_on_centre(c))
    return Fraction(fits, sum(never.values()))


def shithead_unseen(g: cardlab.Game[Any], viewpoint: int | None) -> Counter[Card]:
    v = g.observe(viewpoint)
    seen = list(v.pile) + list(v.out) + [c for u in v.face_up for c in u]
    seen += [c for p, k in enumerate(v.known) if p != viewpoint for c in k] + list(v.hand or ())
    return _all_faces(g.packs) - Counter(seen)


def shithead_constrained(g: cardlab.Game[Any], viewpoint: int | None) -> bool:
    """Whether a hand the viewer cannot see picked up the pile (a forced pick-up: its cards were all
    below the top) and still holds cards the viewer has not seen: then the unseen cards are no longer
    all alike, and :func:`shithead_counts` (which assumes they are) does not apply. The brute force of
    ``tests/sim/shithead_brute.py`` covers those positions."""
    v = g.observe(viewpoint)
    picked = {e.seat for e in g.events if e.kind == "pickup" and e.seat != viewpoint}
    return any(v.hand_sizes[p] > len(v.known[p]) for p in picked if p is not None)


def shithead_counts(g: cardlab.Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    """Blind fits, draw top fits, and the mover's pick-up (hand cards enumerated), from the public view,
    in positions where no forced pick-up constrains an unseen hand (:func:`shithead_constrained`)."""
    v = g.observe(viewpoint)
    out: dict[str, Fraction | None] = {"blind": None, "draw": None, "pickup": None}
    if v.over or shithead_constrained(g, viewpoint):
        return out
    unseen = shithead_unseen(g, viewpoint)
    n = sum(unseen.values())
    fit = sum(k for c, k in unseen.items() if g.fits(c))
    if any(v.face_down):
        out["blind"] = Fraction(fit, n)
    if v.draw_size:
        out["draw"] = Fraction(fit, n)
    if v.phase == "setup":
        return out
    m = v.to_move
    source = g.source(m)
    if source == "up":
        out["pickup"] = Fraction(0 if any(g.fits(c) for c in v.face_up[m]) else 1)
    elif source == "down":
        out["pickup"] = Fraction(n - fit, n)
    elif viewpoint == m:
        out["pickup"] = Fraction(0 if any(g.fits(c) for c in v.hand) else 1)
    elif any(g.fits(c) for c in v.known[m]):
        out["pickup"] = Fraction(0)
    else:
        u = v.hand_sizes[m] - len(v.known[m])
        cards = list(unseen.elements())
        if comb(len(cards), u) <= 20_000:  # enumerate every hand the mover could hold
            hands = list(combinations(range(len(cards)), u))
            none_fit = sum(1 for h in hands if not any(g.fits(cards[i]) for i in h))
            out["pickup"] = Fraction(none_fit, len(hands))
    return out


def exact_answers(g: cardlab.Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    """Every exact function of the game for ``viewpoint`` (None where not applicable)."""
    def attempt(f: Callable[[], Fraction]) -> Fraction | None:
        try:
            return f()
        except cardlab.CardlabError:
            return None

    if g.name == "garbage":
        return {"next": attempt(lambda: prob.garbage_next_card_placeable(g, viewpoint))}
    if g.name == "spite-and-malice":
        return {"next": attempt(lambda: prob.spite_next_stock_playable(g, viewpoint)),
                "payoff": attempt(lambda: prob.spite_payoff_playable_now(g, viewpoint))}
    return {"blind": attempt(lambda: prob.shithead_blind_fits(g, viewpoint)),
            "draw": attempt(lambda: prob.shithead_draw_top_fits(g, viewpoint)),
            "pickup": attempt(lambda: prob.shithead_mover_picks_up(g, viewpoint))}


def count_mismatches(g: cardlab.Game[Any], viewpoint: int | None) -> tuple[int, int]:
    """(compared, mismatched) between the exact functions and the independent counts."""
    exact = exact_answers(g, viewpoint)
    if g.name == "garbage":
        counted = {"next": garbage_count(g, viewpoint)}
    elif g.name == "spite-and-malice":
        counted = {"next": spite_count(g, viewpoint)}
    else:
        counted = shithead_counts(g, viewpoint)
    compared = mismatched = 0
    for key, value in counted.items():
        if value is None:
            continue
        compared += 1
        mismatched += exact[key] != value
    return compared, mismatched


# ---------------------------------------------------------------------------------------------- 2. twins
def _rename_packs(g: cardlab.Game[Any], rng: np.random.Generator) -> None:
    """Swap the first two packs' cards of some faces everywhere in the state (S&M labels follow them)."""
    if g.packs < 2:
        return
    swap = {c: Card(c.rank, c.suit, 1) for c in full_deck(1) if rng.random() < 0.5}
    mapping = {**swap, **{b: a for a, b in swap.items()}}

    def rename(value: Any) -> Any:
        if isinstance(value, Card):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [rename(x) for x in value]
        return value

    s = g._state
    for name in list(vars(s)):
        setattr(s, name, rename(getattr(s, name)))
    labels = getattr(s, "labels", None)
    if labels is not None:
        for a, b in swap.items():
            labels[a.id], labels[b.id] = labels[b.id], labels[a.id]


def _shuffle_within(cards: list[Card], rng: np.random.Generator) -> list[Card]:
    return [cards[i] for i in rng.permutation(len(cards))]


def _shithead_moved(g: cardlab.Game[Any], viewpoint: int | None, places: list[tuple[str, int, Card]],
                    rng: np.random.Generator) -> list[Card]:
    """Shithead's hidden cards moved into another world the viewer cannot tell apart, one that respects
    what forced pick-ups showed: the cards of face-down places, the draw pile and the hands that never
    picked up move freely among those places (none of them was ever in a hand at a pick-up); a card of a
    hand that did pick up only trades places with a hidden card of the same rank (the limits speak of
    ranks, and no such card was ever seen)."""
    picked = {e.seat for e in g.events if e.kind == "pickup"}
    cards = [c for _, _, c in places]
    free = [i for i, (zone, seat, _) in enumerate(places) if zone != "hand" or seat not in picked]
    for i, c in zip(free, _shuffle_within([cards[i] for i in free], rng), strict=True):
        cards[i] = c
    for i, (zone, seat, _) in enumerate(places):
        if zone == "hand" and seat in picked:
            same = [j for j, c in enumerate(cards) if c.rank == cards[i].rank]
            j = same[int(rng.integers(len(same)))]
            cards[i], cards[j] = cards[j], cards[i]
    return cards


def twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """A copy that ``viewpoint`` cannot tell from ``g``: hidden cards moved among places the public record
    does not tell apart, and some faces' two packs swapped."""
    t = g.copy()
    s: Any = t._state
    if g.name == "garbage":
        spots = [(p, i) for p in range(g.players) for i in range(s.sizes[p]) if not s.up[p][i]]
        down = [s.spots[p][i] for p, i in spots]
        if s.stock_known:
            down, s.stock = _shuffle_within(down, rng), _shuffle_within(s.stock, rng)
        else:
            both = _shuffle_within(down + s.stock, rng)
            down, s.stock = both[:len(spots)], both[len(spots):]
        for (p, i), c in zip(spots, down, strict=True):
            s.spots[p][i] = c
    elif g.name == "shithead":
        places = t._hidden_places(viewpoint)
        moved = _shithead_moved(g, viewpoint, places, rng)
        k = 0
        for p in range(g.players):
            for i, c in enumerate(s.face_down[p]):
                if c is not None:
                    s.face_down[p][i] = moved[k]
                    k += 1
        s.draw = moved[k:k + len(s.draw)]
        k += len(s.draw)
        for p in range(g.players):
            if p != viewpoint:
                size = sum(1 for zone, seat, _ in places if zone == "hand" and seat == p)
                s.hands[p] = sorted(list(s.known[p]) + moved[k:k + size], key=cardlab.games.shithead.sort_key)
                k += size
    else:
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
            moved = _shuffle_within([cards[i] for i in members], rng)
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
    _rename_packs(t, rng)
    t._check_conservation("twin")
    return t


def state_faces(st: State) -> dict[str, Any]:
    """A state with every card shown by its face (the pack forgotten)."""
    return {k: faces(v) if isinstance(v, list) else v for k, v in vars(st).items() if k != "labels"}


def twin_differences(g: cardlab.Game[Any], viewpoint: int | None, seed: int, estimates: bool,
                     html: bool = True) -> list[str]:
    """What differs between ``g`` and a twin for ``viewpoint``: views, exact answers, resampled faces, and
    (with ``estimates``) win estimates for the same seed. An empty list is a pass."""
    return pair_differences(g, twin(g, viewpoint, np.random.default_rng(seed)), viewpoint, seed, estimates, html)


def pair_differences(g: cardlab.Game[Any], t: cardlab.Game[Any], viewpoint: int | None, seed: int,
                     estimates: bool, html: bool = True) -> list[str]:
    """What differs, for ``viewpoint``, between two games it should not tell apart (see
    :func:`twin_differences`). An empty list is a pass."""
    bad = []
    if g.observe(viewpoint) != t.observe(viewpoint):
        bad.append("view")
    if [(e.kind, e.describe(viewpoint), dict(e.data)) for e in g.events] != \
            [(e.kind, e.describe(viewpoint), dict(e.data)) for e in t.events]:
        bad.append("events")
    if html and table_html(g, viewpoint) != table_html(t, viewpoint):
        bad.append("html")
    if exact_answers(g, viewpoint) != exact_answers(t, viewpoint):
        bad.append("exact")
    def law(game: cardlab.Game[Any]) -> list[tuple[Fraction, list[tuple[tuple[int, ...], list[Card]]]]]:
        return [(w, [(grp.places, [face_of(c) for c in grp.cards]) for grp in comp.groups])
                for w, comp in game.chance_law(viewpoint).components]

    if law(g) != law(t):
        bad.append("law")
    a = g.resample(viewpoint, np.random.default_rng(seed))
    b = t.resample(viewpoint, np.random.default_rng(seed))
    if state_faces(a.state) != state_faces(b.state):
        bad.append("resample")
    if estimates:
        wa = prob.win_probability(g, viewpoint, rollouts=8, rng=np.random.default_rng(seed))
        wb = prob.win_probability(t, viewpoint, rollouts=8, rng=np.random.default_rng(seed))
        if wa != wb:
            bad.append("estimate")
    return bad


# ---------------------------------------------------------------------------------------------- 3. calibration
def real_outcomes(g: cardlab.Game[Any], viewpoint: int | None,
                  seen: set[tuple[Any, ...]] | None = None) -> list[tuple[str, Fraction, bool]]:
    """Exact predictions paired with what the hidden card really was, in this position.

    With ``seen`` (one set per game), each hidden card (or each turn, for the pick-up) is predicted only
    the first time it is asked about: predictions about one card at several moments are not independent,
    and the bins' z-tests count independent trials.
    """
    rows = _real_outcomes(g, viewpoint)
    if seen is None:
        return [(key, p, real) for key, p, real, _ in rows]
    out = []
    for key, p, real, subject in rows:
        if (key, viewpoint, subject) not in seen:
            seen.add((key, viewpoint, subject))
            out.append((key, p, real))
    return out


def _real_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[tuple[str, Fraction, bool, Any]]:
    s: Any = g.state
    out: list[tuple[str, Fraction, bool, Any]] = []
    exact = exact_answers(g, viewpoint)
    if g.name == "garbage":
        seat = prob.garbage_next_drawer(g)
        if exact["next"] is not None and s.stock and seat is not None:
            out.append(("next", exact["next"], bool(g.can_use(seat, s.stock[-1])), (s.hand, s.shuffles, s.stock[-1])))
    elif g.name == "spite-and-malice":
        if exact["next"] is not None:
            # the subject is the exposure (round, completions, stock size), not the card: a card that was
            # on top once can come back through a completed pile, and skipping it then would pick the
            # sample by the card's history (which depends on its face)
            out.append(("next", exact["next"], bool(g.can_play_on_centre(s.stock[-1])),
                        (s.round, s.completions, len(s.stock))))
    else:
        if exact["draw"] is not None:
            out.append(("draw", exact["draw"], bool(g.fits(s.draw[-1])), s.draw[-1]))
        if exact["blind"] is not None:
            down = [c for d in s.face_down for c in d if c is not None]
            out.append(("blind", exact["blind"], bool(g.fits(down[0])), down[0]))
        if exact["pickup"] is not None and not g.is_over:
            m = g.current_player
            src = g.source(m)
            if src == "hand":
                real = not any(g.fits(c) for c in s.hands[m])
            elif src == "up":
                real = not any(g.fits(c) for c in s.face_up[m])
            else:  # the greedy bot turns its lowest face-down position first
                real = not g.fits(next(c for c in s.face_down[m] if c is not None))
            out.append(("pickup", exact["pickup"], real, g.turns))
    return out


BIN_EDGES = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0001)


def binned_z(pairs: list[tuple[float, bool]],
             edges: tuple[float, ...] = BIN_EDGES) -> list[tuple[str, int, float, float, float]]:
    """Per bin of predicted chance: (bin, n, mean prediction, observed share, z). z compares the number of
    hits with the sum of the predictions, over the square root of the sum of p(1-p).

    The normal approximation needs some expected hits and misses in a bin, so a bin with fewer than 5
    expected of either is merged with its neighbour toward the middle (a bin of certain predictions,
    all 0 or all 1, is checked exactly instead: every one of them must come true).
    """
    groups: list[list[tuple[float, bool]]] = []
    for lo, hi in zip(edges, edges[1:], strict=False):
        inside = [(p, y) for p, y in pairs if lo <= p < hi]
        certain = [(p, y) for p, y in inside if p in (0.0, 1.0)]
        for p, y in certain:
            assert y == (p == 1.0), f"a certain prediction ({p}) failed"
        inside = [(p, y) for p, y in inside if p not in (0.0, 1.0)]
        if inside:
            groups.append(inside)

    def small(group: list[tuple[float, bool]]) -> bool:
        return sum(p for p, _ in group) < 5 or sum(1 - p for p, _ in group) < 5

    merged = True
    while merged and len(groups) > 1:
        merged = False
        for i, group in enumerate(groups):
            if small(group):
                j = i + 1 if i < len(groups) / 2 else i - 1
                j = min(max(j, 0), len(groups) - 1)
                if j == i:
                    continue
                groups[min(i, j)] = groups[min(i, j)] + groups[max(i, j)]
                del groups[max(i, j)]
                merged = True
                break
    rows = []
    for inside in groups:
        lo = min(p for p, _ in inside)
        hi = max(p for p, _ in inside)
        expected = sum(p for p, _ in inside)
        var = sum(p * (1 - p) for p, _ in inside)
        hits = sum(y for _, y in inside)
        rows.append((f"[{lo:.3f}, {hi:.3f}]", len(inside), expected / len(inside), hits / len(inside),
                     (hits - expected) / sqrt(var)))
    return rows


# ---------------------------------------------------------------------------------------------- 4. copy twins
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
