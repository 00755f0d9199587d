"""Binder: the pinned teaching stack installs into a fresh virtual environment and JupyterLab serves the start notebook.

Binder builds ``binder/requirements.txt`` (the pins and a ``.`` line, installed from the repository root)
on the Python named in ``binder/runtime.txt`` (3.12). This test does the same on this machine: it creates
one fresh venv per run with a working ``python3.12`` when there is one (on the PATH, or a pyenv install),
else with the interpreter running the tests (3.11 on the project's machines) — so on such a machine it
checks the pins and the install, not the 3.12 runtime itself. Packages come from the configured package
index (pip's cache makes later runs quick). JupyterLab is then started from that venv at the repository
root, as Binder does, and the start notebook is fetched through the contents API and the lab tree URL.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BINDER = REPO / "binder"
START = "notebooks/00_start_here.ipynb"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)==(?P<version>[A-Za-z0-9_.+\-]+)$")
INSTALL_TIMEOUT_S = 900
START_TIMEOUT_S = 120.0


def requirement_lines() -> list[str]:
    lines = (BINDER / "requirements.txt").read_text().splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runs(python: str) -> bool:
    try:
        done = subprocess.run([python, "-c", "import sys, venv; print(sys.version)"], capture_output=True,
                              timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def python_for_binder() -> str:
    """A working Python 3.12 (Binder's runtime) if this machine has one, else the Python running the tests."""
    candidates = [shutil.which("python3.12")]
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates += [str(p) for p in sorted(pyenv_root.glob("versions/3.12*/bin/python3.12"), reverse=True)]
    for python in candidates:
        if python and runs(python):
            return python
    return sys.executable


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_runtime_names_python_312() -> None:
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.12"


def test_requirements_are_pinned_and_install_the_repository() -> None:
    lines = requirement_lines()
    assert "." in lines, "binder/requirements.txt must install the repository itself with a '.' line"
    others = [ln for ln in lines if ln != "."]
    unpinned = [ln for ln in others if not PIN.match(ln)]
    assert not unpinned, f"unpinned lines in binder/requirements.txt: {unpinned}"
    names = [normalise(PIN.match(ln).group("name")) for ln in others]  # type: ignore[union-attr]
    assert {"jupyterlab", "ipywidgets", "plotly", "numpy"} <= set(names)


def test_requirements_agree_with_the_lab_extra() -> None:
    """A package pinned both for Binder and in pyproject's ``lab`` extra has the same version in both."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    lab = {}
    for spec in project["project"]["optional-dependencies"]["lab"]:
        match = PIN.match(spec)
        if match:
            lab[normalise(match.group("name"))] = match.group("version")
    binder = {normalise(m.group("name")): m.group("version") for m in map(PIN.match, requirement_lines()) if m}
    shared = sorted(set(lab) & set(binder))
    assert shared, "no package is pinned both in binder/requirements.txt and in the lab extra"
    disagree = {name: (binder[name], lab[name]) for name in shared if binder[name] != lab[name]}
    assert not disagree, f"binder pin vs pyproject lab pin: {disagree}"


@pytest.fixture(scope="module")
def binder_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fresh venv per test run with ``binder/requirements.txt`` installed from the repository root."""
    venv = tmp_path_factory.mktemp("binder") / "venv"
    python = python_for_binder()
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-input",
                           "-r", str(BINDER / "requirements.txt")], cwd=REPO, capture_output=True, text=True,
                          timeout=INSTALL_TIMEOUT_S, check=False)
    if done.returncode != 0:
        pytest.fail(f"pip install -r binder/requirements.txt failed with {python}:\n{done.stderr[-4000:]}")
    return venv


@contextlib.contextmanager
def jupyter_lab(venv: Path, home: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("VIRTUAL_ENV", None)
    log = home / "lab.log"
    cmd = [str(venv / "bin" / "jupyter"), "lab", "--no-browser", f"--port={port}", "--port-retries=0",
           "--ServerApp.ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=", "--allow-root",
           f"--ServerApp.root_dir={REPO}", f"--LabApp.workspaces_dir={home / 'workspaces'}"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=5) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not start in {START_TIMEOUT_S:.0f} s:\n"
                            f"{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)


def check_stack_imports(binder_venv: Path, tmp_path: Path) -> None:
    """Run away from the repository, so ``import cardlab`` must find the installed package, not the source tree."""
    code = ("import json, cardlab, ipywidgets, jupyterlab, numpy, plotly, voila\n"
            "from cardlab.viz.stepper import Stepper\n"
            "print(json.dumps({'cardlab': cardlab.__file__, 'ipywidgets': ipywidgets.__version__,\n"
            "                  'jupyterlab': jupyterlab.__version__, 'numpy': numpy.__version__,\n"
            "                  'plotly': plotly.__version__, 'voila': voila.__version__}))")
    done = subprocess.run([str(binder_venv / "bin" / "python"), "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(found.pop("cardlab")).is_relative_to(binder_venv), "cardlab was not installed into the venv"
    pins = {normalise(m.group("name")): m.group("version") for m in map(PIN.match, requirement_lines()) if m}
    assert found == {name: pins[name] for name in found}


def check_post_build(binder_venv: Path, tmp_path: Path) -> None:
    """Binder's postBuild compiles the Spite and Malice kernel into the installed package's numba cache."""
    env = dict(os.environ, PATH=f"{binder_venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(["bash", str(BINDER / "postBuild")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "compiled the Spite and Malice play-outs" in done.stdout
    cached = list(binder_venv.glob("lib/python*/site-packages/cardlab/sim/__pycache__/jit_spite_malice*.nbi"))
    assert cached, "postBuild left no compiled kernel in the installed package"


@pytest.mark.timeout(INSTALL_TIMEOUT_S + 300)
def test_binder_venv_has_the_stack_and_serves_the_start_notebook(binder_venv: Path, tmp_path: Path) -> None:
    """One test uses the venv, so a run split over several workers still builds a single venv."""
    check_stack_imports(binder_venv, tmp_path)
    check_post_build(binder_venv, tmp_path)
    with jupyter_lab(binder_venv, tmp_path) as url:
        with urllib.request.urlopen(f"{url}/api/contents/{START}?content=1", timeout=30) as response:
            assert response.status == 200
            model = json.loads(response.read())
        assert model["type"] == "notebook" and model["path"] == START
        first = model["content"]["cells"][0]
        assert first["cell_type"] == "markdown" and "urlpath=lab/tree/notebooks/00_start_here.ipynb" in first["source"]
        with urllib.request.urlopen(f"{url}/lab/tree/{START}", timeout=30) as response:
            assert response.status == 200
            page = response.read().decode()
        assert "jupyter-config-data" in page, "the lab tree URL did not serve the JupyterLab page"
