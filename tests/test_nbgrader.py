"""nbgrader itself generates a student version of every lesson, and that version runs top to bottom with blank
answers without an error.

A course folder is made as a teacher would make it: ``source/lessons/NAME.ipynb`` (the committed keys) and
``notebooks/nbgrader_config.py`` as its configuration; ``nbgrader generate_assignment lessons --no-db`` writes
``release/lessons/``. Each released lesson must have no output, no line of any solution (a line of a solution
region that appears nowhere else in the key), nbgrader's stub in every solution cell, the same code cells as
``make lab``'s student copy, and must run to the end in a fresh kernel.

nbgrader comes with the optional extra ``cardlab[teach]``; ``make test`` installs it and sets
``CARDLAB_REQUIRE_TEACH=1``, which turns a missing nbgrader into a failure instead of a skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests import notebook_scripts

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
STUDENT = notebook_scripts.load("student")
LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb") if p.stem != "app")
ASSIGNMENT = "lessons"
RUN_TIMEOUT_S = 900


def nbgrader_or_skip() -> None:
    try:
        import nbgrader  # noqa: F401
    except ImportError:
        if os.environ.get("CARDLAB_REQUIRE_TEACH") == "1":
            pytest.fail("nbgrader is not installed, but CARDLAB_REQUIRE_TEACH=1: pip install -e '.[teach]'")
        pytest.skip("nbgrader is not installed (pip install -e '.[teach]'; make test installs it)")


def read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``release/lessons/`` of a course folder, made by ``nbgrader generate_assignment``."""
    nbgrader_or_skip()
    course = tmp_path_factory.mktemp("course")
    source = course / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    for name in LESSONS:
        shutil.copy(NOTEBOOKS / f"{name}.ipynb", source)
    shutil.copy(NOTEBOOKS / "nbgrader_config.py", course)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(course / ".jupyter"), JUPYTER_DATA_DIR=str(course / ".data"))
    done = subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--no-db", "--force"],
                          cwd=course, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    release = course / "release" / ASSIGNMENT
    assert sorted(p.stem for p in release.glob("*.ipynb")) == LESSONS, done.stderr[-3000:]
    return release


def test_the_configuration_uses_the_student_copies_stub() -> None:
    class Section(dict[str, Any]):
        def __getattr__(self, name: str) -> Any:
            return self.setdefault(name, Section())

    config = Section()
    exec((NOTEBOOKS / "nbgrader_config.py").read_text(), {"get_config": lambda: config})
    assert config.ClearSolutions.code_stub == {"python": STUDENT.STUB}


@pytest.mark.parametrize("name", LESSONS)
def test_nbgrader_releases_the_lesson_without_outputs_or_solutions(released: Path, name: str) -> None:
    key = read(NOTEBOOKS / f"{name}.ipynb")
    version = read(released / f"{name}.ipynb")
    code = [c for c in version.cells if c.cell_type == "code"]
    assert sum(len(c.outputs) for c in code) == 0
    leaked = STUDENT.leaked_solution_lines(key, version)
    assert not leaked, f"{name}: solution lines in nbgrader's student version: {sorted(leaked)[:5]}"
    solutions = [c for c in version.cells if c.metadata.get("nbgrader", {}).get("solution")]
    assert solutions and all(c.source == STUDENT.STUB for c in solutions)
    ours = STUDENT.student_copy(key, name)
    assert [c.source for c in ours.cells if c.cell_type == "code"] == [c.source for c in code], \
        "make lab's student copy and nbgrader's student version differ in their code"


@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
@pytest.mark.parametrize("name", LESSONS)
def test_nbgrader_student_version_runs_top_to_bottom_with_blank_answers(released: Path, name: str,
                                                                         tmp_path: Path) -> None:
    from nbclient import NotebookClient

    version = read(released / f"{name}.ipynb")
    cells = len(version.cells)
    version.cells.insert(0, nbformat.v4.new_code_cell(WATCH_STEPPERS))  # type: ignore[no-untyped-call]
    version.cells.append(nbformat.v4.new_code_cell(STEPPERS_AFTER_RUN_ALL))  # type: ignore[no-untyped-call]
    NotebookClient(version, timeout=RUN_TIMEOUT_S, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()   # raises on the first error
    errors = [o for c in version.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert all(c.execution_count for c in version.cells if c.cell_type == "code" and c.source.strip())
    # every stepper the lesson shows is, after Run All, where it was when shown (no later cell stepped it);
    # a predict stepper still waits for the student's first guess
    shown = json.loads("".join(o.get("text", "") for o in version.cells[-1].outputs))
    assert len(version.cells) == cells + 2
    cell_of = {c.execution_count: i - 1 for i, c in enumerate(version.cells) if c.cell_type == "code"}
    for s in shown:
        s["cell"] = cell_of[s["cell"]]   # the cell's index in the lesson
    print(name, shown)
    for s in shown:
        label = f"{name}: the stepper shown in cell {s['cell']} ({s['game']}, seed {s['seed']})"
        assert s["moves_now"] == s["moves_shown"], f"{label} was at move {s['moves_shown']} when shown and is at " \
            f"move {s['moves_now']} after Run All: a later cell steps it"
        assert s["moves_shown"] == DESCRIBED.get((name, s["cell"]), 0), f"{label} is shown at move " \
            f"{s['moves_shown']}, not at the deal (or the position the text describes)"
        if s["predict"]:
            assert s["guesses"] == 0 and not s["revealed"], f"{label} is a predict stepper that does not wait " \
                "for the student's first guess"


WATCH_STEPPERS = """\
import json as _json
from cardlab.viz.stepper import Stepper as _Stepper
_cardlab_shown = []
_cardlab_display = _Stepper._ipython_display_
def _cardlab_watch(self):
    if all(s is not self for s, *_ in _cardlab_shown):
        _cardlab_shown.append((self, len(In) - 1, self.game.move_count))   # the cell's execution count
    _cardlab_display(self)
_Stepper._ipython_display_ = _cardlab_watch
"""
"""The first cell of the instrumented student copy: each stepper is noted, with its cell's execution count and
its move, the first time a cell shows it."""

STEPPERS_AFTER_RUN_ALL = """\
print(_json.dumps([{"cell": cell, "game": s.game.name, "seed": s.deal_seed, "moves_shown": moves,
                    "moves_now": s.game.move_count, "predict": s.predictor is not None,
                    "guesses": len(s.predictor.records) if s.predictor is not None else 0,
                    "revealed": bool(s.predictor.revealed) if s.predictor is not None else False}
                   for s, cell, moves in _cardlab_shown]))
"""

DESCRIBED: dict[tuple[str, int], int] = {
    ("02_garbage_play", 21): 10,    # "Here is a shuffled deal (seed 4) after ten greedy moves"
    ("06_shithead_play", 16): 10,   # "The stepper shows it after 10 moves, in mid-game"
    ("10_hidden_information", 3): 15,   # "The position: Shithead, an Ace on the pile": the lesson's 15 MOVES played
    ("11_bayes_rule", 3): 15,       # "Lesson 10's position again (the same deck list and moves)"
    ("11_bayes_rule", 24): 6,       # "It starts after the set-up ... and waits for your first guess"
}
"""Steppers a lesson shows at a position its text describes (lesson, the showing cell's index), with that
position's move number; every other stepper is shown at the deal."""
