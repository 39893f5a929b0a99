"""CACHE_URL: every form the README documents gives Django's cache settings."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import parse_cache_url, parse_email_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "file:///var/cache/club",
            {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": "/var/cache/club",
                "OPTIONS": {"MAX_ENTRIES": 3000},
            },
        ),
        (
            "file:///srv/club%20cache",
            {"LOCATION": "/srv/club cache"},
        ),
        (
            "db://",
            {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "club_cache",
                "OPTIONS": {"MAX_ENTRIES": 3000},
            },
        ),
        ("db://pages", {"LOCATION": "pages"}),
        (
            "redis://cache.example.se:6379/0",
            {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://cache.example.se:6379/0",
            },
        ),
        (
            "rediss://:p%40ss@cache.example.se:6380/1",
            {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "rediss://:p%40ss@cache.example.se:6380/1",
            },
        ),
        (
            "redis://127.0.0.1:6379/2?key_prefix=club&timeout=600",
            {
                "LOCATION": "redis://127.0.0.1:6379/2",
                "KEY_PREFIX": "club",
                "TIMEOUT": 600,
                "OPTIONS": {},
            },
        ),
        ("locmem://", {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}),
        ("dummy://", {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}),
        ("db://?timeout=60", {"TIMEOUT": 60, "LOCATION": "club_cache"}),
    ],
)
def test_cache_url(url: str, expected: dict[str, object]) -> None:
    cache = parse_cache_url(url)
    assert {key: cache.get(key) for key in expected} == expected


@pytest.mark.parametrize("url", ["memcached://host", "file://", "/var/cache"])
def test_a_wrong_cache_url_stops_the_site_with_a_clear_error(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        parse_cache_url(url)


def test_email_url_dummy_and_a_percent_encoded_colon() -> None:
    assert parse_email_url("dummy://") == {
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"
    }
    settings = parse_email_url("smtps://a%3Ab:c%3Ad%40e@mail.example.se:2465?timeout=7")
    assert (settings["EMAIL_HOST_USER"], settings["EMAIL_HOST_PASSWORD"]) == ("a:b", "c:d@e")
    assert (settings["EMAIL_PORT"], settings["EMAIL_USE_SSL"], settings["EMAIL_TIMEOUT"]) == (
        2465,
        True,
        7,
    )
