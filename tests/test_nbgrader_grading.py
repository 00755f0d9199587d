"""nbgrader itself grades a lesson: the key's answers score full marks, blank answers score zero.

A course folder is made as a teacher would make it, with a database this time: ``source/lessons/NAME.ipynb``
(built from ``notebooks/src/NAME.py``, so the test follows the sources, not the last build of the committed
notebooks) and ``notebooks/nbgrader_config.py``. ``nbgrader generate_assignment lessons`` writes the release and
records the graded cells (one point per exercise, with their hidden tests) in ``gradebook.db``. Two students
submit the released notebook:

* ``right``: each answer cell (the stub) filled with the key's solution, which ends by setting ``answer_N`` to the
  key's answer as a student would type it;
* ``blank``: the release as it is, every ``answer_N = ""``.

``nbgrader autograde lessons`` runs both, with the hidden tests put back from the database, and the gradebook must
give ``right`` every point and ``blank`` none. The release itself must hold no hidden test.

Runtime: autograding runs each lesson twice, so this test grades two quick lessons, :data:`GRADED` (02 and 04,
about 10 s each to run); ``python notebooks/student.py --grade NAME ...`` grades any lesson the same way (the
figure for all lessons is in docs/teaching.md).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tests import notebook_scripts
from tests.test_nbgrader import nbgrader_or_skip

STUDENT = notebook_scripts.load("student")
BUILD = notebook_scripts.load("build")
GRADED = ["02_garbage_play", "04_spite_and_malice_play"]
TIMEOUT_S = 1800


@pytest.mark.timeout(TIMEOUT_S)
def test_nbgrader_gives_the_keys_answers_full_marks_and_blank_answers_zero(tmp_path: object) -> None:
    nbgrader_or_skip()

    grades = STUDENT.grade_with_nbgrader(GRADED, Path(str(tmp_path)))
    assert set(grades) == {(student, name) for student in ("right", "blank") for name in GRADED}
    for name in GRADED:
        exercises = sum(kind == "tests" for kind, _ in BUILD.parse_source(BUILD.source_path(name).read_text()))
        assert exercises >= 2
        right, blank = grades[("right", name)], grades[("blank", name)]
        assert right == (exercises, exercises), f"{name}: the key's answers scored {right}"
        assert blank == (0, exercises), f"{name}: blank answers scored {blank}"
        release = nbformat.read(Path(str(tmp_path)) / "course" / "release" / "lessons" / f"{name}.ipynb",
                                as_version=4)  # type: ignore[no-untyped-call]
        graded = [c for c in release.cells if c.metadata.get("nbgrader", {}).get("grade")]
        assert len(graded) == exercises and all(c.metadata["nbgrader"]["points"] == 1 for c in graded)
        assert not any("HIDDEN TESTS" in c.source or ".check(answer_" in c.source for c in graded), \
            f"{name}: the release holds a hidden test"
        key = BUILD.notebook_from_source(name, BUILD.source_path(name).read_text())
        ours = STUDENT.student_copy(key, name)
        assert [c.source for c in ours.cells if c.cell_type == "code"] == \
            [c.source for c in release.cells if c.cell_type == "code"], "make lab's copy and nbgrader's release differ"
