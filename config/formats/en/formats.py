"""Dates and times in English as a Swedish club's English readers expect them: the British
order and the 24-hour clock, the same shapes as the Swedish pages ("28 November 2026,
03:54"; Django's own English is American: "Nov. 28, 2026, 3:54 a.m.").

Chosen by ``FORMAT_MODULE_PATH`` in config/settings.py, for the language ``en``."""

DATE_FORMAT = "j F Y"  # 28 November 2026
TIME_FORMAT = "H:i"  # 03:54
DATETIME_FORMAT = "j F Y, H:i"  # 28 November 2026, 03:54
YEAR_MONTH_FORMAT = "F Y"  # November 2026
MONTH_DAY_FORMAT = "j F"  # 28 November
SHORT_DATE_FORMAT = "j M Y"  # 28 Nov 2026
SHORT_DATETIME_FORMAT = "j M Y, H:i"  # 28 Nov 2026, 03:54
FIRST_DAY_OF_WEEK = 1  # Monday

# What a form takes: the ISO date a date field sends first, then the British order.
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d %B %Y", "%d %b %Y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
