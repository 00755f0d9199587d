"""Careless and hostile input: a clear, short cardlab error or a sensible result, never a raw error.

Also the core install (no extras): the widget and the plot name the extra to install; the Spite and Malice
kernels run as plain Python with the same results as the compiled ones; ``cardlab compile`` says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab import cli
from tests.input_cases import OK, REFUSED, cases, run_case

CASES = cases()
BLOCK = "import sys\nfor m in {mods!r}:\n    sys.modules[m] = None\n"


@pytest.mark.parametrize("case", CASES, ids=[case.name[:60] for case in CASES])
def test_input_gets_a_short_cardlab_error_or_works(case: Any) -> None:
    """A bad input is refused with a cardlab error of at most 500 characters that leaves the game or stepper as it
    was; a reasonable one works; nothing raises raw, hangs or is accepted silently (see tests/input_cases.py)."""
    assert run_case(case) == (OK if case.expect == OK else REFUSED)


def test_numpy_integers_are_plain_ints_in_options_and_records() -> None:
    g = cardlab.new_game("shithead", players=np.int64(3), seed=np.int64(2), max_turns=np.int64(50))
    assert type(g.options["max_turns"]) is int and g.players == 3
    assert cardlab.load_game(g.to_json()).options == g.options


def test_stepper_seed_none_draws_a_seed_and_shows_it() -> None:
    pytest.importorskip("ipywidgets")
    s = cardlab.Stepper("garbage", players=2, seed=None)
    assert isinstance(s.deal_seed, int) and 0 <= s.deal_seed < 1_000_000
    assert s.game.state.to_data() == cardlab.new_game("garbage", players=2, seed=s.deal_seed).state.to_data()
    with pytest.raises(cardlab.InvalidInputError, match=r"seed='7' is not allowed"):
        cardlab.Stepper("garbage", seed="7")  # type: ignore[arg-type]


def test_cli_unicode_digit_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.parse_option("layout_sizes=\u00b2") == ("layout_sizes", "\u00b2")
    assert cli.main(["simulate", "garbage", "--games", "5", "--no-progress", "-o", "layout_sizes=\u00b2"]) == 2
    err = capsys.readouterr().err
    assert "cardlab: error: option layout_sizes='²' is not allowed for garbage" in err


def test_games_into_a_closed_pipe_prints_no_traceback() -> None:
    exe = os.path.join(os.path.dirname(sys.executable), "cardlab")
    for _ in range(5):
        done = subprocess.run(f"'{exe}' games | head -c 1", shell=True, capture_output=True, text=True, timeout=60)
        assert done.stderr == "", done.stderr


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          cwd=os.getcwd())


def test_core_install_names_the_lab_extra() -> None:
    code = BLOCK.format(mods=("numba", "ipywidgets", "plotly", "anywidget", "tqdm")) + (
        "import cardlab\n"
        "result = cardlab.simulate('garbage', games=20, progress=False)\n"
        "for attempt in (lambda: cardlab.Stepper, result.plot):\n"
        "    try:\n"
        "        attempt()\n"
        "    except cardlab.MissingExtraError as exc:\n"
        "        assert isinstance(exc, ImportError)\n"
        "        print(exc)\n")
    done = _run(code)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all('pip install "cardlab[lab]"' in line for line in lines), lines


def test_compile_without_numba_says_what_to_install() -> None:
    done = _run(BLOCK.format(mods=("numba",)) + "from cardlab.cli import main\nraise SystemExit(main(['compile']))")
    assert done.returncode == 0, done.stderr
    assert 'numba is not installed' in done.stdout and 'pip install "cardlab[fast]"' in done.stdout


SPITE_KERNEL_WORKLOAD = """
import json, numpy as np, cardlab
from cardlab.games.spite_malice import kernel as ksm
out = {"numba": ksm.HAVE_NUMBA, "runs": []}
for seed, options, policies in [(3, {}, ["greedy", "greedy"]), (5, {"completed_to": "shuffle"}, ["random", "greedy"]),
                                (8, {"king_starts_pile": False, "refill_on_empty": False, "payoff_size": 6,
                                     "match": True, "target": 8}, ["greedy", "random"])]:
    g = cardlab.new_game("spite-and-malice", seed=seed, **options)
    w, t, x = ksm.play_shard(2, g.options, seed, 0, 6, policies)
    out["runs"].append([w.tolist(), t.tolist(), {k: v.tolist() for k, v in x.items()}])
    rng = np.random.default_rng(seed)
    for _ in range(30):
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    for viewpoint in (None, 0):
        out["runs"].append(ksm.win_rollouts(g, viewpoint, 8, np.random.default_rng(seed)).tolist())
        out["runs"].append(ksm.payoff_this_turn(g, viewpoint, 8, np.random.default_rng(seed)).tolist())
    out["runs"].append(ksm.play_position(g, policies, seed=seed).moves)
print(json.dumps(out))
"""


def test_kernels_give_the_same_results_with_and_without_numba() -> None:
    """The Spite and Malice kernel compiled and the same functions run as plain Python (numba blocked): fresh
    games (greedy, random, a match), play-outs from a position and a replayed position, identical."""
    import json

    pytest.importorskip("numba")
    compiled = _run(SPITE_KERNEL_WORKLOAD)
    plain = _run(BLOCK.format(mods=("numba",)) + SPITE_KERNEL_WORKLOAD)
    assert compiled.returncode == 0, compiled.stderr
    assert plain.returncode == 0, plain.stderr
    a, b = json.loads(compiled.stdout), json.loads(plain.stdout)
    assert a["numba"] is True and b["numba"] is False
    assert a["runs"] == b["runs"]
    assert len(a["runs"]) == 18 and any(-1 not in r for r in a["runs"][1::6])
