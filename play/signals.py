"""What play tells the apps above it, without knowing them.

Sent inside the service's transaction, so a listener's writes stand or fall with the
change (``ratings`` listens: a rated online match is a result of the rating list).
"""

from django.dispatch import Signal

# Sent with ``month`` (its first day): a rated online match ended in that month.
rated_match_ended = Signal()
