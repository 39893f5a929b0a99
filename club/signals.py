"""What the register tells the apps above it, without knowing them.

``player_changed`` is sent (inside the service's transaction) when a member's name,
club or other details change; the tournaments app listens, because those details are
printed in every tournament the member has played.
"""

from django.dispatch import Signal

# Sent with ``player``: the Player just saved.
player_changed = Signal()
