"""Playing a run in shards: in this process, in worker processes, or on a dask cluster.

A run of ``games`` games is cut into shards of a fixed size (:data:`ENGINE_SHARD` games on the engine,
:data:`FAST_SHARD` on a game's fast kernel) that does not depend on how many workers there are. On the
engine, game ``i`` of a run with seed ``s`` is dealt and played with ``numpy.random.default_rng([s, i])``
(:func:`cardlab.engine.rng.game_rng`); on the fast path the kernel's ``play_shard`` draws from the seed
and the shard's games. A shard's result therefore depends only on the run's
seed and the shard's place, never on who plays it: one process, ``N`` worker processes (started with
"spawn", so a script must call ``simulate`` under ``if __name__ == "__main__":``) or a
``dask.distributed`` cluster give bit-for-bit the same winners and turns.

The plan of a run (:class:`ShardPlan`) makes each shard when it is needed, so planning a run costs the
same memory for a thousand games as for a hundred million; only a few shards per worker are sent ahead.
On the first error in any shard, and on Ctrl-C (``KeyboardInterrupt``, or a notebook's interrupt), the
shards not yet started are cancelled and the worker processes stopped, so the caller hears of it at
once instead of after the whole run.
"""

from __future__ import annotations

import importlib
import math
import pickle
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import numpy as np

from cardlab.engine.registry import game_class, game_spec
from cardlab.engine.rng import game_rng
from cardlab.errors import InvalidInputError
from cardlab.policies import Policy, choose, make_policy

PolicySpec = str | Policy
ENGINE_SHARD = 250
FAST_SHARD = 1 << 16
BACKENDS = ("local", "dask")


def play_out(game: Any, policies: Sequence[Policy], max_moves: int = 100_000) -> None:
    """Play ``game`` to its end with one policy per seat."""
    for _ in range(max_moves):
        if game.is_over:
            return
        game.play(choose(policies[game.current_player], game))
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
        rng = game_rng(seed, start + k)
        game = cls(players, rng=rng, **options)
        policies = [make_policy(s, cls.name, rng) for s in specs]
        play_out(game, policies)
        winners[k] = -1 if game.winner is None else game.winner
        turns[k] = game.turns
        for key, value in game.stats().items():
            extras.setdefault(key, []).append(value)
    return winners, turns, {k: np.asarray(v) for k, v in extras.items()}


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


class ShardPlan(Sequence[Shard]):
    """The shards of a run, each made on demand: ``plan[k]`` is shard ``k``; nothing is stored per shard.

    A fast shard is played by the game's kernel (:meth:`~cardlab.engine.spec.GameKernel.play_shard`), which
    draws its games from the run's seed and the games' numbers alone.
    """

    def __init__(self, name: str, players: int, games: int, seed: int, specs: Sequence[PolicySpec],
                 options: dict[str, Any], fast: bool) -> None:
        self.name, self.players, self.games, self.seed, self.fast = name, players, games, seed, fast
        self.specs = tuple(specs)
        self.options = tuple(sorted(options.items()))
        self.size = FAST_SHARD if fast else ENGINE_SHARD
        self.n_shards = math.ceil(games / self.size)

    def __len__(self) -> int:
        return self.n_shards

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self.n_shards))]
        if not -self.n_shards <= k < self.n_shards:
            raise IndexError(k)
        k %= self.n_shards
        return Shard(self.name, self.players, self.seed, k * self.size, min(self.games, (k + 1) * self.size),
                     self.specs, self.options, self.fast)


def make_shards(name: str, players: int, games: int, seed: int, specs: Sequence[PolicySpec],
                options: dict[str, Any], fast: bool) -> ShardPlan:
    """Cut a run into shards of a fixed size (made on demand)."""
    return ShardPlan(name, players, games, seed, specs, options, fast)


def _ignore_interrupt() -> None:
    """Worker start-up: Ctrl-C is the parent's to handle (it stops the workers), not each worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel every shard not started and stop the workers now, without waiting for running shards."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown() forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join(timeout=1.0)


def _run_local(shards: Sequence[Shard], processes: int) -> Iterator[tuple[int, ShardResult]]:
    if processes == 1 or len(shards) == 1:
        for k in range(len(shards)):
            yield k, run_shard(shards[k])
        return
    _check_picklable(shards[0])
    workers = min(processes, len(shards))
    ahead = 2 * workers   # shards sent ahead: enough to keep every worker busy, few to cancel
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_ignore_interrupt)
    pending: dict[Future[ShardResult], int] = {}
    next_k = 0
    finished = False
    try:
        while next_k < len(shards) or pending:
            while next_k < len(shards) and len(pending) < ahead:
                pending[pool.submit(run_shard, shards[next_k])] = next_k
                next_k += 1
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                k = pending.pop(fut)
                yield k, fut.result()
        finished = True
    except BrokenProcessPool as exc:
        raise RuntimeError(
            "the worker processes stopped before finishing; in a script, call simulate(..., processes=N) "
            "under `if __name__ == '__main__':` (workers are started with 'spawn' and import the script)") from exc
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # an error, Ctrl-C, or the caller stopped reading: stop at once
            _stop(pool)


def _run_dask(shards: Sequence[Shard], processes: int) -> Iterator[tuple[int, ShardResult]]:
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
    futures: dict[Any, tuple[int, Any]] = {}
    try:
        ahead = 2 * max(1, len(client.scheduler_info().get("workers", {})) or processes)
        queue = distributed.as_completed()
        next_k = 0
        while next_k < len(shards) and next_k < ahead:
            fut = client.submit(run_shard, shards[next_k], pure=False)
            futures[fut.key] = (next_k, fut)
            queue.add(fut)
            next_k += 1
        for fut in queue:
            k, _ = futures.pop(fut.key)
            yield k, fut.result()
            if next_k < len(shards):
                new = client.submit(run_shard, shards[next_k], pure=False)
                futures[new.key] = (next_k, new)
                queue.add(new)
                next_k += 1
    finally:
        if futures:  # an error or Ctrl-C: cancel what is left
            client.cancel([f for _, f in futures.values()])
        if own is not None:
            own[0].close()
            own[1].close()


def _check_picklable(shard: Shard) -> None:
    try:
        pickle.dumps(shard.specs)
    except Exception as exc:
        raise InvalidInputError(
            f"policy {shard.specs!r} cannot be sent to worker processes ({exc}); define it at module level, "
            "or use processes=1") from exc


def run_shards(shards: Sequence[Shard], processes: int, backend: str) -> Iterator[tuple[int, ShardResult]]:
    """Play the shards; yields ``(index, result)`` as each one finishes (not necessarily in order)."""
    return _run_dask(shards, processes) if backend == "dask" else _run_local(shards, processes)
