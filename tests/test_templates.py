"""The templates' own syntax: a ``{# #}`` comment ends on its line (Django shows the text of
one that does not, on every page that extends it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_short_comment_ends_on_its_own_line() -> None:
    unclosed = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert not unclosed, f"use {{% comment %}} for a comment of several lines: {unclosed}"


@pytest.mark.django_db
def test_no_comment_shows_on_a_page(client: Client) -> None:
    html = client.get("/").content.decode()
    assert "{#" not in html
    assert "#}" not in html
