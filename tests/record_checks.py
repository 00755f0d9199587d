"""Helpers of the record tests (``tests/test_records.py`` for every game, ``tests/games/<game>/test_records.py``
for one game's own fields and options)."""

from __future__ import annotations

import json
import time
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.policies import choose, make_policy


def short_record(name: str, players: int = 2, moves: int = 0, **options: Any) -> dict[str, Any]:
    """A parsed record of ``name`` (seed 4) whose dealt position is the position after ``moves`` first-listed
    legal moves, with no moves."""
    g = cardlab.new_game(name, players=players, seed=4, **options)
    for _ in range(moves):
        g.play(g.legal_moves()[0])
    record: dict[str, Any] = json.loads(g.to_json())
    record["initial"] = g.state.to_data()
    record["moves"] = []
    return record


def assert_refused(record: dict[str, Any], match: str) -> None:
    """``load_game`` refuses the record with a :class:`~cardlab.errors.CorruptRecordError` matching ``match``,
    in under 2 seconds."""
    start = time.perf_counter()
    with pytest.raises(cardlab.CorruptRecordError, match=match):
        cardlab.load_game(json.dumps(record))
    assert time.perf_counter() - start < 2


def assert_every_true_position_loads(name: str, players: int, options: dict[str, Any], mix: bool = True) -> None:
    """The checks refuse no real position: positions all through a played game (every 23rd, and the end),
    written as records whose dealt position they are, load back. The seats play greedy, and with ``mix``
    greedy and random in turn."""
    g = cardlab.new_game(name, players=players, seed=3, **options)
    rng = np.random.default_rng(3)
    policies = [make_policy("greedy", name, rng), make_policy("random" if mix else "greedy", name, rng)]
    i = 0
    while True:
        if i % 23 == 0 or g.is_over:
            record = json.loads(g.to_json())
            record["initial"] = g.state.to_data()
            record["moves"] = []
            assert cardlab.load_game(json.dumps(record)).state.to_data() == g.state.to_data()
        if g.is_over or i > 3000:
            break
        g.play(choose(policies[i % 2], g))
        i += 1
