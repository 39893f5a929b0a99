"""What the register tells the apps above it, without knowing them, once its change is
saved (``ops.outbox.Topic``).

``player_changed`` is announced when a member's name, club or other details change; the
tournaments app listens, because those details are printed in every tournament the
member has played.
"""

from ops.outbox import Topic

# Sent with ``player`` (its id): the player was saved.
player_changed = Topic("club.signals.player_changed")
