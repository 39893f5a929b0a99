"""Demo practice games: the finished games a newcomer finds on the demo player's statistics."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from club.demo import DEMO_PLAYER
from play.models import PracticeGame
from play.services import practice_autoplay, practice_start

# Anna's finished practice games: (computer level, best of, seed); her seat is played by
# a computer too, through the same services a browser uses.
DEMO_PRACTICE = [("easy", 1, 121), ("standard", 1, 2024), ("standard", 3, 31)]


def seed_practice_games() -> int:
    """Play Anna's demo practice games unless she has some already; return how many were played."""
    anna = get_user_model().objects.filter(username=DEMO_PLAYER[0]).first()
    if anna is None or PracticeGame.objects.filter(owner=anna).exists():
        return 0
    for level, best_of, seed in DEMO_PRACTICE:
        practice = practice_start(owner=anna, level=level, best_of=best_of, seed=seed)
        practice_autoplay(practice=practice, level="standard")
    return len(DEMO_PRACTICE)
