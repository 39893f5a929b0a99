"""Every package the code imports is declared in pyproject.toml (docs/operating.md, Dependencies).

The site's code (what the production image carries) may import only the runtime
dependencies; the tests and the load test may also import the ``dev`` extra. An import is
mapped to the distribution that provides it through the installed packages' metadata.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from tests.first_party import DEVELOPMENT, SITE

ROOT = Path(__file__).resolve().parent.parent
OWN = {place.removesuffix(".py") for place in SITE} | set(DEVELOPMENT)


def normalised(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return normalised(match.group(1))


def declared() -> tuple[set[str], set[str]]:
    """The runtime dependencies and the ``dev`` extra's, by distribution name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {requirement_name(line) for line in project["dependencies"]}
    dev = {requirement_name(line) for line in project["optional-dependencies"]["dev"]}
    return runtime, dev


def python_files(places: Iterable[str]) -> Iterator[Path]:
    for place in places:
        path = ROOT / place
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def top_level_imports(path: Path) -> set[str]:
    """The top-level modules a file imports, at any depth of the file (absolute imports)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def undeclared(places: Iterable[str], allowed: set[str]) -> dict[str, list[str]]:
    """Third-party imports in these places whose distribution is not ``allowed``."""
    providers = packages_distributions()
    missing: dict[str, list[str]] = {}
    for path in python_files(places):
        for name in top_level_imports(path) - OWN - set(sys.stdlib_module_names):
            distributions = {normalised(d) for d in providers.get(name, [])}
            if not distributions & allowed:
                missing.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return missing


def test_the_site_imports_only_its_runtime_dependencies() -> None:
    runtime, _ = declared()
    assert undeclared(SITE, runtime) == {}


def test_the_tests_and_the_load_test_import_only_declared_packages() -> None:
    runtime, dev = declared()
    assert undeclared(DEVELOPMENT, runtime | dev) == {}


def test_an_undeclared_import_is_found(tmp_path: Path) -> None:
    runtime, _ = declared()
    assert "pytest" not in runtime
    assert top_level_imports(Path(__file__)) >= {"pytest", "ast"}
    assert "pytest" in undeclared(["tests/test_dependencies.py"], runtime)


@pytest.mark.parametrize("lock", ["requirements.txt", "requirements-dev.txt"])
def test_each_lock_pins_every_package_with_its_hashes(lock: str) -> None:
    """The locks come from pyproject.toml (``make lock``) and pin every version by hash."""
    text = (ROOT / lock).read_text(encoding="utf-8")
    pins = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._\[\]-]*)==\S+ \\\n\s+--hash=sha256:", text, re.M)
    runtime, dev = declared()
    wanted = runtime | (dev if lock == "requirements-dev.txt" else set())
    assert wanted <= {normalised(pin.split("[")[0]) for pin in pins}
    unpinned = [
        line
        for line in text.splitlines()
        if line and not line.startswith((" ", "#", "-")) and "==" not in line
    ]
    assert unpinned == []


def test_the_runtime_lock_has_no_development_tool() -> None:
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8").lower()
    for tool in ["pytest", "mypy", "ruff", "playwright", "locust", "hypothesis", "factory-boy"]:
        assert not re.search(rf"^{tool}==", text, re.M), tool
