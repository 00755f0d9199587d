"""Build the teaching notebooks from their plain sources, execute them, and strip widget state.

    .venv/bin/python notebooks/build.py                 # every notebook
    .venv/bin/python notebooks/build.py 02_garbage_play # some of them
    .venv/bin/python notebooks/build.py --check         # fail if a notebook's cells differ from its source

Sources
-------
Each notebook ``notebooks/NAME.ipynb`` is written as ``notebooks/src/NAME.py``, a plain script split
into cells by marker lines:

* ``# %%`` starts a code cell;
* ``# %% [markdown]`` starts a markdown cell; its lines are comments (``# text``) with the ``# `` removed;
* ``# %% [solution]`` starts an exercise's solution: a code cell tagged ``solution`` whose source is
  hidden by default (cell metadata ``"jupyter": {"source_hidden": true}``), marked as nbgrader marks a
  solution (its code between ``### BEGIN SOLUTION`` and ``### END SOLUTION``, added here unless the source
  has them, and nbgrader's cell metadata); student copies replace it by an answer cell (``notebooks/student.py``);
* ``# %% [check]`` starts the code that makes an exercise's self-check (``cardlab.viz.exercise``): a code cell
  tagged ``check``, source hidden, locked in nbgrader's sense, kept in the student copy;
* ``# %% [tests]`` starts an exercise's graded test: nbgrader's autograder test cell (one point, locked, source
  hidden), whose checks sit between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``: nbgrader's release
  and the student copies keep the cell without them (a comment saying that the answer is graded there), and
  ``nbgrader autograde`` puts them back and runs them on the student's ``answer_N``;
* ``# %% [teacher]`` starts a teacher's note: a markdown cell tagged ``teacher``, in the key only (student copies
  leave it out, and it does not count towards the student's words).

The first markdown line (the title) is followed by the notebook's own Binder link, so each notebook
opens on Binder from its first cell (a text link with the badge beside its text, readable when the badge
cannot load). Cell ids are derived from the notebook name and position, so rebuilding a notebook changes only
what its source or its outputs changed.

Outputs
-------
The notebook is executed with the notebooks folder as working directory, then ``metadata.widgets``
(which holds the plotly.js bundle, megabytes per figure) and per-cell timing are removed. nbval
(``make test``) re-runs each committed notebook and compares its printed outputs with the saved ones,
so a notebook whose saved outputs are stale fails the suite; ``--check`` catches a stale *source*.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import student  # noqa: E402  (notebooks/student.py, beside this script)

SRC = HERE / "src"
BINDER = "https://mybinder.org/v2/gh/cardlab/cardlab/HEAD"
BADGE = "https://mybinder.org/badge_logo.svg"
BADGE_SPAN = ('<span style="display:inline-block;width:109px;height:20px;margin-left:6px;vertical-align:middle;'
              f'background-image:url({BADGE});background-repeat:no-repeat"></span>')
MARKER = "# %%"
SOLUTION_TAG = student.SOLUTION_TAG
KINDS = {"": "code", "[markdown]": "markdown", "[solution]": "solution", "[check]": "check", "[tests]": "tests",
         "[teacher]": "teacher"}
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def binder_url(name: str) -> str:
    """The notebook's Binder address: JupyterLab on the notebook, or the Voilà page for the app."""
    if name == "app":
        return f"{BINDER}?urlpath=voila/render/notebooks/{name}.ipynb"
    return f"{BINDER}?urlpath=lab/tree/notebooks/{name}.ipynb"


def binder_link(name: str) -> str:
    """A text link, "Open on Binder", followed (inside the link) by the Binder badge drawn as a CSS background.

    A background image that cannot load (offline, or a blocked host) draws nothing, so the link then reads
    "Open on Binder" without a broken-image icon; an ``<img>`` cannot do that here, because JupyterLab gives
    every image without alt text the alt text "Image" and its sanitizer strips ``onerror`` handlers. The
    styles used are ones JupyterLab's sanitizer keeps; a Git host that strips them shows the text link.
    """
    return f"[Open on Binder {BADGE_SPAN}]({binder_url(name)})"


def _markdown_line(line: str) -> str:
    if line.startswith("# "):
        return line[2:]
    if line.rstrip() in ("#", ""):
        return ""
    raise ValueError(f"markdown line {line!r} must start with '# ' (or be a lone '#' or empty)")


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def parse_source(text: str) -> list[tuple[str, str]]:
    """The cells of a source script as ``(kind, source)``; kind is ``code``, ``markdown``, ``solution``,
    ``check``, ``tests`` or ``teacher``."""
    cells: list[tuple[str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(MARKER):
            kind = line[len(MARKER):].strip()
            if kind not in KINDS:
                raise ValueError(f"line {number}: unknown cell marker {line!r}; use "
                                 + ", ".join(repr(f"{MARKER} {k}".strip()) for k in KINDS))
            cells.append((KINDS[kind], []))
        elif cells:
            kind, lines = cells[-1]
            lines.append(_markdown_line(line) if kind in ("markdown", "teacher") else line)
        elif line.strip():
            raise ValueError(f"line {number}: text before the first cell marker: {line!r}")
    return [(kind, "\n".join(_trim(lines))) for kind, lines in cells]


def notebook_from_source(name: str, text: str) -> nbformat.NotebookNode:
    """An unexecuted notebook from a source script, with the Binder link under the title."""
    nb: nbformat.NotebookNode = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata.update({"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}})
    for index, (kind, source) in enumerate(parse_source(text)):
        cell_id = f"{name[:40]}-{index:03d}"
        if kind in ("markdown", "teacher"):
            if index == 0:
                title, _, rest = source.partition("\n")
                source = f"{title}\n\n{binder_link(name)}\n{rest}".rstrip()
            cell = nbformat.v4.new_markdown_cell(source, id=cell_id)  # type: ignore[no-untyped-call]
            if kind == "teacher":
                cell.metadata["tags"] = [student.TEACHER_TAG]
        elif kind == "solution":
            cell = nbformat.v4.new_code_cell(student.mark_solution(source), id=cell_id)  # type: ignore[no-untyped-call]
            cell.metadata["tags"] = [SOLUTION_TAG]
            cell.metadata["jupyter"] = {"source_hidden": True}
            cell.metadata["nbgrader"] = student.nbgrader_metadata(cell_id, solution=True, locked=False)
        elif kind == "tests":
            if student.BEGIN_HIDDEN_TESTS not in source:
                raise ValueError(f"{name}: a tests cell holds its checks between {student.BEGIN_HIDDEN_TESTS!r} and "
                                 f"{student.END_HIDDEN_TESTS!r}")
            cell = nbformat.v4.new_code_cell(source, id=cell_id)  # type: ignore[no-untyped-call]
            cell.metadata["tags"] = [student.TESTS_TAG]
            cell.metadata["jupyter"] = {"source_hidden": True}
            cell.metadata["nbgrader"] = student.nbgrader_metadata(cell_id, solution=False, locked=True, points=1)
        else:
            cell = nbformat.v4.new_code_cell(source, id=cell_id)  # type: ignore[no-untyped-call]
            if kind == "check":
                cell.metadata["tags"] = [student.CHECK_TAG]
                cell.metadata["jupyter"] = {"source_hidden": True}
                cell.metadata["nbgrader"] = student.nbgrader_metadata(cell_id, solution=False, locked=True)
        nb.cells.append(cell)
    return nb


def source_path(name: str) -> Path:
    return SRC / f"{name}.py"


def notebook_path(name: str) -> Path:
    return HERE / f"{name}.ipynb"


def expected_cells(name: str) -> list[dict[str, Any]]:
    """What each cell of ``NAME.ipynb`` must hold (type, source, metadata), as built from its source."""
    nb = notebook_from_source(name, source_path(name).read_text())
    return [_cell_key(c) for c in nb.cells]


def _cell_key(cell: Any) -> dict[str, Any]:
    meta = {k: cell.metadata[k] for k in ("tags", "jupyter", "nbgrader") if k in cell.metadata}
    return {"id": cell.get("id"), "cell_type": cell.cell_type, "source": cell.source, "metadata": meta}


def stale_cells(name: str) -> list[str]:
    """How the committed notebook's cells differ from its source (empty when they agree)."""
    want = expected_cells(name)
    committed = nbformat.read(notebook_path(name), as_version=4)  # type: ignore[no-untyped-call]
    have = [_cell_key(c) for c in committed.cells]
    problems = [f"{name}: {len(have)} cells, the source has {len(want)}"] if len(have) != len(want) else []
    for index, (w, h) in enumerate(zip(want, have, strict=False)):
        if w != h:
            problems.append(f"{name}: cell {index} differs from notebooks/src/{name}.py")
    return problems


def strip_widget_state(nb: nbformat.NotebookNode) -> None:
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)


def build(name: str) -> None:
    nb = notebook_from_source(name, source_path(name).read_text())
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    strip_widget_state(nb)
    nbformat.validate(nb)
    nbformat.write(nb, notebook_path(name))  # type: ignore[no-untyped-call]
    print(f"built {name}.ipynb")


def all_names() -> list[str]:
    return sorted(p.stem for p in SRC.glob("*.py"))


def main(args: list[str]) -> int:
    if args[:1] == ["--check"]:
        problems = [p for n in (args[1:] or all_names()) for p in stale_cells(n.removesuffix(".ipynb"))]
        print("\n".join(problems) or "every notebook matches its source")
        return 1 if problems else 0
    for name in [a.removesuffix(".ipynb") for a in args] or all_names():
        build(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
