"""What the tournaments app tells the apps above it, without knowing them.

Each is sent inside the service's transaction, so a listener's writes stand or fall
with the change (``play`` listens: a tournament match may be played on the site).
"""

from django.dispatch import Signal

# Sent with ``match``: an organiser entered or corrected its result (final at once).
result_entered = Signal()

# Sent with ``match``: its result or status changed (``results.save_changed``).
match_changed = Signal()

# Sent with ``round``: the round is closed.
round_closed = Signal()
