"""``make lab``: prepare the student's workspace and start JupyterLab on the start notebook.

    .venv/bin/python notebooks/lab.py [--port 8888] [--ip 127.0.0.1] [--no-browser]

Workspace
---------
The committed notebooks in ``notebooks/`` are the tested originals and the teacher's key: ``make test`` re-runs
each one and compares its outputs with the saved ones. Students work on clean copies in ``workspace/``
(git-ignored, at the repository root): no outputs, every worked solution replaced by an empty answer cell
(``notebooks/student.py``). Each run writes only the copies that are missing there, so a copy somebody edited
is never overwritten; delete a copy to get a fresh one at the next ``make lab``. A teacher opens the key in
``notebooks/``.

Settings
--------
JupyterLab's question "get notified about official Jupyter news?" is answered "no" for the class: the settings
in ``binder/overrides.json`` (news and update checks off; Binder's ``postBuild`` installs the same file) are
given to the server as the defaults of its settings (``overrides.json`` in a settings folder of this run's own,
with any overrides of the environment's own folder kept). A user's own settings still win.

Browser
-------
On a desktop the address is opened in one browser tab. Python's ``webbrowser.open`` first asks a running browser
to open it and, when that command exits with an error within five seconds, runs the browser a second time with the
same address; a browser that was not running yet (the first ``make lab``) can do both, which opened two tabs.
:func:`open_browser` runs the browser's command once.

In the JupyterLab started here the originals cannot be saved over: a save to ``notebooks/*.ipynb`` is
refused with a message that names the workspace copy (other files, ``notebooks/src/`` included, save as usual).

Server
------
JupyterLab serves the repository root, so the README and the whole project are visible, and opens on
``workspace/00_start_here.ipynb``. The token is made fresh for each run and handed to the server in its
environment (not on the command line, where other users could read it). The server's own log goes to
``workspace/.jupyterlab.log``; the last line this script prints is the address to open, token included.
Ctrl-C stops the server.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import student  # noqa: E402  (notebooks/student.py, beside this script)

REPO = HERE.parent
ORIGINALS = "notebooks"
OVERRIDES = Path("binder") / "overrides.json"
WORKSPACE = "workspace"
START = "00_start_here.ipynb"
LOG_NAME = ".jupyterlab.log"
START_TIMEOUT_S = 180.0

# The server's configuration: a pre-save hook that keeps the tested originals as they are committed.
SERVER_CONFIG = '''\
from tornado.web import HTTPError


def keep_originals(model, path, contents_manager, **kwargs):
    """Refuse a save over a committed notebook (notebooks/NAME.ipynb): it is a tested original."""
    parts = path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == {originals!r} and parts[1].endswith(".ipynb"):
        text = (f"{{path}} is a tested original and is not saved: work on your copy "
                f"{workspace}/{{parts[1]}} (make lab copies what is missing there)")
        raise HTTPError(403, text.replace("%", "%%"), reason="tested original")


c.ContentsManager.pre_save_hook = keep_originals  # c: the configuration object Jupyter provides
'''


def prepare_workspace(originals: Path, workspace: Path) -> list[str]:
    """Write the student copy of every notebook of ``originals`` that ``workspace`` lacks; never touch one that
    is there (exclusive creation: a copy that appears meanwhile is left alone as well).

    Returns the names written.
    """
    workspace.mkdir(parents=True, exist_ok=True)
    copied = []
    for source in sorted(originals.glob("*.ipynb")):
        target = workspace / source.name
        if not target.exists() and student.write_student_copy(source, target, exclusive=True):
            copied.append(source.name)
    return copied


def app_settings(repo: Path, folder: Path, default: Path | None) -> Path:
    """A settings folder for the server: the environment's own overrides (``default``, if it has any), then
    ``binder/overrides.json`` merged over them, plugin by plugin."""
    folder.mkdir(parents=True, exist_ok=True)
    if default is not None and default.is_dir():
        shutil.copytree(default, folder, dirs_exist_ok=True)
    merged: dict[str, dict[str, object]] = {}
    existing = folder / "overrides.json"
    if existing.exists():
        merged = json.loads(existing.read_text())
    for plugin, values in json.loads((repo / OVERRIDES).read_text()).items():
        merged.setdefault(plugin, {}).update(values)
    existing.write_text(json.dumps(merged, indent=2) + "\n")
    return folder


def environment_settings() -> Path:
    """JupyterLab's default settings folder in this environment (``<prefix>/share/jupyter/lab/settings``)."""
    return Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings"


def open_browser(url: str) -> None:
    """Open ``url`` in one browser tab (see the module's docstring): the browser's command is run once."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return
    if isinstance(browser, webbrowser.UnixBrowser):
        command = [browser.name, *(arg.replace("%s", url) for arg in browser.args)]
        with contextlib.suppress(OSError):
            subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        return
    browser.open(url)


def server_config() -> str:
    return SERVER_CONFIG.format(originals=ORIGINALS, workspace=WORKSPACE)


def port_is_free(ip: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((ip, port))
        except OSError:
            return False
    return True


def free_port(ip: str, wanted: int) -> int:
    """``wanted`` if nothing listens there, else a port the system picks."""
    if port_is_free(ip, wanted):
        return wanted
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((ip, 0))
        return int(sock.getsockname()[1])


def lab_command(port: int, ip: str, config: Path, settings: Path) -> list[str]:
    cmd = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", f"--port={port}", "--port-retries=0",
           f"--ServerApp.ip={ip}", f"--ServerApp.root_dir={REPO}", f"--config={config}",
           f"--ServerApp.default_url=/lab/tree/{WORKSPACE}/{START}", f"--LabApp.app_settings_dir={settings}"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")  # CI and some containers run as root
    return cmd


def wait_until_up(url: str, token: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    request = urllib.request.Request(f"{url}/api/status", headers={"Authorization": f"token {token}"})
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
            raise SystemExit(f"JupyterLab exited with code {proc.returncode}; the end of {log}:\n{tail}")
        with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError):
            with urllib.request.urlopen(request, timeout=5) as response:
                if response.status == 200:
                    return
        time.sleep(0.3)
    raise SystemExit(f"JupyterLab did not answer within {START_TIMEOUT_S:.0f} s; see {log}")


def has_desktop() -> bool:
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start JupyterLab on the cardlab workspace.")
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    args = parser.parse_args(argv)
    # a plain `kill` (SIGTERM) stops the server too, as Ctrl-C does
    signal.signal(signal.SIGTERM, _interrupt)

    workspace = REPO / WORKSPACE
    copied = prepare_workspace(REPO / ORIGINALS, workspace)
    kept = len(list(workspace.glob("*.ipynb"))) - len(copied)
    print(f"workspace/: {len(copied)} student copies written from notebooks/ (no outputs, no solutions), "
          f"{kept} of yours kept as they are; the teacher's key is in notebooks/")

    port = free_port(args.ip, args.port)
    token = secrets.token_hex(24)
    log = workspace / LOG_NAME
    host = "localhost" if args.ip in ("127.0.0.1", "0.0.0.0", "") else args.ip
    url = f"http://{host}:{port}"
    address = f"{url}/lab/tree/{WORKSPACE}/{START}?token={token}"
    with tempfile.TemporaryDirectory(prefix="cardlab-lab-") as tmp:
        config = Path(tmp) / "jupyter_server_config.py"
        config.write_text(server_config())
        settings = app_settings(REPO, Path(tmp) / "settings", environment_settings())
        env = dict(os.environ, JUPYTER_TOKEN=token)
        print(f"starting JupyterLab on port {port} (its log: {log.relative_to(REPO)}) ...", flush=True)
        with log.open("ab") as out:
            proc = subprocess.Popen(lab_command(port, args.ip, config, settings), cwd=REPO, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_until_up(f"http://127.0.0.1:{port}" if host == "localhost" else url, token, proc, log)
            if not args.no_browser and has_desktop():
                threading.Thread(target=open_browser, args=(address,), daemon=True).start()
            print("JupyterLab is running; Ctrl-C stops it. Open this address:")
            print(address, flush=True)
            proc.wait()
            return int(proc.returncode or 0)
        except KeyboardInterrupt:
            return 0
        finally:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


if __name__ == "__main__":
    sys.exit(main())
