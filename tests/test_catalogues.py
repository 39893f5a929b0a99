"""The Swedish catalogue translates every string the code and templates mark, none fuzzy.

The catalogue is made again from the sources in a copy of the project (``makemessages``,
as ``make messages`` does), so a marked string the catalogue lacks fails here, not on a
Swedish page. A string marked inside an f-string is never extracted at all: those are
found in the code itself.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tests.conftest import skip_or_fail
from tests.first_party import SITE

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (*SITE, "templates", "locale")


def _entries(po: str) -> list[tuple[str, str, str]]:
    """(flags, msgid, msgstr) of each live entry, the header left out."""
    found = []
    for block in po.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        if not any(line.startswith("msgid") for line in lines):
            continue
        flags = " ".join(line for line in lines if line.startswith("#,"))
        fields: dict[str, str] = {}
        key = ""
        for line in lines:
            if line.startswith(("msgctxt", "msgid", "msgstr")):
                key, _, rest = line.partition(" ")
                key = key.removesuffix("[0]")  # a plural's first form stands for it
                fields[key] = rest.strip('"')
            elif line.startswith('"') and key:
                fields[key] += line.strip('"')
        if fields.get("msgid"):
            found.append((flags, fields["msgid"], fields.get("msgstr", "")))
    return found


def test_every_marked_string_is_translated_into_swedish(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        skip_or_fail("GNU gettext is not installed (apt-get install gettext)")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "sv", "--ignore=.venv"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "PYTHONPATH": str(tmp_path)},
        check=True,
        capture_output=True,
        timeout=300,
    )
    entries = _entries((tmp_path / "locale/sv/LC_MESSAGES/django.po").read_text("utf-8"))
    assert len(entries) > 800
    assert [msgid for flags, msgid, msgstr in entries if not msgstr] == []
    assert [msgid for flags, msgid, msgstr in entries if "fuzzy" in flags] == []


@pytest.mark.parametrize(
    ("po", "untranslated", "fuzzy"),
    [
        ('msgid "A"\nmsgstr "Ett"\n\n#, fuzzy\nmsgid "B"\nmsgstr "Bi"\n', [], ["B"]),
        ('msgid "A"\nmsgstr ""\n\n#~ msgid "Old"\n#~ msgstr ""\n', ["A"], []),
        ('msgid ""\n"Long "\n"one"\nmsgstr ""\n"Lång"\n', [], []),
        ('msgid "%(n)s card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] "%(n)s kort"\n', [], []),
        ('msgid "%(n)s card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] ""\n', ["%(n)s card"], []),
    ],
)
def test_the_catalogue_reader_sees_untranslated_and_fuzzy_entries(
    po: str, untranslated: list[str], fuzzy: list[str]
) -> None:
    entries = _entries(po)
    assert [msgid for _, msgid, msgstr in entries if not msgstr] == untranslated
    assert [msgid for flags, msgid, _ in entries if "fuzzy" in flags] == fuzzy


TRANSLATING = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ngettext"}


def test_no_string_is_marked_for_translation_inside_an_f_string() -> None:
    marked = []
    for app in ("config", "core", "club", "play", "printing", "tournaments", "ratings", "demo"):
        for path in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for inner in ast.walk(node):
                    name = getattr(getattr(inner, "func", None), "id", None)
                    if isinstance(inner, ast.Call) and name in TRANSLATING:
                        marked.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert marked == []


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_compiled_catalogue_is_the_catalogue(language: str) -> None:
    """The pages read the compiled ``.mo``: every translation in the ``.po`` is in it, as
    written (``compilemessages`` skips a ``.mo`` newer than its ``.po``, so a merge that
    kept an old ``.mo`` showed English on Swedish pages)."""
    folder = ROOT / "locale" / language / "LC_MESSAGES"
    written = {
        (entry.msgctxt, entry.msgid): entry.msgstr or entry.msgstr_plural.get(0, "")
        for entry in polib.pofile(str(folder / "django.po")).translated_entries()
    }
    compiled = {
        (entry.msgctxt, entry.msgid): entry.msgstr or entry.msgstr_plural.get(0, "")
        for entry in polib.mofile(str(folder / "django.mo"))
        if entry.msgid
    }
    assert {key: text for key, text in written.items() if compiled.get(key) != text} == {}
