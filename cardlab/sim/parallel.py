"""Playing a run in shards: in this process, in worker processes, or on a dask cluster.

Shards sized by time
--------------------
A run of ``games`` games is cut into shards of consecutive games as it goes (:class:`ShardPlan`): the first
shard has :data:`FIRST_SHARD` games, and each later one as many as the games timed so far say will take about
:data:`SHARD_SECONDS` (at most :data:`GROWTH` times the largest shard timed yet, and at most :data:`ENGINE_SHARD`
games on the engine, :data:`FAST_SHARD` on a game's fast kernel). A game's time ranges from microseconds (a
Garbage hand on the kernel) to a fraction of a second (a long Spite and Malice match), so no fixed size serves:
a shard of 65,536 compiled matches runs for minutes, and compiled code does not hear Ctrl-C until it returns.
Sized by time, a shard in this process ends within a fraction of a second, and Ctrl-C stops the run then.

The sizes never change the results. Game ``i`` of a run with seed ``s`` is dealt by the one dealer
(:mod:`cardlab.dealer`) from ``s`` and ``i`` alone, on the engine and on the fast path alike, so the engine and
a kernel deal the same cards (and, with the deterministic built-in bots, play the same game); on the engine its
policies draw from ``numpy.random.default_rng([s, i])`` (:func:`cardlab.engine.rng.game_rng`). A game's result
therefore depends only on the run's seed and its number, never on the shard it falls in nor on who plays it:
one process, ``N`` worker processes (started with "spawn", so a script must call ``simulate`` under
``if __name__ == "__main__":``) or a
``dask.distributed`` cluster give bit-for-bit the same winners and turns.

With ``processes=N`` the first shards run in this process; once the games timed say that the rest would take
more than :data:`POOL_AFTER_S` here, the worker processes start (a run shorter than that ends sooner without
them). The plan makes each shard when it is needed, so a run costs the same memory to plan for a thousand
games as for a hundred million; only a few shards per worker are sent ahead. On the first error in any shard,
and on Ctrl-C (``KeyboardInterrupt``, or a notebook's interrupt), the shards not yet started are cancelled and
the worker processes stopped, so the caller hears of it at once instead of after the whole run. The workers
ignore Ctrl-C from their start (a terminal sends it to every process of the job): it is this process's to
handle.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import pickle
import signal
import time
import traceback
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from typing import Any

import numpy as np

from cardlab.engine.registry import game_class, game_spec
from cardlab.engine.rng import game_rng
from cardlab.errors import InvalidInputError, shown
from cardlab.policies import Policy, choose, make_policy

PolicySpec = str | Policy
ENGINE_SHARD = 250
"""The most games of one shard on the engine."""
FAST_SHARD = 1 << 16
"""The most games of one shard on a fast kernel (its result arrays stay small)."""
FIRST_SHARD = 4
"""The games of a run's first shard, which times them (it also loads the kernel)."""
SHARD_SECONDS = 0.2
"""The wall time a shard is sized for: in this process, Ctrl-C stops a run once its shard ends."""
GROWTH = 4
"""A shard has at most this many times the games of the largest shard timed yet (one quick shard of a run
whose games vary in length does not make the next one huge)."""
POOL_AFTER_S = 1.0
"""With ``processes > 1``, the worker processes start once the rest of the run would take longer than this in
this process (starting them costs about a second)."""
BACKENDS = ("local", "dask")


def play_out(game: Any, policies: Sequence[Policy], max_moves: int = 100_000, origin: str | None = None) -> None:
    """Play ``game`` to its end with one policy per seat (``origin``: how to deal it again, for a
    :class:`~cardlab.errors.PolicyError`; see :func:`cardlab.policies.choose`)."""
    for _ in range(max_moves):
        if game.is_over:
            return
        game.play(choose(policies[game.current_player], game, origin))
    raise RuntimeError(f"{game.name} game did not end within {max_moves} moves")


def run_engine_games(name: str, players: int, seed: int, start: int, stop: int,
                     specs: Sequence[PolicySpec], options: dict[str, Any]) -> tuple[np.ndarray, np.ndarray,
                                                                                   dict[str, np.ndarray]]:
    """Play games ``start``..``stop-1`` of a seeded run on the engine; returns winners, turns, extras."""
    cls = game_class(name)
    n = stop - start
    winners = np.full(n, -1, dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    extras: dict[str, list[float]] = {}
    for k in range(n):
        rng = game_rng(seed, start + k)  # the policies' generator; the cards come from the one dealer
        game = cls(players, seed=seed, index=start + k, **options)
        policies = [make_policy(s, cls.name, rng) for s in specs]
        changed = {key: v for key, v in options.items() if v != cls.option_specs[key].default}
        play_out(game, policies, origin=run_origin(cls.name, players, seed, start + k, changed))
        winners[k] = -1 if game.winner is None else game.winner
        turns[k] = game.turns
        for key, value in game.stats().items():
            extras.setdefault(key, []).append(value)
    return winners, turns, {k: np.asarray(v) for k, v in extras.items()}


def run_origin(name: str, players: int, seed: int, index: int, options: dict[str, Any]) -> str:
    """How to deal game ``index`` of a run with ``seed`` again (the policies' generator is ``game_rng(seed,
    index)``)."""
    opts = "".join(f", {k}={shown(v, 40)}" for k, v in options.items())
    at = f", index={index}" if index else ""  # game 0 of a run is new_game(..., seed=seed)
    return (f"game {index} of the run with seed {seed} (deal it again: rng = "
            f"cardlab.engine.rng.game_rng({seed}, {index}); cardlab.new_game({name!r}, players={players}, "
            f"seed={seed}{at}{opts}))")


@dataclass(frozen=True)
class Shard:
    """Games ``start``..``stop-1`` of a run: everything a worker needs to play them."""

    name: str
    players: int
    seed: int
    start: int
    stop: int
    specs: tuple[PolicySpec, ...]
    options: tuple[tuple[str, Any], ...]
    fast: bool


ShardResult = tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]


def run_shard(shard: Shard) -> ShardResult:
    """Play one shard (in this process, a worker process, or on a dask worker)."""
    options = dict(shard.options)
    if not shard.fast:
        return run_engine_games(shard.name, shard.players, shard.seed, shard.start, shard.stop, shard.specs,
                                options)
    kernel = game_spec(shard.name).kernel
    if kernel is None:
        raise InvalidInputError(f"{shard.name} has no fast kernel; play it on the engine")
    return kernel.play_shard(shard.players, options, shard.seed, shard.start, shard.stop,
                             [str(p) for p in shard.specs])


class ShardPlan:
    """The shards of a run, each made when it is needed and sized by the time its games took so far.

    :meth:`take` gives the next shard (consecutive games, from game 0 on), :meth:`timed` reports how long a
    shard took where it was played. Nothing is stored per shard, so a plan is as small for a hundred million
    games as for ten. A fast shard is played by the game's kernel
    (:meth:`~cardlab.engine.spec.GameKernel.play_shard`), which draws its games from the run's seed and the
    games' numbers alone: the sizes change when a run can be stopped, never its results.
    """

    def __init__(self, name: str, players: int, games: int, seed: int, specs: Sequence[PolicySpec],
                 options: dict[str, Any], fast: bool) -> None:
        self.name, self.players, self.games, self.seed, self.fast = name, players, games, seed, fast
        self.specs = tuple(specs)
        self.options = tuple(sorted(options.items()))
        self.cap = FAST_SHARD if fast else ENGINE_SHARD
        self.planned = 0              # games given out in shards so far
        self.per_game: float | None = None   # seconds per game, from the latest shard timed
        self.largest = 0              # games of the largest shard timed
        self.timings = 0              # shards timed
        self.last_seconds = 0.0       # how long the latest shard timed took

    @property
    def left(self) -> int:
        """Games not yet given out in a shard."""
        return self.games - self.planned

    def size(self) -> int:
        """The games of the next shard: about :data:`SHARD_SECONDS` of them at the rate timed last."""
        if self.per_game is None:
            wanted = FIRST_SHARD
        else:
            wanted = min(int(SHARD_SECONDS / max(self.per_game, 1e-9)), GROWTH * self.largest)
        return max(1, min(wanted, self.cap, self.left))

    def take(self) -> Shard | None:
        """The next shard, or None when every game has been given out."""
        if self.left <= 0:
            return None
        start = self.planned
        self.planned += self.size()
        return Shard(self.name, self.players, self.seed, start, self.planned, self.specs, self.options, self.fast)

    def timed(self, shard: Shard, seconds: float) -> None:
        """Shard ``shard`` took ``seconds`` to play: the rate for the next shards."""
        n = shard.stop - shard.start
        self.per_game = seconds / n
        self.largest = max(self.largest, n)
        self.timings += 1
        self.last_seconds = seconds

    def needs_pool(self) -> bool:
        """Whether the rest of the run would take longer than :data:`POOL_AFTER_S` in one process. It is judged
        once a shard after the first (which also loads the kernel) took a quarter of :data:`SHARD_SECONDS` or
        more, so that the per-call cost of a small shard does not pass for the games' own time."""
        measured = self.timings >= 2 and self.last_seconds >= SHARD_SECONDS / 4
        return measured and self.per_game is not None and self.per_game * self.left > POOL_AFTER_S


def make_shards(name: str, players: int, games: int, seed: int, specs: Sequence[PolicySpec],
                options: dict[str, Any], fast: bool) -> ShardPlan:
    """The plan of a run: shards sized by time, made as they are needed."""
    return ShardPlan(name, players, games, seed, specs, options, fast)


def run_timed(shard: Shard) -> tuple[float, ShardResult]:
    """Play one shard (here, in a worker process or on a dask worker) and say how long it took there."""
    start = time.perf_counter()
    result = run_shard(shard)
    return time.perf_counter() - start, result


def _ignore_interrupt() -> None:
    """Worker start-up: Ctrl-C is the parent's to handle (it stops the workers), not each worker's. The worker
    was started with SIGINT blocked (:func:`_interrupts_held`); now that it ignores SIGINT, it unblocks it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """While worker processes are started: SIGINT waits (it is blocked, not lost) and is delivered when the
    block ends. A process inherits the blocked set, so a worker cannot be stopped by a Ctrl-C sent to the whole
    job while it is still importing, before :func:`_ignore_interrupt` runs."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


_exit_quickly_registered = False


def exit_quickly() -> None:
    """After Ctrl-C: let the interpreter end without its last garbage collection (:func:`gc.freeze` at exit).

    A script stopped by Ctrl-C usually ends next, and with numba's compiled kernels loaded that last collection
    takes about a second (several under load); freezing the objects skips it and the operating system frees the
    memory. Python does not promise finalizers at exit anyway. Nothing changes while the interpreter runs (a
    notebook's kernel goes on as before)."""
    global _exit_quickly_registered
    if not _exit_quickly_registered:
        atexit.register(gc.freeze)
        _exit_quickly_registered = True


def _worker(conn: Connection) -> None:
    """A worker process: Ctrl-C is the parent's (:func:`_ignore_interrupt`); it plays the shards the parent sends,
    one at a time, answering each with ``("done", (seconds, result))`` or ``("failed", exception)``, until it
    receives None or the parent's end of the pipe closes."""
    _ignore_interrupt()
    while True:
        try:
            shard = conn.recv()
        except EOFError:
            return
        if shard is None:
            return
        try:
            answer: tuple[str, Any] = ("done", run_timed(shard))
        except Exception as exc:   # the parent raises it (a student's policy, say), with this traceback as text
            answer = ("failed", (exc, "".join(traceback.format_exception(exc))))
        try:
            conn.send(answer)
        except Exception as exc:   # an answer that cannot be pickled
            failure = RuntimeError(f"a worker's answer could not be sent back: {type(exc).__name__}: {shown(str(exc))}")
            conn.send(("failed", (failure, "")))


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker process, as text (the cause of the error raised here)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


BROKEN = ("the worker processes stopped before finishing; in a script, call simulate(..., processes=N) under "
          "`if __name__ == '__main__':` (workers are started with 'spawn' and import the script)")


class _Workers:
    """Worker processes, each with a pipe of its own. Nothing runs in a background thread, so stopping them is
    this process's to do, and at once: the workers are terminated and their pipes closed, and no thread is left
    that could wait at exit for a message a terminated worker never finished (a pool with a result thread can
    wait there forever)."""

    def __init__(self, count: int) -> None:
        ctx = get_context("spawn")
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        with _interrupts_held():   # the workers are born with SIGINT blocked, until they ignore it
            for _ in range(count):
                ours, theirs = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(theirs,), daemon=True)
                proc.start()
                theirs.close()
                self.procs.append(proc)
                self.conns.append(ours)

    def send(self, index: int, shard: Shard) -> None:
        """Give worker ``index`` one more shard to play."""
        try:
            self.conns[index].send(shard)
        except OSError as exc:   # the worker is gone
            raise RuntimeError(BROKEN) from exc

    def receive(self, index: int) -> tuple[float, ShardResult]:
        """The answer of worker ``index`` to the oldest shard it holds (its error raised here)."""
        try:
            kind, payload = self.conns[index].recv()
        except (EOFError, OSError) as exc:
            raise RuntimeError(BROKEN) from exc
        if kind == "failed":
            error, text = payload
            raise error from RemoteTraceback(text)
        seconds, result = payload
        return float(seconds), result

    def stop(self, finished: bool) -> None:
        """End the workers: after a finished run they are asked to stop; otherwise (an error, Ctrl-C, a caller
        that stopped reading) they are terminated now, without waiting for the shards they are playing."""
        if finished:
            for conn in self.conns:
                try:
                    conn.send(None)
                except OSError:
                    pass
        for proc in self.procs:
            if finished:
                proc.join(timeout=5.0)
            if proc.is_alive():
                proc.terminate()
        for proc in self.procs:
            proc.join(timeout=1.0)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=1.0)
        for conn in self.conns:
            conn.close()


def _run_here(plan: ShardPlan, until_pool: bool) -> Iterator[tuple[Shard, ShardResult]]:
    """Play shards in this process, timing each; with ``until_pool``, stop once the rest of the run would take
    longer than :data:`POOL_AFTER_S` here (the worker processes then play it)."""
    while not (until_pool and plan.needs_pool()):
        shard = plan.take()
        if shard is None:
            return
        seconds, result = run_timed(shard)
        plan.timed(shard, seconds)
        yield shard, result


AHEAD = 2
"""Shards sent ahead to each worker: enough to keep it busy, few to drop on Ctrl-C."""


def _run_local(plan: ShardPlan, processes: int) -> Iterator[tuple[Shard, ShardResult]]:
    yield from _run_here(plan, processes > 1)
    if plan.left <= 0:
        return
    workers = _Workers(processes)
    held: list[deque[Shard]] = [deque() for _ in range(processes)]   # the shards each worker holds, oldest first
    finished = False
    try:
        while True:
            for index, shards in enumerate(held):
                while len(shards) < AHEAD and (shard := plan.take()) is not None:
                    workers.send(index, shard)
                    shards.append(shard)
            busy = [i for i, shards in enumerate(held) if shards]
            if not busy:
                break
            ready = connection_wait([workers.conns[i] for i in busy] + [workers.procs[i].sentinel for i in busy])
            for index in busy:
                conn = workers.conns[index]
                if conn in ready or conn.poll():   # an answer (a worker may end after sending its last one)
                    seconds, result = workers.receive(index)
                    shard = held[index].popleft()
                    plan.timed(shard, seconds)
                    yield shard, result
                elif workers.procs[index].sentinel in ready:   # the worker died holding shards
                    raise RuntimeError(BROKEN)
        finished = True
    finally:
        workers.stop(finished)


def _run_dask(plan: ShardPlan, processes: int) -> Iterator[tuple[Shard, ShardResult]]:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - the extra is installed in the project's environments
        raise InvalidInputError("backend='dask' needs the scale extra: pip install 'cardlab[scale]'") from exc
    try:
        client = distributed.get_client()
        own: tuple[Any, Any] | None = None
    except ValueError:  # no client yet: start a local cluster for this run
        cluster = distributed.LocalCluster(n_workers=processes, threads_per_worker=1, dashboard_address=None)
        client = distributed.Client(cluster)
        own = (client, cluster)
    futures: dict[Any, tuple[Shard, Any]] = {}
    queue = distributed.as_completed()

    def submit() -> None:
        shard = plan.take()
        if shard is not None:
            fut = client.submit(run_timed, shard, pure=False)
            futures[fut.key] = (shard, fut)
            queue.add(fut)

    try:
        ahead = 2 * max(1, len(client.scheduler_info().get("workers", {})) or processes)
        for _ in range(ahead):
            submit()
        for fut in queue:
            shard, _ = futures.pop(fut.key)
            seconds, result = fut.result()
            plan.timed(shard, seconds)
            yield shard, result
            submit()
    finally:
        if futures:  # an error or Ctrl-C: cancel what is left
            client.cancel([f for _, f in futures.values()])
        if own is not None:
            own[0].close()
            own[1].close()


def _check_picklable(specs: Sequence[PolicySpec]) -> None:
    try:
        pickle.dumps(tuple(specs))
    except Exception as exc:
        raise InvalidInputError(
            f"policy {shown(tuple(specs))} cannot be sent to worker processes ({exc}); define it at module level, "
            "or use processes=1") from exc


def run_shards(plan: ShardPlan, processes: int, backend: str) -> Iterator[tuple[Shard, ShardResult]]:
    """Play the run; yields ``(shard, result)`` as each shard finishes (not necessarily in order of games).

    With ``processes > 1`` the policies must be sendable to worker processes: that is checked first, whatever
    the size of the run."""
    if processes > 1 and backend != "dask":   # dask sends functions by value
        _check_picklable(plan.specs)
    return _run_dask(plan, processes) if backend == "dask" else _run_local(plan, processes)
