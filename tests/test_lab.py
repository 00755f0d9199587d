"""``make lab``: the workspace keeps what people wrote, the tested originals stay as committed, and the address
printed last opens the start notebook, once, without JupyterLab's news question.

``notebooks/lab.py`` writes student copies of the committed notebooks (no outputs, no solution code) into the
git-ignored ``workspace/`` (only those missing) and starts JupyterLab at the repository root with a pre-save hook
that refuses saves over ``notebooks/*.ipynb`` and ``binder/overrides.json`` as its settings defaults.
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
from typing import Any

import nbformat
import pytest

from tests import notebook_scripts

REPO = Path(__file__).resolve().parents[1]


LAB = notebook_scripts.load("lab")
STUDENT = notebook_scripts.load("student")
COMMITTED = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
NEWS = "@jupyterlab/apputils-extension:notification"


def read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


def assert_student_copies(workspace: Path) -> None:
    """Every copy in ``workspace`` is the student copy of its key: 0 outputs and 0 lines of solution code."""
    for name in COMMITTED:
        key, copy = read(REPO / "notebooks" / name), read(workspace / name)
        code = [c for c in copy.cells if c.cell_type == "code"]
        assert sum(len(c.outputs) for c in code) == 0, f"{name}: the student copy has outputs"
        assert STUDENT.leaked_solution_lines(key, copy) == set(), f"{name}: the student copy has solution code"
        assert copy == STUDENT.student_copy(key, Path(name).stem)


def test_the_workspace_gets_every_missing_notebook_and_never_loses_an_edit(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    assert LAB.prepare_workspace(REPO / "notebooks", workspace) == COMMITTED
    assert_student_copies(workspace)
    edited = workspace / "00_start_here.ipynb"
    edited.write_text("my own notes, not even a notebook")
    (workspace / "02_garbage_play.ipynb").unlink()
    (workspace / "mine.ipynb").write_text("{}")
    assert LAB.prepare_workspace(REPO / "notebooks", workspace) == ["02_garbage_play.ipynb"]
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
    (project / "binder").mkdir()
    scripts = [REPO / "notebooks" / "lab.py", REPO / "notebooks" / "student.py"]
    for path in [*(REPO / "notebooks").glob("*.ipynb"), *scripts]:
        shutil.copy(path, project / "notebooks")
    shutil.copy(REPO / LAB.OVERRIDES, project / LAB.OVERRIDES)
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
        assert not any(c.get("outputs") for c in model["content"]["cells"]), "make lab opened a copy with outputs"
        assert_student_copies(project / "workspace")
        request = urllib.request.Request(f"http://127.0.0.1:{port}/lab/api/settings/{NEWS}", headers=auth)
        with urllib.request.urlopen(request, timeout=30) as response:
            news = json.loads(response.read())
        defaults = {k: v.get("default") for k, v in news["schema"]["properties"].items()}
        assert defaults["fetchNews"] == "false", defaults          # "Never": no "Jupyter news?" question
        assert defaults["checkForUpdates"] is False
        assert "fetchNews" not in json.loads(news.get("raw") or "{}")   # the user's own settings say nothing
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


def test_the_lab_settings_turn_the_news_question_off_and_keep_the_environments_own(tmp_path: Path) -> None:
    schema = json.loads((Path(sys.prefix) / "share/jupyter/lab/schemas/@jupyterlab/apputils-extension/"
                         "notification.json").read_text())
    overrides = json.loads((REPO / LAB.OVERRIDES).read_text())[NEWS]
    assert {"const": "false", "title": "Never"} in schema["properties"]["fetchNews"]["oneOf"]
    assert set(overrides) <= set(schema["properties"]) and overrides["fetchNews"] == "false"
    own = tmp_path / "env-settings"
    own.mkdir()
    (own / "overrides.json").write_text(json.dumps({NEWS: {"doNotDisturbMode": True}, "other:plugin": {"a": 1}}))
    folder = LAB.app_settings(REPO, tmp_path / "settings", own)
    merged = json.loads((folder / "overrides.json").read_text())
    assert merged == {NEWS: {"doNotDisturbMode": True, **overrides}, "other:plugin": {"a": 1}}
    assert json.loads((LAB.app_settings(REPO, tmp_path / "s2", tmp_path / "absent") / "overrides.json")
                      .read_text()) == {NEWS: overrides}


STAND_IN = """#!{python}
import pathlib, sys
log = pathlib.Path({log!r})
calls = log.read_text().splitlines() if log.exists() else []
log.write_text("\\n".join([*calls, " ".join(sys.argv[1:])]) + "\\n")
sys.exit(1 if not calls else 0)   # the first call fails, as a browser that was not running yet can
"""


def test_the_browser_is_opened_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in browser whose first command exits with an error: Python's ``webbrowser.open`` then runs it a
    second time with the same address (two tabs); ``open_browser`` runs it once."""
    import time
    import webbrowser

    def stand_in(name: str) -> Any:
        log = tmp_path / f"{name}.log"
        exe = tmp_path / name
        exe.write_text(STAND_IN.format(python=sys.executable, log=str(log)))
        exe.chmod(0o755)
        browser = webbrowser.Chrome(str(exe))
        monkeypatch.setattr(webbrowser, "get", lambda using=None: browser)
        return browser, log

    def calls(log: Path, at_least: int) -> list[str]:
        """The stand-in's calls, once it has been called ``at_least`` times (or 30 s have passed), and 1 s more."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(log.read_text().splitlines() if log.exists() else []) < at_least:
            time.sleep(0.1)
        time.sleep(1.0)
        return log.read_text().splitlines() if log.exists() else []

    url = "http://localhost:8888/lab/tree/workspace/00_start_here.ipynb?token=abc"
    browser, log = stand_in("stdlib")
    browser.open(url)
    assert calls(log, 2) == [url, url]                 # webbrowser.open: the browser is run twice, two tabs
    _, log = stand_in("ours")
    LAB.open_browser(url)
    assert calls(log, 2) == [url]                      # open_browser: once
