"""Seeded kernel results of two source trees, compared: a hash of every game's winner, turns and figures.

    .venv/bin/python benchmarks/kernel_fingerprint.py --base /path/to/other/tree [--games 2000]

For every game, player count, option set (below) and policy (all seats ``greedy``, all ``random``, and a mix),
each tree plays ``play_shard(players, options, seed, 0, games, policies)`` in its own fresh process
(``PYTHONPATH=tree``) and hashes the winners, the turns and the per-game figures (SHA-256 of the arrays'
bytes). The script prints one line per run with both hashes and whether they agree, and exits with status 1
when any differ. A change that restates a rule without changing it leaves every hash as it was.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RUNS: dict[str, tuple[tuple[int, ...], tuple[dict[str, object], ...]]] = {
    "garbage": ((1, 2, 4, 6), ({}, {"wild": "K"}, {"last_round": True}, {"match": True})),
    "shithead": ((2, 3, 5), ({}, {"four_kind_plays_again": True, "first": "lowest3"},
                             {"play_to_last": True, "seven_lower": True},
                             {"invisible_three": True, "eight_skips": True, "first": "lowest3"},
                             {"seven_lower": True, "invisible_three": True, "eight_skips": True,
                              "four_kind_plays_again": True, "play_to_last": True})),
    "spite_malice": ((2,), ({}, {"king_starts_pile": False, "refill_on_empty": False},
                            {"completed_to": "shuffle", "first": "seat0"}, {"match": True, "target": 20})),
}
POLICIES = ("greedy", "random", "mixed")

CODE = """
import hashlib, json, cardlab
if not cardlab.__file__.startswith({tree!r}):
    raise SystemExit('imported ' + cardlab.__file__ + ', not the tree ' + {tree!r})
import numpy as np
from cardlab.games.{game} import kernel as k
out = []
for players, extra, policy in json.loads({jobs!r}):
    opts = {{**cardlab.new_game({game!r}, players=players, seed=0).options, **extra}}
    pol = ["greedy" if policy == "mixed" and p % 2 == 0 else "random" if policy == "mixed" else policy
           for p in range(players)]
    winners, turns, extras = k.play_shard(players, opts, 11, 0, {games}, pol)
    h = hashlib.sha256(np.asarray(winners, dtype=np.int64).tobytes() + np.asarray(turns, dtype=np.int64).tobytes())
    for name in sorted(extras):
        h.update(name.encode() + np.asarray(extras[name], dtype=np.float64).tobytes())
    out.append(h.hexdigest()[:16])
print(json.dumps(out))
"""


def hashes(tree: str, game: str, jobs: list[tuple[int, dict[str, object], str]], games: int) -> list[str]:
    """The hash of each job's games, played by ``tree``'s code in a fresh process."""
    code = CODE.format(tree=os.path.abspath(tree), game=game, jobs=json.dumps(jobs), games=games)
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": tree}, cwd=tree,
                          capture_output=True, text=True, check=True)
    out: list[str] = json.loads(done.stdout.split("\n")[-2])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the other source tree (a checkout or worktree)")
    parser.add_argument("--tree", default=HERE, help="this tree (default: the one holding this script)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", nargs="+", default=sorted(RUNS))
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"kernel_fingerprint, {args.games} games per run, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
          f"load {load}\n  tree {args.tree}\n  base {args.base}")
    differ = 0
    total = 0
    for game in args.game:
        counts, option_sets = RUNS[game]
        jobs = [(n, o, pol) for n in counts for o in option_sets for pol in POLICIES]
        base, tree = hashes(args.base, game, jobs, args.games), hashes(args.tree, game, jobs, args.games)
        for (n, o, pol), b, t in zip(jobs, base, tree, strict=True):
            same = "same" if b == t else "DIFFERENT"
            differ += b != t
            total += 1
            print(f"{game:<12} {n} players {pol:<6} {json.dumps(o):<60} base {b} tree {t} {same}")
    print(f"{total - differ} of {total} runs identical")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
