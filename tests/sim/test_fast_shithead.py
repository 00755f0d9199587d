"""The fast Shithead play-out is the engine's greedy play-out, card for card.

Shithead has no chance after the deal, so a greedy play-out of a given state is a pure function of it.
The fast path must therefore give *exactly* the engine's result — winner, ``turns``, finishing order and
safety stop — on every state: fresh deals, positions inside the set-up, mid-game positions reached by
greedy and by random play (face-up and blind phases, empty draw pile), crafted scenes, 2–5 players and
every option. The corpus is checked to reach each rule (burns, clears, blind fits and misses, pick-ups,
players going out, safety stops), so the equality is tested where it could fail.

The resampled play-outs must equal ``playout(game.resample(viewpoint, rng))`` drawn from the same
generator, and ``must_pick_up`` must equal the engine's own reading of "picks up on its next turn".
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.engine.game import Game
from cardlab.games.shithead import Shithead
from cardlab.policies import RandomPolicy, choose, make_policy
from cardlab.sim import fast_shithead as fs
from tests.games.test_shithead import DOWN_2, cards, dealt, position

GREEDY = make_policy("greedy", "shithead", np.random.default_rng(0))
OPTION_SETS: list[dict[str, Any]] = [
    dict(four_kind_plays_again=a, play_to_last=b, first=f)
    for a, b, f in itertools.product((False, True), (False, True), ("seat0", "lowest3"))
]


# ---------------------------------------------------------------------------------------------- engine side
def engine_playout(game: Game[Any]) -> tuple[fs.Playout, list[Any]]:
    """The engine's greedy play-out of a copy of ``game``, with the events it logged on the way."""
    g = game.copy()
    mark = len(g.events)
    while not g.is_over:
        g.play(choose(GREEDY, g))
    w = g.winner
    return fs.Playout(-1 if w is None else w, g.turns, list(g.state.ranking), g.state.stopped), g.events[mark:]


def engine_must_pick_up(game: Game[Any], seat: int) -> int:
    """Greedy play until ``seat`` is to move in the play phase, then through that turn: 1 if the turn
    holds a pick-up by ``seat`` (a pick-up move, or a blind card that did not fit)."""
    g = game.copy()
    while not g.is_over and not (g.current_player == seat and g.state.phase == "play"):
        g.play(choose(GREEDY, g))
    if g.is_over:
        return 0
    turn, mark = g.turns, len(g.events)
    while not g.is_over and g.turns == turn:
        g.play(choose(GREEDY, g))
    return int(any(e.seat == seat and (e.kind == "pickup" or (e.kind == "blind" and not e.data["fits"]))
                   for e in g.events[mark:]))


def advance(game: Game[Any], moves: int, rng: np.random.Generator | None) -> Game[Any]:
    """A copy played on ``moves`` moves by greedy bots (``rng`` None) or uniformly random ones."""
    g = game.copy()
    policy = GREEDY if rng is None else RandomPolicy(rng)
    for _ in range(moves):
        if g.is_over:
            break
        g.play(choose(policy, g))
    return g


def kinds(game: Game[Any]) -> set[str]:
    """Which phases a position shows: set-up, empty draw pile, a seat to move from face-up or blind."""
    s = game.state
    out = {s.phase}
    if s.phase == "play" and not game.is_over:
        out.add("draw empty" if not s.draw else "draw left")
        out.add(f"source {game.source(s.to_move)}")
    return out


def corpus_positions() -> Iterator[Game[Any]]:
    """Fresh deals, set-up positions and mid-game positions for 2-5 players and every option set."""
    for i, (players, opts) in enumerate(itertools.product((2, 3, 4, 5), OPTION_SETS)):
        for j in range(2):
            seed = 100 * i + j
            g = cardlab.new_game("shithead", players=players, seed=seed, **opts)
            setup_moves = 3 * players
            yield g                                                   # fresh deal, set-up not started
            yield advance(g, 1 + seed % (setup_moves - 1), None)      # inside the set-up
            yield advance(g, setup_moves, None)                       # set-up just done
            rng = np.random.default_rng(seed)
            for extra in (20, 60, 120):
                yield advance(g, setup_moves + extra + j, None)       # greedy mid-game and late game
            for extra in (15, 80, 250):
                yield advance(g, setup_moves + extra, rng)            # random play: odd positions


@functools.cache
def corpus() -> list[tuple[Game[Any], fs.Playout, frozenset[str], frozenset[str]]]:
    """Each position with the engine's play-out, the position's phases and the rules its play-out used."""
    rows = []
    for g in corpus_positions():
        end, events = engine_playout(g)
        used = {e.kind for e in events}
        used |= {"clear" for e in events if e.kind == "burn" and "in a row" in e.text}
        used |= {f"blind fits={e.data['fits']}" for e in events if e.kind == "blind"}
        rows.append((g, end, frozenset(kinds(g)), frozenset(used)))
    return rows


# ---------------------------------------------------------------------------------------------- play-outs
def test_playout_equals_the_engine_on_every_corpus_position() -> None:
    mismatches = []
    for g, expected, _, _ in corpus():
        got = fs.playout_detail(g)
        if got != expected:
            mismatches.append((g.players, g.options, g.move_count, expected, got))
    assert not mismatches, mismatches[:3]
    assert len(corpus()) > 500


def test_corpus_reaches_every_phase_and_rule() -> None:
    phases = set().union(*(k for _, _, k, _ in corpus()))
    used = set().union(*(u for _, _, _, u in corpus()))
    assert {"setup", "play", "draw empty", "draw left", "source hand", "source up", "source down"} <= phases
    assert {"burn", "clear", "pickup", "blind fits=True", "blind fits=False", "win", "out", "shithead",
            "start"} <= used
    ends = [end for _, end, _, _ in corpus()]
    assert {len(e.ranking) for e in ends} >= {1, 2, 3, 4, 5}


def test_playout_returns_winner_and_turns_and_leaves_the_game_alone() -> None:
    g, expected, _, _ = corpus()[10]
    before = g.state.clone()
    moves = g.move_count
    assert fs.playout(g) == (expected.winner, expected.turns)
    assert g.state == before and g.move_count == moves


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("play_to_last", [False, True])
def test_safety_rule_stops_at_the_same_turn_as_the_engine(players: int, play_to_last: bool) -> None:
    """Small ``max_turns`` values stop most games: the same turn, the same (or no) winner, the same ranking."""
    stops = 0
    for seed, limit in itertools.product(range(6), (1, 7, 25, 60, 150)):
        g = cardlab.new_game("shithead", players=players, seed=seed, max_turns=limit, play_to_last=play_to_last)
        for start in (g, advance(g, 3 * players + 4, np.random.default_rng(seed))):
            expected, _ = engine_playout(start)
            assert fs.playout_detail(start) == expected
            stops += expected.stopped
    assert stops > 10


def test_a_finished_game_plays_out_to_itself() -> None:
    for g, expected, _, _ in corpus()[:40]:
        done = advance(g, 10_000, None)
        assert done.is_over
        assert fs.playout(done) == (expected.winner, expected.turns)


def test_crafted_scenes_match_the_engine() -> None:
    """Rules a random corpus meets rarely: a starting 10 or 2, lowest3 with only 2s and 10s in hand, a
    four of a kind spread over two players, and a last card that is a 10."""
    ups = [["KS", "KH", "KD"], ["QS", "QH", "QD"]]
    scenes = [
        dealt([["3S", "6S", "7S"], ["8H", "9H", "JH"]], ups, DOWN_2, ["10C", "AS", "AH"]),
        dealt([["3S", "6S", "7S"], ["8H", "9H", "JH"]], ups, DOWN_2, ["2C", "AS", "AH"]),
        dealt([["2S", "10S", "2H"], ["10H", "2D", "10D"]], ups, DOWN_2, ["JC", "JD"], first="lowest3"),
        dealt([["5S", "6S", "7S"], ["3H", "8H", "9H"]], ups, DOWN_2, ["JC"], first="lowest3"),
        position([["7C", "7D"], ["7H", "7S", "9C"]], [[], ["AS"]], [["3D", None, None], ["3C", None, None]],
                 ["5C"], to_move=0),
        position([["7C", "7D"], ["7H", "7S", "9C"]], [[], ["AS"]], [["3D", None, None], ["3C", None, None]],
                 ["5C"], to_move=0, four_kind_plays_again=True),
        position([["10C"], ["4H"], ["KD"]], [[], [], []], [[None, None, None]] * 3, ["QC"], to_move=0,
                 play_to_last=True),
        position([["3C"], ["4H"]], [["5D"], []], [["9C", None, "2S"], ["JC", None, None]], ["KC", "KH"],
                 to_move=0, known=[["3C"], []]),
    ]
    for g in scenes:
        expected, _ = engine_playout(g)
        assert fs.playout_detail(g) == expected


# ---------------------------------------------------------------------------------------------- resampling
def sample_positions() -> list[Game[Any]]:
    rows = corpus()
    return [g for g, _, _, _ in rows[::7] if not g.is_over]


def test_resample_in_rank_space_equals_the_engine_resample() -> None:
    """Same generator, same redeal: the rank-space table of ``game.resample`` and the fast redeal agree,
    and both leave the generator in the same state."""
    for i, g in enumerate(sample_positions()):
        for viewpoint in (None, i % g.players):
            a, b = np.random.default_rng(i), np.random.default_rng(i)
            deal = fs._Resampler(g, viewpoint)
            for _ in range(3):
                assert deal.deal(b) == fs._table(g.resample(viewpoint, a).state)
            assert a.integers(2**62) == b.integers(2**62)


def test_resample_of_an_unsorted_hand_follows_the_engine_card_by_card() -> None:
    """The engine keeps hands sorted; a hand put out of order, with a known 7 and an unknown 7 apart,
    must still be redealt in the engine's pool order (the unknown 7 before the 3), read card by card."""
    g = position([["3C", "5C"], ["3D", "7C", "7D", "KD", "4S"]], [["AS"], []],
                 [["9C", "JH", None], ["JC", "2H", "8S"]], ["6C"], draw=["QH", "QS", "5H", "6H"], to_move=0,
                 known=[[], ["7D", "KD"]])
    g.state.hands[1][:] = cards("7C", "3D", "KD", "4S", "7D")
    for seed in range(20):
        for viewpoint in (None, 0):
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            assert fs._Resampler(g, viewpoint).deal(b) == fs._table(g.resample(viewpoint, a).state)


def test_rollouts_from_equals_engine_resample_then_playout() -> None:
    checked = set()
    for i, g in enumerate(sample_positions()[:60]):
        viewpoint = None if i % 2 else g.current_player
        a, b = np.random.default_rng(7 + i), np.random.default_rng(7 + i)
        expected = [fs.playout(g.resample(viewpoint, a))[0] for _ in range(12)]
        got = fs.rollouts_from(g, viewpoint, 12, b)
        assert got.shape == (12,) and got.dtype == np.int64
        assert got.tolist() == expected
        checked |= set(expected)
    assert len(checked) >= 3  # several different winners: the redeals matter


def test_rollouts_of_a_finished_game_repeat_its_result() -> None:
    g = advance(cardlab.new_game("shithead", players=3, seed=5), 10_000, None)
    assert g.is_over
    w = fs.rollouts_from(g, None, 5, np.random.default_rng(0))
    assert w.tolist() == [g.winner] * 5


def test_must_pick_up_equals_the_engine_reading() -> None:
    """Per play-out, on engine-resampled games drawn from the same generator, for every seat."""
    outcomes = []
    for i, g in enumerate(sample_positions()[:50]):
        viewpoint = None if i % 3 else g.current_player
        for seat in range(g.players):
            a, b = np.random.default_rng(i * 10 + seat), np.random.default_rng(i * 10 + seat)
            expected = [engine_must_pick_up(g.resample(viewpoint, a), seat) for _ in range(6)]
            got = fs.must_pick_up(g, seat, viewpoint, 6, b)
            assert got.tolist() == expected, (i, seat)
            outcomes += expected
    assert 0 < sum(outcomes) < len(outcomes)  # both answers occur


def test_must_pick_up_in_scenes_with_a_known_answer() -> None:
    """Seat 0 holds only a 3 on a King: it must pick up. Seat 1 can answer a 5 with its Ace: it does not.
    A finished seat (play to last) never moves again: 0."""
    rng = np.random.default_rng(0)
    must = position([["3C"], ["AH", "4H"]], [[], []], [["9C", None, None], ["JC", None, None]], ["KC"], to_move=0)
    assert fs.must_pick_up(must, 0, 0, 4, rng).tolist() == [1, 1, 1, 1]
    can = position([["3C"], ["AH"]], [[], []], [["9C", None, None], ["JC", None, None]], ["5C"], to_move=1)
    assert fs.must_pick_up(can, 1, 1, 4, rng).tolist() == [0, 0, 0, 0]
    out = position([["10C"], ["4H"], ["KD"]], [[], [], []], [[None, None, None]] * 3, ["QC"], to_move=0,
                   play_to_last=True)
    out.play("play 10")
    assert out.state.ranking == [0]
    assert fs.must_pick_up(out, 0, None, 3, rng).tolist() == [0, 0, 0]


# ---------------------------------------------------------------------------------------------- input
def test_supports_every_shithead_game_only() -> None:
    assert fs.supports(cardlab.new_game("shithead", players=5, seed=0, play_to_last=True, first="lowest3"))
    assert not fs.supports(cardlab.new_game("garbage", seed=0))


@pytest.mark.parametrize(("call", "fragment"), [
    (lambda g, r: fs.playout(cardlab.new_game("garbage", seed=0)), "Shithead games only"),
    (lambda g, r: fs.rollouts_from(g, None, 0, r), "n=0"),
    (lambda g, r: fs.rollouts_from(g, None, True, r), "n=True"),
    (lambda g, r: fs.rollouts_from(g, None, 2.5, r), "n=2.5"),
    (lambda g, r: fs.rollouts_from(g, None, 3, 42), "rng=42"),
    (lambda g, r: fs.rollouts_from(g, 7, 3, r), "seat 7"),
    (lambda g, r: fs.must_pick_up(g, 2, None, 3, r), "seat 2"),
    (lambda g, r: fs.must_pick_up(g, None, None, 3, r), "seat None"),
    (lambda g, r: fs.must_pick_up(cardlab.new_game("garbage", seed=0), 0, None, 3, r), "'garbage'"),
])
def test_bad_input_is_refused_with_a_clear_message(call: Any, fragment: str) -> None:
    g = cardlab.new_game("shithead", players=2, seed=0)
    assert isinstance(g, Shithead)
    before = g.state.clone()
    with pytest.raises(cardlab.InvalidInputError) as info:
        call(g, np.random.default_rng(0))
    assert fragment in str(info.value)
    assert g.state == before
