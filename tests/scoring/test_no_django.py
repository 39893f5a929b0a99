"""The engine imports nothing from Django (docs/style.md §2): every module of ``scoring``,
imported in a fresh interpreter, leaves ``django`` out of ``sys.modules``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import scoring
names = ["scoring"] + [m.name for m in pkgutil.walk_packages(scoring.__path__, "scoring.")]
for name in names:
    if name != "scoring.__main__":  # running it would start the command line
        importlib.import_module(name)
print(json.dumps({
    "modules": names,
    "django": sorted(m for m in sys.modules if m == "django" or m.startswith("django.")),
}))
"""


def test_no_scoring_module_imports_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found = json.loads(done.stdout.splitlines()[-1])
    assert {
        "scoring.rules.cards",
        "scoring.rules.game",
        "scoring.rules.match",
        "scoring.rules.replay",
    } <= set(found["modules"])
    assert found["django"] == []
