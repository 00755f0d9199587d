"""Binder: the pinned teaching stack installs into a virtual environment and JupyterLab serves the start notebook.

Binder builds ``binder/requirements.txt`` (the pins and a ``.`` line, installed from the repository root)
on the Python named in ``binder/runtime.txt`` (3.12). This test does the same on this machine, with a working
``python3.12`` when there is one (on the PATH, or a pyenv install), else with the interpreter running the
tests (3.11 on the project's machines) — so on such a machine it checks the pins and the install, not the 3.12
runtime itself. JupyterLab is then started from that venv at the repository root, as Binder does, and the
start notebook is fetched through the contents API and the lab tree URL.

The venv is cached outside the clone (``~/.cache/cardlab/``, or ``$CARDLAB_CACHE``), keyed by a hash of
``binder/requirements.txt``, ``binder/runtime.txt``, ``pyproject.toml`` and the interpreter, so a fresh clone
on the same machine (as CI makes for every run) reuses it:

* cold (no venv for this key): a fresh venv, ``pip install -r binder/requirements.txt`` as Binder runs it;
  a marker file written last means an interrupted build is rebuilt, never reused;
* warm: the same ``pip install -r binder/requirements.txt`` again; the pins are already satisfied (and
  ``pip check`` confirms they still agree), and the ``.`` line reinstalls cardlab from the current source.

Either way the test then proves that every module of the installed cardlab is the current source's, that the
pinned versions import, that ``postBuild`` compiles the kernel, writes the student copies into ``workspace/`` (no
outputs, no solution code: what the Binder links open) and installs ``binder/overrides.json`` (no "Jupyter news?"
question), and that JupyterLab serves the student copy with the news question off.
A lock file serialises test runs that share the cache; venvs of other keys are removed when unused.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
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

from tests import notebook_scripts

REPO = Path(__file__).resolve().parents[1]
BINDER = REPO / "binder"
START = "workspace/00_start_here.ipynb"
STUDENT = notebook_scripts.load("student")
NEWS = "@jupyterlab/apputils-extension:notification"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)==(?P<version>[A-Za-z0-9_.+\-]+)$")
INSTALL_TIMEOUT_S = 900
COMPLETE = ".cardlab-complete"
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


def cache_root() -> Path:
    if os.environ.get("CARDLAB_CACHE"):
        return Path(os.environ["CARDLAB_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardlab"


def venv_key(python: str) -> str:
    """What the installed stack depends on: Binder's files, the project's metadata, the interpreter."""
    digest = hashlib.sha256()
    for path in (BINDER / "requirements.txt", BINDER / "runtime.txt", REPO / "pyproject.toml"):
        digest.update(path.read_bytes())
    version = subprocess.run([python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True,
                             timeout=30, check=True).stdout
    digest.update(f"{os.path.realpath(python)}\n{version}".encode())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def locked(path: Path, blocking: bool = True) -> Iterator[bool]:
    """Hold an exclusive lock on ``path`` (yields False if ``blocking`` is off and somebody holds it)."""
    with path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pip_install_requirements(venv: Path, what: str) -> None:
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-input",
                           "--disable-pip-version-check", "-r", str(BINDER / "requirements.txt")], cwd=REPO,
                          capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False)
    if done.returncode != 0:
        pytest.fail(f"pip install -r binder/requirements.txt failed ({what}):\n{done.stderr[-4000:]}")


def usable(venv: Path) -> bool:
    return (venv / COMPLETE).exists() and runs(str(venv / "bin" / "python"))


def remove_other_venvs(root: Path, keep: str) -> None:
    """Venvs of other keys (older pins) that no test run is using."""
    for other in root.glob("binder-venv-*"):
        if other.name.endswith(".lock") or other.name == keep:
            continue
        with locked(root / f"{other.name}.lock", blocking=False) as free:
            if free:
                shutil.rmtree(other, ignore_errors=True)


@pytest.fixture(scope="module")
def binder_venv() -> Iterator[Path]:
    """Binder's requirements installed as Binder does, in the venv cached for their key (see the docstring)."""
    python = python_for_binder()
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    name = f"binder-venv-{venv_key(python)}"
    venv = root / name
    with locked(root / f"{name}.lock"):
        if usable(venv):
            pip_install_requirements(venv, f"warm venv {venv}")
        else:  # built in place; the marker written last makes an interrupted build count as absent
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
            pip_install_requirements(venv, f"fresh venv with {python}")
            (venv / COMPLETE).write_text(f"{python}\n")
        remove_other_venvs(root, name)
        done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check"], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, f"pip check in {venv}:\n{done.stdout}{done.stderr}"
        yield venv


def test_the_readme_binder_link_opens_the_student_copy() -> None:
    assert f"?urlpath=lab/tree/{START})" in (REPO / "README.md").read_text()


@contextlib.contextmanager
def jupyter_lab(venv: Path, home: Path, root: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("VIRTUAL_ENV", None)
    log = home / "lab.log"
    cmd = [str(venv / "bin" / "jupyter"), "lab", "--no-browser", f"--port={port}", "--port-retries=0",
           "--ServerApp.ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=", "--allow-root",
           f"--ServerApp.root_dir={root}", f"--LabApp.workspaces_dir={home / 'workspaces'}"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
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
    installed = Path(found.pop("cardlab")).parent
    assert installed.is_relative_to(binder_venv), "cardlab was not installed into the venv"
    source = REPO / "cardlab"
    modules = sorted(p.relative_to(source) for p in source.rglob("*.py"))
    stale = [str(m) for m in modules if not (installed / m).exists() or
             (installed / m).read_bytes() != (source / m).read_bytes()]
    assert not stale, f"the venv's cardlab is not the current source: {stale[:10]}"
    pins = {normalise(m.group("name")): m.group("version") for m in map(PIN.match, requirement_lines()) if m}
    assert found == {name: pins[name] for name in found}


def check_post_build(binder_venv: Path, root: Path) -> None:
    """Binder's postBuild, run from ``root`` as Binder runs it from the repository: it compiles the Spite and Malice
    kernel into the installed package's numba cache, writes the student copies into ``root/workspace`` and
    installs the settings overrides into the venv."""
    env = dict(os.environ, PATH=f"{binder_venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(["bash", str(BINDER / "postBuild")], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "compiled the Spite and Malice play-outs" in done.stdout
    cached = list(binder_venv.glob("lib/python*/site-packages/cardlab/games/spite_malice/__pycache__/kernel*.nbi"))
    assert cached, "postBuild left no compiled kernel in the installed package"
    keys = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in (root / "workspace").glob("*.ipynb")) == [p.name for p in keys]
    for key_path in keys:
        key = STUDENT.read(key_path)
        copy = STUDENT.read(root / "workspace" / key_path.name)
        assert sum(len(c.get("outputs", [])) for c in copy.cells) == 0, f"{key_path.name}: outputs on Binder"
        assert STUDENT.leaked_solution_lines(key, copy) == set(), f"{key_path.name}: solution code on Binder"
    overrides = list(binder_venv.glob("share/jupyter/lab/settings/overrides.json"))
    assert overrides and json.loads(overrides[0].read_text()) == json.loads((BINDER / "overrides.json").read_text())


@pytest.mark.timeout(INSTALL_TIMEOUT_S + 300)
def test_binder_venv_has_the_stack_and_serves_the_start_notebook(binder_venv: Path, tmp_path: Path) -> None:
    """One test uses the venv, so a run split over several workers installs into it once."""
    check_stack_imports(binder_venv, tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    check_post_build(binder_venv, root)
    with jupyter_lab(binder_venv, tmp_path, root) as url:
        with urllib.request.urlopen(f"{url}/api/contents/{START}?content=1", timeout=30) as response:
            assert response.status == 200
            model = json.loads(response.read())
        assert model["type"] == "notebook" and model["path"] == START
        first = model["content"]["cells"][0]
        assert first["cell_type"] == "markdown" and f"urlpath=lab/tree/{START}" in first["source"]
        assert not any(c.get("outputs") for c in model["content"]["cells"])
        with urllib.request.urlopen(f"{url}/lab/api/settings/{NEWS}", timeout=30) as response:
            news = json.loads(response.read())
        defaults = {k: v.get("default") for k, v in news["schema"]["properties"].items()}
        assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False, defaults
        with urllib.request.urlopen(f"{url}/lab/tree/{START}", timeout=30) as response:
            assert response.status == 200
            page = response.read().decode()
        assert "jupyter-config-data" in page, "the lab tree URL did not serve the JupyterLab page"
