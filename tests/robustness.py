"""Robustness figures (recorded in ``docs/performance.md``, section "Robustness").

    .venv/bin/python -m tests.robustness                 # everything, 2,000 corrupted records per game
    .venv/bin/python -m tests.robustness --records 200   # a quicker look
    .venv/bin/python -m tests.robustness --inputs-only   # the bad-input sweep alone (about a minute)

Prints:

* corrupted records per game (``tests/record_fuzz.py``): how many ``load_game`` refused with
  ``CorruptRecordError``, how many loaded and played to the end (bots, undo, views, a record round trip),
  anything else (raw errors), hangs (a load still running after 10 s) and loads over 2 s, and the
  slowest load;
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
import signal
import time
import tracemalloc

import numpy as np

import cardlab
from cardlab.policies import make_policy
from cardlab.sim.parallel import play_out
from tests import ctrl_c as ctrl_c_child
from tests.input_cases import OK, REFUSED, cases, run_case
from tests.record_fuzz import check_record, corrupt, true_record

GAMES = ("garbage", "shithead", "spite-and-malice")


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def records(n: int, seed: int) -> bool:
    ok = True
    signal.signal(signal.SIGALRM, _alarm)
    for name in GAMES:
        rng = np.random.default_rng([seed, GAMES.index(name)])
        counts: collections.Counter[str] = collections.Counter()
        raws: collections.Counter[str] = collections.Counter()
        slow = 0
        worst = 0.0
        for _ in range(n):
            text = corrupt(true_record(name, rng), rng)
            signal.alarm(10)
            try:
                outcome, seconds = check_record(text, rng)
            except Hang:
                outcome, seconds = "hang", 10.0
            finally:
                signal.alarm(0)
            worst = max(worst, seconds)
            slow += seconds > 2
            key = outcome if outcome in ("refused", "playable", "hang") else "raw"
            counts[key] += 1
            if key == "raw":
                raws[outcome[:120]] += 1
        good = counts["refused"] + counts["playable"]
        print(f"{name:17} {n} corrupted records: refused {counts['refused']}, loaded and played to the end "
              f"{counts['playable']} ({100 * good / n:.1f}% either), raw errors {counts['raw']}, hangs "
              f"{counts['hang']}, loads over 2 s {slow}, slowest load {worst:.3f} s")
        for text, k in raws.most_common(5):
            print(f"    {k} x {text}")
        ok &= good == n and slow == 0
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
    assert loaded.state.to_data() == game.state.to_data()
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=2000, help="corrupted records per game (default 2000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--inputs-only", action="store_true", help="run the bad-input sweep alone")
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load average", os.getloadavg())
    ok = inputs()
    if args.inputs_only:
        print("all figures reached" if ok else "SOME FIGURES MISSED")
        return 0 if ok else 1
    ok &= ctrl_c()
    ok &= long_record()
    ok &= records(args.records, args.seed)
    print("all figures reached" if ok else "SOME FIGURES MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

