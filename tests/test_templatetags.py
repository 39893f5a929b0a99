"""Template tags format what the view or presenter read; they read nothing themselves.

The import contract in pyproject.toml keeps selectors, services and ports out of every
``templatetags`` package; this test keeps models out too, but for the types a tag's
arguments are annotated with (under ``TYPE_CHECKING``): a model imported at run time
is a query a template could run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TAG_MODULES = sorted(
    path
    for path in ROOT.glob("*/templatetags/*.py")
    if ".venv" not in path.parts and path.name != "__init__.py"
)


def models_imported_at_run_time(tree: ast.Module) -> list[str]:
    """The ``*.models`` modules ``tree`` imports outside an ``if TYPE_CHECKING:`` block."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and inner.module:
                names = [inner.module, *(f"{inner.module}.{a.name}" for a in inner.names)]
            elif isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            else:
                continue
            found += [name for name in names if name.endswith(".models")][:1]
    return found


def test_there_are_tag_modules_to_check() -> None:
    assert {path.parent.parent.name for path in TAG_MODULES} >= {"tournaments", "play"}


@pytest.mark.parametrize(
    "path", TAG_MODULES, ids=lambda path: f"{path.parent.parent.name}.{path.stem}"
)
def test_a_tag_module_imports_models_only_for_their_types(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert models_imported_at_run_time(tree) == []


def test_the_check_finds_a_model_imported_at_run_time() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "from tournaments.models import Tournament\n"
        "if TYPE_CHECKING:\n"
        "    from play.models import OnlineGame\n"
    )
    assert models_imported_at_run_time(tree) == ["tournaments.models"]
