"""Demo games: the practice games a newcomer finds on the demo player's statistics,
Anna's games against Björn (a finished match, a game in progress, a challenge to answer),
and in the championship's round being played a match played on the site and Anna's
proposal to play hers there."""

from __future__ import annotations

from operator import attrgetter

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from demo.club import DEMO_OPPONENT, DEMO_PLAYER
from play.championship import match_propose
from play.models import Challenge, OnlineGame, PracticeGame
from play.online import challenge_accept, challenge_create, online_decide, read_online
from play.services import practice_autoplay, practice_start, stand_in_decision
from play.tables import table_sit
from scoring.players.strategy import ComputerPlayer
from tournaments.models import Match, Round

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
    Björn that Anna has yet to answer; and Anna's table of four to 61, Björn seated as her
    partner, for her to begin (the computer takes the other two seats).
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
    table = challenge_create(challenger=anna, seats=4, target=61)
    table_sit(pk=table.pk, member=bjorn, seat=2)
    return 2


def seed_championship_online() -> int:
    """In the championship's round being played: one match played on the site (a few
    moves in, for spectators) and Anna's proposal to play hers there; return how many
    were made (none when they are there already or the round offers no such match)."""
    round_ = Round.objects.filter(
        tournament__is_championship=True, kind=Round.Kind.SWISS, status=Round.Status.PLAYING
    ).first()
    if round_ is None or Challenge.objects.filter(match__round=round_).exists():
        return 0
    pending = (
        Match.objects.filter(round=round_, is_bye=False, status=Match.Status.PENDING)
        .prefetch_related("seats__entry__player__user")
        .order_by("table")
    )
    seated = [(match, accounts) for match in pending if (accounts := _accounts(match))]
    made = 0
    for match, accounts in seated:
        anna = [user for user in accounts if user.username == DEMO_PLAYER[0]]
        if anna:
            match_propose(match=match, member=anna[0])
            made += 1
            break
    demo = {DEMO_PLAYER[0], DEMO_OPPONENT[0]}
    for match, (first, second) in seated:
        if not demo & {first.username, second.username}:
            proposal = match_propose(match=match, member=first)
            _play(challenge_accept(pk=proposal.pk, member=second, seed=round_.seed), moves=12)
            made += 1
            break
    return made


def _accounts(match: Match) -> tuple[User, User] | None:
    """The accounts of the players in seats 0 and 1, or None when one has none."""
    seats = sorted(match.seats.all(), key=attrgetter("seat"))
    first, second = (seat.entry.player.user for seat in seats)
    return None if first is None or second is None else (first, second)


def _play(game: OnlineGame, *, moves: int | None) -> None:
    """Play ``moves`` decisions of ``game`` (None: to its end) by standard computers."""
    members = game.pair
    stand_ins = (ComputerPlayer("standard", 1), ComputerPlayer("standard", 2))
    taken = 0
    while not game.finished and (moves is None or taken < moves):
        match = read_online(game)
        seat = match.game.to_move or 0  # None between games: either may start the next
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=members[seat], moves=game.moves_of(seat), decision=decision
        )
        taken += 1
