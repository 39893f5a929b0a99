"""The register's organiser fixtures, for the backup's tests of what a restore leaves to do."""

from tests.club.conftest import organiser, organiser_client

__all__ = ["organiser", "organiser_client"]
