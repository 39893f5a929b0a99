"""The house's floors (README, Map of the code): ``config`` is the roof that nothing of the
site imports, ``demo`` the attic that may import every app and that no app imports, and
``core`` the floor under the apps, which imports none of them. The register (``club``)
imports neither the games (``play``) nor the tournaments."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ["core", "ops", "club", "play", "tournaments", "ratings", "scoring"]


def importers(place: str, of: set[str]) -> list[str]:
    """The files under ``place`` that import from any of the top-level packages ``of``."""
    assert (ROOT / place).is_dir(), place
    found = []
    for path in sorted((ROOT / place).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = {node.module.split(".")[0]}
            else:
                continue
            if names & of:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_the_roof_or_the_demo(app: str) -> None:
    assert importers(app, {"config", "demo"}) == []


def test_core_imports_no_app() -> None:
    assert importers("core", {"club", "play", "tournaments", "ratings", "demo", "config"}) == []


def test_the_task_machinery_imports_no_app() -> None:
    """``ops`` (the worker, its beats and reruns) serves every app and knows none."""
    assert importers("ops", {"club", "play", "tournaments", "ratings", "demo", "config"}) == []


def test_the_register_imports_neither_the_games_nor_the_tournaments() -> None:
    assert importers("club", {"play", "tournaments"}) == []
