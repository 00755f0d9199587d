"""The committed notebooks: built from their sources, executed, clean of widget state, and shaped as lessons.

nbval (``make test``) re-runs every notebook and compares its printed outputs, which catches stale
outputs; this file checks what nbval cannot: that each notebook was built from its current source in
``notebooks/src/``, carries outputs but no widget state (megabytes of plotly.js), opens with its Binder
link and learning goals, and ends with exercises whose answers sit in hidden solution cells.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests import notebook_scripts

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
APP = "app"
LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
UNSEEDED = [re.compile(p) for p in (r"default_rng\(\s*\)", r"np\.random\.seed", r"numpy\.random\.seed",
                                    r"^\s*import random\b", r"^\s*from random import", r"\bnp\.random\.(rand|randn|"
                                    r"randint|random|choice|shuffle|permutation)\(")]
EXERCISE = re.compile(r"^\*\*Exercise (\d+)\.\*\*", re.MULTILINE)
MAX_STUDENT_WORDS = 1000
# words of implementation talk that student text must not use (teacher's notes may)
IMPLEMENTATION_WORDS = re.compile(r"(?i:\b(kernel|resampler|chance law|numba|make_policy)\b|benchmarks/|"
                                  r"\bcardlab\.(sim|viz|engine|games|policies)\b|\.py\b)|\bcardlab\.Stepper\b|"
                                  r"\bStepper\(")


BUILD = notebook_scripts.load("build")
STUDENT = notebook_scripts.load("student")
ALL = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))


def read(name: str) -> Any:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)  # type: ignore[no-untyped-call]


def test_every_lesson_and_the_app_exist() -> None:
    """The notebooks are the app and the lessons, numbered 00, 01, ... without a gap or a repeat."""
    assert sorted([*LESSONS, APP]) == ALL
    assert [name[:2] for name in LESSONS] == [f"{n:02d}" for n in range(len(LESSONS))], LESSONS
    assert len(LESSONS) >= 12
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+", name) for name in LESSONS), LESSONS
    assert sorted(BUILD.all_names()) == ALL, "each notebook has exactly one source in notebooks/src/"


@pytest.mark.parametrize("name", ALL)
def test_notebook_is_valid_and_built_from_its_source(name: str) -> None:
    nbformat.validate(read(name))
    assert BUILD.stale_cells(name) == [], f"rebuild with: .venv/bin/python notebooks/build.py {name}"


@pytest.mark.parametrize("name", ALL)
def test_no_widget_state_is_committed(name: str) -> None:
    text = (NOTEBOOKS / f"{name}.ipynb").read_text()
    assert WIDGET_STATE not in text
    assert "widgets" not in read(name).metadata


@pytest.mark.parametrize("name", ALL)
def test_every_code_cell_was_executed_in_order(name: str) -> None:
    code = [c for c in read(name).cells if c.cell_type == "code"]
    assert code, f"{name} has no code"
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{name} was not run top to bottom in one kernel: {counts}"
    assert sum(len(c.outputs) for c in code) > 0, f"{name} is committed without outputs"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{name} has error outputs: {[(o.ename, o.evalue) for o in errors]}"


@pytest.mark.parametrize("name", ALL)
def test_binder_link_opens_the_notebook_itself(name: str) -> None:
    first = read(name).cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    target = f"voila/render/notebooks/{name}.ipynb" if name == APP else f"lab/tree/notebooks/{name}.ipynb"
    assert "mybinder.org/v2/gh/" in first.source and f"?urlpath={target})" in first.source


@pytest.mark.parametrize("name", LESSONS)
def test_learning_goals_come_first(name: str) -> None:
    first = read(name).cells[0]
    assert "**Learning goals**" in first.source, f"{name}'s first cell does not state its learning goals"
    goals = [ln for ln in first.source.split("**Learning goals**", 1)[1].splitlines() if ln.startswith("- ")]
    assert len(goals) >= 2


@pytest.mark.parametrize("name", LESSONS)
def test_ends_with_exercises_each_with_a_hidden_computed_solution(name: str) -> None:
    cells = read(name).cells
    headings = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## Exercises")]
    assert len(headings) == 1, f"{name} needs one '## Exercises' section"
    tail = cells[headings[0] + 1:]
    assert not any(c.cell_type == "markdown" and c.source.startswith("## ") for c in tail), "exercises come last"
    exercises = [i for i, c in enumerate(tail) if c.cell_type == "markdown" and EXERCISE.match(c.source)]
    numbers = [int(EXERCISE.match(tail[i].source).group(1)) for i in exercises]  # type: ignore[union-attr]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 2, f"{name}: exercises {numbers}"
    for k, start in enumerate(exercises):
        stop = exercises[k + 1] if k + 1 < len(exercises) else len(tail)
        solutions = [c for c in tail[start + 1:stop] if "solution" in c.metadata.get("tags", [])]
        assert solutions, f"{name}: exercise {numbers[k]} has no solution cell"
        for cell in solutions:
            assert cell.cell_type == "code"
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, "solution source must be hidden"
            printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert re.search(r"\d", printed), f"{name}: exercise {numbers[k]}'s solution prints no computed answer"


@pytest.mark.parametrize("name", ALL)
def test_randomness_is_seeded(name: str) -> None:
    code = "\n".join(c.source for c in read(name).cells if c.cell_type == "code")
    for pattern in UNSEEDED:
        assert not pattern.search(code), f"{name} uses unseeded or global randomness: {pattern.pattern}"
    assert "seed" in code or "default_rng(" in code


@pytest.mark.parametrize("name", ALL)
def test_no_trailing_semicolon_hides_a_result(name: str) -> None:
    """nbval ignores a cell whose last line ends in ';'; write ``_ = f()`` so the output is compared or absent."""
    for cell in read(name).cells:
        if cell.cell_type == "code" and cell.source.strip():
            assert not cell.source.rstrip().endswith(";"), f"{name}: cell {cell.get('id')} ends with ';'"


def test_app_shows_the_stepper_only() -> None:
    code = [c for c in read(APP).cells if c.cell_type == "code"]
    assert len(code) == 1 and "cardlab.Stepper(" in code[0].source
    shown = [o for o in code[0].outputs if o.output_type in ("execute_result", "display_data")]
    assert len(shown) == 1 and shown[0].data["text/plain"].startswith("cardlab.Stepper(")
    assert "application/vnd.jupyter.widget-view+json" in shown[0].data


@pytest.mark.parametrize("name", LESSONS)
def test_solutions_are_marked_as_nbgrader_marks_them(name: str) -> None:
    cells = read(name).cells
    solutions = [c for c in cells if "solution" in c.metadata.get("tags", [])]
    assert solutions
    for cell in solutions:
        assert cell.metadata["nbgrader"] == STUDENT.nbgrader_metadata(cell.id, solution=True, locked=False)
        lines = cell.source.split("\n")
        assert lines[0] == STUDENT.BEGIN_SOLUTION and lines[-1] == STUDENT.END_SOLUTION
    graded = [c.metadata["nbgrader"]["grade_id"] for c in cells if "nbgrader" in c.metadata]
    assert len(graded) == len(set(graded)), f"{name}: nbgrader's grade ids must be unique"
    assert all(STUDENT.is_solution(c) == (c in solutions) for c in cells)


@pytest.mark.parametrize("name", ALL)
def test_the_student_copy_has_no_outputs_and_no_solution_code(name: str) -> None:
    key = read(name)
    copy = STUDENT.student_copy(key, name)
    code = [c for c in copy.cells if c.cell_type == "code"]
    assert sum(len(c.outputs) for c in code) == 0
    assert all(c.execution_count is None for c in code)
    assert STUDENT.leaked_solution_lines(key, copy) == set()
    solutions = [c for c in key.cells if STUDENT.is_solution(c)]
    assert sum(c.source == STUDENT.STUB for c in code) == len(solutions)
    if solutions:
        assert STUDENT.solution_lines(key), f"{name}: the leak check would see nothing"
    nbformat.validate(copy)


@pytest.mark.parametrize("name", LESSONS)
def test_student_text_fits_a_lesson(name: str) -> None:
    """At most 1,000 words of student-visible text (the counter of ``notebooks/student.py``), with no
    implementation talk in it: that goes to teacher's notes and docs/teaching.md."""
    copy = STUDENT.student_copy(read(name), name)
    assert STUDENT.student_words(copy) <= MAX_STUDENT_WORDS
    for cell in copy.cells:
        if cell.cell_type == "markdown":
            found = IMPLEMENTATION_WORDS.search(cell.source)
            assert found is None, f"{name}: student text says {found.group(0)!r}: {cell.source[:80]!r}"


ONE_IDEA = re.compile(r"\*\*the (one )?idea:\*\*", re.IGNORECASE)


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_states_its_one_idea_at_the_top(name: str) -> None:
    """The lesson's first cell (its title and goals) names one core idea ("**the idea:** ..."), and no other
    student-visible cell names another."""
    markdown = [c.source for c in STUDENT.student_copy(read(name), name).cells if c.cell_type == "markdown"]
    assert len(ONE_IDEA.findall(markdown[0])) == 1, f"{name}: the first cell states no idea, or more than one"
    assert not any(ONE_IDEA.search(text) for text in markdown[1:]), name


def exercise_sections(cells: Any) -> list[list[Any]]:
    """The cells of each exercise: from its "**Exercise N.**" cell up to the next one (or the end)."""
    starts = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and EXERCISE.match(c.source)]
    return [cells[a:b] for a, b in zip(starts, [*starts[1:], len(cells)], strict=True)]


@pytest.mark.parametrize("name", LESSONS)
def test_every_exercise_checks_itself(name: str) -> None:
    """Each exercise has a check cell (hidden, locked for nbgrader) that asks the lesson's answer key for its
    exercise (``lesson("NN").exercise(N, ...)``, no formula) and shows it, an answer cell that checks the student's
    answer, a solution whose check says "Right!", and a graded test cell (one point) whose hidden test checks
    ``answer_N``."""
    for section in exercise_sections(read(name).cells):
        checks = [c for c in section if "check" in c.metadata.get("tags", [])]
        assert len(checks) == 1 and f'lesson("{name[:2]}").exercise(' in checks[0].source, \
            f"{name}: {section[0].source[:40]}"
        assert STUDENT.formula_in_check(checks[0].source) == []
        tests = [c for c in section if STUDENT.TESTS_TAG in c.metadata.get("tags", [])]
        assert len(tests) == 1 and tests[0].metadata["nbgrader"]["grade"] is True
        assert tests[0].metadata["nbgrader"]["points"] == 1 and STUDENT.BEGIN_HIDDEN_TESTS in tests[0].source
        assert checks[0].metadata["nbgrader"]["locked"] is True
        assert checks[0].metadata.get("jupyter", {}).get("source_hidden") is True
        shown = [o for o in checks[0].outputs if o.output_type == "display_data"]
        assert shown and "run the cells" in shown[0].data["text/html"], "no still picture for static pages"
        answers = [c for c in section if c.cell_type == "code" and re.search(r'^answer_\d+ = ""', c.source, re.M)]
        assert len(answers) == 1 and ".check(answer_" in answers[0].source
        assert "No answer yet" in answers[0].outputs[0].data["text/plain"]
        solution = [c for c in section if STUDENT.is_solution(c)]
        printed = "".join(o.get("text", "") for c in solution for o in c.outputs if o.output_type == "stream")
        assert "Right!" in printed, f"{name}: the solution does not show its answer passing the check"


PLAN = re.compile(r"\*\*Lesson plan \(50 minutes\)\.\*\*(.*?)(?:\n\s*\n|\Z)", re.S)
SECTION = re.compile(r"^## (\d+)\. ", re.MULTILINE)


def plan_minutes_and_sections(plan: str) -> tuple[int, set[int]]:
    """The minutes of a lesson plan's top-level items ("10 min: ...", not the parts in brackets) and the numbers
    of the sections it names ("section 3", "sections 4–5", "(section 2)")."""
    top = plan
    while re.search(r"\([^()]*\)", top):
        top = re.sub(r"\([^()]*\)", " ", top)
    minutes = sum(int(m) for m in re.findall(r"(\d+) min:", top))
    named: set[int] = set()
    for first, last in re.findall(r"(?i:sections?) (\d+)(?:[–-](\d+))?", plan):
        named |= set(range(int(first), int(last or first) + 1))
    return minutes, named


def test_the_plan_reader_reads_minutes_and_sections() -> None:
    assert plan_minutes_and_sections("5 min: predict. 10 min: sections 1–2 (3 min: a detail). 8 min: section 4.") \
        == (23, {1, 2, 4})


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_plan_fits_50_minutes_and_names_every_section(name: str) -> None:
    """The teacher's lesson plan: its minutes add up to at most 50, and it times every numbered section of the
    notebook (so the plan and the notebook cannot drift apart)."""
    key = read(name)
    teacher = "\n".join(c.source for c in key.cells
                        if c.cell_type == "markdown" and "teacher" in c.metadata.get("tags", []))
    found = PLAN.search(teacher)
    assert found, f"{name}: no '**Lesson plan (50 minutes).**' in a teacher's cell"
    minutes, named = plan_minutes_and_sections(found.group(1))
    assert 40 <= minutes <= 50, f"{name}: the plan's minutes add up to {minutes}"
    sections = {int(n) for c in key.cells if c.cell_type == "markdown" for n in SECTION.findall(c.source)}
    assert sections <= named, f"{name}: sections {sorted(sections - named)} are not in the plan"
