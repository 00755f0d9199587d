"""Garbage records: the checks of its own fields, positions and options (every game's: ``tests/test_records.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.games.garbage.rules import Garbage
from tests.record_checks import assert_every_true_position_loads, assert_refused, short_record

NAME = Garbage.name


@pytest.mark.parametrize(("field", "value", "match"), [
    ("turn", None, r"initial\.turn is None; expected a whole number"),
    ("to_move", 7, r"initial\.to_move is 7; expected a whole number from 0 to 1"),
    ("over", 0, r"initial\.over is 0; expected true or false"),
    ("stock", [[[["AS"]]]], r"initial\.stock\[0\] is \[\[\['AS'\]\]\]; expected a card code"),
])
def test_state_fields_of_the_wrong_type_or_range_are_named(field: str, value: Any, match: str) -> None:
    record = short_record(NAME, moves=3)
    record["initial"][field] = value
    assert_refused(record, match)


def test_dead_position_is_refused() -> None:
    """Garbage: the stock empty and a Queen on the discard pile (no seat can use it): not over, no legal move.
    The greedy bot would have had nothing to choose from."""
    record = short_record(NAME)
    initial = record["initial"]
    queens = [c for c in initial["stock"] if c.startswith("Q")]
    initial["discard"] = [c for c in initial["stock"] if c != queens[0]] + [queens[0]]
    initial["stock"] = []
    assert_refused(record, "dead position: the game is not over, yet seat 0 has no legal move")


@pytest.mark.parametrize(("players", "options"), [
    (3, {"last_round": True}),
    (2, {"match": True, "last_round": True}),
    (1, {"match": True}),
])
def test_every_true_position_loads_with_these_options(players: int, options: dict[str, Any]) -> None:
    """The checks refuse no real position of a game played with these options, the end included."""
    assert_every_true_position_loads(NAME, players, options, mix=True)
