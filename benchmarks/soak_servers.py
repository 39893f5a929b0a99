"""The soak test's servers, each started and stopped by it in a temporary folder, and the
faults done to them (``benchmarks/soak.py``).

- ``Postgres``: a PostgreSQL 15 cluster of its own (``initdb``, ``pg_ctl``) on a free
  loopback port. The server refuses to run as root: as root (here and in CI) it runs as
  the ``postgres`` user through ``runuser``, as ``.ci/run`` does.
- ``Redis``: ``redis-server`` on a free port, keeping nothing on disk.
- ``Site``: ``make serve`` itself (gunicorn and the supervised task worker, which it starts
  again when it stops), in a session of its own so that it is stopped with its children.
- ``Faults``: a thread that, at random intervals (seeded), kills the task worker
  (``kill -9`` of the ``manage.py db_worker`` process, not of the shell that supervises
  it), stops PostgreSQL for a few seconds, or stops Redis (``shutdown nosave``) for a few
  seconds; each fault is logged with its time.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
DATABASE = "club"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until(what: str, check: Callable[[], bool], seconds: float) -> float:
    """Seconds until ``check()`` held; raises after ``seconds``."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > seconds:
            raise RuntimeError(f"not within {seconds:.0f} s: {what}")
        time.sleep(0.1)
    return time.monotonic() - start


class Postgres:
    """A PostgreSQL cluster of the run's own, with one database (``club``)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="club-soak-postgres-"))
        self.port = free_port()
        self.as_server = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_server:
            shutil.chown(self.folder, "postgres", "postgres")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _ctl(self, *args: str) -> None:
        command = [*self.as_server, str(PG_BIN / "pg_ctl"), "-D", str(self.folder / "data")]
        subprocess.run([*command, *args], check=True, stdout=subprocess.DEVNULL)

    def create(self) -> None:
        initdb = [str(PG_BIN / "initdb"), "-D", str(self.folder / "data"), "-U", "postgres"]
        initdb += ["-A", "trust", "-E", "UTF8", "--locale=C.UTF-8"]
        subprocess.run([*self.as_server, *initdb], check=True, stdout=subprocess.DEVNULL)
        self.start()
        server = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{DATABASE}"')

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        self._ctl("-l", str(self.folder / "server.log"), "-w", "-o", options, "start")

    def stop(self) -> None:
        """The fast shutdown: open sessions are cut, nothing is lost."""
        self._ctl("-m", "fast", "-w", "stop")

    def close(self, *, keep: bool = False) -> None:
        if (self.folder / "data" / "postmaster.pid").exists():
            self.stop()
        if not keep:
            shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """A Redis of the run's own: no persistence, so a restart forgets every key."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="club-soak-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        command = ["redis-cli", "-h", "127.0.0.1", "-p", str(self.port), "ping"]
        return subprocess.run(command, capture_output=True, check=False).stdout.strip() == b"PONG"

    def start(self) -> None:
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        with open(self.folder / "redis.log", "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_until("Redis answers", self._answers, 30)

    def stop(self) -> None:
        """``shutdown nosave``, as an operator restarting it would."""
        command = ["redis-cli", "-h", "127.0.0.1", "-p", str(self.port), "shutdown", "nosave"]
        subprocess.run(command, capture_output=True, check=False)
        if self.process is not None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def close(self, *, keep: bool = False) -> None:
        if self.process is not None and self.process.poll() is None:
            self.stop()
        if not keep:
            shutil.rmtree(self.folder, ignore_errors=True)


class Site:
    """``make serve`` on ``port``, its output in ``log``."""

    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.env = {**env, "PORT": str(port)}
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                ["make", "--no-print-directory", "serve"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # stopped with its children, as one group
            )
        wait_until("the site answers /ping/", self._answers, 60)

    def _answers(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"make serve stopped (status {self.process.returncode}): {self.log}")
        try:
            with urllib.request.urlopen(f"{self.base}/ping/", timeout=2):
                return True
        except OSError:
            return False

    def processes(self) -> dict[int, list[bytes]]:
        """Every process of ``make serve``'s session (its children's too), with its argv."""
        if self.process is None:
            return {}
        found = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if os.getsid(int(entry.name)) == self.process.pid:
                    found[int(entry.name)] = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:  # gone meanwhile
                continue
        return found

    def worker_pids(self) -> list[int]:
        """The ``manage.py db_worker`` processes ``make serve`` runs now (not their shell)."""
        return [
            pid
            for pid, argv in self.processes().items()
            if Path(argv[0].decode(errors="replace")).name.startswith("python")
            and b"manage.py" in argv
            and b"db_worker" in argv
        ]

    def stop(self) -> None:
        """As Ctrl-C would: every process of the group asked to stop, killed after 60 s."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        process = self.process
        with contextlib.suppress(RuntimeError):  # (poll reaps make itself)
            wait_until(
                "make serve stops", lambda: process.poll() is not None and not self.processes(), 60
            )
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


@dataclass
class Fault:
    kind: str  # "worker", "postgres", "redis"
    started: float  # seconds since the run began
    ended: float  # when the fault was undone (the server started again, the worker back)
    detail: str


KINDS = ("worker", "postgres", "redis")
NAMES = {"worker": "task worker killed", "postgres": "PostgreSQL stopped", "redis": "Redis stopped"}


class Faults(threading.Thread):
    """One fault every ``every`` seconds (a random span, seeded), each kind in turn in a
    shuffled order, until ``stop``; ``log`` is what was done, and when."""

    def __init__(
        self,
        *,
        seed: int,
        every: tuple[float, float],
        began: float,
        site: Site,
        postgres: Postgres,
        redis: Redis,
    ) -> None:
        super().__init__(name="faults", daemon=True)
        self.random = random.Random(seed)
        self.every = every
        self.began = began
        self.site, self.postgres, self.redis = site, postgres, redis
        self.log: list[Fault] = []
        self.stopping = threading.Event()
        self.struck = 0.0  # when the fault under way was done

    def now(self) -> float:
        return time.monotonic() - self.began

    def run(self) -> None:
        kinds: list[str] = []
        while not self.stopping.wait(self.random.uniform(*self.every)):
            if not kinds:
                kinds = self.random.sample(KINDS, len(KINDS))
            kind = kinds.pop()
            self.struck = self.now()
            detail = {"worker": self.kill_worker, "postgres": self.stop_postgres}.get(
                kind, self.stop_redis
            )()
            fault = Fault(kind, self.struck, self.now(), detail)
            self.log.append(fault)
            print(f"[{clock(fault.started)}] fault: {NAMES[kind]}: {detail}", flush=True)

    def stop(self) -> None:
        """No fault after this; one under way is undone first."""
        self.stopping.set()
        self.join()

    def kill_worker(self) -> str:
        """``kill -9`` of the worker, in the middle of a task if one starts within 15 s."""
        deadline = time.monotonic() + 15
        pids, task = self.site.worker_pids(), ""
        while time.monotonic() < deadline:
            pids = self.site.worker_pids()
            task = running_task(self.postgres.url, pids[0]) if len(pids) == 1 else ""
            if task:
                break
            time.sleep(0.2)
        if not pids:
            return "no worker was running (make serve was starting it again)"
        self.struck = self.now()
        os.kill(pids[0], signal.SIGKILL)
        killed = time.monotonic()
        try:
            wait_until("a new worker", lambda: bool(set(self.site.worker_pids()) - {pids[0]}), 30)
        except RuntimeError:
            return f"pid {pids[0]} killed {f'running {task}' if task else 'idle'}; no new worker!"
        back = time.monotonic() - killed
        return (
            f"pid {pids[0]} killed {f'while running {task}' if task else 'between tasks'}, "
            f"make serve started a new one {back:.1f} s later"
        )

    def stop_postgres(self) -> str:
        down = self.random.uniform(3, 10)
        self.postgres.stop()
        time.sleep(down)
        self.postgres.start()
        return f"`pg_ctl stop -m fast`, started again {down:.1f} s later"

    def stop_redis(self) -> str:
        down = self.random.uniform(2, 6)
        self.redis.stop()
        time.sleep(down)
        self.redis.start()
        return f"`shutdown nosave`, started again {down:.1f} s later"


def running_task(database: str, pid: int) -> str:
    """The task the worker ``pid`` runs now (its path), or ""."""
    query = (
        "SELECT r.task_path FROM django_tasks_database_dbtaskresult r "
        "JOIN ops_workerbeat b ON r.worker_ids ->> -1 = b.worker_id "
        "WHERE r.status = 'RUNNING' AND b.pid = %s"
    )
    try:
        with psycopg.connect(database, connect_timeout=3) as connection:
            row = connection.execute(query, [pid]).fetchone()
    except psycopg.Error:
        return ""
    return str(row[0]) if row else ""


def queue_busy(database: str) -> tuple[int, int] | None:
    """Tasks waiting or running, and results waiting to be rated; None if the database
    cannot be asked."""
    try:
        with psycopg.connect(database, connect_timeout=3) as connection:
            busy = connection.execute(
                "SELECT count(*) FROM django_tasks_database_dbtaskresult "
                "WHERE status IN ('READY', 'RUNNING')"
            ).fetchone()
            pending = connection.execute("SELECT count(*) FROM ratings_pendingrerate").fetchone()
    except psycopg.Error:
        return None
    return (busy[0] if busy else 0), (pending[0] if pending else 0)


def clock(seconds: float) -> str:
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True)
