"""The Swedish catalogue uses the glossary's word for each term (docs/glossary.md)."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
CATALOGUE = ROOT / "locale" / "sv" / "LC_MESSAGES" / "django.po"


def glossary() -> list[tuple[str, list[str]]]:
    """(English term, Swedish forms) of each row the test checks, longest terms first."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        english, swedish, _meaning = cells
        if "(" in english:  # a term named with its sense: checked by reading
            continue
        rows.append((english, [form.strip().lower() for form in swedish.split("/")]))
    return sorted(rows, key=lambda row: -len(row[0]))


def mentions(term: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(term)}s?\b", re.IGNORECASE)


def test_the_glossary_names_the_terms_the_issue_asks_for() -> None:
    documented = GLOSSARY.read_text(encoding="utf-8").lower()
    for term in (
        "match", "game", "game points", "skunk", "double skunk", "bye", "score group",
        "float", "spread", "buchholz", "final (a result)", "confirm", "play-off",
        "final (the last play-off round)",
    ):  # fmt: skip
        assert f"| {term}" in documented, term


@pytest.mark.parametrize(("term", "forms"), glossary(), ids=lambda value: str(value))
def test_the_swedish_catalogue_says_each_term_with_its_glossary_word(
    term: str, forms: list[str]
) -> None:
    longer = [other for other, _forms in glossary() if term in other and other != term]
    wrong = []
    for entry in polib.pofile(str(CATALOGUE)):
        if entry.obsolete:
            continue
        english = " ".join(filter(None, [entry.msgid, entry.msgid_plural]))
        for other in longer:
            english = mentions(other).sub("", english)
        if not mentions(term).search(english):
            continue
        swedish = " ".join([entry.msgstr, *entry.msgstr_plural.values()]).lower()
        if not any(form in swedish for form in forms):
            wrong.append(f"{entry.msgid!r} -> {swedish!r}")
    assert not wrong, f"{term!r} is not said as {' / '.join(forms)!r} in: {wrong}"
