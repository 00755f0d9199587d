"""Records that hold up: every field read by type and range, live positions only, bounded size, sparse snapshots.

Every test here runs on every registered game (:func:`cardlab.game_names`, the toy game of
:mod:`tests.toy_game` included) and names none; a game's own fields, options and positions are tested in
``tests/games/<game>/test_records.py``.
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.engine import game as engine_game
from cardlab.engine.registry import game_class
from tests.record_checks import assert_every_true_position_loads, assert_refused, short_record
from tests.record_fuzz import AIMED, HUGE, check_record, corrupt, true_record

GAMES = cardlab.game_names()
FIELDS = [(name, field) for name in GAMES for field in game_class(name).state_description]


def game_seed(name: str) -> int:
    """A seed of the game's own, from its name: a game's samples do not change when another game is added."""
    return zlib.crc32(name.encode())


@pytest.mark.parametrize("name", GAMES)
def test_every_state_field_is_described(name: str) -> None:
    cls = game_class(name)
    fields = {f.name for f in dataclasses.fields(cls.state_class)}
    assert set(cls.state_description) == fields


@pytest.mark.parametrize(("name", "field"), FIELDS)
def test_every_state_field_of_the_wrong_type_is_named(name: str, field: str) -> None:
    """No field of a state is written as an object: each one, given one, is refused with its name."""
    record = short_record(name, moves=3)
    record["initial"][field] = {"x": 1}
    assert_refused(record, rf"initial\.{field} is")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("key", [-1, 2**64, "7", None, 1.5, True])
def test_bad_shuffle_key(name: str, key: Any) -> None:
    record = short_record(name)
    record["shuffle_key"] = key
    assert_refused(record, "record field shuffle_key")


@pytest.mark.parametrize("name", GAMES)
def test_moves_are_bounded(name: str) -> None:
    """More moves than a record may hold are refused before any is replayed."""
    record = short_record(name)
    record["moves"] = ["x"] * (engine_game.MAX_RECORD_MOVES + 1)
    assert_refused(record, "moves is a list of 250,001 moves")


@pytest.mark.parametrize("name", GAMES)
def test_corrupted_records_are_refused_or_playable(name: str) -> None:
    """A small sample of the figure script's run (``python -m tests.robustness`` runs 2,000 per game)."""
    rng = np.random.default_rng([2026, game_seed(name)])
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


@pytest.mark.parametrize("name", GAMES)
def test_the_history_gives_every_earlier_position_from_few_snapshots(name: str) -> None:
    """``state_before(i)`` of a loaded long record (a snapshot every SNAPSHOT_EVERY moves, replays between) is the
    position the played game stood at before move i, with the same events before it; ``kept_state_before``
    gives only the kept ones; a move number out of range is refused by name."""
    rng = np.random.default_rng(6)
    g = cardlab.new_game(name, seed=10)
    states, events = [], []
    while not g.is_over and g.move_count < 300:
        states.append(g.state.to_data())
        events.append(len(g.events))
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    states.append(g.state.to_data())
    events.append(len(g.events))
    loaded = cardlab.load_game(g.to_json())
    n = g.move_count
    every = engine_game.SNAPSHOT_EVERY
    for i in sorted({0, 1, n // 2, n - 1, n, *range(every - 2, min(n, every + 3))} & set(range(n + 1))):
        assert loaded.state_before(i).to_data() == states[i] == g.state_before(i).to_data()
        assert loaded.events_before(i) == events[i] == g.events_before(i)
        kept = loaded.kept_state_before(i)
        assert (kept is not None) == (i % every == 0 or i == n)
        assert kept is None or kept.to_data() == states[i]
    assert loaded.state.to_data() == states[n]   # asking changed nothing
    for bad in (-1, n + 1, "3", 1.0, True):
        for ask in (loaded.state_before, loaded.kept_state_before, loaded.events_before):
            refused = rf"{ask.__name__}\({bad!r}\): give a move number from 0 to {n}"
            with pytest.raises(cardlab.InvalidInputError, match=refused):
                ask(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("field", "value"), [("version", 1.0), ("version", True), ("players", 2.0),
                                              ("players", True)])
def test_header_numbers_of_the_wrong_type_are_refused(name: str, field: str, value: Any) -> None:
    """1.0 and true compare equal to 1, but no record writes them."""
    record = short_record(name)
    record[field] = value
    assert_refused(record, f"record field {field}")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("field", ["players", "options", "moves", "initial", "shuffle_key"])
def test_a_missing_header_field_is_refused(name: str, field: str) -> None:
    """A two-player record with no ``players`` used to load (the default count filled in)."""
    record = short_record(name)
    del record[field]
    assert_refused(record, f"record field {field} is missing")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("aim", AIMED, ids=lambda f: f.__name__)
def test_aimed_corruptions_are_refused_or_playable(name: str, aim: Any) -> None:
    """Each aimed mutation of the fuzz (numbers as floats, bools and long numbers; header fields; Shithead
    beliefs; cards moved into a hand; pile tops) on a few records: refused, or loaded and played on."""
    rng = np.random.default_rng([25, game_seed(name), AIMED.index(aim)])
    for _ in range(6):
        record = json.loads(true_record(name, rng))
        aim(record, rng)
        text = json.dumps(record).replace(json.dumps(HUGE), "9" * 5000)
        out = check_record(text, rng, most=200)
        assert out.kind in ("refused", "playable"), (out.kind, out.detail)
        assert out.load_cpu < 2 and out.move_cpu < 2


@pytest.mark.parametrize("name", GAMES)
def test_every_true_position_loads(name: str) -> None:
    """The checks refuse no real position, with the fewest and the most players the game allows (default
    options, greedy seats; each game's own options: ``tests/games/<game>/test_records.py``)."""
    cls = game_class(name)
    for players in sorted({cls.min_players, cls.max_players}):
        assert_every_true_position_loads(name, players, {}, mix=False)


def test_every_game_meets_the_option_fuzz() -> None:
    """:func:`tests.record_fuzz.option_choices` reads every game's options from its specs: each option offers
    its default first, and one whose default is a truth value, a number or a word offers another value too (or
    the fuzz would never leave the defaults)."""
    from tests.record_fuzz import option_choices

    assert len(GAMES) >= 4
    for name in GAMES:
        cls = game_class(name)
        for key, values in option_choices(cls).items():
            default = cls.option_specs[key].default
            assert values[0] == default
            assert len(values) >= 2 or not isinstance(default, (bool, int, str)), (name, key, values)
