"""The scripts in notebooks/ (build.py, lab.py) loaded as modules: they are not part of the package."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def load(name: str) -> ModuleType:
    """``notebooks/NAME.py`` as a module named ``notebooks_NAME``."""
    spec = importlib.util.spec_from_file_location(f"notebooks_{name}", NOTEBOOKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
