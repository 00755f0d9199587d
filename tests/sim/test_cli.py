"""The ``cardlab`` command: ``cardlab simulate ...`` prints simulate()'s table, with a progress bar."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardlab
from cardlab.cli import main, parse_option
from cardlab.engine.spec import LazyKernel


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_prints_the_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "garbage", "--players", "3", "--games", "3000", "--seed", "1",
                         "--no-progress")
    assert code == 0
    assert out == cardlab.simulate("garbage", players=3, games=3000, seed=1).summary() + "\n"
    assert "3000 games in" in err and "games/s, fast path" in err and "%|" not in err


def test_progress_bar_is_shown_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "garbage", "--games", "500", "--seed", "2")
    assert code == 0 and out.startswith("500 garbage games, 2 players, seed 2")
    assert "garbage (fast)" in err and "100%" in err


def test_options_policies_and_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "trash", "--games", "200", "--no-progress", "-o", "wild=K",
                       "-o", "last_round=true", "-o", "layout-sizes=10,9")
    assert code == 0
    assert out.splitlines()[0] == ("200 garbage games, 2 players, seed 0, wild='K', last_round=True, "
                                   "layout_sizes=[10, 9] (fast path)")
    code, out, _ = run(capsys, "simulate", "garbage", "--games", "30", "--no-progress", "--policy", "greedy,random")
    assert code == 0 and "(fast path)" in out and "greedy" in out and "random" in out
    code, out, _ = run(capsys, "simulate", "garbage", "--games", "30", "--no-progress", "--engine")
    assert code == 0 and out == cardlab.simulate("garbage", games=30, fast=False).summary() + "\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "poker"], "unknown game 'poker'"),
    (["simulate", "garbage", "--players", "8"], "players=8 is not allowed for garbage"),
    (["simulate", "garbage", "-o", "wild"], "option 'wild' is not KEY=VALUE"),
    (["simulate", "garbage", "-o", "colour=red"], "unknown option 'colour'"),
    (["simulate", "garbage", "--processes", "0"], "processes=0 is not allowed"),
    (["simulate", "garbage", "--backend", "spark"], "backend='spark' is not allowed"),
    (["simulate", "garbage", "--policy", "clever"], "unknown policy 'clever'"),
])
def test_bad_input_gives_a_message_and_exit_code_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                   message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("cardlab: error: ") and message in err


def test_parse_option() -> None:
    cases: list[tuple[str, tuple[str, Any]]] = [
        ("wild=K", ("wild", "K")), ("last_round=TRUE", ("last_round", True)), ("match=false", ("match", False)),
        ("layout_sizes=10,9,8", ("layout_sizes", [10, 9, 8])), ("target=30", ("target", 30)),
        ("layout_sizes=none", ("layout_sizes", None)), ("first = seat0", ("first", "seat0")),
    ]
    for text, expected in cases:
        assert parse_option(text) == expected
    with pytest.raises(cardlab.InvalidInputError, match="'=3' is not KEY=VALUE"):
        parse_option("=3")


def test_games_lists_every_game_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    for name in cardlab.game_names():
        assert any(line.startswith(name) for line in out.splitlines())
    assert "    last_round=False: after a player completes" in out


def test_missing_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2 and "usage: cardlab" in capsys.readouterr().err


@pytest.mark.parametrize("command", [[sys.executable, "-m", "cardlab"], [str(Path(sys.executable).parent / "cardlab")]])
def test_installed_commands(command: list[str]) -> None:
    # a run of several seconds on one core, so two worker processes really start (they import the command's
    # module): parallel.POOL_AFTER_S
    games = str(60_000)
    done = subprocess.run([*command, "simulate", "shithead", "--players", "3", "--games", games, "--seed", "1",
                           "--processes", "2"], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout == cardlab.simulate("shithead", players=3, games=int(games), seed=1).summary() + "\n"
    assert "100%" in done.stderr


def test_compile_readies_every_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    """``cardlab compile`` runs the compile hook of every game whose spec has one and says so, and leaves each
    kernel compiled in this process (its module's compiled functions hold signatures). A game without a kernel
    (the toy game) has no hook and no line. Which entry points each kernel compiles is its game's own test
    (``tests/games/<game>/test_kernel.py``)."""
    code, out, _ = run(capsys, "compile")
    assert code == 0
    lines = out.splitlines()
    specs = cardlab.engine.game_specs()
    assert any(spec.compile is not None for spec in specs)
    for spec in specs:
        said = any(line.startswith(f"compiled the {spec.rules.title} play-outs in ") for line in lines)
        assert said == (spec.compile is not None), (spec.name, out)
        if isinstance(spec.kernel, LazyKernel):
            module = spec.kernel.module()
            compiled = [f for f in vars(module).values() if hasattr(f, "py_func") and getattr(f, "signatures", None)]
            assert compiled, f"the {spec.rules.title} kernel was not compiled in this process"


def test_ctrl_c_ends_the_command_with_one_line_and_status_130(capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a run: no traceback, one line, and the status a shell gives a command stopped by SIGINT
    (tests/sim/test_simulate.py sends real SIGINTs to the command and times them)."""
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("cardlab.sim.simulate.simulate", interrupted)
    code, out, err = run(capsys, "simulate", "garbage", "--games", "10")
    assert (code, out, err) == (130, "", "cardlab: interrupted\n")
