"""What the tournaments app tells the apps above it, without knowing them (what it asks
of a rating list is a port: ``tournaments.ports``).

Each announcement is sent inside the service's transaction, so a listener's writes stand
or fall with the change (``play`` listens: a tournament match may be played on the site;
``ratings`` listens: final results are the rating list's input).
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent with ``match``: an organiser entered or corrected its result (final at once).
result_entered = Signal()

# Sent with ``match``: its result or status changed (``results.save_changed``).
match_changed = Signal()

# Sent with ``round``: the round is closed.
round_closed = Signal()

# Sent with ``round`` and ``at_once``: a final result of ``round`` became final or was
# corrected; ``round`` None: a tournament's final results joined, left or moved among
# the rated ones (it became rated or unrated, or changed its days). ``at_once``: the
# administrator at the terminal waits for the list to be rated again in the same
# transaction; otherwise a worker does it a moment later (docs/rating.md).
final_results_changed = Signal()
