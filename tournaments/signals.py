"""What the tournaments app tells the apps above it, and what it asks them, without
knowing them.

Each announcement is sent inside the service's transaction, so a listener's writes stand
or fall with the change (``play`` listens: a tournament match may be played on the site;
``ratings`` listens: final results are the rating list's input).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

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

# Questions, answered by the first listener that returns something (else nobody knows):
# sent with ``players`` (player ids): {player id: rating number now} of the rated ones.
ratings_wanted = Signal()
# Sent with ``pairs`` ({match id: (player id in seat 0, in seat 1)}): {match id: seat 0's
# expected score, 0 to 1} of the matches the ratings say something of.
expected_scores_wanted = Signal()
# Sent with nothing: a number that moves whenever those expected scores may change (the
# rating list's version), for the cached rows that show them; 0 when nobody answers.
expected_scores_version_wanted = Signal()
# The scope (``core.revalidation``) of those expected scores: whoever answers the question
# above moves its mark with every change of its version, as the rating list does.
EXPECTED_SCORES = "expected-scores"


def answer_version(signal: Signal) -> int:
    """The first version a listener of ``signal`` gives; 0 if none does."""
    for _receiver, response in signal.send(sender=None):
        if response is not None:
            return int(response)
    return 0


def answer(signal: Signal, **question: Any) -> dict[int, float]:
    """The first answer a listener of ``signal`` gives to ``question``; empty if none does."""
    for _receiver, response in signal.send(sender=None, **question):
        if response is not None:
            return dict(cast(Mapping[int, float], response))
    return {}
