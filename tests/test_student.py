"""``notebooks/student.py``: the student copy of a made-up key, the solution markers, and the word counter.

The counter is tested on a small notebook whose words are counted here by hand; the lessons' own counts are
reported in docs/teaching.md ("Figures"), not asserted (the lessons are being shortened).
"""

from __future__ import annotations

from typing import Any

import nbformat
import pytest

from tests import notebook_scripts

STUDENT = notebook_scripts.load("student")
BUILD = notebook_scripts.load("build")

SOURCE = '''\
# %% [markdown]
# # A made-up lesson
#
# **Learning goals**: count *three* cards.

# %%
deck = list(range(52))
print(len(deck))

# %% [markdown]
# ## Exercises
#
# **Exercise 1.** How many cards are [left](https://example.org/x) after $n = 3$ draws? <b>Bold</b> text.

# %% [check]
print("the check stays")

# %% [solution]
left = 52 - 3
print(left)

# %% [teacher]
# A teacher's note: the answer is forty-nine.
'''


def made_up_key() -> Any:
    nb = BUILD.notebook_from_source("made_up", SOURCE)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="52\n")]  # type: ignore[no-untyped-call]
            cell.execution_count = 1
    return nb


def test_the_key_marks_its_solution_as_nbgrader_does() -> None:
    key = made_up_key()
    solution = key.cells[4]
    assert solution.source == f"{STUDENT.BEGIN_SOLUTION}\nleft = 52 - 3\nprint(left)\n{STUDENT.END_SOLUTION}"
    assert solution.metadata["nbgrader"] == {"grade": False, "grade_id": "made_up-004", "locked": False,
                                             "schema_version": 3, "solution": True, "task": False}
    check = key.cells[3]
    assert check.metadata["nbgrader"]["locked"] is True and check.metadata["nbgrader"]["solution"] is False
    assert key.cells[5].metadata["tags"] == ["teacher"]


def test_the_student_copy_has_no_output_no_solution_and_no_teachers_note() -> None:
    key = made_up_key()
    copy = STUDENT.student_copy(key, "made_up")
    code = [c for c in copy.cells if c.cell_type == "code"]
    assert sum(len(c.outputs) for c in code) == 0 and all(c.execution_count is None for c in code)
    assert [c.source for c in code] == ["deck = list(range(52))\nprint(len(deck))", 'print("the check stays")',
                                        STUDENT.STUB]
    assert code[2].metadata == {"tags": ["answer"]}
    assert not any("forty-nine" in c.source for c in copy.cells)
    assert STUDENT.solution_lines(key) == {"left = 52 - 3", "print(left)"}
    assert STUDENT.leaked_solution_lines(key, copy) == set()
    assert STUDENT.leaked_solution_lines(key, key) == {"left = 52 - 3", "print(left)"}
    assert "urlpath=lab/tree/workspace/made_up.ipynb" in copy.cells[0].source
    assert "urlpath=lab/tree/notebooks/made_up.ipynb" in key.cells[0].source      # the key itself is unchanged
    assert key.cells[1].outputs


def test_a_solution_region_inside_a_cell_keeps_the_code_around_it() -> None:
    source = f"x = 1\nif x:\n    {STUDENT.BEGIN_SOLUTION}\n    y = 2\n    {STUDENT.END_SOLUTION}\nprint(x)"
    assert STUDENT.clear_solution(source) == f"x = 1\nif x:\n    {STUDENT.STUB}\nprint(x)"
    assert STUDENT.mark_solution(source) == source
    for broken in (f"{STUDENT.BEGIN_SOLUTION}\nx", f"x\n{STUDENT.END_SOLUTION}",
                   f"{STUDENT.BEGIN_SOLUTION}\n{STUDENT.BEGIN_SOLUTION}\n{STUDENT.END_SOLUTION}"):
        with pytest.raises(ValueError, match="SOLUTION"):
            STUDENT.clear_solution(broken)


@pytest.mark.parametrize(("text", "words"), [
    ("# A made-up lesson", 4),
    ("**Exercise 1.** How many cards are [left](https://example.org/x) after $n = 3$ draws? <b>Bold</b> text.", 13),
    ("Each notebook carries 1,483 words; don't count `code_spans` twice.", 11),   # the figure's regex,
    (r"$\hat p \pm 1.96\sqrt{\hat p(1-\hat p)/n}$", 7),   # LaTeX commands are not words
    ("| a | b |\n|---|---|\n| 1 | 2 |", 4),
    ("- ", 0),
])
def test_markdown_words_counts_what_a_reader_sees(text: str, words: int) -> None:
    assert STUDENT.markdown_words(text) == words


def test_student_words_counts_the_student_copy_only() -> None:
    key = made_up_key()
    by_hand = 4 + 5 + 1 + 13    # title, goals, "Exercises", the exercise; the Binder link text adds its words
    link = STUDENT.markdown_words(BUILD.binder_link("made_up"))
    assert link == 3                                                        # "Open on Binder"
    assert STUDENT.student_words(key) == by_hand + link
    assert STUDENT.markdown_words(key.cells[5].source) > 0                  # the teacher's note has words ...
    assert sum(STUDENT.markdown_words(c.source) for c in key.cells if c.cell_type == "markdown") > by_hand + link


def test_the_audit_finds_outputs_and_solutions_in_the_keys_and_none_in_the_copies(tmp_path: Any) -> None:
    """``student.py --audit`` (the figure in docs/teaching.md): the keys themselves fail it, the copies pass."""
    names = STUDENT.lesson_names()
    for name in names:
        STUDENT.write_student_copy(STUDENT.HERE / f"{name}.ipynb", tmp_path / f"{name}.ipynb")
    copies = STUDENT.audit(tmp_path)
    assert len(copies) == len(names) and all(" 0 outputs, 0 of " in line for line in copies)
    keys = STUDENT.audit(STUDENT.HERE)
    lessons = [line for line in keys if not line.startswith("app:")]
    assert lessons and all(" 0 outputs" not in line and ", 0 of " not in line for line in lessons)
