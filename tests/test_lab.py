"""``make lab``: the workspace keeps what people wrote, the tested originals stay as committed, and the address
printed last opens the start notebook.

``notebooks/lab.py`` copies the committed notebooks into the git-ignored ``workspace/`` (only those missing)
and starts JupyterLab at the repository root with a pre-save hook that refuses saves over ``notebooks/*.ipynb``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests import notebook_scripts

REPO = Path(__file__).resolve().parents[1]


LAB = notebook_scripts.load("lab")
COMMITTED = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


def test_the_workspace_gets_every_missing_notebook_and_never_loses_an_edit(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    assert LAB.prepare_workspace(REPO / "notebooks", workspace) == COMMITTED
    for name in COMMITTED:
        assert (workspace / name).read_bytes() == (REPO / "notebooks" / name).read_bytes()
    edited = workspace / "00_start_here.ipynb"
    edited.write_text("my own notes, not even a notebook")
    (workspace / "01_garbage.ipynb").unlink()
    (workspace / "mine.ipynb").write_text("{}")
    assert LAB.prepare_workspace(REPO / "notebooks", workspace) == ["01_garbage.ipynb"]
    assert edited.read_text() == "my own notes, not even a notebook"
    assert (workspace / "mine.ipynb").read_text() == "{}"
    assert LAB.prepare_workspace(REPO / "notebooks", workspace) == []


def test_the_workspace_is_ignored_by_git_and_outside_the_tested_notebooks() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{LAB.WORKSPACE}/00_start_here.ipynb"], cwd=REPO,
                             check=False).returncode
    if ignored == 128:
        pytest.skip("not a git checkout")
    assert ignored == 0, f"{LAB.WORKSPACE}/ must be git-ignored"
    assert LAB.WORKSPACE.split("/")[0] not in ("notebooks", "tests")


def nbval_command() -> list[str]:
    """The nbval line of ``make test``, run with this Python."""
    recipe = (REPO / "Makefile").read_text().split("\ntest:", 1)[1]
    line = next(ln.strip() for ln in recipe.splitlines() if "--nbval" in ln)
    words = [w for w in line.split() if w != "$(TIMER)"]
    assert words[0] == "$(BIN)/pytest", line
    return [sys.executable, "-m", "pytest", *words[1:]]


def test_make_test_runs_only_the_committed_notebooks_even_with_a_workspace(tmp_path: Path) -> None:
    """A copy of the project with a workspace full of edited notebooks: nbval collects the originals only."""
    project = tmp_path / "project"
    shutil.copytree(REPO / "notebooks", project / "notebooks", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", project)
    LAB.prepare_workspace(project / "notebooks", project / LAB.WORKSPACE)
    (project / LAB.WORKSPACE / "extra.ipynb").write_text((REPO / "notebooks" / COMMITTED[0]).read_text())
    done = subprocess.run([*nbval_command(), "--collect-only", "-q"], cwd=project, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    files = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert files == {f"notebooks/{name}" for name in COMMITTED}


def test_a_save_over_an_original_is_refused_and_a_workspace_save_is_not() -> None:
    namespace: dict[str, object] = {"c": type("Config", (), {"ContentsManager": type("C", (), {})()})()}
    exec(LAB.server_config(), namespace)  # the file the server loads as --config
    hook = namespace["c"].ContentsManager.pre_save_hook  # type: ignore[attr-defined]
    from tornado.web import HTTPError

    for path in ("notebooks/00_start_here.ipynb", "/notebooks/app.ipynb"):
        with pytest.raises(HTTPError) as refused:
            hook(model={}, path=path, contents_manager=None)
        assert refused.value.status_code == 403
        assert "workspace/" in refused.value.log_message
    for path in ("workspace/00_start_here.ipynb", "notebooks/src/00_start_here.py", "README.md",
                 "workspace/notebooks/x.ipynb", "notebooks/sub/x.ipynb"):
        hook(model={}, path=path, contents_manager=None)


@pytest.mark.timeout(300)
def test_make_lab_prints_the_start_notebook_address_last_and_it_opens(tmp_path: Path) -> None:
    """Start ``notebooks/lab.py`` in a copy of the project; its last line is the address, which serves the lab
    page, whose token opens the workspace copy, and through which a save over an original is refused."""
    project = tmp_path / "project"
    (project / "notebooks").mkdir(parents=True)
    for path in [*(REPO / "notebooks").glob("*.ipynb"), REPO / "notebooks" / "lab.py"]:
        shutil.copy(path, project / "notebooks")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"),
               JUPYTER_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    port = LAB.free_port("127.0.0.1", 18800 + os.getpid() % 1000)
    proc = subprocess.Popen([sys.executable, str(project / "notebooks" / "lab.py"), f"--port={port}"],
                            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if "token=" in line or len(lines) > 20:
                break
        address = lines[-1]
        match = re.fullmatch(rf"http://localhost:{port}/lab/tree/workspace/00_start_here\.ipynb\?token=(\w+)",
                             address)
        assert match, lines
        token = match.group(1)
        assert (project / "workspace" / "00_start_here.ipynb").exists()
        with urllib.request.urlopen(address.replace("localhost", "127.0.0.1"), timeout=30) as response:
            assert response.status == 200 and "jupyter-config-data" in response.read().decode()
        api = f"http://127.0.0.1:{port}/api/contents"
        auth = {"Authorization": f"token {token}"}
        with urllib.request.urlopen(urllib.request.Request(f"{api}/workspace/00_start_here.ipynb", headers=auth),
                                    timeout=30) as response:
            model = json.loads(response.read())
        assert model["type"] == "notebook"
        with pytest.raises(urllib.error.HTTPError) as no_token:
            urllib.request.urlopen(f"{api}/workspace/00_start_here.ipynb", timeout=30)
        assert no_token.value.code == 403
        save = {"type": "notebook", "format": "json", "content": model["content"]}
        put = urllib.request.Request(f"{api}/notebooks/00_start_here.ipynb", data=json.dumps(save).encode(),
                                     headers=auth, method="PUT")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(put, timeout=30)
        assert refused.value.code == 403
        assert (project / "notebooks" / "00_start_here.ipynb").read_bytes() == \
            (REPO / "notebooks" / "00_start_here.ipynb").read_bytes()
        put = urllib.request.Request(f"{api}/workspace/00_start_here.ipynb", data=json.dumps(save).encode(),
                                     headers=auth, method="PUT")
        with urllib.request.urlopen(put, timeout=30) as response:
            assert response.status == 200
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert rest.strip() == "", f"printed after the address: {rest!r}"
