"""A fresh checkout, as the README runs it: neither DEBUG nor SECRET_KEY set.

The release step (``manage.py release``: what ``make release`` and ``make serve`` run, and
the Docker image's ``release``) collects the static files and migrates; the web server
then serves a page and its stylesheet (what ``make serve`` does). The README's commands
run without a traceback; a setting the site cannot work with, or a missing SECRET_KEY
where pages are served, is said in one line (config/startup.py).

Each command runs as the README says, in a process of its own (``manage.py`` with this
interpreter), on a temporary SQLite database, cache and ``STATIC_ROOT``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
# What config/settings.py reads (and the test settings set): none of it on a checkout.
SETTINGS_VARIABLES = {
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "CONN_MAX_AGE",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL",
    "SECURE_HSTS_SECONDS",
    "EMAIL_URL",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "EMAIL_TIMEOUT",
    "DEFAULT_FROM_EMAIL",
    "CACHE_URL",
    "TASKS_BACKEND",
    "STATIC_ROOT",
    "CLIENT_IP_HEADER",
}
SECRET_KEY = "a-checkout-test-secret-key-long-and-random-enough-" + "x7Qp" * 4


@dataclass(frozen=True)
class Checkout:
    folder: Path

    @property
    def static_root(self) -> Path:
        return self.folder / "static"

    @property
    def database(self) -> Path:
        """Migrated by the release step, and nothing else (a copy is taken before use)."""
        return self.folder / "released.sqlite3"

    def environment(
        self, database: Path | None = None, variables: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        environment = {
            name: value for name, value in os.environ.items() if name not in SETTINGS_VARIABLES
        }
        environment |= {
            "DATABASE_URL": f"sqlite:///{database or self.database}",
            "CACHE_URL": f"file://{self.folder / 'cache'}",
            "STATIC_ROOT": str(self.static_root),
        }
        return environment | dict(variables or {})

    def copy(self, name: str) -> Path:
        copy = self.folder / f"{name}.sqlite3"
        shutil.copyfile(self.database, copy)
        return copy

    def manage(
        self,
        *arguments: str,
        database: Path | None = None,
        variables: Mapping[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *arguments],
            cwd=ROOT,
            env=self.environment(database, variables),
            capture_output=True,
            text=True,
            timeout=300,
        )


def clean(result: subprocess.CompletedProcess[str]) -> str:
    """The output of a command that ran to its end without a traceback."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode == 0, output
    return result.stdout


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one line of a command that refused to run: exit status 1, nothing else said."""
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@dataclass(frozen=True)
class Released:
    checkout: Checkout
    result: subprocess.CompletedProcess[str]


@dataclass(frozen=True)
class Simulated:
    database: Path
    result: subprocess.CompletedProcess[str]

    @property
    def slug(self) -> str:
        return self.result.stdout.splitlines()[-1]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Checkout:
    """A fresh checkout: no database, no static files collected."""
    return Checkout(tmp_path_factory.mktemp("checkout"))


@pytest.fixture(scope="module")
def released(fresh: Checkout) -> Released:
    """The release step on a fresh checkout."""
    return Released(fresh, fresh.manage("release"))


@pytest.fixture(scope="module")
def checkout(released: Released) -> Checkout:
    """The checkout after its release step: the tests take copies of its database."""
    clean(released.result)
    return released.checkout


@pytest.fixture(scope="module")
def tournament(checkout: Checkout) -> Simulated:
    """A copy of the released database with the README's rehearsal, a little smaller."""
    database = checkout.copy("tournament")
    simulated = checkout.manage(
        "simulate_tournament", "--players", "8", "--rounds", "2", "--seed", "7",
        database=database,
    )  # fmt: skip
    return Simulated(database, simulated)


def test_the_release_step_runs_without_debug_or_a_secret_key(released: Released) -> None:
    output = clean(released.result)
    assert "static files copied" in output
    assert "Applying tournaments.0001_initial... OK" in output
    manifest = json.loads((released.checkout.static_root / "staticfiles.json").read_text())
    assert "css/site.css" in manifest["paths"]


def test_the_release_step_again_keeps_the_static_files_it_collected(checkout: Checkout) -> None:
    manifest = checkout.static_root / "staticfiles.json"
    before = manifest.stat().st_mtime_ns
    output = clean(checkout.manage("release", database=checkout.copy("again")))
    assert "from these sources already" in output
    assert manifest.stat().st_mtime_ns == before


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get(url: str) -> tuple[int, str, bytes]:
    # As the proxy in front says it (SECURE_SSL is on by default: plain HTTP is redirected).
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers["Content-Type"], response.read()


@pytest.fixture
def server(checkout: Checkout) -> Iterator[str]:
    """gunicorn as ``make serve`` starts it, after the release step, with a SECRET_KEY."""
    port = free_port()
    environment = checkout.environment(checkout.copy("served"), {"SECRET_KEY": SECRET_KEY})
    log = checkout.folder / "gunicorn.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [GUNICORN, "config.asgi:application", "-k", "uvicorn_worker.UvicornWorker",
             "--bind", f"127.0.0.1:{port}", "--workers", "1"],
            cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            try:
                if get(f"{url}/ping/")[2] == b"ok":
                    break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_after_the_release_step_the_site_serves_a_page_and_its_stylesheet(server: str) -> None:
    status, content_type, page = get(f"{server}/")
    assert (status, content_type.split(";")[0]) == (200, "text/html")
    stylesheet = re.search(rb'<link rel="stylesheet" href="(/static/css/site\.\w+\.css)"', page)
    assert stylesheet is not None, page[:2000]
    status, content_type, css = get(server + stylesheet.group(1).decode())
    assert (status, content_type.split(";")[0]) == (200, "text/css")
    assert css


def test_simulate_tournament(tournament: Simulated) -> None:
    assert "Winner:" in clean(tournament.result)
    assert tournament.slug.startswith("simulated-tournament-7-")


@pytest.mark.parametrize(
    ("arguments", "printed"),
    [
        (("player_links", "SLUG", "--base-url", "https://club.example.se"), "\thttps://club"),
        (("export_tournament", "SLUG"), '"rounds"'),
        (("recompute_ratings",), ""),
    ],
    ids=["player_links", "export_tournament", "recompute_ratings"],
)
def test_a_readme_command_runs_without_debug_or_a_secret_key(
    checkout: Checkout, tournament: Simulated, arguments: tuple[str, ...], printed: str
) -> None:
    arguments = tuple(tournament.slug if word == "SLUG" else word for word in arguments)
    assert printed in clean(checkout.manage(*arguments, database=tournament.database))


def test_backup_and_restore(checkout: Checkout, tournament: Simulated) -> None:
    backup = checkout.folder / "club.backup.gz"
    assert "Backed up" in clean(
        checkout.manage("backup", "--output", str(backup), database=tournament.database)
    )
    empty = checkout.copy("restored")
    assert "Restored" in clean(checkout.manage("restore", str(backup), database=empty))


def test_runserver_without_debug_asks_for_the_secret_key_in_one_line(fresh: Checkout) -> None:
    line = one_line(fresh.manage("runserver", "127.0.0.1:0", "--noreload"))
    assert line.startswith("SECRET_KEY: not set; manage.py runserver needs it")


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("CACHE_URL", "memcached://cache.example.se"),
        ("CACHE_URL", "redis://cache.example.se/0?timeout=soon"),
        ("DATABASE_URL", "mysql://club:hunter2@db.example.se/club"),
        ("DATABASE_URL", "postgres://club:hunter2@db.example.se:port/club"),
        ("EMAIL_URL", "smtp://club:hunter2@mail.example.se:port"),
        ("EMAIL_URL", "smtp://mail.example.se?tls=1&ssl=1"),
        ("EMAIL_PORT", "smtp"),
        ("CONN_MAX_AGE", "soon"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_variable(
    fresh: Checkout, variable: str, value: str
) -> None:
    variables = {variable: value}
    if variable == "EMAIL_PORT":
        variables["EMAIL_HOST"] = "mail.example.se"
    line = one_line(fresh.manage("migrate", variables=variables))
    assert line.startswith(f"{variable}: "), line
    assert "hunter2" not in line


def test_check_deploy_still_reports_a_missing_secret_key(fresh: Checkout) -> None:
    result = fresh.manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 1
    assert "security.W009" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_wsgi_application_refuses_to_load_without_a_secret_key(fresh: Checkout) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=ROOT, env=fresh.environment(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "django.core.exceptions.ImproperlyConfigured: SECRET_KEY: not set; the web server "
        "needs it when DEBUG is off (set SECRET_KEY to a long random string, or DEBUG=1 for "
        "development)."
    )


def test_gunicorn_refuses_to_start_without_a_secret_key_in_one_line(fresh: Checkout) -> None:
    result = subprocess.run(
        [GUNICORN, "config.wsgi:application", "--bind", f"127.0.0.1:{free_port()}"],
        cwd=ROOT, env=fresh.environment(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    said = [line for line in result.stderr.splitlines() if "[INFO]" not in line]
    assert result.returncode == 1
    assert said == [
        "SECRET_KEY: not set; the web server needs it when DEBUG is off (set SECRET_KEY to a "
        "long random string, or DEBUG=1 for development)."
    ], result.stderr


def test_make_serve_and_the_docker_image_run_the_one_release_step() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^serve: release$", makefile, re.M)
    assert re.search(r"^release: install\n\t\$\(PY\) manage\.py release\n", makefile, re.M)
    entrypoint = (ROOT / "docker-entrypoint.sh").read_text()
    assert re.search(r"release\)\n\s+shift\n\s+exec python manage\.py release \"\$@\"", entrypoint)
    # The image collects the static files when it is built: its `release` finds them there.
    assert "RUN python manage.py release --static-only" in (ROOT / "Dockerfile").read_text()
