"""What a browser asks for at the site's root is there: a PDF opened in a tab asks for
/favicon.ico, which the page's own icon link does not cover."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_the_icon_is_served_at_the_root(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    body = b"".join(answer.streaming_content)  # type: ignore[attr-defined]
    assert body[:4] == b"\x00\x00\x01\x00"  # an icon file's header
