"""CACHE_URL: every form the README documents gives Django's cache settings, for the
part of the cache that belongs to the site's database (``core.cache``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import parse_cache_url, parse_email_url
from core.cache import database_partition

SITE = {"ENGINE": "django.db.backends.postgresql", "HOST": "db", "PORT": 5432, "NAME": "club"}
PART = database_partition(SITE)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "file:///var/cache/club",
            {
                "BACKEND": "core.cache.ResilientFileCache",
                "LOCATION": f"/var/cache/club/{PART}",
                "KEY_PREFIX": PART,
                "OPTIONS": {"MAX_ENTRIES": 3000},
            },
        ),
        (
            "file:///srv/club%20cache",
            {"LOCATION": f"/srv/club cache/{PART}"},
        ),
        (
            "db://",
            {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "club_cache",
                "KEY_PREFIX": PART,
                "OPTIONS": {"MAX_ENTRIES": 3000},
            },
        ),
        ("db://pages", {"LOCATION": "pages"}),
        (
            "redis://cache.example.se:6379/0",
            {
                "BACKEND": "core.cache.ResilientRedisCache",
                "LOCATION": "redis://cache.example.se:6379/0",
                "KEY_PREFIX": PART,
                "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 1.0},
            },
        ),
        (
            "rediss://:p%40ss@cache.example.se:6380/1",
            {
                "BACKEND": "core.cache.ResilientRedisCache",
                "LOCATION": "rediss://:p%40ss@cache.example.se:6380/1",
            },
        ),
        (
            "redis://127.0.0.1:6379/2?key_prefix=club&timeout=600&socket_timeout=5",
            {
                "LOCATION": "redis://127.0.0.1:6379/2",
                "KEY_PREFIX": f"club:{PART}",
                "TIMEOUT": 600,
                "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 5},
            },
        ),
        (
            "locmem://",
            {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "KEY_PREFIX": PART},
        ),
        ("dummy://", {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}),
        ("db://?timeout=60", {"TIMEOUT": 60, "LOCATION": "club_cache"}),
    ],
)
def test_cache_url(url: str, expected: dict[str, object]) -> None:
    cache = parse_cache_url(url, database=SITE)
    assert {key: cache.get(key) for key in expected} == expected


@pytest.mark.parametrize("url", ["memcached://host", "file://", "/var/cache"])
def test_a_wrong_cache_url_stops_the_site_with_a_clear_error(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        parse_cache_url(url, database=SITE)


@pytest.mark.parametrize(
    "other",
    [
        {**SITE, "NAME": "club_drill"},
        {**SITE, "HOST": "db2"},
        {**SITE, "PORT": 5433},
        {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/club/db.sqlite3"},
    ],
)
def test_another_database_has_another_part_of_the_same_cache(other: dict[str, Any]) -> None:
    for url in ("file:///var/cache/club", "redis://cache:6379/0?key_prefix=club", "db://"):
        site, drill = parse_cache_url(url, database=SITE), parse_cache_url(url, database=other)
        assert site["KEY_PREFIX"] != drill["KEY_PREFIX"]
    site, drill = (parse_cache_url("file:///var/cache", database=d) for d in (SITE, other))
    assert site["LOCATION"] != drill["LOCATION"]


def test_one_sqlite_file_named_two_ways_is_one_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    engine = "django.db.backends.sqlite3"
    relative = database_partition({"ENGINE": engine, "NAME": "db.sqlite3"})
    absolute = database_partition({"ENGINE": engine, "NAME": str(tmp_path / "db.sqlite3")})
    assert relative == absolute


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
