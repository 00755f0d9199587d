"""Student copies of the lessons, nbgrader's solution conventions, and the count of student-visible words.

    .venv/bin/python notebooks/student.py DIR [NAME ...]   # write clean copies of the lessons into DIR
    .venv/bin/python notebooks/student.py --words [NAME ...]  # words of student-visible text per lesson
    .venv/bin/python notebooks/student.py --audit DIR        # outputs and solution lines in DIR's copies
    .venv/bin/python notebooks/student.py --grade [NAME ...] # nbgrader's marks for the key's answers and for blanks
    .venv/bin/python notebooks/student.py --reachable [NAME ...]  # answers a student copy lets a student reach

One source, two versions
------------------------
``notebooks/NAME.ipynb`` is the teacher's key: executed, with every output and every worked solution (it is what
nbval tests). A student gets a *clean copy*: no outputs, every solution replaced by an empty answer cell, and
every teacher's note left out. ``make lab`` writes these copies into ``workspace/``; Binder's ``postBuild`` does
the same. A teacher can still open the key in ``notebooks/``.

Solutions follow nbgrader's conventions, so a teacher who runs a course with nbgrader can generate and grade
assignments from the same notebooks: a solution cell carries nbgrader's cell metadata (``"solution": true`` and a
``grade_id``) and its code sits between the lines ``### BEGIN SOLUTION`` and ``### END SOLUTION``. nbgrader's
``generate_assignment`` and :func:`student_copy` both replace that region with :data:`STUB` (nbgrader's own
default stub raises ``NotImplementedError``, which would stop a notebook run with blank answers at the first
exercise; ``notebooks/nbgrader_config.py`` sets the same stub as here). A cell that checks an exercise's answer is
locked (read-only in nbgrader's student version) and kept in both versions; it holds no formula, only a call to the
lesson's answer key (``exercise_2 = lesson("02").exercise(2)``, :mod:`cardlab.course`).

Graded work: after each solution an autograder test cell (nbgrader's ``grade: true``, one point) holds the check of
the student's ``answer_N`` between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``. nbgrader's release and
:func:`student_copy` leave that region out (:func:`clear_hidden_tests`); ``nbgrader autograde`` puts it back from the
source and runs it, so a right answer scores the point and a blank one does not.

Student-visible words
---------------------
:func:`student_words` counts the words of the markdown a student sees in the clean copy, as the course's
figure defines them: a word is a run of ``[A-Za-z0-9']``, after link targets, HTML tags and LaTeX commands
(none of which a reader sees) are removed, so ``1,483`` is two words, ``seven_lower`` two and ``3/4`` two.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

HERE = Path(__file__).resolve().parent
BEGIN_SOLUTION = "### BEGIN SOLUTION"
END_SOLUTION = "### END SOLUTION"
BEGIN_HIDDEN_TESTS = "### BEGIN HIDDEN TESTS"
END_HIDDEN_TESTS = "### END HIDDEN TESTS"
STUB = "# YOUR CODE HERE: write your own code, then run the cell"
SOLUTION_TAG = "solution"
CHECK_TAG = "check"
TESTS_TAG = "tests"
TEACHER_TAG = "teacher"
ANSWER_TAG = "answer"
NBGRADER_SCHEMA = 3
KEY_FOLDER = "notebooks"
STUDENT_FOLDER = "workspace"
GRADE_TIMEOUT_S = 900
"""The longest a lesson's cell may run when a copy is executed here (graded, or searched for answers)."""


def nbgrader_metadata(grade_id: str, *, solution: bool, locked: bool, points: int | None = None) -> dict[str, Any]:
    """nbgrader's cell metadata (schema 3): a solution cell, a locked (read-only) cell, or with ``points`` an
    autograder test cell (graded, locked) worth that many points."""
    meta: dict[str, Any] = {"grade": points is not None, "grade_id": grade_id, "locked": locked,
                            "schema_version": NBGRADER_SCHEMA, "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


def mark_solution(source: str) -> str:
    """A solution's code between nbgrader's markers (left as it is if it already has them)."""
    if BEGIN_SOLUTION in source:
        return source
    return f"{BEGIN_SOLUTION}\n{source}\n{END_SOLUTION}"


def is_solution(cell: Any) -> bool:
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution")) or \
        SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def clear_solution(source: str) -> str:
    """``source`` with each region between the solution markers replaced by :data:`STUB` (indented as the
    marker); a cell without markers is replaced whole, as nbgrader does with a solution cell."""
    lines = source.split("\n")
    if not any(BEGIN_SOLUTION in line for line in lines):
        if any(END_SOLUTION in line for line in lines):
            raise ValueError(f"{END_SOLUTION!r} without {BEGIN_SOLUTION!r} in a solution cell")
        return STUB
    kept: list[str] = []
    inside = False
    for line in lines:
        if BEGIN_SOLUTION in line:
            if inside:
                raise ValueError(f"nested {BEGIN_SOLUTION!r} in a solution cell")
            inside = True
            indent = line[:len(line) - len(line.lstrip())]
            kept.extend(indent + stub for stub in STUB.split("\n"))
        elif END_SOLUTION in line:
            if not inside:
                raise ValueError(f"{END_SOLUTION!r} without {BEGIN_SOLUTION!r} in a solution cell")
            inside = False
        elif not inside:
            kept.append(line)
    if inside:
        raise ValueError(f"{BEGIN_SOLUTION!r} without {END_SOLUTION!r} in a solution cell")
    return "\n".join(kept)


def clear_hidden_tests(source: str) -> str:
    """``source`` without its regions between the hidden-test markers (the markers too), as nbgrader's release
    leaves an autograder test cell."""
    kept: list[str] = []
    inside = False
    for line in source.split("\n"):
        if BEGIN_HIDDEN_TESTS in line:
            if inside:
                raise ValueError(f"nested {BEGIN_HIDDEN_TESTS!r} in a tests cell")
            inside = True
        elif END_HIDDEN_TESTS in line:
            if not inside:
                raise ValueError(f"{END_HIDDEN_TESTS!r} without {BEGIN_HIDDEN_TESTS!r} in a tests cell")
            inside = False
        elif not inside:
            kept.append(line)
    if inside:
        raise ValueError(f"{BEGIN_HIDDEN_TESTS!r} without {END_HIDDEN_TESTS!r} in a tests cell")
    return "\n".join(kept)


def solution_lines(key: nbformat.NotebookNode) -> set[str]:
    """The code lines of the key's solutions that appear in no other code cell of the key (comments, blank lines
    and the markers left out): a copy that holds one of them holds solution code."""
    inside: set[str] = set()
    elsewhere: set[str] = set()
    for cell in key.cells:
        if cell.cell_type == "code":
            lines = {line.strip() for line in cell.source.split("\n")}
            if is_solution(cell):
                inside |= lines
            else:
                elsewhere |= lines
    return {line for line in inside - elsewhere - {BEGIN_SOLUTION, END_SOLUTION} if line and not line.startswith("#")}


def leaked_solution_lines(key: nbformat.NotebookNode, copy_: nbformat.NotebookNode) -> set[str]:
    """The key's solution lines (:func:`solution_lines`) found in the code cells of ``copy_``."""
    code = {line.strip() for c in copy_.cells if c.cell_type == "code" for line in c.source.split("\n")}
    return solution_lines(key) & code


def student_copy(key: nbformat.NotebookNode, name: str | None = None) -> nbformat.NotebookNode:
    """The clean copy of a teacher's key: no outputs, solutions replaced by answer cells, teacher's notes left out.

    With ``name``, the Binder link under the title opens the student copy (``workspace/NAME.ipynb``, which
    Binder's ``postBuild`` writes) instead of the key.
    """
    nb = copy.deepcopy(key)
    nb.metadata.pop("widgets", None)
    cells = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if TEACHER_TAG in tags:
            continue
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
            if is_solution(cell):
                cell.source = clear_solution(cell.source)
                cell.metadata = {"tags": [ANSWER_TAG]}
            elif BEGIN_HIDDEN_TESTS in cell.source:
                cell.source = clear_hidden_tests(cell.source)
        cells.append(cell)
    nb.cells = cells
    if name is not None and cells and cells[0].cell_type == "markdown":
        cells[0].source = cells[0].source.replace(f"lab/tree/{KEY_FOLDER}/{name}.ipynb",
                                                  f"lab/tree/{STUDENT_FOLDER}/{name}.ipynb")
    return nb


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


def write_student_copy(key: Path, target: Path, exclusive: bool = False) -> bool:
    """Write the clean copy of the key ``key`` to ``target``; with ``exclusive``, never over an existing file
    (returns False then)."""
    text = nbformat.writes(student_copy(read(key), key.stem))  # type: ignore[no-untyped-call]
    try:
        with target.open("x" if exclusive else "w", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        return False
    return True


# ---------------------------------------------------------------------------------------------- word count
_HTML_TAG = re.compile(r"<[^>]*>")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_WORD = re.compile(r"[A-Za-z0-9']+")


def markdown_words(text: str) -> int:
    """The number of words a reader sees in a markdown text (see the module's docstring)."""
    text = _LINK.sub(r"\1", text)
    text = _HTML_TAG.sub(" ", text)
    text = _LATEX_COMMAND.sub(" ", text)
    return len(_WORD.findall(text))


def student_words(key: nbformat.NotebookNode) -> int:
    """Words of student-visible markdown in the clean copy of ``key``."""
    return sum(markdown_words(c.source) for c in student_copy(key).cells if c.cell_type == "markdown")


def lesson_names() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.ipynb"))


def audit(folder: Path) -> list[str]:
    """One line per key: how many outputs and solution lines its copy in ``folder`` holds (both must be 0)."""
    lines = []
    for name in lesson_names():
        key, copy_ = read(HERE / f"{name}.ipynb"), read(folder / f"{name}.ipynb")
        outputs = sum(len(c.get("outputs", [])) for c in copy_.cells if c.cell_type == "code")
        leaked = leaked_solution_lines(key, copy_)
        lines.append(f"{name}: {outputs} outputs, {len(leaked)} of {len(solution_lines(key))} solution lines")
    return lines


# ---------------------------------------------------------------------------------------------- reachable answers
def hidden_test_lines(key: nbformat.NotebookNode) -> set[str]:
    """The code lines of the key's hidden tests (the markers left out)."""
    lines: set[str] = set()
    for cell in key.cells:
        if cell.cell_type == "code" and BEGIN_HIDDEN_TESTS in cell.source:
            kept = set(clear_hidden_tests(cell.source).split("\n"))
            lines |= {line.strip() for line in cell.source.split("\n") if line not in kept}
    return {line for line in lines - {BEGIN_HIDDEN_TESTS, END_HIDDEN_TESTS} if line}


def _key_call(node: ast.AST) -> bool:
    """``lesson("NN").exercise(N, name=value, ...)``, each value a name, an attribute, a subscript or ``len(x)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "exercise"
            and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
            and node.func.value.func.id == "lesson"):
        return False
    plain = (ast.Name, ast.Attribute, ast.Subscript)
    return all(isinstance(k.value, plain) or (isinstance(k.value, ast.Call) and isinstance(k.value.func, ast.Name)
                                              and k.value.func.id == "len" and len(k.value.args) == 1
                                              and isinstance(k.value.args[0], plain))
               for k in node.keywords) and all(isinstance(a, ast.Constant) for a in node.args)


def formula_in_check(source: str) -> list[str]:
    """What in a check cell's code could compute or reveal an answer: a function, a lambda, a class, an
    ``Exercise(...)`` made in the notebook (its truth function would be in the cell), or arithmetic outside an
    index. A check cell holds only ``exercise_N = lesson("NN").exercise(N, ...)`` (with the lesson's objects as its
    keywords), ``display(exercise_N)``, and lines that show the question's data."""
    found = []
    tree = ast.parse(source)
    slices = {id(n) for s in ast.walk(tree) if isinstance(s, ast.Subscript) for n in ast.walk(s.slice)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            found.append(f"line {node.lineno}: a {type(node).__name__}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Exercise":
            found.append(f"line {node.lineno}: an Exercise made in the notebook")
        elif isinstance(node, (ast.BinOp, ast.UnaryOp)) and id(node) not in slices:
            found.append(f"line {node.lineno}: arithmetic")
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and re.fullmatch(r"exercise_\d+", t.id)
                                                  for t in node.targets) and not _key_call(node.value):
            found.append(f"line {node.lineno}: an exercise not made by the lesson's key")
    return found


SWEEP = r'''
import json as _json
from fractions import Fraction as _Fraction

from cardlab.viz.exercise import Exercise as _Exercise


def _texts(value):
    out = []
    for show in (repr, str):
        try:
            out.append(show(value))
        except Exception:
            pass
    return out


def _answer_texts(message):
    """The ways the truth a right verdict shows could be written: its fraction, its decimals, its percentage."""
    shown = message.split("is ", 1)[1].rstrip(".)")
    exact = shown.split(" ≈ ")[0]
    value = float(_Fraction(exact))
    texts = {f"{value:.3f}", f"{value:.4f}", f"{value:.1%}"}
    if "/" in exact:
        texts.add(exact)
    if value == int(value) and abs(value) >= 100:
        texts |= {f"{int(value)}", f"{int(value):,}"}
    return value, sorted(texts)


def _said(message):
    """What a verdict says besides quoting the answer that was typed (which may round to the truth's text)."""
    for quoted in (" is not the answer", " is not a probability"):
        message = message.split(quoted, 1)[-1]
    return message


def _search(exercise):
    """The truth found as a student could find it, by typing answers: a grid whose neighbours are (1 + close)
    apart finds a "close" answer, then steps of the tolerance across the close band find the right one. Every
    other verdict seen on the way is kept (none may show the answer)."""
    seen = []
    def check(x):
        verdict = exercise.check(x)
        seen.append(verdict)
        return verdict
    ratio = 1 + max(exercise.close, 0.001)
    x, top = _Fraction(1, 10 ** 5), _Fraction(1) if exercise.probability else _Fraction(10 ** 7)
    grid = [_Fraction(0)]
    while x <= top:
        grid.append(x)
        x *= _Fraction(ratio)
    grid.append(top)
    for point in grid:
        verdict = check(point)
        if verdict.is_right:
            return seen.pop(), seen
        if verdict.status == "close":
            low, high = point / _Fraction(ratio), point / (2 - _Fraction(ratio))
            step, y = _Fraction(exercise.tolerance), low
            while y <= high:
                if check(y).is_right:
                    return seen.pop(), seen
                y += step
    return None, seen


_report = {}
for _name in sorted(n for n in dir() if n.startswith("exercise_")):
    _exercise = globals()[_name]
    if not isinstance(_exercise, _Exercise):
        continue
    _right, _seen = _search(_exercise)
    if _right is None:
        _report[_name] = {"found": False, "checks": len(_seen), "leaks": []}
        continue
    _truth, _answers = _answer_texts(_right.message)
    _places = {"repr": _texts(_exercise), "page": list(_exercise._repr_mimebundle_().values()),
               "widget": [child.value for child in _exercise.widget.children if hasattr(child, "value")],
               "verdicts": [_said(v.message) for v in _seen + [_exercise.check(""), _exercise.check("x")]]}
    for _attribute in dir(_exercise):
        _value = getattr(_exercise, _attribute)
        _places[f"attribute {_attribute}"] = _texts(_value)
        if (isinstance(_value, (int, float, _Fraction)) and not isinstance(_value, bool)
                and abs(float(_value) - _truth) <= max(_exercise.tolerance, 1e-9)):
            _places[f"attribute {_attribute}"].append(_answers[0])
    _leaks = sorted({place for place, texts in _places.items() for text in texts for answer in _answers
                     if answer in str(text)})
    _report[_name] = {"found": True, "checks": len(_seen) + 1, "leaks": _leaks}
print("REACHABLE " + _json.dumps(_report))
'''


def reachable_answers(name: str, timeout: int = GRADE_TIMEOUT_S) -> dict[str, Any]:
    """How a student copy of lesson ``name`` (built from its source) could give an answer away.

    Read from the copy: outputs, solution lines, hidden-test lines, and check cells holding a formula
    (:func:`formula_in_check`). Then the copy runs top to bottom with blank answers, and for every exercise object
    in the kernel the truth is found as a student can only find it, by typing answers (:data:`SWEEP`): each
    attribute in ``dir(exercise)`` (private ones too), its reprs, its static page, its widget and every verdict
    seen on the way (the right one aside) is searched for the answer, written as a fraction, a decimal to 3 or 4
    places or a percentage. ``reachable`` is the number of places found (it must be 0); ``exercises`` has one
    entry per exercise (``found`` is False when no answer in the searched range was right, e.g. a policy
    exercise whose stub breaks the rule).
    """
    from nbclient import NotebookClient

    build = _build_script()
    key = build.notebook_from_source(name, build.source_path(name).read_text())
    copy_ = student_copy(key, name)
    code = [c for c in copy_.cells if c.cell_type == "code"]
    outputs = sum(len(c.get("outputs", [])) for c in code)
    leaked = leaked_solution_lines(key, copy_)
    hidden = hidden_test_lines(key) & {line.strip() for c in code for line in c.source.split("\n")}
    formulas = {c.id: formula_in_check(c.source) for c in code if CHECK_TAG in c.metadata.get("tags", [])}
    run = copy.deepcopy(copy_)
    run.cells.append(nbformat.v4.new_code_cell(SWEEP))  # type: ignore[no-untyped-call]
    NotebookClient(run, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    printed = "".join(o.get("text", "") for o in run.cells[-1].outputs if o.output_type == "stream")
    exercises = json.loads(printed.split("REACHABLE ", 1)[1])
    reachable = (outputs + len(leaked) + len(hidden) + sum(map(len, formulas.values()))
                 + sum(len(e["leaks"]) for e in exercises.values()))
    return {"outputs": outputs, "solution_lines": sorted(leaked), "hidden_tests": sorted(hidden),
            "check_cells": len(formulas), "formulas": {k: v for k, v in formulas.items() if v},
            "exercises": exercises, "reachable": reachable}


# ---------------------------------------------------------------------------------------------- grading
ASSIGNMENT = "lessons"
STUDENTS = ("right", "blank")


def _build_script() -> ModuleType:
    """``notebooks/build.py`` (which imports this script), loaded from beside this file."""
    spec = importlib.util.spec_from_file_location("cardlab_notebooks_build", HERE / "build.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {HERE / 'build.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MARKS = """
import json, sys
from nbgrader.api import Gradebook
with Gradebook(sys.argv[1]) as gradebook:
    marks = [[s, n, gradebook.find_submission_notebook(n, sys.argv[2], s).score,
              gradebook.find_submission_notebook(n, sys.argv[2], s).max_score] for s in sys.argv[3].split(",")
             for n in sys.argv[4].split(",")]
print(json.dumps(marks))
"""


def _run(command: list[str], course: Path, timeout: int) -> str:
    """Run ``command`` with this Python in the course folder; nbgrader's database looks for ``alembic`` on the
    PATH, so the folder of this Python's scripts comes first."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = dict(os.environ, PATH=path, JUPYTER_CONFIG_DIR=str(course / ".jupyter"),
               JUPYTER_DATA_DIR=str(course / ".data"))
    done = subprocess.run([sys.executable, *command], cwd=course, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:3])} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done.stdout


def _nbgrader(command: list[str], course: Path, timeout: int) -> None:
    _run(["-m", "nbgrader", *command], course, timeout)


def grade_with_nbgrader(names: list[str], folder: Path,
                        timeout: int = GRADE_TIMEOUT_S) -> dict[tuple[str, str], tuple[float, float]]:
    """nbgrader's marks ``(score, max_score)`` per ``(student, lesson)`` for two submissions of the lessons
    ``names``: ``right`` (each answer cell filled with the key's solution, which sets ``answer_N``) and ``blank``
    (the release as it is).

    A course folder is made in ``folder`` with the lessons built from their sources, ``nbgrader_config.py`` and a
    cell timeout of ``timeout`` seconds; ``nbgrader generate_assignment`` releases them (and records the graded
    cells and their hidden tests in ``gradebook.db``), ``nbgrader autograde`` grades both submissions.
    """
    build = _build_script()
    course = folder / "course"
    source = course / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    keys = {name: build.notebook_from_source(name, build.source_path(name).read_text()) for name in names}
    for name, key in keys.items():
        nbformat.write(key, source / f"{name}.ipynb")  # type: ignore[no-untyped-call]
    config = (HERE / "nbgrader_config.py").read_text()
    (course / "nbgrader_config.py").write_text(f"{config}\nc.Execute.timeout = {timeout}\n")
    _nbgrader(["generate_assignment", ASSIGNMENT, "--force"], course, timeout)
    release = course / "release" / ASSIGNMENT
    for student in STUDENTS:
        submitted = course / "submitted" / student / ASSIGNMENT
        submitted.mkdir(parents=True)
        for name, key in keys.items():
            nb = read(release / f"{name}.ipynb")
            if student == "right":
                solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in key.cells if is_solution(c)}
                for cell in nb.cells:
                    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
                    if cell.metadata.get("nbgrader", {}).get("solution"):
                        cell.source = solutions[grade_id]
            nbformat.write(nb, submitted / f"{name}.ipynb")  # type: ignore[no-untyped-call]
    _nbgrader(["autograde", ASSIGNMENT, "--force"], course, timeout * 4 * len(names))
    found = json.loads(_run(["-c", _MARKS, f"sqlite:///{course / 'gradebook.db'}", ASSIGNMENT, ",".join(STUDENTS),
                             ",".join(names)], course, timeout))
    return {(student, name): (float(score), float(most)) for student, name, score, most in found}


def main(args: list[str]) -> int:
    if args[:1] == ["--audit"] and len(args) == 2:
        print("\n".join(audit(Path(args[1]))))
        return 0
    if args[:1] == ["--grade"]:
        names = args[1:] or [n for n in lesson_names() if n != "app"]
        with tempfile.TemporaryDirectory() as folder:
            marks = grade_with_nbgrader(names, Path(folder))
        for name in names:
            (right, most), (blank, _) = marks[("right", name)], marks[("blank", name)]
            print(f"{name}: key's answers {right:g}/{most:g}, blank answers {blank:g}/{most:g}")
        return 0
    if args[:1] == ["--reachable"]:
        total = 0
        for name in args[1:] or [n for n in lesson_names() if n != "app"]:
            found = reachable_answers(name)
            total += found["reachable"]
            searched = sum(e["found"] for e in found["exercises"].values())
            print(f"{name}: {found['reachable']} answers reachable ({found['check_cells']} check cells, "
                  f"{searched} of {len(found['exercises'])} exercises' answers found by typing answers, "
                  f"{sum(e['checks'] for e in found['exercises'].values()):,} checks)")
            for where in (found["solution_lines"], found["hidden_tests"], found["formulas"],
                          {k: e["leaks"] for k, e in found["exercises"].items() if e["leaks"]}):
                if where:
                    print(f"  {where}")
        print(f"answers reachable in all: {total}")
        return 1 if total else 0
    if args[:1] == ["--words"]:
        for name in args[1:] or lesson_names():
            print(f"{name}: {student_words(read(HERE / f'{name}.ipynb')):,} words")
        return 0
    if not args or args[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    target = Path(args[0])
    target.mkdir(parents=True, exist_ok=True)
    for name in args[1:] or lesson_names():
        write_student_copy(HERE / f"{name}.ipynb", target / f"{name}.ipynb")
    print(f"wrote {len(args[1:] or lesson_names())} student copies into {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
