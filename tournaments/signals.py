"""What the tournaments app tells the apps above it, without knowing them, once its change
is saved (``ops.outbox.Topic``; what it asks of a rating list, and tells it, is a port:
``tournaments.ports``).

Each topic is announced in the service's transaction and sent after it commits, with ids
(``play`` listens: a tournament match may be played on the site).
"""

from __future__ import annotations

from ops.outbox import Topic

# Sent with ``match`` (its id): an organiser entered or corrected its result (final at once).
result_entered = Topic("tournaments.signals.result_entered")

# Sent with ``match`` (its id): its result or status changed (``results.save_changed``).
match_changed = Topic("tournaments.signals.match_changed")

# Sent with ``round`` (its id): the round is closed.
round_closed = Topic("tournaments.signals.round_closed")
