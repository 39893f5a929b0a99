"""The printed documents' fonts and stylesheet, for the layout and for whoever measures text.

DejaVu Sans, and DejaVu Sans Mono for the addresses a reader types, from the file
system (Debian's fonts-dejavu-core; ``settings.PRINT_FONT_DIR`` to use another folder).
A *face* is (family, weight, file name). Apart from ``pdf`` and ``layout`` so that
neither imports the other for them.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

FONT_FAMILY = "DejaVu Sans"
FONT_FILES = {"normal": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
MONO_FAMILY = "DejaVu Sans Mono"
MONO_FILE = "DejaVuSansMono.ttf"
MONO_ADVANCE = 1233 / 2048  # em: the width of every character of DejaVu Sans Mono
FACES = [(FONT_FAMILY, weight, name) for weight, name in FONT_FILES.items()]
FACES.append((MONO_FAMILY, "normal", MONO_FILE))
STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "print.css"


def font_dir() -> Path:
    return Path(getattr(settings, "PRINT_FONT_DIR", "/usr/share/fonts/truetype/dejavu")).resolve()
