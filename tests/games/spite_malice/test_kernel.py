"""The Spite and Malice kernel against the engine, directly (never through another copy).

1. **Card for card.** The engine plays a game (greedy, random or a mix; from the deal, or after 25
   random moves) while its random numbers are recorded: every in-game shuffle's permutations (a
   recording :class:`~cardlab.dealer.Dealer`), which copy of a face left a hand (the dealer's choice stream,
   recomputed from the record), and the random seats' choices. The kernel, started from the same position with those
   numbers as its :class:`~cardlab.games.spite_malice.kernel.Script`, must play the same move texts and
   end in the same position (every card with its pack, counts, scores, winner), for every combination
   of ``king_starts_pile``, ``refill_on_empty``, ``completed_to``, ``first`` and ``match`` with five
   payoff sizes. Changing one scripted number is shown to change the result.
2. **Statistically.** ``play_shard`` (the kernel's own random numbers) against the engine's
   ``run_engine_games`` for three option sets and policy mixes: seat 0's win rate and the draw rate
   (two-proportion z, pooled) and the means of turns, points and rounds (Welch z) within 99.9%
   (|z| < 3.29). ``win_rollouts`` and ``payoff_this_turn`` against the engine's resampled play-outs.
3. **The hidden cards' law.** The kernel's hidden deals put the law's cards on the law's places only,
   leave every seen card alone, and give the stock's top card the exact law of
   :meth:`ChanceLaw.place_law` (chi-square); twins a viewer cannot tell apart get identical play-outs.
4. Seeding (shards of any size give the same games), KernelError with seed and moves, bad input. (The
   same results without numba: ``tests/test_inputs.py``.)
5. **The rules' tables.** The kernel's tables of what fits and of the greedy bot's preferences are the rules
   module's functions, card for card and pile for pile.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import cardlab
import cardlab.engine.game as engine_game
from cardlab.chance.jitkit import kernel_state
from cardlab.chance.law import MixedLaw
from cardlab.dealer import Dealer, game_key
from cardlab.errors import InvalidInputError, KernelError
from cardlab.games.spite_malice import SpiteMalice, rules, spite_move
from cardlab.games.spite_malice import kernel as ksm
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.parallel import run_engine_games
from tests.games.kernel_checks import z_proportions

GAME = "spite-and-malice"
Z = 3.29            # two-sided 99.9% point of the normal law
COMBOS = list(itertools.product((True, False), (True, False), ("bottom", "shuffle"), ("higher", "seat0"),
                                (False, True)))
PAYOFFS = (20, 6, 40, 1, 3)


class Recorder:
    """Stands in for the engine's :class:`~cardlab.dealer.Dealer`: the same streams, with every permutation of an
    in-game shuffle recorded by shuffle count."""

    def __init__(self) -> None:
        self.perms: dict[int, list[list[int]]] = {}
        recorder = self

        class RecordingDealer(Dealer):
            def shuffle(self, count: int) -> Any:
                stream = super().shuffle(count)
                record = recorder.perms.setdefault(count, [])

                class Recording:
                    def permute(self, n: int) -> list[int]:
                        out = stream.permute(n)
                        record.append(list(out))
                        return out

                return Recording()

        self.dealer = RecordingDealer


@dataclass
class EngineRun:
    start: SpiteMalice          # the position the kernel starts from
    end: SpiteMalice            # the engine's game played to its end
    policies: tuple[str, str]
    script: ksm.Script
    doubles: int                # hand moves whose face had both copies in hand


def engine_run(seed: int, options: dict[str, Any], policies: tuple[str, str], k: int,
               monkeypatch: pytest.MonkeyPatch) -> EngineRun | None:
    recorder = Recorder()
    monkeypatch.setattr(engine_game, "Dealer", recorder.dealer)
    g = cardlab.new_game(GAME, seed=seed, **options)
    assert isinstance(g, SpiteMalice)
    rng = np.random.default_rng(seed)
    for _ in range(k):
        if g.is_over:
            return None
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    if g.is_over:
        return None
    start, first = g.copy(), g.move_count
    greedy = make_policy("greedy", GAME, rng)
    randoms: list[int] = []
    doubles = 0
    while not g.is_over:
        legal = g.legal_moves()
        if policies[g.current_player] == "greedy":
            move = choose(greedy, g)
            randoms.append(-1)
        else:
            randoms.append(int(rng.integers(len(legal))))
            move = legal[randoms[-1]]
        if move.kind in ("hand", "discard"):
            card = spite_move(move).card
            assert card is not None
            doubles += sum(c.face == card.face for c in g.state.hands[g.current_player]) == 2
        g.play(move)
    key = g.shuffle_key
    copies = [Dealer(key).choice(m + 1).below(2)
              if g.moves[m].kind in ("hand", "discard") else 0 for m in range(first, g.move_count)]
    perms = {c: p for c, p in recorder.perms.items() if c >= start.state.shuffles}
    return EngineRun(start, g, policies, ksm.Script(perms, copies, randoms), doubles)


def engine_fields(g: SpiteMalice) -> dict[str, Any]:
    s = g.state
    return {"payoff": s.payoff, "hands": s.hands, "sides": s.sides, "centre": s.centre, "stock": s.stock,
            "to_move": s.to_move, "turn": s.turn, "shuffles": s.shuffles, "round": s.round, "scores": s.scores,
            "results": len(s.results), "last_result": s.results[-1] if s.results else None, "over": s.over,
            "winner": s.winner}


def differences(run: EngineRun, script: ksm.Script | None = None) -> list[str]:
    out = ksm.play_position(run.start, run.policies, script=script or run.script)
    want = [m.text for m in run.end.moves[run.start.move_count:]]
    found = []
    if out.status != ksm.OK:
        found.append(f"status {out.status}")
    if out.moves != want:
        i = next((i for i, (a, b) in enumerate(zip(out.moves, want, strict=False)) if a != b),
                 min(len(out.moves), len(want)))
        found.append(f"moves differ at {i}: kernel {out.moves[i:i + 2]}, engine {want[i:i + 2]}")
    pos, eng = out.position, engine_fields(run.end)
    found += [f"{key}: kernel {pos[key]!r:.80}, engine {eng[key]!r:.80}" for key in eng if pos[key] != eng[key]]
    return found


def cases() -> list[tuple[int, dict[str, Any], tuple[str, str], int]]:
    """Two games per option combination: one from the deal, one after 25 random moves; the policy mixes
    rotate. Matches use payoff piles of at most 6 and no random-against-random (long payoff piles and
    random play make rounds that nobody wins, so a match would run its 200 rounds: slow on the engine)."""
    mixes = [("greedy", "greedy"), ("random", "greedy"), ("greedy", "random"), ("random", "random")]
    out = []
    for i, (king, refill, completed, first, match) in enumerate(COMBOS):
        options = {"king_starts_pile": king, "refill_on_empty": refill, "completed_to": completed, "first": first,
                   "match": match, "payoff_size": min(PAYOFFS[i % len(PAYOFFS)], 6 if match else 40),
                   "target": 12}
        for j, k in enumerate((0, 25)):
            mix = mixes[(2 * i + j) % 4]
            if match and mix == ("random", "random"):
                mix = ("greedy", "greedy")
            out.append((1000 + 10 * i + j, options, mix, k))
    return out


@pytest.mark.parametrize("king_starts", [True, False])
def test_the_kernels_tables_are_the_rules_card_for_card(king_starts: bool) -> None:
    """Every one of the 104 cards on a centre pile of every value: the kernel's fit table (bit ``rank`` of
    ``T_FIT + value``, which the legal moves and the greedy bot read) against the rules' :func:`fits_value`
    and against the engine's own ``fits`` on such a position; the greedy bot's preference, distance and
    discard class entry by entry."""
    tab = ksm.rule_tables(king_starts)
    game = SpiteMalice(seed=0, king_starts_pile=king_starts)
    fillers = [c for c in game.state.stock if c.rank < rules.QUEEN][:rules.QUEEN]
    wrong = []
    for v in range(rules.QUEEN):
        game.state.centre[0] = fillers[:v]
        for code in range(ksm.CARDS):
            card = ksm.card_of(code)
            want = rules.fits_value(int(card.rank), v, king_starts)
            if bool((tab[ksm.T_FIT + v] >> (code >> 3) + 1) & 1) != want or game.fits(card, 1) != want:
                wrong.append((str(card), v))
    assert not wrong, wrong
    assert sum(rules.fits_value(r, v, king_starts) for r in range(1, 14) for v in range(12)) == 12 + 11 + king_starts
    for t in range(1, 14):
        for v in range(rules.QUEEN):
            assert tab[ksm.T_PREF + t * rules.QUEEN + v] == rules.payoff_preference(t, v), (t, v)
            assert tab[ksm.T_DIST + t * rules.QUEEN + v] == rules.distance(t, v, king_starts), (t, v)
    for j, top, r in itertools.product(range(4), range(14), range(1, 14)):
        cls, gap = rules.discard_class(r, top or None)
        assert tab[ksm.T_DISC + (j * 14 + top) * 14 + r] == ((cls * 16 + gap) * 16 + 13 - r) * 4 + j, (j, top, r)


def test_the_kernel_plays_the_engines_game_card_for_card(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [r for r in (engine_run(*case, monkeypatch) for case in cases()) if r is not None]
    bad = {i: d for i, r in enumerate(runs) if (d := differences(r))}
    assert not bad, bad
    # the comparison covered what it must: every rule path appeared in these games
    completions = Counter(r.start.options["completed_to"] for r in runs
                          for c, perms in r.script.perms.items() if perms and len(perms[0]) == 12)
    assert completions["bottom"] >= 10 and completions["shuffle"] >= 10, completions
    assert sum(r.doubles for r in runs) >= 5
    assert sum(1 for r in runs if r.end.state.round >= 2) >= 4                     # matches of several rounds
    assert sum(1 for r in runs for c, perms in r.script.perms.items()
               if len(perms) == 2 and len(perms[0]) == r.start.options["payoff_size"]) >= 1   # a tie reshuffle
    assert {r.end.winner for r in runs} == {0, 1, None}                            # wins by both seats, draws
    assert sum(1 for r in runs if "random" in r.policies) >= 20
    assert len(runs) >= 60


def test_a_changed_scripted_number_changes_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The card-for-card comparison sees packs and shuffles: flip which copy leaves a hand, or the order of
    one completed pile, and the kernel's game no longer equals the engine's."""
    run = engine_run(8, {"payoff_size": 20}, ("greedy", "greedy"), 0, monkeypatch)
    assert run is not None and run.doubles >= 1 and run.script.perms
    assert differences(run) == []
    flipped = ksm.Script(run.script.perms, [1 - c for c in run.script.copies], run.script.randoms)
    assert differences(run, flipped)
    count = min(run.script.perms)
    perms = dict(run.script.perms)
    perms[count] = [perms[count][0][::-1]] + perms[count][1:]
    assert differences(run, ksm.Script(perms, run.script.copies, run.script.randoms))


# ---------------------------------------------------------------------------------------------- statistics
def z_means(a: np.ndarray, b: np.ndarray) -> float:
    """Welch's two-sample z for means (both samples in the hundreds or more)."""
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    if va + vb == 0:
        return 0.0 if a.mean() == b.mean() else math.inf
    return float((a.mean() - b.mean()) / math.sqrt(va + vb))


ENGINE_GAMES = 300   # per option set: the engine plays about 20-50 games a second here
STAT_CASES = [
    ({}, ["greedy", "greedy"]),
    ({"king_starts_pile": False, "refill_on_empty": False, "completed_to": "shuffle", "payoff_size": 8},
     ["random", "greedy"]),
    ({"first": "seat0", "payoff_size": 4, "match": True, "target": 6}, ["greedy", "random"]),
]


@pytest.mark.parametrize(("options", "policies"), STAT_CASES, ids=["default-greedy", "options-random-greedy",
                                                                   "match-greedy-random"])
def test_fresh_games_match_the_engine_within_99_9_percent(options: dict[str, Any], policies: list[str]) -> None:
    probe = cardlab.new_game(GAME, seed=0, **options)
    ew, et, ex = run_engine_games(GAME, 2, 11, 0, ENGINE_GAMES, policies, options)
    kw, kt, kx = ksm.play_shard(2, probe.options, 5, 0, 20_000, policies)
    zs = {"seat 0 wins": z_proportions(float(np.sum(kw == 0)), kw.size, float(np.sum(ew == 0)), ew.size),
          "draws": z_proportions(float(np.sum(kw < 0)), kw.size, float(np.sum(ew < 0)), ew.size),
          "turns": z_means(kt.astype(float), et.astype(float))}
    for key in ("points", "rounds"):
        if np.ptp(ex[key]) or np.ptp(kx[key]):
            zs[key] = z_means(kx[key], ex[key])
        else:
            assert kx[key][0] == ex[key][0], key        # constant in both: the same constant
    assert all(abs(z) < Z for z in zs.values()), zs
    assert set(kx) == set(probe.stats())
    assert np.array_equal(kx["draw"], (kw < 0).astype(float)) and np.array_equal(ex["draw"], (ew < 0).astype(float))


def test_shards_of_any_size_give_the_same_games() -> None:
    options = cardlab.new_game(GAME, seed=0).options
    whole = ksm.play_shard(2, options, 9, 0, 300, ["random", "greedy"])
    parts = [ksm.play_shard(2, options, 9, a, b, ["random", "greedy"]) for a, b in ((0, 1), (1, 170), (170, 300))]
    assert np.array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))
    for key in whole[2]:
        assert np.array_equal(whole[2][key], np.concatenate([p[2][key] for p in parts]))
    again = ksm.play_shard(2, options, 9, 0, 300, ["random", "greedy"])
    other = ksm.play_shard(2, options, 10, 0, 300, ["random", "greedy"])
    assert np.array_equal(whole[1], again[1]) and not np.array_equal(whole[1], other[1])
    # game i is the kernel's game of the one dealer's key game_key(9, i), the kernels' one scheme
    opts = ksm.options_array(options)
    pol = np.array([1, 0], dtype=np.int64)
    for i in (0, 1, 171, 299):
        board, buf = np.zeros(ksm.BOARD, dtype=np.int64), np.zeros(ksm.RING, dtype=np.int64)
        state = kernel_state(game_key(9, i))
        log = np.full(ksm.GAME_MAX_MOVES, -1, dtype=np.int64)
        with np.errstate(over="ignore"):
            ksm._fresh_game(board, opts, state, buf)
            status = ksm._play_board(board, state, opts, pol, ksm.rule_tables(True), ksm.GAME_MAX_MOVES, 0, 0,
                                     ksm._EMPTY, ksm._NO_TAPE_AT, ksm._EMPTY, ksm._EMPTY, log)
        assert status == ksm.OK and (board[ksm.WINNER], board[ksm.TURN]) == (whole[0][i], whole[1][i]), i


# ---------------------------------------------------------------------------------------------- hidden cards
def mid_game(seed: int, moves: int, **options: Any) -> SpiteMalice:
    g = cardlab.new_game(GAME, seed=seed, **options)
    assert isinstance(g, SpiteMalice)
    policy = make_policy("greedy", GAME, np.random.default_rng(seed))
    for _ in range(moves):
        g.play(choose(policy, g))
    assert not g.is_over
    return g


def chi2_z(counts: Sequence[float], probs: Sequence[float]) -> float:
    """Pearson's chi-square of counts against exact probabilities (bins of expected count < 5 merged), as
    a normal z by the Wilson-Hilferty cube root."""
    n = sum(counts)
    rows = sorted(zip(probs, counts, strict=True), reverse=True)
    merged: list[list[float]] = []
    for p, c in rows:
        if merged and merged[-1][0] * n < 5:
            merged[-1][0] += p
            merged[-1][1] += c
        else:
            merged.append([p, c])
    if len(merged) > 1 and merged[-1][0] * n < 5:
        p, c = merged.pop()
        merged[-1][0] += p
        merged[-1][1] += c
    df = len(merged) - 1
    stat = sum((c - p * n) ** 2 / (p * n) for p, c in merged)
    return ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


@pytest.mark.parametrize("completed_to", ["bottom", "shuffle"])
def test_hidden_deals_follow_the_chance_law(completed_to: str) -> None:
    g = mid_game(21, 150, completed_to=completed_to)
    assert g.state.completions >= 1
    law = g.chance_law(0)
    real = ksm.board_of(g)
    hidden = {ksm.PAY + i for i in range(real[ksm.PAY_N] - 1)}
    hidden |= {ksm.PAY + ksm.PCAP + i for i in range(real[ksm.PAY_N + 1] - 1)}
    hidden |= {ksm.HAND + ksm.HCAP + i for i in range(ksm.HCAP)} | {ksm.STOCK + i for i in range(ksm.RING)}
    seen = [q for q in range(ksm.BOARD) if q not in hidden]
    law_cards = sorted(ksm.code_of(c) for c in law.components[0][1].cards)  # the same cards in every component
    top = len(law.names) - 1
    exact = law.place_law(top)
    faces = sorted(exact)
    counts: Counter[int] = Counter()
    real_labels: dict[Any, list[int]] = {}  # per face, the labels its hidden copies may carry (any component)
    for _, labels, _ in g._ledgers(0):
        for c in law.components[0][1].cards:
            real_labels.setdefault(c.face, []).append(labels[c.id])
    n = 6000
    boards = ksm.deal_hidden(g, 0, range(n))
    assert (boards[:, seen] == real[seen]).all()
    for board in boards[:200]:
        pos = ksm.position_of(board)
        dealt = pos["payoff"][0][:-1] + pos["payoff"][1][:-1] + pos["hands"][1] + pos["stock"]
        assert sorted(ksm.code_of(c) for c in dealt) == law_cards
        assert pos["hands"][1] == sorted(pos["hands"][1])
        # cards seen in a completed pile lie only where the law allows: never under a payoff top (by face: in a
        # mixture, which copy of a face carries which label is not known, and components differ)
        assert all(min(real_labels[c.face]) <= 0 for c in pos["payoff"][0][:-1] + pos["payoff"][1][:-1])
    stock_top = boards[np.arange(n), ksm.STOCK + boards[:, ksm.STOCK_N] - 1]
    counts.update((stock_top >> 1).tolist())
    z = chi2_z([counts[ksm.code_of(f) >> 1] for f in faces], [float(exact[f]) for f in faces])
    assert abs(z) < Z, z
    assert sum(counts.values()) == n and set(counts) <= {ksm.code_of(f) >> 1 for f in faces}


def mixed_position(seed: int, viewpoint: int | None) -> SpiteMalice:
    """The first position of a greedy game where ``viewpoint``'s law is a mixture whose components give the
    stock top different laws (a hidden hand played a face whose two copies carry different labels)."""
    g = cardlab.new_game(GAME, seed=seed)
    assert isinstance(g, SpiteMalice)
    policy = make_policy("greedy", GAME, np.random.default_rng(seed))
    while not g.is_over:
        g.play(choose(policy, g))
        law = g.chance_law(viewpoint)
        if isinstance(law, MixedLaw) and g.state.stock and len(
                {tuple(sorted(comp.place_law(len(law.names) - 1).items())) for _, comp in law.components}) > 1:
            return g
    raise AssertionError(f"no mixed position in game {seed}")


@pytest.mark.parametrize("viewpoint", [None, 1])
def test_a_mixed_law_is_dealt_with_its_component_weights(viewpoint: int | None) -> None:
    """Where the viewer's law is a mixture, the kernel picks a component per play-out with its weight and
    deals it: the stock top's face follows the mixture's exact law (the weighted sum of the components',
    chi-square), the hidden hand's cards are the law's, and the play-outs are a function of the seed."""
    g = mixed_position(7, viewpoint)
    law = g.chance_law(viewpoint)
    assert isinstance(law, MixedLaw)
    top = len(law.names) - 1
    exact = law.place_law(top)
    n = 8000
    boards = ksm.deal_hidden(g, viewpoint, range(n))
    stock_top = boards[np.arange(n), ksm.STOCK + boards[:, ksm.STOCK_N] - 1]
    counts = Counter((stock_top >> 1).tolist())
    faces = sorted(exact)
    assert set(counts) <= {ksm.code_of(f) >> 1 for f in faces}
    z = chi2_z([counts[ksm.code_of(f) >> 1] for f in faces], [float(exact[f]) for f in faces])
    assert abs(z) < Z, z
    # the heaviest component alone is a different law for this place: the test can tell the two apart
    heaviest = max(law.components, key=lambda wc: wc[0])[1].place_law(top)
    assert heaviest != exact
    law_cards = sorted(ksm.code_of(c) for c in law.components[0][1].cards)
    for board in boards[:100]:
        pos = ksm.position_of(board)
        hands = [h for seat, h in enumerate(pos["hands"]) if seat != viewpoint]
        dealt = pos["payoff"][0][:-1] + pos["payoff"][1][:-1] + [c for h in hands for c in h] + pos["stock"]
        assert sorted(ksm.code_of(c) for c in dealt) == law_cards
    again = ksm.deal_hidden(g, viewpoint, range(200))
    assert np.array_equal(again, boards[:200])


def test_twins_the_viewer_cannot_tell_apart_get_identical_play_outs() -> None:
    for seed, viewpoint in ((31, 0), (32, 1), (33, None)):
        g = mid_game(seed, 40)
        twin = g.resample(viewpoint, np.random.default_rng(seed))
        assert twin.state.stock != g.state.stock
        a = ksm.win_rollouts(g, viewpoint, 300, np.random.default_rng(5))
        b = ksm.win_rollouts(twin, viewpoint, 300, np.random.default_rng(5))
        assert np.array_equal(a, b)
        a = ksm.payoff_this_turn(g, viewpoint, 300, np.random.default_rng(6))
        b = ksm.payoff_this_turn(twin, viewpoint, 300, np.random.default_rng(6))
        assert np.array_equal(a, b)


def test_rollouts_match_the_engines_resampled_play_outs() -> None:
    g = mid_game(3, 40)
    rng = np.random.default_rng(1)
    kernel = ksm.win_rollouts(g, 0, 4000, rng)
    engine = [prob.play_on(g.resample(0, rng), rng).winner for _ in range(80)]
    z = z_proportions(float(np.sum(kernel == 0)), kernel.size, float(sum(w == 0 for w in engine)), len(engine))
    assert abs(z) < Z, z
    g = mid_game(5, 23, completed_to="shuffle", refill_on_empty=False)
    seat, turn = g.current_player, g.turns
    paid = ksm.payoff_this_turn(g, None, 4000, rng)
    hits = 0
    for _ in range(400):
        t = g.resample(None, rng)
        size = len(t.state.payoff[seat])
        prob.play_on(t, rng, stop=lambda x: x.turns != turn)
        hits += len(t.state.payoff[seat]) < size
    z = z_proportions(float(paid.sum()), paid.size, float(hits), 400)
    assert abs(z) < Z and 0 < hits < 400, (z, hits)


def test_every_legal_move_has_the_kernel_code_of_its_text() -> None:
    """The first move of a move-value play-out is the engine's move: each legal move's code reads back as its
    text, distinct moves get distinct codes, and the code is the move the kernel's own move list holds."""
    for seed, moves in ((11, 15), (12, 40), (13, 70)):
        g = mid_game(seed, moves)
        legal = g.legal_moves()
        codes = [ksm.move_code(m) for m in legal]
        assert [ksm.move_text(c) for c in codes] == [m.text for m in legal]
        assert len(set(codes)) == len({m.text for m in legal})
        board = ksm.board_of(g)
        tab = ksm.rule_tables(bool(g.options["king_starts_pile"]))
        p = g.current_player
        listed = [ksm._legal(board, p, tab, k) for k in range(ksm._legal(board, p, tab, -1))]
        assert sorted(set(codes)) == sorted(listed)
    with pytest.raises(InvalidInputError, match="not a Spite and Malice move"):
        ksm.move_code(cardlab.new_game("garbage", seed=0).legal_moves()[0])


# ---------------------------------------------------------------------------------------------- errors, input
def test_a_broken_invariant_is_a_kernel_error_with_seed_and_moves() -> None:
    g = mid_game(8, 30)
    g.state.stock[0] = g.state.stock[1]          # a card duplicated, another lost
    with pytest.raises(KernelError, match=r"win_rollouts: a card was lost or duplicated \(play-out 0 of 5, "
                       r"viewpoint None, seed \d+\); moves: (payoff|side|hand) "):
        ksm.win_rollouts(g, None, 5, np.random.default_rng(0))
    assert ksm.KernelError is KernelError and not issubclass(KernelError, cardlab.CorruptRecordError)


def test_bad_input_is_refused_with_a_clear_error() -> None:
    options = cardlab.new_game(GAME, seed=0).options
    assert ksm.plays(["greedy", "random"]) and not ksm.plays(["greedy", print])
    with pytest.raises(InvalidInputError, match="policies"):
        ksm.play_shard(2, options, 0, 0, 5, ["greedy", "clever"])
    with pytest.raises(InvalidInputError, match="players=3"):
        ksm.play_shard(3, options, 0, 0, 5, ["greedy"] * 3)
    with pytest.raises(InvalidInputError, match="normalised options"):
        ksm.play_shard(2, {"payoff_size": 5}, 0, 0, 5, ["greedy", "greedy"])
    with pytest.raises(InvalidInputError, match="n=0"):
        ksm.win_rollouts(mid_game(1, 3), None, 0, np.random.default_rng(0))
    with pytest.raises(InvalidInputError, match=r"play_shard: seed=-1 is not allowed"):
        ksm.play_shard(2, options, -1, 0, 5, ["greedy", "greedy"])
    with pytest.raises(InvalidInputError, match=r"play_shard: start=5, stop=4 is not a range of games"):
        ksm.play_shard(2, options, 0, 5, 4, ["greedy", "greedy"])
    with pytest.raises(InvalidInputError, match="win_rollouts: the Spite and Malice kernel plays Spite and Malice "
                                                "games only, not 'garbage'"):
        ksm.win_rollouts(cardlab.new_game("garbage", seed=0), None, 5, np.random.default_rng(0))


def test_the_compile_hook_compiles_the_entry_points_in_this_process() -> None:
    """The spec's ``compile`` hook (what ``cardlab compile`` runs, tests/sim/test_cli.py) compiles the kernel's
    entry points here, loading them from numba's on-disk cache when it can."""
    hook = cardlab.engine.game_spec("spite-and-malice").compile
    assert hook is not None
    hook()
    for entry in (ksm._shard, ksm._rollouts, ksm._play_board):
        assert entry.signatures, "the Spite and Malice kernel was not compiled in this process"
