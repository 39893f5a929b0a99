"""The engine's layout: the rules import no computer player or tool, the players no tool,
and no module imports another that imports it back (imports inside functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "scoring"
LAYERS = {"rules": 0, "players": 1, "tools": 2}


def imports() -> dict[str, set[str]]:
    """Each engine module (``scoring.rules.game``...) with the engine modules it imports."""
    found: dict[str, set[str]] = {}
    for path in ENGINE.rglob("*.py"):
        name = ".".join(("scoring", *path.relative_to(ENGINE).with_suffix("").parts))
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        found[name.removesuffix(".__init__")] = names
    return {name: {m for m in ms if m in found and m != name} for name, ms in found.items()}


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 2 else None


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = [
        (module, target)
        for module, targets in imports().items()
        for target in targets
        if layer(module) is not None and (layer(target) or 0) > (layer(module) or 0)
    ]
    assert wrong == []
    assert {layer(m) for m in imports()} >= {0, 1, 2}


def test_no_engine_modules_import_each_other_in_a_circle() -> None:
    graph = {m: {t for t in ts if t != "scoring"} for m, ts in imports().items() if m != "scoring"}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path[path.index(module) :], module))
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())
