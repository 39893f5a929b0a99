"""``manage.py release`` collects the static files again only when what they are made of
changed: a source file, or the storage that writes them (DEBUG's or production's)."""

from __future__ import annotations

from pathlib import Path

from django.test import override_settings

from ops.management.commands.release import static_sources_digest

MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def test_the_digest_follows_the_sources_and_the_storage(tmp_path: Path) -> None:
    (tmp_path / "extra.css").write_text("body { color: black; }")
    with override_settings(STATICFILES_DIRS=[tmp_path]):
        first = static_sources_digest()
        assert static_sources_digest() == first
        (tmp_path / "extra.css").write_text("body { color: navy; }")
        changed = static_sources_digest()
        with override_settings(STORAGES=MANIFEST):
            production = static_sources_digest()
    assert len({first, changed, production}) == 3
