"""Playing a run in shards: in this process, in worker processes, or on a dask cluster.

A run of ``games`` games is cut into shards of a fixed size (:data:`ENGINE_SHARD` games on the engine,
:data:`FAST_SHARD` on the Garbage fast path) that does not depend on how many workers there are. On the
engine, game ``i`` of a run with seed ``s`` is dealt and played with ``numpy.random.default_rng([s, i])``
(:func:`cardlab.engine.rng.game_rng`); on the fast path, shard ``k`` draws from
``numpy.random.SeedSequence(s).spawn(...)[k]``. A shard's result therefore depends only on the run's
seed and the shard's place, never on who plays it: one process, ``N`` worker processes (started with
"spawn", so a script must call ``simulate`` under ``if __name__ == "__main__":``) or a
``dask.distributed`` cluster give bit-for-bit the same winners and turns.
"""

from __future__ import annotations

import importlib
import math
import pickle
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import numpy as np

from cardlab.engine.registry import game_class
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
    seed_seq: np.random.SeedSequence | None = None


ShardResult = tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]


def run_shard(shard: Shard) -> ShardResult:
    """Play one shard (in this process, a worker process, or on a dask worker)."""
    options = dict(shard.options)
    if not shard.fast:
        return run_engine_games(shard.name, shard.players, shard.seed, shard.start, shard.stop, shard.specs,
                                options)
    from cardlab.sim import fast_garbage

    assert shard.seed_seq is not None
    out = fast_garbage.play_fresh(shard.stop - shard.start, np.random.default_rng(shard.seed_seq), shard.players,
                                  wild=options["wild"], last_round=options["last_round"],
                                  layout_sizes=options["layout_sizes"], match=options["match"])
    return out.winners, out.turns, {"hands": out.hands, "shuffles": out.shuffles}


def make_shards(name: str, players: int, games: int, seed: int, specs: Sequence[PolicySpec],
                options: dict[str, Any], fast: bool) -> list[Shard]:
    """Cut a run into shards of a fixed size; the fast path's shards get spawned seed sequences."""
    size = FAST_SHARD if fast else ENGINE_SHARD
    count = math.ceil(games / size)
    seqs: list[np.random.SeedSequence | None] = list(np.random.SeedSequence(seed).spawn(count)) if fast \
        else [None] * count
    opts = tuple(sorted(options.items()))
    return [Shard(name, players, seed, k * size, min(games, (k + 1) * size), tuple(specs), opts, fast, seqs[k])
            for k in range(count)]


def _run_local(shards: list[Shard], processes: int) -> Iterator[tuple[int, ShardResult]]:
    if processes == 1 or len(shards) == 1:
        for k, shard in enumerate(shards):
            yield k, run_shard(shard)
        return
    _check_picklable(shards[0])
    workers = min(processes, len(shards))
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(run_shard, shard): k for k, shard in enumerate(shards)}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        except BrokenProcessPool as exc:
            raise RuntimeError(
                "the worker processes stopped before finishing; in a script, call simulate(..., processes=N) "
                "under `if __name__ == '__main__':` (workers are started with 'spawn' and import the script)") from exc


def _run_dask(shards: list[Shard], processes: int) -> Iterator[tuple[int, ShardResult]]:
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
    try:
        futures = client.map(run_shard, shards, pure=False)
        index = {f.key: k for k, f in enumerate(futures)}
        for fut in distributed.as_completed(futures):
            yield index[fut.key], fut.result()
    finally:
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


def run_shards(shards: list[Shard], processes: int, backend: str) -> Iterator[tuple[int, ShardResult]]:
    """Play the shards; yields ``(index, result)`` as each one finishes (not necessarily in order)."""
    return _run_dask(shards, processes) if backend == "dask" else _run_local(shards, processes)
