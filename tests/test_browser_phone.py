"""On a phone (360 x 740): no page of the demo data scrolls sideways, for anyone.

Every page a visitor, a player and an organiser reach in the demo championship is
opened in a 360-pixel-wide window; the page must fit it: the document no wider than
the window, and no table wider than its box (wide tables become one card per row, or
lose their secondary columns, on a phone); and every radio button, checkbox, card
button, button and link in a table is at least 44 px each way, a fingertip.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.demo_pages import browser_tabs, start_practice_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


TARGET = 44
SMALL_TARGETS = f"""() => {{
  const small = [];
  const check = (element, target) => {{
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height || target.closest('.visually-hidden')) return;
    if (box.height < {TARGET} - 0.5 || box.width < {TARGET} - 0.5)
      small.push(element.tagName + '.' + element.className + ' ' + Math.round(box.width)
        + 'x' + Math.round(box.height) + ' ' + (element.textContent || '').trim().slice(0, 20));
  }};
  const boxes = 'main input[type=radio], main input[type=checkbox]';
  for (const input of document.querySelectorAll(boxes)) {{
    const label = input.closest('label') || document.querySelector(`label[for="${{input.id}}"]`);
    check(input, label || input);
  }}
  for (const element of document.querySelectorAll(
      'main td a, main th a, main .card-button, main button, main .button'))
    check(element, element);
  return small;
}}"""
"""Radio buttons and checkboxes (by their label, which takes the tap), links in tables,
card buttons and buttons smaller than a fingertip: 44 x 44 CSS pixels."""


def too_wide(page: Any, paths: list[str]) -> list[str]:
    """The paths whose page is wider than the window, with the widths."""
    wide = []
    for path in paths:
        response = page.goto(page.base + path)
        assert response is not None, path
        assert response.status < 400, (path, response.status)
        width = page.evaluate("document.documentElement.scrollWidth")
        boxes = page.evaluate(
            "[...document.querySelectorAll('.table-scroll')]"
            ".filter(box => box.scrollWidth > box.clientWidth + 1)"
            ".map(box => box.scrollWidth + ' px table in ' + box.clientWidth)"
        )
        if boxes:  # a table to scroll sideways inside the page: cards or fewer columns
            wide.append(f"{path}: {', '.join(boxes)}")
        small = page.evaluate(SMALL_TARGETS)
        if small:
            wide.append(f"{path}: targets under {TARGET} px: {', '.join(small[:5])}")
        if width > PHONE["width"]:
            culprit = page.evaluate(
                """() => { const w = document.documentElement.clientWidth;
                  const all = [...document.querySelectorAll('body *')];
                  const out = all.filter(e => e.getBoundingClientRect().right > w + 1
                    && !e.closest('.table-scroll'));
                  return out.slice(0, 3).map(e => e.tagName + '.' + e.className).join(' ') }"""
            )
            wide.append(f"{path}: {width} px ({culprit})")
    return wide


def test_no_page_scrolls_sideways_on_a_phone(demo: str, browser: Any, live_server: Any) -> None:
    wide: list[str] = []
    for reader, page, paths in browser_tabs(
        browser, live_server.url, viewport=PHONE, device_scale_factor=2
    ):
        start_practice_game(page)  # a practice game of one's own, then its page
        paths = [*paths, page.url.removeprefix(page.base)]
        wide += [f"{reader} {line}" for line in too_wide(page, paths)]
    assert not wide, "\n".join(wide)
