"""simulate(): results and their display, the choice of path, shards across processes and dask."""

from __future__ import annotations

import signal
import subprocess
import sys
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

import cardlab
from cardlab.sim import parallel
from cardlab.sim import simulate as sim
from cardlab.sim.stats import wilson
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
    assert mixed.method == "engine" and mixed.policies == ["greedy", "random"]
    with pytest.raises(cardlab.InvalidInputError, match="fast=True needs policies the game's fast kernel plays"):
        cardlab.simulate("garbage", games=20, seed=1, policy="random", fast=True)


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
        rng = game_rng(9, i)
        g = cardlab.new_game("garbage", players=3, rng=rng)
        sim.play_out(g, [make_policy("random", "garbage", rng)] * 3)
        winners.append(-1 if g.winner is None else g.winner)
        turns.append(g.turns)
    return winners, turns


def test_shards_give_identical_results_for_any_number_of_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "FAST_SHARD", 4000)
    monkeypatch.setattr(parallel, "ENGINE_SHARD", 7)
    fast = [cardlab.simulate("garbage", players=3, games=10_000, seed=5, processes=p) for p in (1, 2)]
    assert len(parallel.make_shards("garbage", 3, 10_000, 5, ["greedy"] * 3, {}, True)) == 3
    assert np.array_equal(fast[0].winners, fast[1].winners) and np.array_equal(fast[0].turns, fast[1].turns)
    engine = [cardlab.simulate("garbage", players=3, games=30, seed=9, policy="random", processes=p) for p in (1, 2)]
    assert np.array_equal(engine[0].winners, engine[1].winners) and np.array_equal(engine[0].turns, engine[1].turns)
    winners, turns = engine_games_one_by_one(30)  # game i is game_rng(seed, i), whatever the shards
    assert engine[0].winners.tolist() == winners and engine[0].turns.tolist() == turns


def test_dask_backend_gives_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import Client, LocalCluster

    monkeypatch.setattr(parallel, "FAST_SHARD", 4000)
    monkeypatch.setattr(parallel, "ENGINE_SHARD", 7)
    local_fast = cardlab.simulate("garbage", players=3, games=10_000, seed=5)
    local_engine = cardlab.simulate("garbage", players=3, games=30, seed=9, policy="random")
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster):
        dask_fast = cardlab.simulate("garbage", players=3, games=10_000, seed=5, backend="dask")
        dask_engine = cardlab.simulate("garbage", players=3, games=30, seed=9, policy="random", backend="dask")
    for a, b in ((local_fast, dask_fast), (local_engine, dask_engine)):
        assert np.array_equal(a.winners, b.winners) and np.array_equal(a.turns, b.turns)


def test_dask_backend_starts_a_local_cluster_when_there_is_no_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "FAST_SHARD", 3000)
    local = cardlab.simulate("garbage", players=2, games=7000, seed=6)
    remote = cardlab.simulate("garbage", players=2, games=7000, seed=6, backend="dask", processes=1)
    assert np.array_equal(local.winners, remote.winners) and np.array_equal(local.turns, remote.turns)


def first_legal(view: Any, legal: Any) -> Any:
    return legal[0]


def test_custom_policies_and_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "ENGINE_SHARD", 5)
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


def test_shard_plan_does_not_grow_with_games() -> None:
    import sys

    small = parallel.make_shards("garbage", 2, 1000, 5, ["greedy"] * 2, {}, True)
    huge = parallel.make_shards("garbage", 2, 10**8, 5, ["greedy"] * 2, {}, True)
    assert sys.getsizeof(huge.__dict__) == sys.getsizeof(small.__dict__)
    assert len(huge) == -(-10**8 // parallel.FAST_SHARD)
    # the Garbage adapter draws each shard from its own child of the run's seed: the first is the first spawned
    # child, and no two shards share a stream
    from cardlab.games.garbage.fast import shard_seed_sequence

    first = np.random.SeedSequence(5).spawn(1)[0]
    assert np.array_equal(shard_seed_sequence(5, huge[0].start).generate_state(4), first.generate_state(4))
    states = {tuple(shard_seed_sequence(5, huge[k].start).generate_state(4)) for k in range(4)}
    assert len(states) == 4
    assert huge[-1].stop == 10**8 and huge[-1].start == (len(huge) - 1) * parallel.FAST_SHARD


def test_first_error_stops_a_parallel_run() -> None:
    """A policy that fails in the first shard of each worker: the error reaches the caller at once, not after
    the 400 shards of the run (which would take minutes)."""
    import time

    from tests.sim.stopping_policies import fails_after_a_while

    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="3000th call"):
        cardlab.simulate("shithead", games=100_000, seed=1, policy=fails_after_a_while, processes=2, progress=False)
    assert time.perf_counter() - start < 60


def test_ctrl_c_stops_a_parallel_run() -> None:
    """SIGINT to a script running a 2-process simulate: it stops within a few seconds, workers included."""
    import os
    import time

    proc = ctrl_c.start()
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "started"
        time.sleep(4)   # the workers are started and playing
        assert proc.poll() is None
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        stopped = time.perf_counter() - sent
        for _ in range(30):  # the workers are gone too (the session empties)
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("processes of the stopped run are still alive")
    finally:
        ctrl_c.end_session(proc)
        proc.wait()
    err = proc.stderr.read() if proc.stderr is not None else ""
    assert "KeyboardInterrupt" in err
    assert stopped < 5, stopped
