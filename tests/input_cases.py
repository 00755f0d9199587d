"""Careless and hostile inputs through every public entry point: an independent bad-input sweep.

Used by ``tests/test_inputs.py`` and by the figures of ``python -m tests.robustness``.

Each :class:`Case` is a name, a call and what should happen: a bad input is ``REFUSED`` with a
:class:`cardlab.CardlabError` of at most :data:`cardlab.errors.MESSAGE_LIMIT` characters (it quotes at most a
bounded prefix of the input), and the game, stepper or widget it was given is left exactly as it was; a
reasonable input (a numpy integer, say) is ``OK`` and works. :func:`run_case` names every other outcome, each a
defect: a raw ``TypeError``, ``ValueError``, ``RecursionError``... (a traceback), a bad setting accepted
silently, a good one refused, a longer message, a state changed by a failed call, a call still running after
``timeout`` seconds (a hang).

A case with a subject (a game or a stepper built fresh for it) compares the subject's state before and after
a refused call: the game's record (``to_json``) and state, or the stepper's game, seed, seat policies,
viewpoint and the predict box's records, guess and question. A refused ``Stepper(...)`` must leave no widget
open in the kernel. The predict box's Reveal button never raises: its message on the page is its refusal.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

import cardlab
from cardlab.engine.registry import game_spec
from cardlab.errors import MESSAGE_LIMIT, InvalidInputError
from cardlab.policies import make_policy
from cardlab.sim import prob

HUGE = "x" * 5_000_000
BIG = 10**5000          # more digits than Python prints (4,300)
REFUSED, OK = "refused", "ok"
FAST = {"rollouts": 8, "panel_rollouts": 4, "history_rollouts": 8}


@dataclass(frozen=True)
class Case:
    """One input: ``call(subject)`` on a fresh ``subject()``; ``state(subject)`` is what a refusal must keep."""

    name: str
    call: Callable[[Any], Any]
    expect: str = REFUSED
    subject: Callable[[], Any] = lambda: None
    state: Callable[[Any], object] = lambda _: None


def _game(name: str = "garbage", **kw: Any) -> Any:
    return cardlab.new_game(name, seed=1, **kw)


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _played(name: str = "garbage", moves: int = 3) -> cardlab.Game:
    """A game a few moves in (so that a refused call has history to lose)."""
    g = cardlab.new_game(name, seed=1)
    for _ in range(moves):
        g.play(g.legal_moves()[0])
    return g


def game_state(g: cardlab.Game) -> object:
    return g.to_json(), json.dumps(g.state.to_data(), sort_keys=True, default=str), g.move_count, len(g.events)


def _widgets() -> int:
    """Widgets alive in the kernel (the registry behind ``ipywidgets.Widget.widgets``)."""
    from ipywidgets.widgets import widget as widget_module

    return len(widget_module._instances)


def _stepper(**kw: Any) -> Any:
    return cardlab.Stepper(**{"game": "garbage", "players": 2, "seed": 3, **FAST, **kw})


def _guessed() -> Any:
    """A stepper whose predict box has had a guess at the position shown."""
    s = _stepper(predict=True)
    s.predictor.submit(0.5)
    return s


def stepper_state(s: Any) -> object:
    p = s.predictor
    box = None if p is None else (tuple(p.records), p.guess, p.revealed, p.question, p.feedback, p.key,
                                  p.fixed_seat)
    return (game_state(s.game), s.deal_seed, [str(dd.value) for dd in s.policies], str(s.viewpoint.value), box,
            len(s.win_history))


def _reveal(s: Any, text: str) -> None:
    """Type ``text`` in the predict box and press Reveal: the message the box shows is its refusal."""
    from cardlab.viz.predict import PredictBox

    box = next(c for c in s.box.children if isinstance(c, PredictBox))
    box.text.value = text
    box.reveal()
    if s.predictor.error:
        raise InvalidInputError(s.predictor.error)


def game_case(name: str, call: Callable[[Any], Any], expect: str = REFUSED, game: str = "garbage",
              moves: int = 3) -> Case:
    return Case(name, call, expect, lambda: _played(game, moves), game_state)


def stepper_case(name: str, call: Callable[[Any], Any], expect: str = REFUSED, **kw: Any) -> Case:
    return Case(name, call, expect, lambda: _stepper(**kw), stepper_state)


def new_stepper(name: str, expect: str = REFUSED, **kw: Any) -> Case:
    """``Stepper(..., **kw)``: refused before any widget exists."""
    return Case(name, lambda _: _stepper(**kw), expect, state=lambda _: _widgets())


def _earlier() -> list[tuple[str, Callable[[], Any]]]:
    """The cases of the first sweep (issue 15): texts of 5 MB, deep nesting, odd types, numpy integers."""
    g = _game
    rng = _rng
    record = g().to_json()
    out: list[tuple[str, Callable[[], Any]]] = [
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


ACCEPTED_EARLIER = {"deck numpy array", "players=np.int64(3)", "seed=np.int64(3)", "layout_sizes=[np.int64(5)] * 2",
                    "max_turns=np.int64(50)", "payoff_size=np.int64(5)", "observe(np.int64(1))",
                    "simulate(games=np.int64(20))", "completion_curves(ks=[np.int64(2)])",
                    "win_probability(rollouts=np.int64(5))"}


class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _LongRepr:
    def __repr__(self) -> str:
        return "r" * 1_000_000


ODD: list[tuple[str, object]] = [("10**5000", BIG), ("-10**5000", -BIG), ("True", True), ("object()", object()),
                                 ("failing repr", _BadRepr()), ("1 MB repr", _LongRepr()),
                                 ("numpy array", np.arange(5)), ("[5]*20000", [5] * 20000), ("text of 5 MB", HUGE)]


def cases() -> list[Case]:
    """Every case of the sweep (a few hundred; the Stepper cases take most of the time)."""
    out = [Case(name, lambda _, call=call: call(), OK if name in ACCEPTED_EARLIER else REFUSED)
           for name, call in _earlier()]
    # huge integers and other odd values in every slot that takes a number or a seat (issue 25, item 4)
    for label, v in ODD:
        out += [
            Case(f"new_game(players={label})", lambda _, v=v: cardlab.new_game("garbage", players=v)),
            Case(f"new_game(seed={label})", lambda _, v=v: cardlab.new_game("garbage", seed=v),
                 OK if label == "10**5000" else REFUSED),  # numpy takes seeds of any size
            Case(f"new_game(layout_sizes={label})", lambda _, v=v: cardlab.new_game("garbage", layout_sizes=v)),
            Case(f"new_game(max_turns={label})", lambda _, v=v: cardlab.new_game("shithead", max_turns=v)),
            Case(f"new_game(payoff_size={label})", lambda _, v=v: cardlab.new_game("spite-and-malice",
                                                                                   payoff_size=v)),
            Case(f"new_game(wild={label})", lambda _, v=v: cardlab.new_game("garbage", wild=v)),
            Case(f"new_game({label})", lambda _, v=v: cardlab.new_game(v)),
            Case(f"new_game(deck={label})", lambda _, v=v: cardlab.new_game("garbage", deck=v)),
            Case(f"new_game(rng={label})", lambda _, v=v: cardlab.new_game("garbage", rng=v)),
            Case(f"load_game({label})", lambda _, v=v: cardlab.load_game(v)),
            game_case(f"observe({label})", lambda g, v=v: g.observe(v)),
            game_case(f"resample({label}, rng)", lambda g, v=v: g.resample(v, _rng())),
            game_case(f"resample(None, rng={label})", lambda g, v=v: g.resample(None, v)),
            game_case(f"play({label})", lambda g, v=v: g.play(v)),
            game_case(f"parse_move({label})", lambda g, v=v: g.parse_move(v)),
            game_case(f"play_all({label})", lambda g, v=v: g.play_all(v)),
            game_case(f"stepwise({label})", lambda g, v=v: list(g.stepwise(v))),
            game_case(f"win_probability(g, {label})", lambda g, v=v: prob.win_probability(g, v, rollouts=5,
                                                                                         rng=_rng())),
            game_case(f"win_probability(rollouts={label})", lambda g, v=v: prob.win_probability(g, rollouts=v,
                                                                                               rng=_rng())),
            game_case(f"win_probability(budget_s={label})", lambda g, v=v: prob.win_probability(g, budget_s=v,
                                                                                               rng=_rng())),
            game_case(f"win_probability(rng={label})", lambda g, v=v: prob.win_probability(g, rollouts=5, rng=v)),
            game_case(f"unseen_cards(g, {label})", lambda g, v=v: prob.unseen_cards(g, v)),
            game_case(f"panel_quantities(g, {label})", lambda g, v=v: prob.panel_quantities(g, v, rng=_rng(),
                                                                                           rollouts=4)),
            game_case(f"completion_curves(ks=[{label}])", lambda g, v=v: prob.completion_curves(
                g, [v], rollouts=5, rng=_rng()), OK if label == "10**5000" else REFUSED),  # within k turns: ever
            game_case(f"garbage_next_card_placeable(g, {label})",
                      lambda g, v=v: prob.garbage_next_card_placeable(g, v)),
            game_case(f"shithead_must_pick_up(seat={label})", lambda g, v=v: prob.shithead_must_pick_up(
                g, v, rollouts=5, rng=_rng()), game="shithead", moves=4),
            game_case(f"spite_payoff_this_turn(rollouts={label})", lambda g, v=v: prob.spite_payoff_this_turn(
                g, rollouts=v, rng=_rng()), game="spite-and-malice"),
            game_case(f"spite_next_stock_playable(g, {label})", lambda g, v=v: prob.spite_next_stock_playable(g, v),
                      game="spite-and-malice"),
            Case(f"simulate(players={label})", lambda _, v=v: cardlab.simulate("garbage", players=v, games=3,
                                                                               progress=False)),
            Case(f"simulate(games={label})", lambda _, v=v: cardlab.simulate("garbage", games=v, progress=False)),
            Case(f"simulate(seed={label})", lambda _, v=v: cardlab.simulate("garbage", games=3, seed=v,
                                                                            progress=False)),
            Case(f"simulate(processes={label})", lambda _, v=v: cardlab.simulate("garbage", games=3, processes=v,
                                                                                 progress=False)),
            Case(f"simulate(policy={label})", lambda _, v=v: cardlab.simulate("garbage", games=3, policy=v,
                                                                              progress=False)),
            Case(f"simulate(option={label})", lambda _, v=v: cardlab.simulate("shithead", games=3, max_turns=v,
                                                                              progress=False)),
            Case(f"make_policy({label})", lambda _, v=v: make_policy(v, "garbage", _rng())),
            Case(f"make_policy('greedy', {label})", lambda _, v=v: make_policy("greedy", v, _rng())),
            Case(f"make_policy(rng={label})", lambda _, v=v: make_policy("random", "garbage", v)),
            new_stepper(f"Stepper(seed={label})", seed=v),
            new_stepper(f"Stepper(players={label})", players=v),
            new_stepper(f"Stepper(rollouts={label})", rollouts=v),
            new_stepper(f"Stepper(predict={label})", OK if label == "True" else REFUSED, predict=v),
            new_stepper(f"Stepper(predict=True, predict_seat={label})", predict=True, predict_seat=v),
            new_stepper(f"Stepper(policies=[{label}] * 2)", policies=[v, v]),
            new_stepper(f"Stepper(hot_seat={label})", hot_seat=v) if label != "True" else
            new_stepper("Stepper(hot_seat=None)", hot_seat=None),
            new_stepper(f"Stepper(move_values={label})", move_values=v) if label != "True" else
            new_stepper("Stepper(move_values=None)", move_values=None),
            new_stepper(f"Stepper(move_values=True, move_rollouts={label})", move_values=True, move_rollouts=v),
            stepper_case(f"predictor.submit({label})", lambda s, v=v: s.predictor.submit(v), predict=True),
            Case(f"table_html({label})", lambda _, v=v: _table_html(v)),
            game_case(f"table_html(g, viewpoint={label})", lambda g, v=v: _table_html(g, v)),
            game_case(f"table_html(g, reveal_all={label})", lambda g, v=v: _table_html(g, reveal_all=v),
                      OK if label == "True" else REFUSED),
        ]
    out += [
        # a game's repr evaluates to the same game, whatever its seed
        Case("repr(new_game(seed=10**5000))", lambda _: _same(cardlab.new_game("garbage", seed=BIG)), OK),
        Case("layout_sizes=[5]*20000", lambda _: cardlab.new_game("garbage", layout_sizes=[5] * 20000)),
        Case("option named by 1 MB", lambda _: cardlab.new_game("garbage", **{"x" * 1_000_000: 1})),
        Case("load_game(5,000-digit shuffle_key)", lambda _: cardlab.load_game(
            _game().to_json().replace('"shuffle_key": ', f'"shuffle_key": {"9" * 5000}, "x": '))),
        game_case("play_all(['draw stock', 'fly'])", lambda g: g.play_all([g.legal_moves()[0].text, "fly"])),
        game_case("play_all('draw stock')", lambda g: g.play_all("draw stock")),
        game_case("play_all(5)", lambda g: g.play_all(5)),
        game_case("undo() at the start", lambda g: g.undo(), moves=0),
        game_case("observe(np.int64(1))", lambda g: g.observe(np.int64(1)), OK),
        game_case("observe(2) in a 2-player game", lambda g: g.observe(2)),
        game_case("resample(np.int64(0), rng)", lambda g: g.resample(np.int64(0), _rng()), OK),
        game_case("win_probability(g, np.int64(1))", lambda g: prob.win_probability(g, np.int64(1), rollouts=5,
                                                                                   rng=_rng()), OK),
        game_case("spite question of a garbage game", lambda g: prob.spite_next_stock_playable(g)),
        game_case("play_on(stop=5)", lambda g: prob.play_on(g, _rng(), stop=5)),
        Case("simulate(policy=['greedy'] * 10**5)", lambda _: cardlab.simulate(
            "garbage", games=3, policy=["greedy"] * 100_000, progress=False)),
        Case("simulate(policy='clever' * 10**5)", lambda _: cardlab.simulate(
            "garbage", games=3, policy="clever" * 100_000, progress=False)),
        Case("make_policy('x' * 10**6)", lambda _: make_policy("x" * 1_000_000, "garbage", _rng())),
        Case("make_policy('greedy', 'poker')", lambda _: make_policy("greedy", "poker", _rng())),
        # predict settings (issue 25, item 6)
        new_stepper("Stepper(predict='bogus')", predict="bogus"),
        new_stepper("Stepper(predict='WIN')", predict="WIN"),
        new_stepper("Stepper(predict='next_card ')", predict="next_card "),
        new_stepper("Stepper(predict='next_stock'), a Spite and Malice key", predict="next_stock"),
        new_stepper("Stepper(predict='')", predict=""),
        new_stepper("Stepper(predict=None)", predict=None),
        new_stepper("Stepper(predict='next_card' * 10**5)", predict="next_card" * 100_000),
        new_stepper("Stepper(predict=True, predict_seat=True)", predict=True, predict_seat=True),
        new_stepper("Stepper(predict=True, predict_seat=2)", predict=True, predict_seat=2),
        new_stepper("Stepper(predict=True, predict_seat=-1)", predict=True, predict_seat=-1),
        new_stepper("Stepper(predict=True, predict_seat=1.0)", predict=True, predict_seat=1.0),
        new_stepper("Stepper(predict_seat=1) without predict", predict_seat=1),
        new_stepper("Stepper(predict=False, predict_seat=0)", predict=False, predict_seat=0),
        new_stepper("Stepper(predict='next_card', predict_seat=0)", predict="next_card", predict_seat=0),
        new_stepper("Stepper(predict=True, predict_seat=np.int64(1))", OK, predict=True, predict_seat=np.int64(1)),
        new_stepper("Stepper(predict='win')", OK, predict="win"),
        new_stepper("Stepper(predict='complete_2')", OK, predict="complete_2"),
        new_stepper("Stepper(seed=2**63)", seed=2**63),
        new_stepper("Stepper(rollouts=0)", rollouts=0),
        new_stepper("Stepper(rollouts=10**7)", rollouts=10**7),
        new_stepper("Stepper(four_colour='no')", four_colour="no"),
        new_stepper("Stepper(four_colour=np.True_)", OK, four_colour=np.True_),
        new_stepper("Stepper(policies='greedy')", policies="greedy"),
        new_stepper("Stepper(deck of 1000 cards)", deck=["AS"] * 1000),
        stepper_case("predictor.submit([0.5])", lambda s: s.predictor.submit([0.5]), predict=True),
        stepper_case("predictor.submit(1+0j)", lambda s: s.predictor.submit(1 + 0j), predict=True),
        stepper_case("predictor.submit(b'0.5')", lambda s: s.predictor.submit(b"0.5"), predict=True),
        stepper_case("predictor.submit(nan)", lambda s: s.predictor.submit(float("nan")), predict=True),
        stepper_case("predictor.submit(1.5)", lambda s: s.predictor.submit(1.5), predict=True),
        stepper_case("predictor.submit('0.5' * 200000)", lambda s: s.predictor.submit("0.5" * 200_000),
                     predict=True),
        stepper_case("predictor.submit('1/0')", lambda s: s.predictor.submit("1/0"), predict=True),
        stepper_case("predictor.submit(np.float64(0.3))", lambda s: s.predictor.submit(np.float64(0.3)), OK,
                     predict=True),
        stepper_case("predictor.submit(Fraction(1, 3))", lambda s: s.predictor.submit(_third()), OK, predict=True),
        Case("predictor.submit twice at a position", lambda s: s.predictor.submit(0.6), REFUSED, _guessed,
             stepper_state),
        stepper_case("Reveal with '0.5' * 200000", lambda s: _reveal(s, "0.5" * 200_000), predict=True),
        stepper_case("Reveal with '130%'", lambda s: _reveal(s, "130%"), predict=True),
        stepper_case("Reveal with 'b0.5'", lambda s: _reveal(s, "b'0.5'"), predict=True),
        stepper_case("Reveal with '30%'", lambda s: _reveal(s, "30%"), OK, predict=True),
        stepper_case("calibration() without predict", lambda s: s.calibration()),
        stepper_case("New deal with seed 2**63 in the seed box", lambda s: _new_deal(s, 2**63)),
        stepper_case("New deal with seed -1 in the seed box", lambda s: _new_deal(s, -1)),
        stepper_case("New deal with seed 10**5000 in the seed box", lambda s: _new_deal(s, BIG)),
    ]
    return out


def _same(g: cardlab.Game) -> None:
    copy = eval(repr(g), {"cardlab": cardlab})  # noqa: S307 - the repr is the game's own
    if copy.to_json() != g.to_json():
        raise AssertionError("repr does not give back the same game")


def _new_deal(s: Any, seed: int) -> None:
    """Type ``seed`` in the seed box and press New deal: the message the stepper shows is its refusal."""
    s.seed_select.value = seed
    s.new_deal()
    if s.last_error:
        raise InvalidInputError(s.last_error)


def _table_html(*args: Any, **kw: Any) -> str:
    from cardlab.viz.table import table_html

    return table_html(*args, **kw)


def _third() -> Any:
    from fractions import Fraction

    return Fraction(1, 3)


class Hang(Exception):
    """A case still running after its time limit."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise Hang

    old = signal.signal(signal.SIGALRM, alarm)
    pending = signal.alarm(seconds)   # an alarm someone else set (a time limit of the whole run, say)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        if pending:
            signal.alarm(max(1, round(pending - (time.monotonic() - start))))


def run_case(case: Case, timeout: int = 30) -> str:
    """"ok", "refused" (a short cardlab error, the subject unchanged) or the defect, in words."""
    subject = case.subject()
    before = case.state(subject)
    try:
        with time_limit(timeout):
            case.call(subject)
    except Hang:
        return f"hang (still running after {timeout} s)"
    except cardlab.CardlabError as exc:
        size = len(str(exc))
        if size > MESSAGE_LIMIT:
            return f"refused with a message of {size:,} characters"
        if case.state(subject) != before:
            return "state changed by a refused call"
        return REFUSED if case.expect != OK else f"good input refused: {str(exc)[:150]}"
    except Exception as exc:  # noqa: BLE001 - the point is to see every raw error
        return f"raw {type(exc).__name__}: {str(exc)[:150]}"
    return OK if case.expect != REFUSED else "bad input silently accepted"
