"""A Swedish page says nothing in English: none of the English catalogue's own sentences.

Every page of the demo data is drawn in Swedish, for a visitor, a player and an
organiser, a practice game with its log among them. The English catalogue's own
strings are the msgids the Swedish catalogue translates differently; a stretch of
three words or more of one (between its placeholders) found in a page's text is
English that escaped translation.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse

from tests.demo_pages import READERS, pages_for

pytestmark = pytest.mark.django_db

CATALOGUE = Path(__file__).resolve().parent.parent / "locale" / "sv" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")
TAG = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.DOTALL)


def english_phrases() -> set[str]:
    """Stretches of three words or more of each English string Swedish translates."""
    phrases = set()
    for entry in polib.pofile(str(CATALOGUE)):
        if entry.obsolete or not entry.msgstr or entry.msgstr == entry.msgid:
            continue
        for english in filter(None, [entry.msgid, entry.msgid_plural]):
            for stretch in PLACEHOLDER.split(english):
                stretch = " ".join(stretch.split()).strip(" .,:;·–-()")
                if len(stretch.split()) >= 3:
                    phrases.add(stretch)
    return phrases


def text_of(page: str) -> str:
    return " ".join(html.unescape(TAG.sub(" ", page)).split())


def test_the_phrases_are_found_where_english_is_shown() -> None:
    phrases = english_phrases()
    assert "Report or confirm the result" in phrases
    marked_up = text_of("<p>You have the bye this round: it <b>counts</b> as a won match.</p>")
    assert "You have the bye this round: it counts as a won match" in marked_up
    english = Client(headers={"Accept-Language": "en"}).get(reverse("home"))
    assert any(phrase in text_of(english.content.decode()) for phrase in phrases)


def test_no_swedish_page_shows_english(demo: str, client: Client) -> None:
    phrases = english_phrases()
    found = []
    for who in READERS:
        reader = Client()  # Swedish: the site's language
        paths = pages_for(who)
        if who is not None:
            assert reader.login(username=who[0], password=who[1])
        started = reader.post(reverse("play:start"), {"level": "expert", "best_of": "1"})
        assert started.status_code == 302
        paths.append(started["Location"])
        for path in paths:
            response = reader.get(path)
            assert response.status_code == 200, (path, response.status_code)
            text = text_of(response.content.decode())
            found += [f"{path}: {phrase!r}" for phrase in phrases if phrase in text]
    assert not found, "\n".join(sorted(set(found)))
