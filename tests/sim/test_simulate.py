"""simulate(): results and their display, the choice of path, shards across processes and dask."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

import cardlab
from cardlab.chance.stats import wilson
from cardlab.sim import parallel
from cardlab.sim import simulate as sim
from tests import ctrl_c


def test_result_figures_and_text() -> None:
    r = cardlab.simulate("garbage", players=3, games=3000, seed=4)
    assert r.method == "fast" and r.games == 3000 and r.players == 3
    assert isinstance(r.turns, np.ndarray) and r.turns.shape == (3000,) and r.turns.min() >= 1
    assert int(r.wins.sum()) + r.draws == 3000
    for seat, est in enumerate(r.win_rates):
        assert est == wilson(float(np.sum(r.winners == seat)), 3000)
        assert est.low < est.value < est.high
    text = r.summary()
    assert text.splitlines()[0] == "3000 garbage games, 3 players, seed 4 (fast path)"
    for seat in range(3):
        est = r.win_rates[seat]
        assert f"{est.value:.4f} [{est.low:.4f}, {est.high:.4f}]" in text
    assert f"mean {r.turns.mean():.3f}" in text and str(r) == text


def test_draws_are_shown_and_counted() -> None:
    r = sim.SimResult("garbage", 2, 0, ["greedy", "greedy"], np.array([0, -1, 1, 0, -1]), np.array([3, 9, 4, 5, 9]))
    assert r.draws == 2 and list(r.wins) == [2, 1]
    assert "draws 2 (0.4000" in r.summary()
    assert "<td>draw</td>" in r._repr_html_()


def test_html_and_plot() -> None:
    r = cardlab.simulate("garbage", players=2, games=2000, seed=1)
    page = r._repr_html_()
    assert page.count("<tr>") == 3 and "<table>" in page
    assert f"{r.win_rates[1].value:.4f}" in page
    fig = r.plot()
    assert isinstance(fig, go.Figure)
    rates, turns = fig.data
    assert list(rates.y) == [e.value for e in r.win_rates]
    assert list(rates.error_y.array) == pytest.approx([e.high - e.value for e in r.win_rates])
    assert list(rates.error_y.arrayminus) == pytest.approx([e.value - e.low for e in r.win_rates])
    assert sum(turns.y) == pytest.approx(1.0)
    assert list(turns.x) == sorted(set(r.turns.tolist()))


def test_core_imports_and_simulates_without_plotly_or_tqdm() -> None:
    code = (
        "import sys\n"
        "sys.modules['plotly'] = None\n"
        "sys.modules['tqdm'] = None\n"
        "import cardlab\n"
        "r = cardlab.simulate('garbage', players=2, games=50, seed=1, progress=True)\n"
        "print(r.summary().splitlines()[0])\n"
        "try:\n"
        "    r.plot()\n"
        "except ImportError:\n"
        "    print('plot needs plotly')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["50 garbage games, 2 players, seed 1 (fast path)", "plot needs plotly"]


def test_path_choice() -> None:
    assert cardlab.simulate("garbage", games=20, seed=1).method == "fast"
    assert cardlab.simulate("trash", games=20, seed=1, wild="K", match=True, layout_sizes=[2, 2]).method == "fast"
    assert cardlab.simulate("garbage", games=20, seed=1, fast=False).method == "engine"
    mixed = cardlab.simulate("garbage", games=20, seed=1, policy=["greedy", "random"])
    assert mixed.method == "fast" and mixed.policies == ["greedy", "random"]
    assert set(mixed.extras) == {"hands", "shuffles"}

    def first_move(view: object, legal: list[object]) -> object:
        return legal[0]

    own = cardlab.simulate("garbage", games=20, seed=1, policy=["greedy", first_move])
    assert own.method == "engine"
    with pytest.raises(cardlab.InvalidInputError, match="fast=True needs policies the game's fast kernel plays"):
        cardlab.simulate("garbage", games=20, seed=1, policy=first_move, fast=True)


def test_greedy_beats_random_at_garbage() -> None:
    r = cardlab.simulate("garbage", players=2, games=400, seed=2, policy=["greedy", "random"])
    assert r.win_rates[0].low > 0.5


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"games": 0}, "games=0 is not allowed"),
    ({"games": 2.5}, "games=2.5 is not allowed"),
    ({"seed": -1}, "seed=-1 is not allowed"),
    ({"processes": 0}, "processes=0 is not allowed"),
    ({"backend": "spark"}, "backend='spark' is not allowed; accepted: 'local' or 'dask'"),
    ({"fast": "yes"}, "fast='yes' is not allowed"),
    ({"players": 9}, "players=9 is not allowed for garbage"),
    ({"colour": "red"}, "unknown option 'colour' for garbage"),
    ({"wild": "Q"}, "option wild='Q' is not allowed"),
    ({"policy": ["greedy"]}, "policy list has 1 entries"),
    ({"policy": "clever"}, "unknown policy 'clever'"),
])
def test_bad_input_is_refused(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"players": 2, "games": 10, "seed": 0}
    args.update(kwargs)
    with pytest.raises(cardlab.InvalidInputError, match=message.replace("[", r"\[").replace("(", r"\(")):
        cardlab.simulate("garbage", **args)


def test_progress_bar_for_long_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    cardlab.simulate("garbage", games=300, seed=1)
    assert capsys.readouterr().err == ""          # a short run stays quiet
    cardlab.simulate("garbage", games=300, seed=1, progress=False)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr("cardlab.sim.simulate.PROGRESS_DELAY_S", 0.0)  # as if the run were long
    cardlab.simulate("garbage", games=300, seed=1)
    err = capsys.readouterr().err
    assert "garbage (fast)" in err and "100%" in err


@pytest.mark.parametrize("name", cardlab.game_names())
def test_every_game_runs_on_the_engine_path(name: str) -> None:
    cls = cardlab.engine.game_class(name)
    r = cardlab.simulate(name, games=2, seed=3, policy="random", fast=False)
    assert r.method == "engine" and r.winners.shape == (2,) and np.all(r.turns >= 1)
    keys = set(cls(cls.default_players, seed=0).stats())
    assert set(r.extras) == keys and all(v.shape == (2,) for v in r.extras.values())


def engine_games_one_by_one(n: int) -> tuple[list[int], list[int]]:
    """Garbage games 0..n-1 of seed 9 with random policies, each replayed on its own."""
    from cardlab.engine.rng import game_rng
    from cardlab.policies import make_policy

    winners, turns = [], []
    for i in range(n):
        rng = game_rng(9, i)  # the policies' generator; the cards come from the one dealer
        g = cardlab.new_game("garbage", players=3, seed=9, index=i)
        sim.play_out(g, [make_policy("random", "garbage", rng)] * 3)
        winners.append(-1 if g.winner is None else g.winner)
        turns.append(g.turns)
    return winners, turns


def random_sizes(seed: int, most: int = 700) -> Any:
    """Shard sizes drawn at random (1 to ``most`` games), in place of the sizes the timings give."""
    rng = np.random.default_rng(seed)

    def size(plan: parallel.ShardPlan) -> int:
        return max(1, min(int(rng.integers(1, most + 1)), plan.left))
    return size


def same_runs(a: sim.SimResult, b: sim.SimResult) -> bool:
    return (np.array_equal(a.winners, b.winners) and np.array_equal(a.turns, b.turns)
            and a.extras.keys() == b.extras.keys() and all(np.array_equal(a.extras[k], b.extras[k]) for k in a.extras))


FRESH = [spec.name for spec in cardlab.engine.game_specs() if spec.rules.__module__.startswith("cardlab.")]
"""The games a fresh process knows (``import cardlab`` registers them). Worker processes (started with "spawn")
and the scripts below know no game that only this test process registered (the toy game of
``tests/toy_game.py``), so the tests that start them run on these."""


@pytest.mark.parametrize("name", FRESH)
def test_results_do_not_depend_on_shard_sizes_nor_processes(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Every game, on its kernel and on the engine: the shards the timings cut, shards of random sizes in this
    process, and shards of random sizes in two worker processes (started after the first shard) give the same
    winners, turns and figures, game for game."""
    runs = [("fast", 700, {"games": 3000, "seed": 5}),
            ("engine", 4, {"games": 12, "seed": 9, "policy": "random", "fast": False})]
    for method, most, kwargs in runs:
        timed = cardlab.simulate(name, progress=False, **kwargs)
        assert timed.method == method
        with monkeypatch.context() as m:
            m.setattr(parallel.ShardPlan, "size", random_sizes(1, most))
            cut = cardlab.simulate(name, progress=False, **kwargs)
            m.setattr(parallel.ShardPlan, "size", random_sizes(2, most))
            m.setattr(parallel.ShardPlan, "needs_pool", lambda plan: plan.timings >= 1)
            pooled = cardlab.simulate(name, progress=False, processes=2, **kwargs)
        assert same_runs(timed, cut) and same_runs(timed, pooled), (name, method)


def test_engine_game_i_is_game_i_of_the_seed_with_game_rng_for_its_policies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel.ShardPlan, "size", random_sizes(3))
    engine = cardlab.simulate("garbage", players=3, games=30, seed=9, policy="random", fast=False)
    winners, turns = engine_games_one_by_one(30)
    assert engine.winners.tolist() == winners and engine.turns.tolist() == turns


def test_dask_backend_gives_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import Client, LocalCluster

    monkeypatch.setattr(parallel.ShardPlan, "size", random_sizes(4))   # many shards, of any size
    local_fast = cardlab.simulate("garbage", players=3, games=10_000, seed=5)
    local_engine = cardlab.simulate("garbage", players=3, games=30, seed=9, policy="random", fast=False)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster):
        dask_fast = cardlab.simulate("garbage", players=3, games=10_000, seed=5, backend="dask")
        dask_engine = cardlab.simulate("garbage", players=3, games=30, seed=9, policy="random", backend="dask",
                                       fast=False)
    for a, b in ((local_fast, dask_fast), (local_engine, dask_engine)):
        assert np.array_equal(a.winners, b.winners) and np.array_equal(a.turns, b.turns)


def test_dask_backend_starts_a_local_cluster_when_there_is_no_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel.ShardPlan, "size", random_sizes(5))
    local = cardlab.simulate("garbage", players=2, games=7000, seed=6)
    remote = cardlab.simulate("garbage", players=2, games=7000, seed=6, backend="dask", processes=1)
    assert np.array_equal(local.winners, remote.winners) and np.array_equal(local.turns, remote.turns)


def first_legal(view: Any, legal: Any) -> Any:
    return legal[0]


def test_custom_policies_and_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel.ShardPlan, "needs_pool", lambda plan: plan.timings >= 1)  # workers after 1 shard
    with pytest.raises(cardlab.InvalidInputError, match="cannot be sent to worker processes"):
        cardlab.simulate("garbage", games=10, seed=1, policy=lambda view, legal: legal[0], processes=2)
    one = cardlab.simulate("garbage", games=10, seed=1, policy=first_legal)
    two = cardlab.simulate("garbage", games=10, seed=1, policy=first_legal, processes=2)
    assert one.policies == ["first_legal", "first_legal"]
    assert np.array_equal(one.winners, two.winners) and np.array_equal(one.turns, two.turns)


# ---------------------------------------------------------------------------------------------- stopping early
def test_games_has_a_documented_bound() -> None:
    from cardlab.sim.simulate import MAX_GAMES

    for bad in (MAX_GAMES + 1, 10**12, 0, 2.5, True):
        with pytest.raises(cardlab.InvalidInputError, match=r"games=.* whole number from 1 to 100,000,000"):
            cardlab.simulate("garbage", games=bad, progress=False)


def test_shard_plan_does_not_grow_with_games_and_sizes_shards_by_time() -> None:
    import sys

    small = parallel.make_shards("garbage", 2, 1000, 5, ["greedy"] * 2, {}, True)
    huge = parallel.make_shards("garbage", 2, 10**8, 5, ["greedy"] * 2, {}, True)
    size = sys.getsizeof(huge.__dict__)
    assert size == sys.getsizeof(small.__dict__)
    first = huge.take()
    assert first is not None and (first.start, first.stop) == (0, parallel.FIRST_SHARD)
    huge.timed(first, 1.0)                 # 0.25 s a game (a slow first call): one game next
    one = huge.take()
    assert one is not None and (one.start, one.stop) == (first.stop, first.stop + 1)
    huge.timed(one, 1e-7)                  # very fast games: the next shard grows GROWTH-fold at most
    grown = huge.take()
    assert grown is not None and grown.stop - grown.start == parallel.GROWTH * parallel.FIRST_SHARD
    for _ in range(20):                    # ... up to the cap
        huge.timed(grown, 1e-7 * (grown.stop - grown.start))
        last, grown = grown, huge.take()
        assert grown is not None and grown.start == last.stop
    assert grown.stop - grown.start == parallel.FAST_SHARD and sys.getsizeof(huge.__dict__) == size
    huge.timed(grown, 4.0 * (grown.stop - grown.start) * parallel.SHARD_SECONDS)   # games slower than a shard
    slow = huge.take()
    assert slow is not None and slow.stop - slow.start == 1
    huge.timed(slow, 0.01)                  # 0.01 s a game: SHARD_SECONDS of them
    timed = huge.take()
    assert timed is not None and timed.stop - timed.start == round(parallel.SHARD_SECONDS / 0.01)
    shards = []
    while (shard := small.take()) is not None:   # every game once, in order, whatever the sizes
        shards.append(shard)
        small.timed(shard, 1e-4 * (shard.stop - shard.start))
    assert [s.start for s in shards[1:]] == [s.stop for s in shards[:-1]] and shards[-1].stop == 1000
    assert shards[0].start == 0 and small.left == 0


def test_worker_processes_start_only_when_the_rest_of_the_run_is_long() -> None:
    """needs_pool: judged on a shard after the first (which also loads the kernel) that took a quarter of
    SHARD_SECONDS or more; true when the games left would take longer than POOL_AFTER_S in this process."""
    def after_two_shards(first_s: float, second_s: float, games: int) -> tuple[bool, bool]:
        plan = parallel.make_shards("garbage", 2, games, 5, ["greedy"] * 2, {}, True)
        first = plan.take()
        assert first is not None
        plan.timed(first, first_s)
        judged_on_first = plan.needs_pool()
        second = plan.take()
        assert second is not None
        plan.timed(second, second_s)
        return judged_on_first, plan.needs_pool()

    assert after_two_shards(5.0, 0.2, 10**6) == (False, True)      # a slow first call, then 0.2 s a game
    assert after_two_shards(5.0, 0.01, 10**6) == (False, False)    # a second shard too short to judge by
    assert after_two_shards(1e-3, 0.2, 10**6) == (False, True)     # 16 games in 0.2 s, a million left
    assert after_two_shards(1e-3, 0.2, 60) == (False, False)       # 40 games left: half a second here


def test_first_error_stops_a_parallel_run() -> None:
    """A policy that fails in the first shard of each worker: the error reaches the caller at once, not after
    the 400 shards of the run (which would take minutes)."""
    import time

    from tests.sim.stopping_policies import fails_after_a_while

    start = time.perf_counter()
    with pytest.raises(cardlab.PolicyError, match="raised RuntimeError: this policy fails on its 3000th call"):
        cardlab.simulate("shithead", games=100_000, seed=1, policy=fails_after_a_while, processes=2, progress=False)
    assert time.perf_counter() - start < 60


@pytest.fixture(scope="module")
def kernels_compiled() -> None:
    """Every kernel compiled into numba's on-disk cache first, so that the scripts below load it (a fraction of a
    second) rather than compile it (a long call that no signal interrupts)."""
    for spec in cardlab.engine.game_specs():
        if spec.compile is not None:
            spec.compile()


WAYS = ("python", "command", "engine")


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", FRESH)
def test_ctrl_c_stops_a_long_run_within_two_seconds(kernels_compiled: None, name: str, way: str,
                                                    processes: int) -> None:
    """Ctrl-C (SIGINT to the whole job, as a terminal sends it) during a run of ten million games, from Python on
    the path simulate picks (the kernel), from the command line, and on the engine: the script exits within 2 s
    of the signal, its worker processes with it, and the caller hears of it (KeyboardInterrupt in Python, the
    command's one line and status 130). Shards of a fixed 65,536 games kept a compiled Spite and Malice run
    deaf to Ctrl-C for minutes."""
    if way == "command":   # no "started" line: the command imports cardlab, loads the kernel, starts its workers
        end = ctrl_c.run_then_interrupt(ctrl_c.start_cli(name, processes), 5.0, marked=False)
        assert end.returncode == 130 and end.stderr.rstrip().endswith("cardlab: interrupted"), end.stderr[-2000:]
        assert "Traceback" not in end.stderr, end.stderr[-2000:]
    else:   # the run is under way (its workers started and playing)
        proc = ctrl_c.start(name, processes, engine=way == "engine", games=ctrl_c.LONG_RUN)
        end = ctrl_c.run_then_interrupt(proc, 3.0 if processes > 1 else 1.5)
        assert "KeyboardInterrupt" in end.stderr, end.stderr[-2000:]
    assert end.gone, "processes of the stopped run are still alive"
    assert end.seconds < 2, f"{name}, {way}, {processes} processes: exited {end.seconds:.2f} s after SIGINT"


# ---------------------------------------------------------------------------------------------- student policies
def divides_by_zero(view: Any, legal: Any) -> Any:
    return 1 / 0


CHOICES = 9


def fails_on_nine_choices(view: Any, legal: Any) -> Any:
    """The first legal move, until a position offers exactly CHOICES moves: a bug that shows only in some games
    (with three Garbage players and seed 11, first in game 4)."""
    if len(legal) == CHOICES:
        raise LookupError(f"cannot choose among {len(legal)} moves")
    return legal[0]


def dealt_again(text: str) -> Any:
    """The game a simulation's PolicyError names, dealt again by running the code its message gives."""
    code = text.split("deal it again: ", 1)[1].rsplit(")", 1)[0]
    scope: dict[str, Any] = {"cardlab": cardlab}
    exec("import cardlab.engine.rng\n" + code.replace("; ", "\ngame = ", 1), scope)   # noqa: S102
    return scope["game"]


def replayed_failure(text: str) -> tuple[int, int, Any]:
    """Deal the game again from the PolicyError's message alone (its replay code) and play the policy's moves
    until it would fail: the move number and seat there, and the game."""
    game = dealt_again(text)
    while len(game.legal_moves()) != CHOICES:
        game.play(game.legal_moves()[0])
    return game.move_count, game.current_player, game


def test_a_policy_that_raises_is_a_policy_error_naming_seat_seed_and_move() -> None:
    """The student's own error is kept (chained, with its traceback through their function) under a cardlab error
    whose message says which seat failed, at which move, and how to deal that game again."""
    with pytest.raises(cardlab.PolicyError) as info:
        cardlab.simulate("shithead", games=3, policy=lambda view, legal: 1 / 0, progress=False)
    err = info.value
    assert isinstance(err, cardlab.CardlabError) and isinstance(err.__cause__, ZeroDivisionError)
    frames = []
    tb = err.__cause__.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert frames[-1] == "<lambda>"   # the traceback ends in the student's function
    text = str(err)
    assert text.startswith("the policy of seat 0 (<lambda>) raised ZeroDivisionError: division by zero, at move 0 "
                           "of game 0 of the run with seed 0 (deal it again: ") and len(text) <= 500, text


@pytest.mark.parametrize("processes", [1, 2])
def test_the_message_of_a_policy_error_replays_the_failing_position(monkeypatch: pytest.MonkeyPatch,
                                                                     processes: int) -> None:
    """A bug that shows only in some positions: the game, move and seat named in the message are where an
    independent replay, from the message's own code, reaches the first such position (in worker processes too,
    where the student's traceback arrives as text)."""
    seed = 11
    monkeypatch.setattr(parallel.ShardPlan, "needs_pool", lambda plan: True)   # every shard in a worker
    with pytest.raises(cardlab.PolicyError) as info:
        cardlab.simulate("garbage", players=3, games=40, seed=seed, policy=fails_on_nine_choices, progress=False,
                         processes=processes)
    text = str(info.value)
    move, seat, _ = replayed_failure(text)
    assert f"the policy of seat {seat} (fails_on_nine_choices) raised LookupError: cannot choose among " in text
    assert f", at move {move} of game " in text and f"of the run with seed {seed} " in text
    cause = info.value.__cause__
    assert isinstance(cause, LookupError) if processes == 1 else "in fails_on_nine_choices" in str(cause)


def test_a_policy_with_the_wrong_arguments_is_a_policy_error() -> None:
    def three(view: Any, legal: Any, extra: Any) -> Any:
        return legal[0]

    for policy, label in ((lambda v: v, "<lambda>"), (three, "three")):
        with pytest.raises(cardlab.PolicyError, match=rf"the policy of seat 0 \({label}\) cannot be called as "
                                                       r"policy\(view, legal_moves\) \(TypeError: ") as info:
            cardlab.simulate("garbage", games=2, seed=3, policy=policy, progress=False)
        assert isinstance(info.value.__cause__, TypeError) and "at move 0 of game 0 of the run with seed 3" in str(
            info.value)

    def inner_type_error(view: Any, legal: Any) -> Any:
        return legal[0] + 1   # the student's own TypeError, inside a policy that takes the right arguments

    with pytest.raises(cardlab.PolicyError, match=r"\(inner_type_error\) raised TypeError: "):
        cardlab.simulate("garbage", games=2, seed=3, policy=inner_type_error, progress=False)


def test_a_policy_that_answers_a_non_move_is_still_an_illegal_move() -> None:
    with pytest.raises(cardlab.IllegalMoveError, match="chose an illegal move") as info:
        cardlab.simulate("garbage", games=2, seed=3, policy=lambda view, legal: 42, progress=False)
    assert not isinstance(info.value, cardlab.PolicyError)


def test_choose_names_the_seed_of_a_dealt_game_and_its_code_deals_it_again() -> None:
    from cardlab.policies import choose

    game = cardlab.new_game("garbage", players=3, seed=5, wild="K")
    for _ in range(7):
        game.play(game.legal_moves()[-1])
    with pytest.raises(cardlab.PolicyError) as info:
        choose(divides_by_zero, game)
    text = str(info.value)
    seat, move = game.current_player, game.move_count
    assert text.startswith(f"the policy of seat {seat} (divides_by_zero) raised ZeroDivisionError: division by "
                           f"zero, at move {move} of cardlab.new_game(")
    again = eval(text.split(f"at move {move} of ", 1)[1], {"cardlab": cardlab})   # noqa: S307
    again.play_all(game.moves)
    assert again.state.to_data() == game.state.to_data()
    loaded = cardlab.load_game(game.to_json())
    stacked = cardlab.new_game("garbage", players=3, seed=5, wild="K", deck=["KS", "2H"])  # not the seed's deal
    for other in (loaded, stacked):
        with pytest.raises(cardlab.PolicyError, match="not dealt from a seed alone: game.to_json"):
            choose(divides_by_zero, other)


def a_policy_whose_name_is_rather_long_for_a_message(view: Any, legal: Any) -> Any:
    raise ValueError("x" * 100_000)


def test_a_policy_error_stays_short_and_keeps_its_replay_code_whole() -> None:
    """A huge error text, a long name, a huge seed and every option changed: the message stays within 500
    characters, and what is cut is the policy's own text (its traceback has it whole), never the replay code."""
    options = {"payoff_size": 21, "king_starts_pile": False, "refill_on_empty": False, "completed_to": "shuffle",
               "first": "seat0", "target": 10**6, "match": True}
    with pytest.raises(cardlab.PolicyError) as info:
        cardlab.simulate("spite-and-malice", games=1, seed=2**63 - 1,
                         policy=a_policy_whose_name_is_rather_long_for_a_message, progress=False, **options)
    text = str(info.value)
    assert len(text) <= 500 and "(100,000 characters)" in text, text
    assert dealt_again(text).options == cardlab.new_game("spite-and-malice", seed=0, **options).options
    assert str(info.value.__cause__) == "x" * 100_000
