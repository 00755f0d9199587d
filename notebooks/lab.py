"""``make lab``: prepare the student's workspace and start JupyterLab on the start notebook.

    .venv/bin/python notebooks/lab.py [--port 8888] [--ip 127.0.0.1] [--no-browser]

Workspace
---------
The committed notebooks in ``notebooks/`` are the tested originals: ``make test`` re-runs each one and
compares its outputs with the saved ones. Students and teachers work on copies in ``workspace/`` (git-ignored,
at the repository root). Each run copies only the notebooks that are missing there, so a copy somebody edited
is never overwritten; delete a copy to get a fresh one at the next ``make lab``.

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

REPO = Path(__file__).resolve().parents[1]
ORIGINALS = "notebooks"
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
    """Copy every notebook of ``originals`` that ``workspace`` lacks; never touch one that is there.

    Returns the names copied.
    """
    workspace.mkdir(parents=True, exist_ok=True)
    copied = []
    for source in sorted(originals.glob("*.ipynb")):
        target = workspace / source.name
        if target.exists():
            continue
        # exclusive creation: a copy that appears meanwhile is left alone as well
        try:
            with source.open("rb") as src, target.open("xb") as dst:
                shutil.copyfileobj(src, dst)
        except FileExistsError:
            continue
        copied.append(source.name)
    return copied


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


def lab_command(port: int, ip: str, config: Path) -> list[str]:
    cmd = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", f"--port={port}", "--port-retries=0",
           f"--ServerApp.ip={ip}", f"--ServerApp.root_dir={REPO}", f"--config={config}",
           f"--ServerApp.default_url=/lab/tree/{WORKSPACE}/{START}"]
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
    print(f"workspace/: {len(copied)} notebooks copied from notebooks/, {kept} of yours kept as they are")

    port = free_port(args.ip, args.port)
    token = secrets.token_hex(24)
    log = workspace / LOG_NAME
    host = "localhost" if args.ip in ("127.0.0.1", "0.0.0.0", "") else args.ip
    url = f"http://{host}:{port}"
    address = f"{url}/lab/tree/{WORKSPACE}/{START}?token={token}"
    with tempfile.TemporaryDirectory(prefix="cardlab-lab-") as tmp:
        config = Path(tmp) / "jupyter_server_config.py"
        config.write_text(server_config())
        env = dict(os.environ, JUPYTER_TOKEN=token)
        print(f"starting JupyterLab on port {port} (its log: {log.relative_to(REPO)}) ...", flush=True)
        with log.open("ab") as out:
            proc = subprocess.Popen(lab_command(port, args.ip, config), cwd=REPO, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_until_up(f"http://127.0.0.1:{port}" if host == "localhost" else url, token, proc, log)
            if not args.no_browser and has_desktop():
                threading.Thread(target=webbrowser.open, args=(address,), daemon=True).start()
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
