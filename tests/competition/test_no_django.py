"""The rules of a competition import nothing from Django (docs/style.md §2): every module
of ``competition``, imported in a fresh interpreter, leaves ``django`` out of
``sys.modules``; and the check itself sees a module that does import it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
names = [package.__name__] + [
    m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
]
for name in names:
    importlib.import_module(name)
print(json.dumps({
    "modules": names,
    "django": sorted(m for m in sys.modules if m == "django" or m.startswith("django.")),
}))
"""


def imported(package: str, *path: Path) -> dict[str, list[str]]:
    """The modules of ``package`` and the Django modules loaded by importing them all."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING, package],
        cwd=ROOT,
        env={"PYTHONPATH": ":".join(str(p) for p in (*path, ROOT)), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_no_competition_module_imports_django() -> None:
    found = imported("competition")
    assert {
        "competition.field",
        "competition.matching",
        "competition.pairing",
        "competition.playoff",
        "competition.seeding",
        "competition.standings",
    } <= set(found["modules"])
    assert found["django"] == []


def test_the_check_sees_a_module_that_imports_django(tmp_path: Path) -> None:
    package = tmp_path / "rules_with_words"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plain.py").write_text("import json\n")
    (package / "worded.py").write_text("from django.utils.translation import gettext\n")
    found = imported("rules_with_words", tmp_path)
    assert "rules_with_words.worded" in found["modules"]
    assert "django.utils.translation" in found["django"]
