"""Tools around the engine: the command line, a game in the terminal, self-play, benchmarks,
the full count distributions and the builder of the players' tables."""
