"""Records that hold up: every field read by type and range, live positions only, bounded size, sparse snapshots."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.engine import game as engine_game
from cardlab.engine.registry import game_class
from tests.record_fuzz import check_record, corrupt, true_record

GAMES = ["garbage", "shithead", "spite-and-malice"]


def _record(name: str, players: int = 2, moves: int = 0, **options: Any) -> dict[str, Any]:
    g = cardlab.new_game(name, players=players, seed=4, **options)
    for _ in range(moves):
        g.play(g.legal_moves()[0])
    record: dict[str, Any] = json.loads(g.to_json())
    record["initial"] = g.state.to_data()
    record["moves"] = []
    return record


def _refused(record: dict[str, Any], match: str) -> None:
    start = time.perf_counter()
    with pytest.raises(cardlab.CorruptRecordError, match=match):
        cardlab.load_game(json.dumps(record))
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("name", GAMES)
def test_every_state_field_is_described(name: str) -> None:
    cls = game_class(name)
    fields = {f.name for f in dataclasses.fields(cls.state_class)}
    assert set(cls.state_description) == fields


def test_shithead_record_ranking_every_seat_is_refused_not_a_hang() -> None:
    record = _record("shithead", players=3, moves=9)   # the set-up is done: the play phase
    record["initial"]["ranking"] = [0, 1, 2]
    _refused(record, "record field initial")


@pytest.mark.parametrize(("name", "field", "value", "match"), [
    ("garbage", "turn", None, r"initial\.turn is None; expected a whole number"),
    ("shithead", "turn", None, r"initial\.turn is None"),
    ("spite-and-malice", "turn", None, r"initial\.turn is None"),
    ("shithead", "burns", "=x", r"initial\.burns is '=x'; expected a whole number"),
    ("shithead", "phase", "=nap", r"initial\.phase is '=nap'; expected one of '=setup', '=play'"),
    ("garbage", "to_move", 7, r"initial\.to_move is 7; expected a whole number from 0 to 1"),
    ("garbage", "over", 0, r"initial\.over is 0; expected true or false"),
    ("spite-and-malice", "labels", [0] * 103, r"initial\.labels is a list of 103; expected a list of 104"),
    ("spite-and-malice", "scores", [1.5, 0], r"initial\.scores\[0\] is 1\.5"),
    ("garbage", "stock", [[[["AS"]]]], r"initial\.stock\[0\] is \[\[\['AS'\]\]\]; expected a card code"),
])
def test_state_fields_of_the_wrong_type_or_range_are_named(name: str, field: str, value: Any, match: str) -> None:
    record = _record(name, moves=3)
    record["initial"][field] = value
    _refused(record, match)


@pytest.mark.parametrize("key", [-1, 2**63, "7", None, 1.5, True])
def test_bad_shuffle_key(key: Any) -> None:
    record = _record("garbage")
    record["shuffle_key"] = key
    _refused(record, "record field shuffle_key")


def test_dead_position_is_refused() -> None:
    """Garbage: the stock empty and a Queen on the discard pile (no seat can use it): not over, no legal move.
    The greedy bot would have had nothing to choose from."""
    record = _record("garbage")
    initial = record["initial"]
    queens = [c for c in initial["stock"] if c.startswith("Q")]
    initial["discard"] = [c for c in initial["stock"] if c != queens[0]] + [queens[0]]
    initial["stock"] = []
    _refused(record, "dead position: the game is not over, yet seat 0 has no legal move")


def test_dead_shithead_setup_is_refused() -> None:
    """A set-up whose seat to move has no cards to put face up: not over, no legal move."""
    record = _record("shithead")
    initial = record["initial"]
    initial["draw"] = initial["draw"] + initial["hands"][0]
    initial["hands"][0] = []
    _refused(record, "record field initial")


def test_moves_and_max_turns_are_bounded() -> None:
    record = _record("garbage")
    record["moves"] = ["draw stock"] * (engine_game.MAX_RECORD_MOVES + 1)
    _refused(record, "moves is a list of 250,001 moves")
    with pytest.raises(cardlab.InvalidInputError, match="max_turns"):
        cardlab.new_game("shithead", seed=1, max_turns=10**7)
    record = _record("shithead")
    record["options"]["max_turns"] = 10**9
    _refused(record, "record field options")


@pytest.mark.parametrize("name", GAMES)
def test_corrupted_records_are_refused_or_playable(name: str) -> None:
    """A small sample of the figure script's run (``python -m tests.robustness`` runs 2,000 per game)."""
    rng = np.random.default_rng(2026)
    outcomes = []
    for _ in range(25):
        text = corrupt(true_record(name, rng), rng)
        out = check_record(text, rng, most=300)
        assert out.kind in ("refused", "playable"), (out.kind, out.detail)
        assert out.load_cpu < 2 and out.move_cpu < 2
        outcomes.append(out.kind)
    assert "refused" in outcomes


@pytest.mark.parametrize("name", GAMES)
def test_loaded_long_record_keeps_few_snapshots_and_undo_is_exact(name: str) -> None:
    rng = np.random.default_rng(5)
    g = cardlab.new_game(name, seed=9)
    while not g.is_over and g.move_count < 400:
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    loaded = cardlab.load_game(g.to_json())
    kept = sum(snap is not None for snap, _ in loaded._stack)
    assert kept == -(-g.move_count // engine_game.SNAPSHOT_EVERY)
    for _ in range(min(150, g.move_count)):   # back past a kept snapshot: undo replays from it
        assert loaded.undo() == g.undo()
        assert loaded.state.to_data() == g.state.to_data()
        assert [e.text for e in loaded.events] == [e.text for e in g.events]
    legal = loaded.legal_moves()
    loaded.play(legal[0])
    g.play(legal[0])
    assert loaded.state.to_data() == g.state.to_data()


CONFIGS = [("garbage", 3, {"last_round": True}), ("garbage", 2, {"match": True, "last_round": True}),
           ("garbage", 1, {"match": True}), ("shithead", 3, {"play_to_last": True}),
           ("shithead", 4, {"first": "lowest3", "four_kind_plays_again": True, "play_to_last": True}),
           ("spite-and-malice", 2, {}),
           ("spite-and-malice", 2, {"completed_to": "shuffle", "match": True, "target": 30}),
           ("spite-and-malice", 2, {"payoff_size": 5, "refill_on_empty": False, "match": True})]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_every_true_position_loads(name: str, players: int, options: dict[str, Any]) -> None:
    """The checks refuse no real position: positions all through played games, the end included, load back."""
    from cardlab.policies import choose, make_policy

    g = cardlab.new_game(name, players=players, seed=3, **options)
    rng = np.random.default_rng(3)
    policies = [make_policy("greedy", name, rng), make_policy("random", name, rng)]
    i = 0
    while True:
        if i % 23 == 0 or g.is_over:
            record = json.loads(g.to_json())
            record["initial"] = g.state.to_data()
            record["moves"] = []
            assert cardlab.load_game(json.dumps(record)).state.to_data() == g.state.to_data()
        if g.is_over or i > 3000:
            break
        g.play(choose(policies[0 if name == "spite-and-malice" else i % 2], g))
        i += 1
