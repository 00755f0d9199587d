"""Careless and hostile inputs through the public entry points.

Used by ``tests/test_inputs.py`` and by the figures of ``python -m tests.robustness``.

Each case is a name and a call. The contract: the call either works (the input's type is a reasonable
one, such as a numpy integer) or raises a :class:`cardlab.CardlabError` whose message is short (it quotes at
most a bounded prefix of the input). Anything else, a raw ``TypeError``, ``AttributeError``,
``RecursionError``, ``IndexError``..., is a defect.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np

import cardlab
from cardlab.engine.registry import game_spec
from cardlab.sim import prob

HUGE = "x" * 5_000_000
Case = tuple[str, Callable[[], Any]]


def _game(name: str = "garbage", **kw: Any) -> Any:
    return cardlab.new_game(name, seed=1, **kw)


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def cases() -> list[Case]:
    g = _game
    rng = _rng
    record = g().to_json()
    out: list[Case] = [
        # cards and move texts
        ("card '7H:\u00b2'", lambda: cardlab.Card.parse("7H:\u00b2")),
        ("card '7H:\u0661'", lambda: cardlab.Card.parse("7H:\u0661")),
        ("card 5", lambda: cardlab.Card.parse(5)),  # type: ignore[arg-type]
        ("card of 5 MB", lambda: cardlab.Card.parse(HUGE)),
        ("shithead 'play 7 x\u00b2'", lambda: g("shithead").play("play 7 x\u00b2")),
        ("shithead 'play 7x\u00b2'", lambda: g("shithead").play("play 7x\u00b2")),
        ("shithead 'play 7 x99999999999999999999'", lambda: g("shithead").play("play 7 x99999999999999999999")),
        ("move text of 5 MB", lambda: g().play(HUGE)),
        ("move None", lambda: g().play(None)),  # type: ignore[arg-type]
        ("move b'draw stock'", lambda: g().play(b"draw stock")),  # type: ignore[arg-type]
        ("spite 'hand \u00b2H to side 1'", lambda: g("spite-and-malice").play("hand \u00b2H to side 1")),
        ("spite 'hand 7H to side \u00b2'", lambda: g("spite-and-malice").play("hand 7H to side \u00b2")),
        # new_game arguments
        ("deck=5", lambda: g(deck=5)),
        ("deck={'AS': 1}", lambda: g(deck={"AS": 1})),
        ("deck='AS'", lambda: g(deck="AS")),
        ("deck={'AS'}", lambda: g(deck={"AS"})),
        ("deck of 1000 cards", lambda: g(deck=["AS"] * 1000)),
        ("deck [None]", lambda: g(deck=[None])),
        ("deck numpy array", lambda: g(deck=np.array(["AS", "KH"]))),
        ("players=np.int64(3)", lambda: cardlab.new_game("garbage", players=np.int64(3), seed=1)),
        ("seed=np.int64(3)", lambda: cardlab.new_game("garbage", seed=np.int64(3))),
        ("seed=-1", lambda: cardlab.new_game("garbage", seed=-1)),
        ("seed='7'", lambda: cardlab.new_game("garbage", seed="7")),  # type: ignore[arg-type]
        ("players=None game=None", lambda: cardlab.new_game(None)),  # type: ignore[arg-type]
        ("game name of 5 MB", lambda: cardlab.new_game(HUGE)),
        ("option value of 5 MB", lambda: g(wild=HUGE)),
        ("layout_sizes=[np.int64(5)] * 2", lambda: g(layout_sizes=[np.int64(5)] * 2)),
        ("layout_sizes=5", lambda: g(layout_sizes=5)),
        ("max_turns=np.int64(50)", lambda: g("shithead", max_turns=np.int64(50)).to_json()),
        ("max_turns=10**12", lambda: g("shithead", max_turns=10**12)),
        ("payoff_size=np.int64(5)", lambda: g("spite-and-malice", payoff_size=np.int64(5)).to_json()),
        ("rng='x'", lambda: cardlab.new_game("garbage", rng="x")),  # type: ignore[arg-type]
        # observe / seats
        ("observe(np.int64(1))", lambda: g().observe(np.int64(1))),
        ("observe('0')", lambda: g().observe("0")),  # type: ignore[arg-type]
        ("observe(7)", lambda: g().observe(7)),
        # records
        ("load_game(5)", lambda: cardlab.load_game(5)),  # type: ignore[arg-type]
        ("load_game(deeply nested)", lambda: cardlab.load_game("[" * 100_000 + "]" * 100_000)),
        ("load_game(nested in a field)", lambda: cardlab.load_game(
            json.dumps({**json.loads(record), "options": {"wild": "J"}}).replace('"moves": []', '"moves": '
                                                                                  + "[" * 50_000 + "]" * 50_000))),
        ("load_game(20 MB)", lambda: cardlab.load_game(" " * 20_000_000)),
        ("load_game(moves of 5 MB)", lambda: cardlab.load_game(record.replace('"moves": []', f'"moves": ["{HUGE}"]'))),
        ("load_game(shuffle_key=-1)", lambda: cardlab.load_game(
            record.replace('"shuffle_key": ', '"shuffle_key": -1, "x": '))),
        # simulate
        ("simulate(games=10**12)", lambda: cardlab.simulate("garbage", games=10**12, progress=False)),
        ("simulate(games=np.int64(20))", lambda: cardlab.simulate("garbage", games=np.int64(20), progress=False)),
        ("simulate(fast=1)", lambda: cardlab.simulate("garbage", games=10, fast=1, progress=False)),  # type: ignore
        ("simulate(progress='no')", lambda: cardlab.simulate("garbage", games=10, progress="no")),  # type: ignore
        ("simulate(backend=[])", lambda: cardlab.simulate("garbage", games=10, backend=[], progress=False)),  # type: ignore
        ("simulate(processes=10**9)", lambda: cardlab.simulate("garbage", games=10, processes=10**9, progress=False)),
        ("simulate(policy=5)", lambda: cardlab.simulate("garbage", games=10, policy=5, progress=False)),  # type: ignore
        ("simulate(seed=2**70)", lambda: cardlab.simulate("garbage", games=10, seed=2**70, progress=False)),
        # prob
        ("win_probability('garbage')", lambda: prob.win_probability("garbage", rng=rng())),  # type: ignore[arg-type]
        ("win_probability(None)", lambda: prob.win_probability(None, rng=rng())),  # type: ignore[arg-type]
        ("completion_curves('garbage')", lambda: prob.completion_curves("garbage", rng=rng())),  # type: ignore
        ("unseen_cards(5)", lambda: prob.unseen_cards(5)),  # type: ignore[arg-type]
        ("panel_quantities('garbage')", lambda: prob.panel_quantities("garbage", rng=rng())),  # type: ignore
        ("play_on(None)", lambda: prob.play_on(None, rng())),  # type: ignore[arg-type]
        ("kernel.win_rollouts(viewpoint=5)", lambda: game_spec("garbage").kernel.win_rollouts(g(), 5, 10, rng())),  # type: ignore
        ("kernel.win_rollouts(n=-1)", lambda: game_spec("shithead").kernel.win_rollouts(  # type: ignore
            cardlab.new_game("shithead", seed=1), None, -1, rng())),
        ("kernel.win_rollouts(rng=None)", lambda: game_spec("spite-and-malice").kernel.win_rollouts(  # type: ignore
            cardlab.new_game("spite-and-malice", seed=1), None, 10, None)),
        ("completion_curves(ks=5)", lambda: prob.completion_curves(g(), ks=5, rollouts=20, rng=rng())),  # type: ignore
        ("completion_curves(ks='12')", lambda: prob.completion_curves(g(), ks="12", rollouts=20, rng=rng())),  # type: ignore
        ("completion_curves(ks=[np.int64(2)])", lambda: prob.completion_curves(g(), ks=[np.int64(2)], rollouts=20,
                                                                              rng=rng())),
        ("win_probability(budget_s=True)", lambda: prob.win_probability(g(), budget_s=True, rng=rng())),
        ("win_probability(budget_s=float('nan'))", lambda: prob.win_probability(g(), budget_s=float("nan"),
                                                                               rng=rng())),
        ("win_probability(rollouts=np.int64(5))", lambda: prob.win_probability(g(), rollouts=np.int64(5), rng=rng())),
        ("win_probability(rollouts=5.0)", lambda: prob.win_probability(g(), rollouts=5.0, rng=rng())),  # type: ignore
        ("win_probability(rng=5)", lambda: prob.win_probability(g(), rollouts=5, rng=5)),  # type: ignore[arg-type]
    ]
    return out


def run_case(call: Callable[[], Any], limit: int = 2000) -> str:
    """"ok", "refused" (a short cardlab error) or what went wrong."""
    try:
        call()
    except cardlab.CardlabError as exc:
        size = len(str(exc))
        return "refused" if size <= limit else f"refused with a message of {size:,} characters"
    except Exception as exc:  # noqa: BLE001 - the point is to see every raw error
        return f"raw {type(exc).__name__}: {str(exc)[:150]}"
    return "ok"
