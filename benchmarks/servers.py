"""The servers a benchmark starts for itself and stops after the run: a folder, a
PostgreSQL cluster and a Redis of the run's own (``benchmarks.soak_servers``), and, on
them, ``make serve`` itself.

Used by the soak test (``benchmarks/soak.py``), the practice decisions over HTTP
(``benchmarks/practice_http.py``) and moves pushed (``benchmarks/push.py``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from benchmarks.soak_servers import Postgres, Redis, Site, free_port, manage


def environment(database: str, cache: str, folder: Path) -> dict[str, str]:
    """``make serve``'s settings: production's, on the run's own servers."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database,
        "CACHE_URL": cache,
        "DEBUG": "0",
        "SECRET_KEY": "soak-test-only-" + os.urandom(16).hex(),
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CLIENT_IP_HEADER": "X-Forwarded-For",
        "LOG_LEVEL": "WARNING",
        "VENUE_FILE": str(folder / "venue.json"),
    }


@dataclass
class OwnServers:
    """A run's folder, its PostgreSQL and its Redis, both running; ``site`` once served."""

    folder: Path
    postgres: Postgres
    redis: Redis
    site: Site | None = None

    def migrated(self) -> dict[str, str]:
        """``make serve``'s settings on these servers, the database migrated."""
        env = environment(self.postgres.url, self.redis.url, self.folder)
        manage(env, "manage.py", "migrate", "--noinput", "-v", "0")
        return env

    def serve(self, env: dict[str, str]) -> Site:
        """``make serve`` on a free port, its log in the folder; stopped with the servers."""
        self.site = Site(env, free_port(), self.folder / "site.log")
        self.site.start()
        return self.site


@contextmanager
def own_servers(prefix: str, *, keep: bool = False) -> Iterator[OwnServers]:
    """A new folder (named from ``prefix``), PostgreSQL and Redis, started; afterwards the
    site (if served), Redis and PostgreSQL stopped and, unless ``keep``, every folder
    removed."""
    servers = OwnServers(Path(tempfile.mkdtemp(prefix=prefix)), Postgres(), Redis())
    try:
        servers.postgres.create()
        servers.redis.start()
        yield servers
    finally:
        if servers.site is not None:
            servers.site.stop()
        servers.redis.close(keep=keep)
        servers.postgres.close(keep=keep)
        if keep:
            print(f"Kept: {servers.folder}, {servers.postgres.folder}, {servers.redis.folder}")
        else:
            shutil.rmtree(servers.folder, ignore_errors=True)
