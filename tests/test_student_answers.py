"""A student copy holds no answer (issue 30's "answers reachable" figure, 0).

Read from every lesson's copy (made by ``notebooks/student.py`` from the lesson's source): no output, no solution
line, no hidden-test line, and no check cell with a formula or a method (only a call to the lesson's answer key).
Then two lessons' copies (02 and 06, quick to run) run with blank answers, and every exercise object in the kernel
is searched for its answer (``student.SWEEP``): the answer is found only by typing answers until the check says
"Right!", and no attribute, repr, page, widget or other verdict shows it. ``python notebooks/student.py
--reachable`` runs the search on every lesson (the figure in docs/teaching.md).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from cardlab.viz.exercise import Exercise
from tests import notebook_scripts

STUDENT = notebook_scripts.load("student")
BUILD = notebook_scripts.load("build")
LESSONS = [name for name in BUILD.all_names() if name != "app"]
RUN = ["02_garbage_play", "06_shithead_play"]


def key_and_copy(name: str) -> tuple[Any, Any]:
    key = BUILD.notebook_from_source(name, BUILD.source_path(name).read_text())
    return key, STUDENT.student_copy(key, name)


@pytest.mark.parametrize("name", LESSONS)
def test_the_copy_holds_no_solution_no_hidden_test_and_no_formula_in_a_check_cell(name: str) -> None:
    key, copy = key_and_copy(name)
    code = [c for c in copy.cells if c.cell_type == "code"]
    assert sum(len(c.get("outputs", [])) for c in code) == 0
    assert STUDENT.leaked_solution_lines(key, copy) == set()
    hidden = STUDENT.hidden_test_lines(key)
    assert hidden and not hidden & {line.strip() for c in code for line in c.source.split("\n")}
    checks = [c for c in code if STUDENT.CHECK_TAG in c.metadata.get("tags", [])]
    tests = [c for c in key.cells if STUDENT.TESTS_TAG in c.metadata.get("tags", [])]
    assert len(checks) == len(tests) >= 2                      # one check and one graded test per exercise
    assert {c.id: STUDENT.formula_in_check(c.source) for c in checks if STUDENT.formula_in_check(c.source)} == {}
    assert all(f'lesson("{name[:2]}").exercise(' in c.source for c in checks)


@pytest.mark.parametrize(("source", "found"), [
    ('exercise_1 = Exercise("E1.", "q?", truth=lambda: 1 - 0.05 / len(rates))\ndisplay(exercise_1)',
     ["a Lambda", "an Exercise made in the notebook", "an exercise not made by the lesson's key", "arithmetic"]),
    ("def at_least_one_miss(k, c):\n    return 1 - c ** k\n", ["a FunctionDef", "arithmetic"]),
    ('exercise_2 = lesson("16").exercise(2, ratio=var_independent / var_paired)',
     ["an exercise not made by the lesson's key", "arithmetic"]),
    ("exercise_3 = make_exercise(3)", ["an exercise not made by the lesson's key"]),
])
def test_the_formula_finder_finds_the_formulas_the_old_check_cells_held(source: str, found: list[str]) -> None:
    kinds = [entry.split(": ", 1)[1] for entry in STUDENT.formula_in_check(source)]
    assert sorted(set(kinds)) == sorted(found)
    assert STUDENT.formula_in_check('first_20 = common[m:m + 20]\nexercise_1 = lesson("16").exercise(1, '
                                    'worlds=first_20)\ndisplay(exercise_1)') == []


def sweep(namespace: dict[str, Any]) -> dict[str, Any]:
    """Run the search of ``student.SWEEP`` on the exercises in ``namespace``, in this process."""
    import contextlib
    import io
    import json

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(STUDENT.SWEEP, namespace)  # noqa: S102 - the audit's own code, run as the kernel runs it
    result: dict[str, Any] = json.loads(printed.getvalue().split("REACHABLE ", 1)[1])
    return result


def test_the_search_finds_the_answer_by_checks_only_and_catches_an_answer_shown_elsewhere() -> None:
    honest = Exercise("E.", "The chance?", truth=lambda: Fraction(11, 13))
    count = Exercise("E.", "How many games?", truth=lambda: 22473, probability=False, tolerance=20)
    shown = Exercise("E.", "The chance (it is 11/13)?", truth=lambda: Fraction(11, 13))
    hinted = Exercise("E.", "The chance?", truth=lambda: 0.3, hint="about 0.300")
    report = sweep({"exercise_1": honest, "exercise_2": count, "exercise_3": shown, "exercise_4": hinted})
    assert report["exercise_1"]["found"] and report["exercise_1"]["leaks"] == []
    assert report["exercise_2"]["found"] and report["exercise_2"]["leaks"] == []
    assert "attribute question" in report["exercise_3"]["leaks"] and "repr" in report["exercise_3"]["leaks"]
    assert "attribute hint" in report["exercise_4"]["leaks"] and "verdicts" in report["exercise_4"]["leaks"]


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", RUN)
def test_no_answer_is_reachable_in_a_running_copy(name: str) -> None:
    found = STUDENT.reachable_answers(name)
    assert found["exercises"] and all(e["found"] for e in found["exercises"].values()), found["exercises"]
    assert found["reachable"] == 0, found


def test_the_search_does_not_count_the_typed_answer_quoted_back() -> None:
    """A verdict quotes the answer typed; a typed 0.0050 (shown as 1/200 ≈ 0.0050) contains the truth 0.0048's
    three-decimal text 0.005, but what the verdict says besides the quotation does not."""
    small = Exercise("E.", "The standard error?", truth=lambda: Fraction(48, 10000), tolerance=0.0001, close=0.2)
    assert "0.005" in small.check(Fraction(1, 200)).message
    report = sweep({"exercise_1": small})
    assert report["exercise_1"]["found"] and report["exercise_1"]["leaks"] == []
