"""Shithead beliefs are computed when a question first needs them (:mod:`cardlab.games.shithead.lazy`).

Two promises: engine play that asks nothing runs no belief update at all (counted at the functions of
:mod:`cardlab.games.shithead.beliefs`), and beliefs computed late, after undo, after a record's replay or on
a copy equal the ones an update at every move gives (the engine before this change, rebuilt here by making
every step run the moment it is taken), at every move of many seeded games with pick-ups, under both
``first=`` options.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.engine.game import Move
from cardlab.games.shithead import Shithead, beliefs
from cardlab.games.shithead.bot import UninformedShithead, greedy_shithead
from cardlab.games.shithead.lazy import Beliefs, PerSeat, Step, on_seat

UPDATES = ("play", "pick_up", "draw", "start")
"""The functions of :mod:`.beliefs` that fold a public step into a belief."""

# (seed, players, options, policy): two- and three-player games, both starting rules, greedy and uninformed
# players (the uninformed model's own play leaves the richest beliefs), one with four of a kind playing again
CASES = [(seed, players, {"first": first}, policy)
         for seed in range(2) for players in (2, 3) for first in ("seat0", "lowest3")
         for policy in ("greedy", "uninformed")]
CASES += [(90, 2, {"first": "lowest3", "four_kind_plays_again": True}, "uninformed")]


def _policy(name: str, seed: int) -> Callable[[Any, list[Move]], Move]:
    if name == "greedy":
        return greedy_shithead
    return UninformedShithead(np.random.default_rng([seed, 7]))


def _new(seed: int, players: int, options: dict[str, Any]) -> Shithead:
    g = cardlab.new_game("shithead", players=players, seed=seed, **options)
    assert isinstance(g, Shithead)
    return g


def _moves(seed: int, players: int, options: dict[str, Any], policy: str) -> list[Move]:
    """The moves of one seeded game, played to the end (or 400 moves) by ``policy``."""
    g = _new(seed, players, options)
    choose = _policy(policy, seed)
    while not g.is_over and g.move_count < 400:
        g.play(choose(g.observe(g.current_player), g.legal_moves()))
    return g.moves


@contextmanager
def _eager(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every step runs the moment it is taken, as the engine did before the beliefs were lazy."""
    def then(self: Beliefs, step: Step) -> Beliefs:
        return Beliefs(step(self.value))

    def then_seat(self: Beliefs, seat: int, update: Callable[[beliefs.Belief], beliefs.Belief]) -> Beliefs:
        return then(self, on_seat(seat, update))

    with monkeypatch.context() as m:
        m.setattr(Beliefs, "then", then)
        m.setattr(Beliefs, "then_seat", then_seat)
        yield


@contextmanager
def _counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Counts of the calls of each belief update while the block runs."""
    calls = dict.fromkeys(UPDATES, 0)
    with monkeypatch.context() as m:
        for name in UPDATES:
            m.setattr(beliefs, name, _counting(name, getattr(beliefs, name), calls))
        yield calls


def _counting(name: str, real: Callable[..., Any], calls: dict[str, int]) -> Callable[..., Any]:
    def counting(*args: Any) -> Any:
        calls[name] += 1
        return real(*args)
    return counting


def _eager_history(monkeypatch: pytest.MonkeyPatch, seed: int, players: int, options: dict[str, Any],
                   moves: list[Move]) -> list[PerSeat]:
    """The beliefs after each move (index 0: the deal) with every step run at once."""
    with _eager(monkeypatch):
        g = _new(seed, players, options)
        out = [g.state.beliefs.value]
        for m in moves:
            g.play(m)
            assert g.state.beliefs.computed
            out.append(g.state.beliefs.value)
    return out


def test_engine_play_asking_nothing_runs_no_belief_update(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing whole games (greedy and uninformed players, 2 and 3 seats, both starting rules), saving them,
    loading the records, copying, undoing and redoing a move: not one belief update. The first question then
    runs them, and its answer is the one an update at every move gives. (The engine used to update the
    beliefs at every play, draw and pick-up: 1.8 to 2.0 times the time of a move without them.)"""
    games = [(seed, players, {"first": first}, policy) for seed in (11,) for players in (2, 3)
             for first in ("seat0", "lowest3") for policy in ("greedy", "uninformed")]
    histories = {k: _moves(*games[k]) for k in range(len(games))}
    pickups = 0
    with _counted(monkeypatch) as calls:
        played = []
        for k, (seed, players, options, _) in enumerate(games):
            g = _new(seed, players, options)
            for m in histories[k]:
                g.play(m)
            pickups += g.state.pickups
            g.undo()
            g.play(histories[k][-1])
            again = cardlab.load_game(g.to_json())
            played += [g, g.copy(), again]
        assert calls == dict.fromkeys(UPDATES, 0)
        assert pickups > 0
        asked = [g.chance_law(None) for g in played]
        assert calls["play"] > 0 and calls["pick_up"] > 0 and calls["draw"] > 0 and calls["start"] > 0
    for k, (seed, players, options, _) in enumerate(games):
        want, law = _eager_end(monkeypatch, seed, players, options, histories[k])
        for g, lazy_law in zip(played[3 * k:3 * k + 3], asked[3 * k:3 * k + 3], strict=True):
            assert g.state.beliefs == want
            assert lazy_law == law


def _eager_end(monkeypatch: pytest.MonkeyPatch, seed: int, players: int, options: dict[str, Any],
               moves: list[Move]) -> tuple[PerSeat, Any]:
    """The beliefs and the table's chance law after ``moves``, with every belief step run at once."""
    with _eager(monkeypatch):
        g = _at(seed, players, options, moves)
        return g.state.beliefs.value, g.chance_law(None)


@pytest.mark.parametrize(("seed", "players", "options", "policy"), CASES,
                         ids=lambda v: str(v) if not isinstance(v, dict) else "-".join(map(str, v.values())))
def test_lazy_beliefs_equal_eager_ones_at_every_move(monkeypatch: pytest.MonkeyPatch, seed: int, players: int,
                                                     options: dict[str, Any], policy: str) -> None:
    """At every move of a seeded game, the beliefs computed lazily equal the ones computed at every move:

    * asked going forward at random moves only (a fold of several steps at once);
    * asked first at the end, then at every position going back by undo (the values the first fold left on
      the undo snapshots; a stale cache would show here);
    * after an undo and another legal move than the one played (a branch: the cache must follow the new
      move, not the old one), compared with the eager beliefs of that branch;
    * in a game loaded from the record and asked at the end."""
    moves = _moves(seed, players, options, policy)
    want = _eager_history(monkeypatch, seed, players, options, moves)
    rng = np.random.default_rng([seed, players])
    g = _new(seed, players, options)
    for i, m in enumerate(moves, 1):
        g.play(m)
        if rng.random() < 0.2:
            assert g.state.beliefs == want[i], f"move {i}"
    g = _new(seed, players, options)
    g.play_all(moves)
    assert not g.state.beliefs.computed
    branches = []  # positions with another legal move than the one played
    for i in range(len(moves), -1, -1):
        assert g.state.beliefs == want[i], f"move {i}, going back"
        if i < len(moves) and len(g.legal_moves()) > 1:
            branches.append(i)
        if i:
            g.undo()
    assert branches
    assert cardlab.load_game(_at(seed, players, options, moves).to_json()).state.beliefs == want[-1]
    g = _new(seed, players, options).play_all(moves)
    for i in sorted(rng.choice(branches, size=min(3, len(branches)), replace=False).tolist(), reverse=True):
        while g.move_count > i:
            g.undo()
        assert g.state.beliefs == want[i]
        other = next(m for m in g.legal_moves() if m.text != moves[i].text)
        g.play(other)
        assert g.state.beliefs == _eager_history(monkeypatch, seed, players, options, [*moves[:i], other])[-1]
        g.undo()


def _at(seed: int, players: int, options: dict[str, Any], moves: list[Move]) -> Shithead:
    return _new(seed, players, options).play_all(moves)


def test_the_cases_have_pick_ups_and_beliefs_that_carry_information() -> None:
    """The games above are not trivial: some hand picks up, and some belief is not the free one."""
    informative = pickups = 0
    for seed, players, options, policy in CASES[::3]:
        g = _at(seed, players, options, _moves(seed, players, options, policy))
        pickups += g.state.pickups
        law = g.chance_law(None)
        informative += any(b != beliefs.free(len(h)) for h, b in zip(law.hands, law.beliefs, strict=True))
    assert pickups > 0 and informative > 0


def test_a_pending_belief_pickles_and_copies_as_its_value() -> None:
    """A step need not be picklable: a pickled or deep-copied state holds the value of its beliefs."""
    seed, players, options, policy = CASES[1]
    g = _at(seed, players, options, _moves(seed, players, options, policy)[:80])
    assert not g.state.beliefs.computed
    for state in (pickle.loads(pickle.dumps(g.state)), copy.deepcopy(g.state)):
        assert state.beliefs.computed
        assert state.beliefs == g.state.beliefs
