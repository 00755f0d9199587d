"""Spite and Malice records: the checks of its own fields and options (every game's: ``tests/test_records.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.games.spite_malice.rules import SpiteMalice
from tests.record_checks import assert_every_true_position_loads, assert_refused, short_record

NAME = SpiteMalice.name


@pytest.mark.parametrize(("field", "value", "match"), [
    ("turn", None, r"initial\.turn is None"),
    ("labels", [0] * 103, r"initial\.labels is a list of 103; expected a list of 104"),
    ("scores", [1.5, 0], r"initial\.scores\[0\] is 1\.5"),
])
def test_state_fields_of_the_wrong_type_or_range_are_named(field: str, value: Any, match: str) -> None:
    record = short_record(NAME, moves=3)
    record["initial"][field] = value
    assert_refused(record, match)


@pytest.mark.parametrize(("players", "options"), [
    (2, {}),
    (2, {"completed_to": "shuffle", "match": True, "target": 30}),
    (2, {"payoff_size": 5, "refill_on_empty": False, "match": True}),
])
def test_every_true_position_loads_with_these_options(players: int, options: dict[str, Any]) -> None:
    """The checks refuse no real position of a game played with these options, the end included."""
    assert_every_true_position_loads(NAME, players, options, mix=False)
