"""Execute notebooks in place and strip widget state, so they are committed with fresh outputs.

    .venv/bin/python notebooks/build.py                 # every notebook
    .venv/bin/python notebooks/build.py 01_garbage      # some of them

nbval (``make test``) then re-runs each notebook and compares its printed outputs with the saved ones,
so a notebook whose saved outputs are stale fails the suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def strip_widget_state(nb: nbformat.NotebookNode) -> None:
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)


def build(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    strip_widget_state(nb)
    nbformat.write(nb, path)
    print(f"built {path.name}")


def main(names: list[str]) -> None:
    paths = [HERE / f"{n.removesuffix('.ipynb')}.ipynb" for n in names] or sorted(HERE.glob("*.ipynb"))
    for p in paths:
        build(p)


if __name__ == "__main__":
    main(sys.argv[1:])
