"""axe-core on every page of the demo data, in Swedish and in English: nothing serious.

axe-core is run from the copy ``axe-playwright-python`` ships (no CDN) on the pages a
visitor, a player and an organiser reach, the practice game included with its "show
all at once" button on view, as it is while the latest moves are told. Any violation
of impact serious or critical (contrast among them) fails, listed by page and rule.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.demo import DEMO_ORGANISER, DEMO_PLAYER
from tests.demo_pages import organiser_pages, public_pages
from tests.test_browser_phone import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIOUS = ("serious", "critical")


def violations(page: Any, axe: Any) -> list[str]:
    found = axe.run(page).response["violations"]
    return [
        f"{rule['id']} ({rule['impact']}): {node['target']}"
        for rule in found
        if rule["impact"] in SERIOUS
        for node in rule["nodes"][:3]
    ]


@pytest.mark.parametrize("language", ["sv", "en"])
def test_no_serious_accessibility_violation_on_any_page(
    db: None, browser: Any, live_server: Any, language: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    call_command("seed_demo", stdout=None)
    axe = Axe()
    paths = public_pages()
    found: list[str] = []
    for who in (None, DEMO_PLAYER, DEMO_ORGANISER):
        context = browser.new_context(locale="sv-SE" if language == "sv" else "en-GB")
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.base = live_server.url
        seen = list(paths)
        if who is not None:
            log_in(page, *who)
            seen += [reverse("account"), reverse("password_change")]
        if who == DEMO_ORGANISER:
            seen += organiser_pages()
        for path in seen:
            page.goto(page.base + path)
            found += [f"{who[0] if who else 'visitor'} {path}: {v}" for v in violations(page, axe)]
        page.goto(page.base + reverse("play:index"))
        page.locator("form.start-form button[type=submit]").click()
        page.wait_for_url("**/play/*/")
        page.wait_for_load_state()
        page.evaluate(
            "document.querySelectorAll('[data-news-skip]').forEach(b => b.hidden = false)"
        )
        found += [f"game {page.url}: {v}" for v in violations(page, axe)]
        context.close()
    assert not found, "\n".join(found)
