"""``cardlab class``: start the class server and print the teacher's and the students' addresses.

::

    cardlab class                          # port 8765, store cardlab-class.sqlite3 in the current folder
    cardlab class --port 9000 --store lessons/monday.sqlite3
    cardlab class --host 127.0.0.1         # this machine only (a test, or behind a JupyterHub proxy)
    cardlab class --new                    # a new session (new join code) in the same store
    cardlab class --host 127.0.0.1 --prefix /services/cardlab-class --base-url https://HUB/services/cardlab-class

Started again on the same store, the server resumes the store's latest session: the same join code, the same
teacher's token, the open question still open, every guess that was acknowledged. The students' pages reconnect by
themselves.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cardlab.classroom.pages import qr_text
from cardlab.classroom.server import Limits, check_prefix, serve
from cardlab.classroom.store import Session, Store
from cardlab.errors import InvalidInputError, shown

DEFAULT_PORT = 8765
DEFAULT_STORE = "cardlab-class.sqlite3"


@dataclass(frozen=True)
class Addresses:
    teacher: str
    join: str
    join_page: str
    code: str


def lan_address() -> str:
    """This machine's address on the local network as its own name resolves it (no packet is sent), or
    127.0.0.1 when it has none; ``--address`` gives it explicitly."""
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        names = []
    for name in names:
        if not ipaddress.ip_address(name).is_loopback:
            return name
    return "127.0.0.1"


def addresses(session: Session, host: str, port: int, address: str | None, base: str | None = None,
              prefix: str = "") -> Addresses:
    """The addresses to print: the teacher's (token after ``#``, never sent to a server) and the join page's.
    ``base`` is the whole public address when a proxy serves the class (it then includes any prefix)."""
    if base is None:
        shown_host = address or (lan_address() if host in ("0.0.0.0", "::", "") else host)
        if ":" in shown_host and not shown_host.startswith("["):
            shown_host = f"[{shown_host}]"
        base = f"http://{shown_host}:{port}{prefix}"
    base = base.rstrip("/")
    return Addresses(f"{base}/teacher#token={session.teacher_token}", f"{base}/?code={session.join_code}",
                     f"{base}/", session.join_code)


def check_port(port: int) -> int:
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise InvalidInputError(f"port {shown(port)} is not allowed; give a whole number from 1 to 65535")
    return port


def banner(where: Addresses, store: Path, qr: bool = True) -> str:
    lines = [f"cardlab class session (store: {store})",
             "",
             "Teacher (keep this address to yourself; connect a stepper with it):",
             f"    {where.teacher}",
             "",
             f"Students: open {where.join_page} and type the code {where.code}",
             f"    or scan: {where.join}"]
    if qr:
        lines += ["", qr_text(where.join)]
    lines += ["Stop with Ctrl-C; start again on the same store to carry on where the class was."]
    return "\n".join(lines)


def address_file(store: str | Path) -> Path:
    """The file beside the store where the running server writes the teacher's address (readable by its owner
    only), so that :meth:`~cardlab.classroom.client.ClassSession.local` connects without the token on screen."""
    path = Path(store)
    return path.with_name(path.name + ".teacher")


def write_address(store: Path, teacher: str) -> None:
    target = address_file(store)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(teacher + "\n")


async def _run(store: Store, session: Session, host: str, port: int, where: Addresses, limits: Limits | None,
               out: TextIO, qr: bool, prefix: str) -> None:
    try:
        serve(store, session, host, port, where.join, limits, prefix)
    except OSError as exc:   # the port is taken, or not ours to open, or the address is not this machine's
        raise InvalidInputError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): choose another port with "
                                "--port, or another address with --host") from None
    # this machine's own way in (the teacher's kernel runs here), whatever address the students are given
    own = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host else host)
    write_address(store.path, f"http://{own}:{port}{prefix}/teacher#token={session.teacher_token}")
    print(banner(where, store.path, qr), file=out, flush=True)
    await asyncio.Event().wait()


def run(store_path: str | Path = DEFAULT_STORE, host: str = "0.0.0.0", port: int = DEFAULT_PORT,
        address: str | None = None, base_url: str | None = None, new: bool = False, qr: bool = True,
        out: TextIO = sys.stdout, limits: Limits | None = None, prefix: str | None = None) -> None:
    """Serve the store's latest session (or a new one) until interrupted. ``prefix`` starts every address
    (default: ``JUPYTERHUB_SERVICE_PREFIX``, which JupyterHub sets for a service it starts, else none)."""
    check_port(port)
    prefix = check_prefix(os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "") if prefix is None else prefix)
    store = Store(store_path)
    try:
        session = store.open_session(new=new)
        where = addresses(session, host, port, address, base_url, prefix)
        asyncio.run(_run(store, session, host, port, where, limits, out, qr, prefix))
    finally:
        store.close()
