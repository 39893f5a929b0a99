"""Writes to tournaments, one module a capability; each service is one transaction."""
