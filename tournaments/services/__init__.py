"""Writes to tournaments: each service validates, then saves in one transaction."""
