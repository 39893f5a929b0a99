"""What the browser's console said during a test: every browser test fails on an error.

An error in the console is one a member's browser shows too (a chart that does not draw,
an icon that is not found, a request that ends badly); a test that drives the pages
would pass over it. ``watch`` listens to every tab of every context the test's browser
opens; ``tests/conftest.py`` checks after each test that uses the browser that nothing
was said, unless the test expects it (``expect_console``, for the tests that provoke an
error on purpose: a refused inline script, an answer of 4xx to an htmx request).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Console:
    """The errors heard since the test began, the ones the test expects, and the browser
    contexts it opened (closed when it ends, so that no tab of one test goes on polling
    into the next, whose database its pages are not)."""

    errors: list[str] = field(default_factory=list)
    expected: list[re.Pattern[str]] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)
    test: int = 0

    def hear(self, test: int, text: str) -> None:
        if test == self.test and not any(pattern.search(text) for pattern in self.expected):
            self.errors.append(text)

    def begin(self) -> None:
        """A new test: what is heard from tabs opened before it no longer counts."""
        self.test += 1
        self.errors.clear()
        self.expected.clear()

    def end(self) -> list[str]:
        """The test's errors; every context it left open is closed."""
        for context in self.contexts:
            with contextlib.suppress(Exception):  # closed already, or the browser is gone
                context.close()
        self.contexts.clear()
        heard = list(self.errors)
        self.begin()
        return heard


CONSOLE = Console()


def _watch_tab(tab: Any) -> None:
    test = CONSOLE.test

    def on_console(message: Any) -> None:
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            CONSOLE.hear(test, f"{message.text} ({where})" if where else message.text)

    def on_page_error(error: Any) -> None:
        CONSOLE.hear(test, f"uncaught: {error}")

    tab.on("console", on_console)
    tab.on("pageerror", on_page_error)


def watch(browser: Any) -> None:
    """Listen to every tab ``browser`` opens from now on (through ``new_context`` or
    ``new_page``)."""
    new_context = browser.new_context

    def watched_context(*args: Any, **kwargs: Any) -> Any:
        context = new_context(*args, **kwargs)
        context.on("page", _watch_tab)
        CONSOLE.contexts.append(context)
        return context

    browser.new_context = watched_context
    new_page = browser.new_page

    def watched_page(*args: Any, **kwargs: Any) -> Any:
        tab = new_page(*args, **kwargs)
        _watch_tab(tab)
        CONSOLE.contexts.append(tab.context)
        return tab

    browser.new_page = watched_page


def expect_console(*patterns: str) -> None:
    """This test provokes console errors matching ``patterns`` (regular expressions)."""
    CONSOLE.expected.extend(re.compile(pattern) for pattern in patterns)
