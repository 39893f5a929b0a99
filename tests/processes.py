"""Real processes of the site that tests start beside themselves: servers, task workers.

They reach this test's database (pytest-django's ``test_<name>``, one per xdist worker)
through ``DATABASE_URL``, so the tests that start them commit what they write
(``django_db(transaction=True)``).
"""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path
from urllib.parse import quote

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def database_url() -> str:
    """This test's database as a URL: PostgreSQL's, or the SQLite test file's."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    host = db["HOST"] or "localhost"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{quote(db['USER'] or '', safe='')}{password}@{host}{port}/{db['NAME']}"


def started(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Stop them all at once (each finishes what it is doing), killing any that lingers."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
