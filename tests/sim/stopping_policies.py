"""Policies for the tests that stop a run early; module level, so worker processes can import them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.engine.game import Move

_calls = {"n": 0}


def fails_after_a_while(view: Any, legal_moves: Sequence[Move]) -> Move:
    """Plays the first legal move; its 3000th call in a process raises (in the first shard of a worker)."""
    _calls["n"] += 1
    if _calls["n"] == 3000:
        raise RuntimeError("this policy fails on its 3000th call")
    return legal_moves[0]
