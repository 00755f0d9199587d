"""The games' chance laws against the truth: the figures of the issue "Exact means exact".

    .venv/bin/python benchmarks/bench_chance_law.py [--quick] [--policy uninformed|greedy|random]
    .venv/bin/python benchmarks/bench_chance_law.py --ties    # only the Ace-Ace tie figure (about 1 minute)
    .venv/bin/python benchmarks/bench_chance_law.py --shithead-calibration [--policy P] [--games N] [--first F]
    .venv/bin/python benchmarks/bench_chance_law.py --shithead-brute [--games N] [--first F]
    (--shithead-calibration, --shithead-brute and --shithead-counts take --house R: Shithead's house rule R on,
    seven_lower, invisible_three or eight_skips, or "all" for the three together)
    .venv/bin/python benchmarks/bench_chance_law.py --shithead-first-position [--games N] [--first F]
    .venv/bin/python benchmarks/bench_chance_law.py --shithead-counts [--quick] [--first F]  # counts, twins
    .venv/bin/python benchmarks/bench_chance_law.py --shithead-wins [--games N]  # win estimates only
    .venv/bin/python benchmarks/bench_chance_law.py --copies [--quick]  # same-face copies: the mixture's figures
    .venv/bin/python benchmarks/bench_chance_law.py --swap-twins [--games N]  # twins: two copies swapped in records

The calibration games are played by two kinds of players, each in its own table (``--policy`` picks
one): the ``uninformed`` players (``make_policy("uninformed", ...)``), whose choices carry as little
information about their hidden cards as the rules allow, so that the law itself is tested; and the
``greedy`` bots, which measure how far the law's assumption (choices carry no information) is from a
real strategy. (``random`` is accepted too: uniformly random legal moves, whose number depends on the
hand, so they are not uninformed.) ``--shithead-calibration`` runs
only Shithead's calibration (two players, table and mover views, ``--games`` games from seed 5000);
``--shithead-brute`` only the brute force of :mod:`tests.sim.shithead_brute` (``--games`` small real
positions from seed 10, each followed for 20 random moves, every viewpoint; the worlds weighed by the
law's model). ``--first lowest3`` runs those three with that start option (the holder of the lowest card
starts, which tells about every hand); the brute force then starts each small position at the last set-up
move (:func:`tests.sim.shithead_brute.small_start`, draw pile of one card), so that who starts is
evidence it weighs. ``--shithead-first-position`` checks the table's exact pick-up at the first position
of play alone (where who started says the most), over ``--games`` uninformed games from seed 5000.

Prints, per game:

1. mismatches between every exact function and an independent count from the public view, over
   random bot-played positions x every viewpoint (:mod:`tests.sim.chance_checks`; for Shithead a
   reference filter reads each hand through its play, and the figure says how many comparisons had an
   informative hand and how many differ from the plain count that treats every unseen card alike);
2. failures over twins that a viewpoint cannot tell apart (hidden cards moved, packs swapped): exact
   answers, resampled faces and win estimates for the same seed must be identical;
3. calibration of the exact predictions against the cards that really were there, per bin of the
   predicted chance (z = (hits - sum p) / sqrt(sum p(1-p))), and of the win estimates against the
   real winners of the games;
4. deductions of hidden cards from public events over 200 games per game: a pack suffix in a view, an
   event or the table's HTML, and (Shithead) a hand play whose revealed suits could not have come out
   had the hand held another unseen card of that rank (replayed with 30 shuffle keys).
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import numpy as np

import cardlab
from cardlab.games.shithead.rules import shithead_move
from cardlab.games.spite_malice.rules import hand_card
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.table import table_html
from tests.games.shithead import chance_checks as shc
from tests.games.spite_malice import chance_checks as sc
from tests.sim import chance_checks as cc

QUICK = "--quick" in sys.argv


def _arg(flag: str, default: str) -> str:
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else default


POLICIES = [_arg("--policy", "")] if "--policy" in sys.argv else ["uninformed", "greedy"]
GAMES_PER = 40 if QUICK else 200
SETUPS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "garbage": [(2, {}), (3, {}), (4, {"last_round": True})],
    "spite-and-malice": [(2, {}), (2, {"payoff_size": 8}), (2, {"payoff_size": 8, "completed_to": "shuffle"}),
                         (2, {"payoff_size": 3})],
    "shithead": [(2, {}), (3, {}), (2, {"first": "lowest3"})],
}


def positions(name: str, games: int, every: int,
              setups: list[tuple[int, dict[str, Any]]] | None = None) -> list[cardlab.Game[Any]]:
    out: list[cardlab.Game[Any]] = []
    for k, (players, options) in enumerate(SETUPS[name] if setups is None else setups):
        out += cc.sample_positions(name, players, range(1000 * k, 1000 * k + games), every, **options)
    return out


def counts_and_twins(name: str, setups: list[tuple[int, dict[str, Any]]] | None = None) -> None:
    games = positions(name, 8 if QUICK else 25, 3, setups)
    compared = mismatched = informative = differs = pairs = failures = 0
    for k, g in enumerate(games):
        for viewpoint in cc.viewpoints(g):
            counted = cc.count_mismatches(g, viewpoint)
            compared, mismatched = compared + counted.compared, mismatched + counted.mismatched
            informative += counted.informative
            differs += counted.plain_differs
            bad = cc.twin_differences(g, viewpoint, seed=k, estimates=k % 4 == 0)
            pairs, failures = pairs + 1, failures + bool(bad)
    print(f"  independent counts: {mismatched} mismatches in {compared} comparisons "
          f"({len(games)} positions x every viewpoint)")
    if name == "shithead":
        print(f"  of the (position, viewpoint) pairs compared: {informative} with a hand read through its play, "
              f"{differs} where the plain count (every unseen card alike) differs")
    print(f"  twins a viewer cannot tell apart: {failures} failures in {pairs} pairs")


def calibration(name: str, setups: list[tuple[int, dict[str, Any]]] | None = None, games: int = GAMES_PER) -> None:
    for policy in POLICIES:
        calibration_against(policy, name, setups, games)


def calibration_against(policy: str, name: str, setups: list[tuple[int, dict[str, Any]]] | None,
                        games: int) -> None:
    pairs: dict[str, list[tuple[float, bool]]] = {}
    plain: list[tuple[float, float, bool]] = []  # Shithead, table: uncertain pick-ups from the hand
    informed = 0
    print(f"  calibration against {policy} players:")
    for k, (players, options) in enumerate(SETUPS[name] if setups is None else setups):
        for seed in range(5000 + 1000 * k, 5000 + 1000 * k + games):
            seen: set[tuple[Any, ...]] = set()
            for g in cc.bot_games(name, players, seed, policy, **options):
                if g.is_over:
                    break
                for viewpoint in (None, g.current_player):
                    for key, p, real in cc.real_outcomes(g, viewpoint, seen):
                        who = "table" if viewpoint is None else "mover"
                        pairs.setdefault(f"{key} ({who})", []).append(
                            (float(p), real))
                        if key == "pickup" and viewpoint is None and 0 < p < 1:
                            informed += shc.shithead_mover_informed(g)
                            q = shc.plain_pickup(g, None)
                            if q is not None:
                                plain.append((float(p), float(q), real))
    worst = 0.0
    for key, rows in sorted(pairs.items()):
        print(f"  exact '{key}': {len(rows)} predictions")
        for label, n, mean, share, z in cc.binned_z(rows):
            worst = max(worst, abs(z))
            print(f"    p in {label}: n={n:6d}  predicted {mean:.4f}  real {share:.4f}  z={z:+.2f}")
    print(f"  largest |z| over the bins: {worst:.2f}")
    if plain:
        real = sum(y for _, _, y in plain)
        print(f"  the mover picks up (table), the {len(plain)} uncertain predictions from the hand at once "
              f"({informed} of all uncertain ones with the mover's hand read through its play): "
              f"real {real / len(plain):.4f}")
        for label, i in (("chance law", 0), ("plain count, every unseen card alike", 1)):
            pred = sum(r[i] for r in plain)
            var = sum(r[i] * (1 - r[i]) for r in plain)
            print(f"    {label}: predicted {pred / len(plain):.4f}, z = {(real - pred) / var ** 0.5:+.2f}")


def win_calibration(name: str, games: int = GAMES_PER) -> None:
    """Win estimates (256 rollouts, table's view) vs the real winner.

    An estimate rests on two assumptions: the law's reading of the moves so far, and greedy play from now
    on (the play-outs). For Garbage and Spite and Malice the game is played by greedy bots and the estimate
    is asked a third into it. For Shithead greedy bots break the first assumption (they save their 2s and
    10s, which the law, reading a play as a random card among those that fit, does not expect), so the
    test makes both assumptions true instead: ``uninformed`` players make the first 30 moves, the estimate
    is asked there, and greedy bots play the game out (:data:`SHITHEAD_SWITCH`); the greedy-only version
    is printed too, as the measure of the first assumption.

    An estimate carries its own noise, so the extreme bins collect estimates pushed there partly by it
    (regression to the mean): a small excess of |z| at the ends says as much about 256 rollouts as
    about the law."""
    players, options = SETUPS[name][0]
    designs = [("greedy bots throughout, estimate a third in", None)]
    if name == "shithead":
        designs.insert(0, (f"uninformed players for {SHITHEAD_SWITCH} moves, estimate there, greedy bots after",
                           SHITHEAD_SWITCH))
    for title, switch in designs:
        rows: list[tuple[float, bool]] = []
        for seed in range(9000, 9000 + games):
            g, end = _estimate_position(name, players, seed, switch, options)
            if g is None or end.winner is None:
                continue
            est = prob.win_probability(g, None, rollouts=256, rng=np.random.default_rng(seed))
            rows += [(e.value, end.winner == s) for s, e in enumerate(est)]
        print(f"  win estimates vs real winners, {title} ({len(rows) // players} games, seat rows):")
        for label, n, mean, share, z in cc.binned_z(rows):
            print(f"    p in {label}: n={n:5d}  estimated {mean:.4f}  real {share:.4f}  z={z:+.2f}")


SHITHEAD_SWITCH = 30
"""Shithead's win calibration: moves made by uninformed players before the estimate (see win_calibration)."""


def _estimate_position(name: str, players: int, seed: int, switch: int | None, options: dict[str, Any]
                       ) -> tuple[cardlab.Game[Any] | None, cardlab.Game[Any]]:
    """The position where the estimate is asked (None if the game ended before it) and the finished game."""
    if switch is None:
        history = [g.copy() for g in cc.bot_games(name, players, seed, **options)]
        return history[len(history) // 3], history[-1]
    g = cardlab.new_game(name, players=players, seed=seed, **options)
    uninformed = make_policy("uninformed", name, np.random.default_rng([seed, cc.POLICY_STREAM]))
    greedy = make_policy("greedy", name, np.random.default_rng([seed, cc.POLICY_STREAM]))
    for _ in range(switch):
        if g.is_over:
            return None, g
        g.play(choose(uninformed, g))
    asked = g.copy()
    for _ in range(4000):
        if g.is_over:
            break
        g.play(choose(greedy, g))
    return asked, g


def deductions(name: str) -> None:
    packs_shown = plays = deduced = 0
    players, options = SETUPS[name][-1] if name != "garbage" else SETUPS[name][1]
    for seed in range(20000, 20000 + GAMES_PER):
        history = list(cc.bot_games(name, players, seed, **options))
        g = history[-1]
        for e in g.events:
            cards = [c for v in e.data.values() for c in (v if isinstance(v, list) else [v])
                     if isinstance(v, (list, cardlab.Card)) and isinstance(c, cardlab.Card)]
            packs_shown += sum(c.pack != 0 for c in cards)
        for viewpoint in cc.viewpoints(g):
            view = g.observe(viewpoint)
            packs_shown += ":1" in repr(view) or ":2" in repr(view)
            packs_shown += re.search(r'data-card="[^"]*:', table_html(g, viewpoint)) is not None
        if name == "shithead":
            p, d = shithead_deductions(seed, players, options)
            plays, deduced = plays + p, deduced + d
    print(f"  pack shown in events, views or HTML: {packs_shown}")
    if name == "spite-and-malice":
        print(f"  hand plays whose two same-face cards carried different labels, both possibly in that hand "
              f"(the table's law becomes a mixture): "
              f"{spite_ambiguous_plays(players, options)} in {GAMES_PER} games")
        copy_twins(GAMES_PER)
    if name == "shithead":
        print(f"  hand plays of unseen cards checked: {plays}; deductions: {deduced}")
    print(f"  deductions of hidden cards from public events over {GAMES_PER} games: {packs_shown + deduced}")


def copy_twins(games: int, viewpoints: tuple[int | None, ...] = (None, 0, 1), **options: Any) -> None:
    """Twins that differ exactly in which copy an ambiguous hand play put down
    (:func:`tests.games.spite_malice.chance_checks.spite_copy_twins`), every viewpoint that cannot see the playing
    hand: pairs built, and how many differ in what the viewer sees (view, events, HTML on every 8th
    pair) and in the answers (exact, law with its weights, resampled faces for the same seed, win
    estimates on every 10th pair). All must be 0."""
    total = 0
    for viewpoint in viewpoints:
        pairs = mixed = 0
        kinds: dict[str, int] = {}
        for g, t in sc.spite_copy_twins(range(30000, 30000 + games), viewpoint, **options):
            bad = cc.pair_differences(g, t, viewpoint, seed=pairs, estimates=pairs % 10 == 0, html=pairs % 8 == 0)
            pairs += 1
            mixed += len(g.chance_law(viewpoint).components) > 1
            for kind in bad:
                kinds[kind] = kinds.get(kind, 0) + 1
        total += pairs
        seen = sum(kinds.get(k, 0) for k in ("view", "events", "html"))
        print(f"  copy twins for viewpoint {viewpoint}: {pairs} pairs over {games} games ({mixed} with a mixed law); "
              f"differ in what the viewer sees: {seen}; differ in answers: "
              + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items()) if k not in ("view", "events", "html"))
                 or "none"))
    print(f"  copy twins in all: {total} pairs")


def copy_brute_force(seeds: int) -> None:
    """Exact answers against the brute force over hidden deals and copy choices of small positions
    (:mod:`tests.sim.copy_brute`), every viewpoint, after each of up to 8 random legal moves."""
    from cardlab.chance.law import MixedLaw
    from tests.sim import copy_brute as cb

    checks = mixed = mismatches = 0
    for seed in range(seeds):
        for viewpoint in (None, 0, 1):
            for k, g, worlds in cb.walk(seed, viewpoint):
                if k:
                    checks += 1
                    mixed += isinstance(g.chance_law(viewpoint), MixedLaw)
                    mismatches += cb.package_answers(g, viewpoint) != cb.brute_answers(worlds, viewpoint)
    print(f"  brute force over deals and copy choices: {mismatches} mismatches in {checks} positions x viewpoint "
          f"({mixed} with a mixed law; {seeds} small positions)")


def swap_twins(games: int, **options: Any) -> int:
    """Twins made by swapping the two copies of a face in real games' records (:func:`tests.sim.copy_brute.
    swap_twin_walk`): the first ``games`` deals from seed 0 whose opening tied, greedy play; the tied faces
    (the tied copy kept in its pile, and labels moved with the cards) and two other faces swapped. Every
    move: the views and events of the table and both seats must be identical ("seen" differences). At each
    checkpoint (the tied opening, a payoff reveal of the swapped face, another move showing it, every 60th
    move) every viewpoint's exact answers, law, same-seed resampled faces and, on every 5th checkpoint,
    same-seed win estimates (kernel play-outs) must be identical. Returns the differences found."""
    from tests.sim import copy_brute as cb

    seeds = [seed for seed in range(100000) if "tie:" in cardlab.new_game(
        "spite-and-malice", players=2, seed=seed, **options).state.opening][:games]
    kinds: dict[str, int] = {}
    bad: dict[str, int] = {}
    for seed in seeds:
        for kind, g, t in cb.swap_twin_walk(seed, **options):
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "seen":
                bad["seen"] = bad.get("seen", 0) + 1
                continue
            for v in (None, 0, 1):
                pair = sum(kinds.values())
                for what in cc.pair_differences(g, t, v, seed=pair, estimates=pair % 5 == 0, html=False):
                    bad[what] = bad.get(what, 0) + 1
    pairs = sum(n for k, n in kinds.items() if k != "seen")
    print(f"  swapped-copy twins over {len(seeds)} tied openings (seeds {seeds[0]}..{seeds[-1]}): {pairs} twin pairs "
          f"x 3 viewpoints ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); differences: "
          + (", ".join(f"{k} {n}" for k, n in sorted(bad.items())) or "0"))
    return sum(bad.values())


def mixture_sizes(games: int, **options: Any) -> None:
    """How large the viewpoints' mixtures grow in greedy games (the law asked after every move), how often
    a mixture is at its cap (then no longer exact), and the time per move: plain play, and play with every
    viewpoint's law asked after each move (what a panel does)."""
    from cardlab.games.spite_malice.rules import MAX_LEDGERS, MAX_LEDGERS_SHUFFLE

    cap = MAX_LEDGERS if options.get("completed_to", "bottom") == "bottom" else MAX_LEDGERS_SHUFFLE
    largest = [0, 0, 0]
    with_mixture = [0, 0, 0]
    at_cap = [0, 0, 0]
    moves = 0
    plain = asked = 0.0
    for seed in range(30000, 30000 + games):
        g = cardlab.new_game("spite-and-malice", players=2, seed=seed, **options)
        policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(seed))
        start = time.perf_counter()
        while not g.is_over:
            g.play(cardlab.policies.choose(policy, g))
        plain += time.perf_counter() - start
        g = cardlab.new_game("spite-and-malice", players=2, seed=seed, **options)
        policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(seed))
        start = time.perf_counter()
        while not g.is_over:
            g.play(cardlab.policies.choose(policy, g))
            moves += 1
            for i, v in enumerate((None, 0, 1)):
                size = len(g.chance_law(v).components)
                largest[i] = max(largest[i], size)
                with_mixture[i] += size > 1
                at_cap[i] += size >= cap
        asked += time.perf_counter() - start
    print(f"  mixtures over {games} greedy games ({moves} moves): largest (table, seat 0, seat 1) {largest}, "
          f"cap {cap}; positions at the cap (no longer exact) {at_cap}; positions with a mixture {with_mixture}")
    print(f"  time per move: plain play {plain / moves * 1e3:.3f} ms; with all three laws asked after every move "
          f"{asked / moves * 1e3:.3f} ms")


def mixture_calibration(games: int, **options: Any) -> None:
    """The stock top's predictions made while the viewer's law is a mixture, against the real card."""
    rows: list[tuple[float, bool]] = []
    for seed in range(40000, 40000 + games):
        seen: set[tuple[Any, ...]] = set()
        for g in cc.bot_games("spite-and-malice", 2, seed, **options):
            if g.is_over:
                break
            for viewpoint in (None, g.current_player):
                if len(g.chance_law(viewpoint).components) > 1:
                    rows += [(float(p), real) for _, p, real in cc.real_outcomes(g, viewpoint, seen)]
    print(f"  'next stock card fits' predicted under a mixed law: {len(rows)} predictions")
    worst = 0.0
    for label, n, mean, share, z in cc.binned_z(rows):
        worst = max(worst, abs(z))
        print(f"    p in {label}: n={n:6d}  predicted {mean:.4f}  real {share:.4f}  z={z:+.2f}")
    print(f"  largest |z| over the bins: {worst:.2f}")


def spite_ambiguous_plays(players: int, options: dict[str, Any]) -> int:
    """Count the remaining approximation of the Spite and Malice law, as the table sees it: a hidden hand
    plays a face whose two cards are both hidden from the table, carry different labels, and could both
    be in that hand by its public slot marks."""
    count = 0
    for seed in range(20000, 20000 + GAMES_PER):
        g = cardlab.new_game("spite-and-malice", players=players, seed=seed, **options)
        policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(seed))
        for _ in range(3000):
            if g.is_over:
                break
            move = cardlab.policies.choose(policy, g)
            if move.kind in ("hand", "discard"):
                s: Any = g.state
                m = g.current_player
                face = hand_card(move).face
                hidden = [p[4] for p in g._hidden_places(None)]
                copies = [c for c in hidden if c.face == face]
                labels = {s.labels[c.id] for c in copies}
                marks = s.hand_marks[m]
                if len(copies) == 2 and len(labels) == 2 and all(
                        any(lo <= label <= hi for lo, hi in marks) for label in labels):
                    count += 1
            g.play(move)
    return count


def shithead_deductions(seed: int, players: int, options: dict[str, Any]) -> tuple[int, int]:
    """For each hand play that shows unseen cards of rank r: move another unseen card of rank r (from a
    hidden place) into the hand in place of an unseen card of another rank, replay the move with 30
    shuffle keys, and count a deduction if the same public event never comes out."""
    plays = deduced = 0
    g = cardlab.new_game("shithead", players=players, seed=seed, **options)
    policy = cardlab.policies.make_policy("greedy", "shithead", np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    for _ in range(3000):
        if g.is_over:
            break
        move = cardlab.policies.choose(policy, g)
        before = g.copy()
        g.play(move)
        if move.kind != "play" or shithead_move(move).source != "hand":
            continue
        m = before.current_player
        s: Any = before.state
        unknown = [c for c in s.hands[m] if c not in s.known[m]]
        rank = shithead_move(move).rank
        if not any(c.rank == rank for c in unknown):
            continue
        event = next(e.text for e in g.events[len(before.events):] if e.kind == "play")
        others = [(zone, i) for zone, src in (("draw", s.draw),) for i, c in enumerate(src) if c.rank == rank]
        swap_out = [c for c in unknown if c.rank != rank]
        if not others or not swap_out:
            continue
        plays += 1
        zone, i = others[int(rng.integers(len(others)))]
        out_card = swap_out[int(rng.integers(len(swap_out)))]
        reproduced = False
        for key in range(30):
            t = before.copy()
            ts: Any = t.state
            card = ts.draw[i]
            ts.draw[i] = out_card
            ts.hands[m].remove(out_card)
            ts.hands[m] = sorted(ts.hands[m] + [card], key=cardlab.games.shithead.sort_key)
            t._shuffle_key = key
            t.play(move.text)
            if any(e.kind == "play" and e.text == event for e in t.events[len(before.events):]):
                reproduced = True
                break
        deduced += not reproduced
    return plays, deduced


def ace_ace_ties(deals: int = 6000) -> None:
    """Uniform deals conditioned on both payoff tops being Aces (a tie, so both piles are reshuffled):
    the chance law's exact prediction that the first stock card is an Ace or a King, and the count that
    treats the tied Aces as never seen, each against the real first stock card."""
    from cardlab.cards import full_deck

    deck = full_deck(2)
    aces = [c for c in deck if c.rank == cardlab.Rank.ACE]
    rows = []
    for seed in range(deals):
        rng = np.random.default_rng([7, seed])
        pick = rng.choice(len(aces), size=2, replace=False)
        top0, top1 = aces[pick[0]], aces[pick[1]]
        rest = [c for c in deck if c not in (top0, top1)]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        cards = [top0] + rest[:19] + [top1] + rest[19:]   # a uniform deal given both payoff tops are Aces
        g = cardlab.new_game("spite-and-malice", seed=seed, deck=[c.code for c in cards])
        unseen = g.unseen_cards(None)
        old = sum(1 for c in unseen if g.can_play_on_centre(c)) / len(unseen)
        rows.append((float(prob.spite_next_stock_playable(g)), old, g.can_play_on_centre(g.state.stock[-1])))
    hits = sum(r[2] for r in rows)
    for name, i in (("chance law", 0), ("tied Aces counted as never seen", 1)):
        pred = sum(r[i] for r in rows)
        var = sum(r[i] * (1 - r[i]) for r in rows)
        print(f"  {name}: predicted {pred / deals:.4f}, real {hits / deals:.4f} over {deals} deals opening with "
              f"an Ace-Ace tie, z = {(hits - pred) / var ** 0.5:+.2f}")


def shithead_first_position(games: int, first: str) -> None:
    """The table's exact chance that the first player must pick up, at the first position of play of
    two-player games of ``uninformed`` players, against what happened; and the plain count (every unseen
    card alike) that a law ignoring who started would give."""
    law: list[tuple[float, bool]] = []
    plain: list[float] = []
    for seed in range(5000, 5000 + games):
        for g in cc.bot_games("shithead", 2, seed, "uninformed", first=first):
            if g.state.phase == "play":
                break
        pairs = [(p, real) for key, p, real in cc.real_outcomes(g, None) if key == "pickup"]
        q = shc.plain_pickup(g, None)
        if pairs and q is not None:
            law.append((float(pairs[0][0]), pairs[0][1]))
            plain.append(float(q))
    real = sum(y for _, y in law)
    print(f"shithead, first={first!r}, {len(law)} games: the first player picks up at the first position, "
          f"real {real / len(law):.4f}")
    for label, preds in (("chance law", [p for p, _ in law]), ("plain count, who started ignored", plain)):
        var = sum(p * (1 - p) for p in preds)
        print(f"    {label}: predicted {sum(preds) / len(preds):.4f}, z = {(real - sum(preds)) / var ** 0.5:+.2f}")


def house_options() -> dict[str, Any]:
    """The Shithead house rules named by ``--house`` (none without it)."""
    from cardlab.games.shithead.rules import HOUSE_RULES

    name = _arg("--house", "")
    if not name:
        return {}
    if name != "all" and name not in HOUSE_RULES:
        raise SystemExit(f"--house {name!r}: give one of {', '.join(HOUSE_RULES)} or 'all'")
    return dict.fromkeys(HOUSE_RULES if name == "all" else (name,), True)


def shithead_brute(positions: int, first: str | None = None, options: dict[str, Any] | None = None) -> None:
    """Shithead's exact functions and law against a brute force over hidden deals whose worlds are weighed
    by the law's model, in small real positions followed for 20 random moves (:mod:`tests.sim.shithead_brute`);
    with ``first``, positions at the last set-up move with that start option; ``options``: house rules."""
    from tests.sim import shithead_brute as sb

    compared = two_hands = plain = 0
    bad: list[str] = []
    for seed in range(10, 10 + positions):
        c, k, p, b = sb.check(seed, moves=20, hand=2, draws=3 if first is None else 1, first=first,
                              options=options)
        compared, two_hands, plain, bad = compared + c, two_hands + k, plain + p, bad + b
    print(f"shithead brute force{'' if first is None else f' (first={first!r})'}{f' {options}' if options else ''}: "
          f"{positions} small positions "
          f"x 20 random moves x every viewpoint: {compared} "
          f"comparisons ({two_hands} with two hidden hands, {plain} where the law that ignores how hands played "
          f"is wrong): {len(bad)} differences")
    for line in bad[:10]:
        print("   ", line)


def main() -> None:
    import os

    print(f"bench_chance_law ({'quick' if QUICK else 'full'}), {time.strftime('%Y-%m-%d %H:%M')}, "
          f"load {os.getloadavg()[0]:.2f} (shared 2-core machine)")
    if "--swap-twins" in sys.argv:
        start = time.perf_counter()
        games = int(_arg("--games", "10"))
        print("spite-and-malice, default rules:")
        swap_twins(games)
        print("spite-and-malice, completed_to='shuffle' (a seat's own draws can show either copy):")
        swap_twins(max(games // 4, 1), completed_to="shuffle")
        print(f"  ({time.perf_counter() - start:.0f} s)")
        return
    if "--copies" in sys.argv:
        start = time.perf_counter()
        print("spite-and-malice, default rules: same-face copies with different labels (a mixture):")
        copy_brute_force(12 if QUICK else 40)
        copy_twins(GAMES_PER)
        mixture_sizes(GAMES_PER // 2)
        mixture_calibration(GAMES_PER // 2)
        print("spite-and-malice, completed_to='shuffle':")
        copy_twins(GAMES_PER // 4, (None,), completed_to="shuffle")
        mixture_sizes(GAMES_PER // 4, completed_to="shuffle")
        print(f"  ({time.perf_counter() - start:.0f} s)")
        return
    if "--ties" in sys.argv:
        print("spite-and-malice, first stock card after an Ace-Ace tie:")
        ace_ace_ties()
        return
    first = _arg("--first", "seat0")
    house = house_options()
    if "--shithead-calibration" in sys.argv:
        games = int(_arg("--games", "300"))
        print(f"shithead, two players, first={first!r}, {games} games{f', {house}' if house else ''}:")
        calibration("shithead", [(2, {"first": first, **house})], games)
        return
    if "--shithead-first-position" in sys.argv:
        shithead_first_position(int(_arg("--games", "1000")), first)
        return
    if "--shithead-brute" in sys.argv:
        shithead_brute(int(_arg("--games", "100")), None if first == "seat0" else first, house)
        return
    if "--shithead-wins" in sys.argv:
        print("shithead, two players:")
        win_calibration("shithead", int(_arg("--games", str(GAMES_PER))))
        return
    if "--shithead-counts" in sys.argv:
        print("shithead:" if "--first" not in sys.argv and not house else f"shithead, first={first!r} {house}:")
        counts_and_twins("shithead", None if "--first" not in sys.argv and not house
                         else [(2, {"first": first, **house})])
        return
    for name in cc.games():
        start = time.perf_counter()
        print(f"{name}:")
        counts_and_twins(name)
        calibration(name)
        win_calibration(name)
        deductions(name)
        print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
