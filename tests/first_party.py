"""The project's own code, as the tests that read the whole of it name it: the packages and
files of the site (what the image carries) and the development ones beside them."""

SITE = (
    "config",
    "core",
    "ops",
    "club",
    "play",
    "printing",
    "tournaments",
    "ratings",
    "demo",
    "scoring",
    "competition",
    "manage.py",
)
DEVELOPMENT = ("tests", "benchmarks")
