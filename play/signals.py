"""What play tells the apps above it, without knowing them, once its change is saved
(``ops.outbox.Topic``; ``ratings`` listens: a rated online match is a result of the
rating list).
"""

from ops.outbox import Topic

# Sent with ``month`` (its first day, ISO): a rated online match ended in that month.
rated_match_ended = Topic("play.signals.rated_match_ended")
