"""The ``cardlab`` command.

    cardlab simulate garbage --players 3 --games 100000 --seed 1
    cardlab simulate garbage --players 2 -o wild=K -o last_round=true --processes 2
    cardlab simulate shithead --players 4 --policy greedy,random,random,random --games 200
    cardlab games
    cardlab compile
    cardlab class --port 8765

``compile`` runs every game's compile hook (each game's fast kernel, in parallel processes) ahead of time
(``make lab``, ``make test`` and Binder's ``postBuild`` run it), so the first Spite and Malice panel in
class does not wait several seconds for it. ``simulate`` prints the table of
:meth:`cardlab.SimResult.summary` (with a progress bar on the terminal while it runs, and the speed on
standard error). Game options are given as ``-o KEY=VALUE``;
values are read as ``true``/``false``, ``none``, whole numbers, comma-separated whole numbers (a list),
or else text. ``class`` starts the class server (:mod:`cardlab.classroom.app`: the teacher's address, the
students' join page and code, a QR code). Ctrl-C stops any run within a fraction of a second (worker processes
included): the command says
``cardlab: interrupted`` and exits with status 130.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from cardlab.errors import CardlabError, InvalidInputError, shown


def parse_option(text: str) -> tuple[str, Any]:
    """``"wild=K"`` -> ``("wild", "K")``; ``"last_round=true"`` -> True; ``"layout_sizes=9,10"`` -> [9, 10]."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise InvalidInputError(f"option {shown(text)} is not KEY=VALUE (for example wild=K or last_round=true)")
    value = raw.strip()
    low = value.lower()
    if low in ("true", "false"):
        return key, low == "true"
    if low in ("none", "null"):
        return key, None
    parts = [p.strip() for p in value.split(",")]
    if value and all(_whole_number(p) for p in parts):
        numbers = [int(p) for p in parts]
        return key, numbers if "," in value else numbers[0]
    return key, value


def _whole_number(text: str) -> bool:
    """ASCII digits with an optional minus sign ('²' is a digit to str.isdigit, but not a number here)."""
    digits = text[1:] if text.startswith("-") else text
    return 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit()


def _policies(text: str) -> str | list[str]:
    parts = [p.strip() for p in text.split(",")]
    return parts if len(parts) > 1 else parts[0]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardlab", description="Card games for teaching probability.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play many seeded games and print win rates and turns",
                         description="Play many seeded games and print each seat's win rate (95%% Wilson "
                                     "interval) and the turns per game.")
    sim.add_argument("game", help="game name, e.g. garbage, spite-and-malice, shithead")
    sim.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    sim.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    sim.add_argument("--policy", default="greedy",
                     help="greedy, random or uninformed, or one per seat separated by commas (default greedy)")
    sim.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    sim.add_argument("--backend", default="local", help="local (default) or dask")
    sim.add_argument("--engine", action="store_true", help="play on the engine even where the fast path applies")
    sim.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a game option, e.g. -o wild=K -o last_round=true -o layout_sizes=10,9")
    sim.add_argument("--no-progress", action="store_true", help="do not show the progress bar")
    sub.add_parser("games", help="list the games, their player counts and options")
    sub.add_parser("compile", help="compile every game's fast play-outs now (cached on disk)")
    cls = sub.add_parser("class", help="start a class session: students guess on their phones, the stepper asks",
                         description="Start the class server: it prints the teacher's address (with its secret "
                                     "token), the students' join page and code, and a QR code.")
    cls.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    cls.add_argument("--host", default="0.0.0.0",
                     help="address to listen on (default 0.0.0.0: the school network; 127.0.0.1: this machine only)")
    cls.add_argument("--store", default="cardlab-class.sqlite3",
                     help="the SQLite file of the sessions (default cardlab-class.sqlite3); started again on the "
                          "same file, the session carries on")
    cls.add_argument("--address", default=None, help="the host name or address the students type (default: this "
                                                      "machine's address on the network)")
    cls.add_argument("--base-url", default=None, help="the whole public address, when a proxy serves the class "
                                                       "(a JupyterHub service, say)")
    cls.add_argument("--prefix", default=None, help="a path every address starts with, behind a proxy (default: "
                                                    "JUPYTERHUB_SERVICE_PREFIX when JupyterHub starts it, else none)")
    cls.add_argument("--new", action="store_true", help="start a new session (a new join code) in the store")
    cls.add_argument("--no-qr", action="store_true", help="do not draw the QR code in the terminal")
    return parser


def _list_games() -> str:
    from cardlab.engine.registry import game_class, game_names

    lines = []
    for name in game_names():
        cls = game_class(name)
        aliases = f" (also {', '.join(cls.aliases)})" if cls.aliases else ""
        lines.append(f"{name}{aliases}: {cls.title}, {cls.min_players}-{cls.max_players} players")
        for key, spec in cls.option_specs.items():
            lines.append(f"    {key}={spec.default!r}: {spec.doc} (accepted: {spec.accepted})")
    return "\n".join(lines)


INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT, as a shell reports a command stopped by it)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; a reader that stops early (``cardlab games | head -c 1``) ends it quietly, and Ctrl-C
    stops it at once (``simulate`` hears it within a fraction of a second) with one line and status 130."""
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # the reader has gone: send what is left to nowhere, so the exit's own flush raises nothing
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 1


def _compile_one(name: str) -> float:
    """In a worker process: run one game's compile hook (numba writes the result to its on-disk cache)."""
    from cardlab.engine.registry import game_spec

    hook = game_spec(name).compile
    return float(hook()) if hook is not None else 0.0


def _compile_kernels() -> None:
    """Run every game's compile hook (its spec's ``compile``), saying what was compiled.

    The games' kernels compile at the same time in separate processes (one per game, when there is more than one
    core: the longest, Spite and Malice's, then runs beside the two shorter ones),
    each writing numba's on-disk cache; then this process runs every hook again, which loads the kernels
    from that cache in a fraction of a second, so they are ready here too. With one core, or one game to
    compile, everything runs here.
    """
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from cardlab.engine.registry import game_specs

    todo = []
    for spec in game_specs():
        if spec.compile is None:
            continue
        if spec.compile_ready is not None and not spec.compile_ready():
            print(f"numba is not installed: the {spec.rules.title} play-outs run as plain Python (same results, "
                  'slower); for the compiled ones: pip install "cardlab[fast]"')
            continue
        todo.append(spec)
    workers = len(todo) if (os.cpu_count() or 1) > 1 else 1
    elsewhere: list[float | None] = [None] * len(todo)   # seconds each game took in its worker process
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            elsewhere = list(pool.map(_compile_one, [s.name for s in todo]))
    for spec, took in zip(todo, elsewhere, strict=True):
        assert spec.compile is not None
        here = float(spec.compile())  # from the cache just written, or compiled here
        print(f"compiled the {spec.rules.title} play-outs in {took if took is not None else here:.1f} s "
              "(cached for later runs)")


def _class(args: argparse.Namespace) -> int:
    try:
        from cardlab.classroom.app import run
    except ImportError as exc:
        from cardlab.errors import MissingExtraError

        raise MissingExtraError(f"the class server needs tornado and segno ({exc.name} is missing): "
                                'pip install "cardlab[class]"') from None
    run(args.store, args.host, args.port, args.address, args.base_url, new=args.new, qr=not args.no_qr,
        prefix=args.prefix)
    return 0


def _main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "games":
            print(_list_games())
            return 0
        if args.command == "compile":
            _compile_kernels()
            return 0
        if args.command == "class":
            return _class(args)
        from cardlab.sim import simulate as sim_module
        from cardlab.sim.simulate import simulate

        options = dict(parse_option(o) for o in args.option)
        delay, sim_module.PROGRESS_DELAY_S = sim_module.PROGRESS_DELAY_S, 0.0  # the command line always shows it
        try:
            result = simulate(args.game, args.players, args.games, args.seed, _policies(args.policy),
                              processes=args.processes, progress=not args.no_progress, backend=args.backend,
                              fast=False if args.engine else None, **options)
        finally:
            sim_module.PROGRESS_DELAY_S = delay
    except CardlabError as exc:
        print(f"cardlab: error: {exc}", file=sys.stderr)
        return 2
    print(result.summary())
    rate = result.games / result.elapsed if result.elapsed > 0 else float("inf")
    print(f"{result.games} games in {result.elapsed:.2f} s ({rate:,.0f} games/s, {result.method} path)",
          file=sys.stderr)
    return 0
