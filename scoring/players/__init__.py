"""The computer players: their discards, their play and the tables they learn from."""
