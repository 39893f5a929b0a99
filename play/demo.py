"""Demo games: the practice games a newcomer finds on the demo player's statistics, and
Anna's games against Björn (a finished match, a game in progress, a challenge to answer)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from club.demo import DEMO_OPPONENT, DEMO_PLAYER
from play.models import OnlineGame, PracticeGame
from play.online import challenge_accept, challenge_create, load_online, online_decide
from play.services import practice_autoplay, practice_start, stand_in_decision
from scoring.players.strategy import ComputerPlayer

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


def seed_online_games() -> int:
    """Anna's games against Björn unless they have some already; return how many were made.

    Both seats are played by computers through the same services a browser uses: a
    finished best-of-three, a game in progress (a few moves in), and a challenge from
    Björn that Anna has yet to answer.
    """
    users = get_user_model()
    anna = users.objects.filter(username=DEMO_PLAYER[0]).first()
    bjorn = users.objects.filter(username=DEMO_OPPONENT[0]).first()
    if anna is None or bjorn is None or OnlineGame.objects.filter(seat_0=anna).exists():
        return 0
    finished = challenge_create(challenger=anna, challenged=bjorn, best_of=3)
    _play(challenge_accept(pk=finished.pk, member=bjorn, seed=1121), moves=None)
    going = challenge_create(challenger=anna, challenged=bjorn)
    _play(challenge_accept(pk=going.pk, member=bjorn, seed=2026), moves=5)
    challenge_create(challenger=bjorn, challenged=anna, best_of=3)
    return 2


def _play(game: OnlineGame, *, moves: int | None) -> None:
    """Play ``moves`` decisions of ``game`` (None: to its end) by standard computers."""
    members = (game.seat_0, game.seat_1)
    stand_ins = (ComputerPlayer("standard", 1), ComputerPlayer("standard", 2))
    taken = 0
    while not game.finished and (moves is None or taken < moves):
        match = load_online(game)
        seat = match.game.to_move or 0  # None between games: either may start the next
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=members[seat], moves=game.moves_of(seat), decision=decision
        )
        taken += 1
