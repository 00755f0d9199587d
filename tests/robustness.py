"""Robustness figures (recorded in ``docs/performance.md``, section "Robustness").

    .venv/bin/python -m tests.robustness                 # everything, 2,000 corrupted records per game
    .venv/bin/python -m tests.robustness --records 200   # a quicker look
    .venv/bin/python -m tests.robustness --inputs-only   # the bad-input sweep alone (about a minute)
    .venv/bin/python -O -m tests.robustness --only records   # the record fuzz with assert statements removed

Prints:

* corrupted records per game (``tests/record_fuzz.py``): how many ``load_game`` refused with
  ``CorruptRecordError``, how many loaded and played on (bots, undo, views, a record round trip), how many
  it refused with another exception (rejected-raw) or loaded and then failed (accepted-broken), hangs
  (a load and play-on still running after 10 s), loads or moves over 2 s of CPU time, the slowest load
  and move, the largest peak of traced memory in a load and the process's peak resident memory;
* the careless and hostile inputs of ``tests/input_cases.py`` (every public entry point): refused with a short
  cardlab error and the game or stepper unchanged, accepted where the input is a good one, and every defect
  by kind (raw tracebacks, hangs, bad settings accepted silently, good inputs refused, state changed by a
  refused call, messages over 500 characters);
* a 200-round Spite and Malice match: its record's size, the load's wall and CPU seconds, and the load's
  peak of traced memory (a second load under ``tracemalloc``);
* Ctrl-C (SIGINT) to a script running ``simulate(processes=2)``: seconds until it has exited.

It is a script rather than a test because the full run takes minutes; the unit tests run small samples.
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import signal
import sys
import time
import tracemalloc

import numpy as np

import cardlab
from cardlab.policies import make_policy
from cardlab.sim.parallel import play_out
from tests import ctrl_c as ctrl_c_child
from tests.input_cases import OK, REFUSED, cases, run_case
from tests.record_fuzz import Outcome, check_record, corrupt, true_record

GAMES = tuple(cardlab.game_names())
HANG_SECONDS = 10
"""A record whose load and play-on still run after this many seconds counts as a hang."""
MAX_SECONDS = 2.0
"""The longest a load or one move may take."""
MAX_BYTES = 500 * 2**20
"""The most memory a load or a move may use (traced in a load; the whole process's resident peak bounds both)."""


class Hang(BaseException):
    """A record still loading or playing on after :data:`HANG_SECONDS` (a BaseException, so that the
    checks' ``except Exception`` do not count it as a failure of the game)."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def records(n: int, seed: int, most: int) -> bool:
    """``n`` corrupted records per game, each loaded (and loaded again under ``tracemalloc``) and played on;
    the figure is reached with 0 rejected-raw, 0 accepted-broken, 0 hangs, no load or move over 2 s of CPU
    time, and no load over 500 MiB of traced memory nor a process over 500 MiB resident (which bounds every
    load and move)."""
    ok = True
    signal.signal(signal.SIGALRM, _alarm)
    print(f"records: python{' -O' if sys.flags.optimize else ''} (assert statements "
          f"{'removed' if sys.flags.optimize else 'kept'}), {n} corrupted records per game, seed {seed}, "
          f"at most {most} moves played on")
    totals: collections.Counter[str] = collections.Counter()
    for name in GAMES:
        rng = np.random.default_rng([seed, GAMES.index(name)])
        counts: collections.Counter[str] = collections.Counter()
        bad: collections.Counter[str] = collections.Counter()
        slow = 0
        worst = Outcome("worst")
        started = time.perf_counter()
        for _ in range(n):
            text = corrupt(true_record(name, rng), rng)
            signal.alarm(HANG_SECONDS)
            try:
                out = check_record(text, rng, most, trace=True)
            except Hang:
                out = Outcome("hang", text[:120], float(HANG_SECONDS), float(HANG_SECONDS))
            finally:
                signal.alarm(0)
            for f in ("load_wall", "load_cpu", "move_wall", "move_cpu", "load_peak"):
                setattr(worst, f, max(getattr(worst, f), getattr(out, f)))
            slow += max(out.load_cpu, out.move_cpu) > MAX_SECONDS
            counts[out.kind] += 1
            if out.kind not in ("refused", "playable"):
                bad[f"{out.kind}: {out.detail[:120]}"] += 1
        totals += counts
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
        print(f"{name:17} {n} corrupted records in {time.perf_counter() - started:.0f} s: refused "
              f"{counts['refused']}, loaded and played on {counts['playable']}, rejected-raw "
              f"{counts['rejected-raw']}, accepted-broken {counts['accepted-broken']}, hangs {counts['hang']}; "
              f"loads or moves over {MAX_SECONDS:g} s of CPU {slow}; slowest load {worst.load_cpu:.3f} s CPU "
              f"({worst.load_wall:.3f} s wall), slowest move {worst.move_cpu:.3f} s CPU ({worst.move_wall:.3f} s "
              f"wall); largest peak of traced memory in a load {worst.load_peak / 2**20:.1f} MiB; the process's "
              f"peak resident memory so far {rss:.0f} MiB")
        for text, k in bad.most_common(5):
            print(f"    {k} x {text}")
        ok &= not bad and slow == 0 and worst.load_peak <= MAX_BYTES and rss <= MAX_BYTES / 2**20
    print(f"records: {sum(totals.values())} in all: refused {totals['refused']}, played on {totals['playable']}, "
          f"rejected-raw {totals['rejected-raw']}, accepted-broken {totals['accepted-broken']}, hangs "
          f"{totals['hang']}")
    return ok


DEFECTS = {"raw": "raw tracebacks", "hang": "hangs", "bad input silently accepted": "silent acceptances",
           "good input refused": "good inputs refused", "state changed": "state changes after a refused call",
           "refused with a message": "messages over 500 characters"}


def inputs() -> bool:
    all_cases = cases()
    results = []
    slowest = (0.0, "")
    for case in all_cases:
        start = time.perf_counter()
        results.append((case, run_case(case)))
        slowest = max(slowest, (time.perf_counter() - start, case.name))
    kinds: collections.Counter[str] = collections.Counter()
    defects = []
    for case, r in results:
        kind = next((k for k in DEFECTS if r.startswith(k)), None)
        if kind is not None:
            kinds[kind] += 1
            defects.append((case.name, r))
        elif r not in (OK, REFUSED):
            raise AssertionError(f"unclassified outcome {r!r}")
    bad = sum(case.expect == REFUSED for case in all_cases)
    print(f"inputs: {len(results)} careless or hostile inputs ({bad} bad, {len(results) - bad} good): "
          f"{sum(r == REFUSED for _, r in results)} refused with a cardlab error of at most 500 characters, the "
          f"game or stepper unchanged; {sum(r == OK for _, r in results)} good ones accepted; "
          + ", ".join(f"{kinds[k]} {words}" for k, words in DEFECTS.items())
          + f"; slowest case {slowest[0]:.2f} s ({slowest[1]}; a case still running after 30 s is a hang)")
    for name, r in defects:
        print(f"    {name}: {r}")
    return not defects


def long_record() -> bool:
    game = cardlab.new_game("spite-and-malice", seed=1, match=True, target=10**6)
    rng = np.random.default_rng(1)
    play_out(game, [make_policy("greedy", game.name, rng)] * 2, max_moves=10**6)
    text = game.to_json()
    wall, cpu = time.perf_counter(), time.process_time()
    loaded = cardlab.load_game(text)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    tracemalloc.start()
    cardlab.load_game(text)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    if loaded.state.to_data() != game.state.to_data():
        print("long record: the loaded game differs from the one written")
        return False
    print(f"long record: {game.state.round} rounds of Spite and Malice, {game.move_count:,} moves, "
          f"{len(text) / 1e6:.2f} MB: load {wall:.2f} s wall, {cpu:.2f} s CPU, peak traced memory {peak:.0f} MiB")
    return cpu <= 2 and peak <= 100


def ctrl_c() -> bool:
    proc = ctrl_c_child.start()
    assert proc.stdout is not None
    proc.stdout.readline()
    time.sleep(5)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    finally:
        ctrl_c_child.end_session(proc)
    stopped = time.perf_counter() - sent
    print(f"Ctrl-C: a 2-process simulate (200,000 Shithead games) exited {stopped:.2f} s after SIGINT")
    return stopped <= 2


PARTS = ("inputs", "ctrl-c", "long-record", "records")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=2000, help="corrupted records per game (default 2000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--inputs-only", action="store_true", help="run the bad-input sweep alone")
    parser.add_argument("--most", type=int, default=1500, help="moves played on from a loaded record (default 1500)")
    parser.add_argument("--only", choices=PARTS, action="append", help="run only this part (may be repeated)")
    args = parser.parse_args()
    parts = ["inputs"] if args.inputs_only else args.only or PARTS
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load average", os.getloadavg())
    ok = True
    if "inputs" in parts:
        ok &= inputs()
    if "ctrl-c" in parts:
        ok &= ctrl_c()
    if "long-record" in parts:
        ok &= long_record()
    if "records" in parts:
        ok &= records(args.records, args.seed, args.most)
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load average", os.getloadavg())
    print("all figures reached" if ok else "SOME FIGURES MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
