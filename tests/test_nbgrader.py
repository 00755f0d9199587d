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
    NotebookClient(version, timeout=RUN_TIMEOUT_S, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()   # raises on the first error
    errors = [o for c in version.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert all(c.execution_count for c in version.cells if c.cell_type == "code" and c.source.strip())
