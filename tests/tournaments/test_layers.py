"""The tournament app's layers (docs/style.md §3): views read through selectors and write through
services; the bridge to the algorithms is for selectors and services, and one view module
never imports another (they share the plumbing in ``views.common`` and ``views.conditional``,
and what two pages show in ``tournaments.presenters``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "tournaments"
VIEWS = sorted((APP / "views").glob("*.py")) + [APP / "printing" / "views.py"]
PLUMBING = {"tournaments.views.common", "tournaments.views.conditional"}


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, and each name it imports from a package as a module."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("view", VIEWS, ids=lambda path: str(path.relative_to(APP)))
def test_a_view_module_imports_neither_the_bridge_nor_another_view(view: Path) -> None:
    names = imported(view)
    assert "tournaments.bridge" not in names
    other_views = {
        name for name in names if name.startswith("tournaments.views.") and name.count(".") == 2
    }
    assert other_views <= PLUMBING
