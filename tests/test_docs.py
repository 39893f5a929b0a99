"""The documents the code cites are in the repository, and say what is cited.

Code and documents cite docs/ by path (``docs/pairing.md``), and the rules and the style
by section (``docs/rules.md §2.5``, ``docs/style.md §3``): every path must exist and every
section must be a heading of its document. Nothing cites the rules or the style documents
that lived outside the repository before docs/rules.md and docs/style.md were written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SKIPPED = {".git", ".venv", "node_modules", "var", "staticfiles", "media", "build", "__pycache__"}
TEXT = {".py", ".md", ".html", ".txt", ".toml", ".js", ".css", ".sh", ".yml", ".yaml", ".cfg"}
NAMED = {"Makefile", "Dockerfile", "run", ".dockerignore"}

CITED_PATH = re.compile(r"(?<![\w/.-])docs/[\w.-]+(?:/[\w.-]+)*")
# "docs/rules.md §2.9, §3, §4.1", "[rules.md](rules.md) §5", "rules.md §4.4's example".
CITED_SECTIONS = re.compile(
    r"(?<![\w-])(?:docs/)?(rules|style)\.md\)?((?:[ \t\n]*(?:,|and|to)?[ \t\n]*§\d+(?:\.\d+)?)+)"
)
NUMBER = re.compile(r"§(\d+(?:\.\d+)?)")
OUTSIDE = re.compile(r"\b(?:RULES|STYLE)\.md\b|\bRULES (?:section )?\d")


def text_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*")):
        parts = set(path.relative_to(ROOT).parts)
        if parts & SKIPPED or not path.is_file() or path == Path(__file__):
            continue
        if path.suffix in TEXT or path.name in NAMED:
            yield path


def citations(pattern: re.Pattern[str]) -> Iterator[tuple[str, re.Match[str]]]:
    for path in text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            yield f"{path.relative_to(ROOT)}:{line}", match


def sections(document: str) -> set[str]:
    """The numbers of the document's headings: "## 4. A tournament", "### 4.4 Pairing"."""
    text = (DOCS / f"{document}.md").read_text(encoding="utf-8")
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", text, flags=re.MULTILINE))


def test_every_cited_document_exists() -> None:
    cited = list(citations(CITED_PATH))
    assert any(match.group() == "docs/rules.md" for _, match in cited)
    missing = [
        f"{where}: {match.group()}"
        for where, match in cited
        if not (ROOT / match.group().rstrip(".")).exists()
    ]
    assert missing == []


@pytest.mark.parametrize("document", ["rules", "style"])
def test_every_cited_section_is_a_heading(document: str) -> None:
    known = sections(document)
    cited = [
        (where, number)
        for where, match in citations(CITED_SECTIONS)
        if match.group(1) == document
        for number in NUMBER.findall(match.group(2))
    ]
    assert cited, f"nothing cites docs/{document}.md by section"
    unknown = [f"{where}: §{number}" for where, number in cited if number not in known]
    assert unknown == []


def test_nothing_cites_the_documents_outside_the_repository() -> None:
    found = [f"{where}: {match.group()}" for where, match in citations(OUTSIDE)]
    assert found == []


def test_the_check_reads_a_citation_in_each_form() -> None:
    text = "see docs/rules.md §2.9, §3 and §4.1, [rules.md](rules.md) §5 and docs/style.md §3."
    found = [
        (match.group(1), NUMBER.findall(match.group(2))) for match in CITED_SECTIONS.finditer(text)
    ]
    assert found == [("rules", ["2.9", "3", "4.1"]), ("rules", ["5"]), ("style", ["3"])]
    outside = ["(RULES.md 4)", "(RULES 2.5)", "RULES_EXAMPLES = [", "STYLESHEET"]
    assert [bool(OUTSIDE.search(text)) for text in outside] == [True, True, False, False]
