"""The health check answers a probe whatever its Host, over plain HTTP with HTTPS enforced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings
from pytest_django import DjangoAssertNumQueries

ROOT = Path(__file__).resolve().parent.parent.parent

PRODUCTION = override_settings(
    ALLOWED_HOSTS=["club.example.se"],
    SECURE_SSL_REDIRECT=True,
    SECURE_REDIRECT_EXEMPT=[r"^ping/$"],
    DEBUG=False,
)


@PRODUCTION
@pytest.mark.parametrize("host", ["localhost:8000", "172.17.0.2:8000", "club.example.se"])
def test_ping_answers_any_host_over_plain_http(client: Client, host: str) -> None:
    response = client.get("/ping/", HTTP_HOST=host)
    assert (response.status_code, response.content) == (200, b"ok")
    assert "no-cache" in response["Cache-Control"]


@PRODUCTION
def test_other_pages_still_refuse_a_strange_host_and_plain_http(client: Client) -> None:
    assert client.get("/", HTTP_HOST="172.17.0.2:8000").status_code == 400
    redirect = client.get("/", HTTP_HOST="club.example.se")
    assert (redirect.status_code, redirect["Location"]) == (301, "https://club.example.se/")


@PRODUCTION
def test_ping_takes_no_post(client: Client) -> None:
    assert client.post("/ping/", HTTP_HOST="localhost").status_code == 405


def test_the_ping_middleware_comes_first() -> None:
    assert settings.MIDDLEWARE[0] == "ops.health.PingMiddleware"


def test_production_settings_exempt_ping_from_the_https_redirect() -> None:
    environment = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "a-long-enough-secret-for-this-check-only-" * 2,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    environment.pop("SECURE_SSL", None)
    code = "from django.conf import settings as s; "
    code += "print(s.SECURE_SSL_REDIRECT, s.SECURE_REDIRECT_EXEMPT)"
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "True ['^ping/$']"


@pytest.mark.django_db
def test_the_bare_view_goes_through_the_middleware_and_reads_nothing(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    """The benchmarks' baseline: every middleware's headers, and not one query."""
    with django_assert_num_queries(0):
        response = client.get("/health/bare/")
    assert (response.status_code, response.content) == (200, b"ok")
    assert "Content-Security-Policy" in response  # the CSP middleware saw it
    assert response["X-Frame-Options"] == "DENY"  # and the clickjacking one
    assert "Accept-Language" in response["Vary"]  # and the language's
