"""The rules of running a competition: Swiss pairing, standings and tie-breaks,
seeding and the play-off.

Plain Python with no Django import, like the engine (``scoring``), which knows the
rules of a game and a match; this package knows the rules of a tournament made of
them. ``tournaments`` (the Django app) reads its models, hands this package plain
data (``tournaments.bridge``) and stores what comes back; the words people read
(``tournaments.explain``, ``tournaments.tiebreaks``) stay there, translated. The
rules are stated in docs/rules.md and the pairing in docs/pairing.md.

- ``standings``: the standings and each tie-break of a chain;
- ``pairing``: a Swiss round, with its explanation as data; round 1 is a random
  draw, or seeded by rating (``seeding``);
- ``matching``: the global weighted matching behind it, over pairing positions
  (``field``: what it knows of the field), solved on windows of the legal pairs
  (``window``), proven by a lower bound (``float_bound``), weighed level by level
  (``lexicographic``);
- ``playoff``: the knock-out bracket after the Swiss rounds.

Imports run one way: ``pairing`` → ``seeding`` → ``matching`` → ``float_bound`` →
``window`` → ``field``, with ``lexicographic`` below them all.
"""
