"""Peak memory of a 1,000,000-hand Garbage simulation (fast path, one process).

The fast path plays shards of at most ``cardlab.sim.parallel.FAST_SHARD`` hands (sized by time) on Garbage's
kernel, one game at a time on one small board, so its working memory does not grow with the number of hands; only
the result arrays (winners, turns and the extras hands and shuffles, 8 bytes each per hand) do. The figure is the
process's peak resident set size (``resource.getrusage``), which includes the Python interpreter, numpy and
numba themselves; the numpy allocations alone are measured with ``tracemalloc`` in a second run.

    .venv/bin/python benchmarks/bench_memory.py [--hands 1000000] [--players 2]

Target (the issue): under 500 MB peak.
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

import cardlab


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    before = max_rss_mb()
    start = time.perf_counter()
    result = cardlab.simulate("garbage", players=args.players, games=args.hands, seed=1, progress=False)
    elapsed = time.perf_counter() - start
    peak = max_rss_mb()
    print(f"{args.hands:,} garbage hands, {args.players} players ({result.method} path) in {elapsed:.2f} s")
    print(f"peak resident memory: {peak:.1f} MB for the whole process (after imports: {before:.1f} MB); "
          f"{'meets' if peak < 500 else 'EXCEEDS'} the 500 MB target")
    tracemalloc.start()
    cardlab.simulate("garbage", players=args.players, games=args.hands, seed=1, progress=False)
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak of memory allocated during the simulation (tracemalloc): {traced / 2**20:.1f} MB; "
          f"the results alone are {(result.winners.nbytes + result.turns.nbytes) / 2**20:.1f} MB")


if __name__ == "__main__":
    main()
