"""axe-core on every page of the demo data, in Swedish and in English: nothing serious.

axe-core is run from the copy ``axe-playwright-python`` ships (no CDN) on the pages a
visitor, a player and an organiser reach, the practice game included with its "show
all at once" button on view, as it is while the latest moves are told. Any violation
of impact serious or critical (contrast among them) fails, listed by page and rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.demo_pages import browser_tabs, start_practice_game

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
    demo: str, browser: Any, live_server: Any, language: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    axe = Axe()
    found: list[str] = []
    for reader, page, paths in browser_tabs(browser, live_server.url, language=language):
        for path in paths:
            page.goto(page.base + path)
            found += [f"{reader} {path}: {v}" for v in violations(page, axe)]
        start_practice_game(page)
        page.evaluate(
            "document.querySelectorAll('[data-news-skip]').forEach(b => b.hidden = false)"
        )
        found += [f"game {page.url}: {v}" for v in violations(page, axe)]
    assert not found, "\n".join(found)
