"""Fixtures for the tournament tests: tournaments built through the services, as organisers do."""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tournaments import bridge
from tournaments.models import Match, Round, Seat, Tournament
from tournaments.services import results, rounds
from tournaments.services import tournaments as services


def make_tournament(players: int = 8, *, accounts: bool = True, **fields: Any) -> Tournament:
    """A tournament in registration with ``players`` checked-in entries (each with an account)."""
    settings = {
        "name": "Test Open",
        "year": 2026,
        "starts_on": datetime.date(2026, 5, 1),
        "ends_on": datetime.date(2026, 5, 2),
        "swiss_rounds": 3,
        "seed": 11,
        **fields,
    }
    tournament = services.tournament_create(**settings)
    for number in range(players):
        user = UserFactory.create(username=f"{tournament.slug}-p{number}") if accounts else None
        player = PlayerFactory.create(user=user, name=f"Player {number:02d}", club="Uppsala")
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    return tournament


def play_round(
    tournament: Tournament,
    organiser: User,
    result: Callable[[Match], list[tuple[int, int]]] | None = None,
) -> Round:
    """Pair, publish, settle every match (seat 0 wins 2-0 unless ``result`` says) and close."""
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    for match in round_.matches.filter(is_bye=False):
        games = result(match) if result else [(0, 100), (0, 95)]
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=games)
    return rounds.round_close(round=round_)


def levels_played(out: str) -> dict[int, str]:
    """Each player's level (by player id), as the standings printed by the command show it."""
    lines = out.strip().splitlines()
    tournament = Tournament.objects.get(slug=lines[-1])
    rows = bridge.standings(tournament)
    heading = next(n for n, line in enumerate(lines) if line.endswith(": standings"))
    table = lines[heading + 2 : heading + 2 + len(rows)]
    # The level is the field before W-L, GP, spread and Buchholz; names may have spaces.
    return {row.entry.player_id: line.split()[-5] for row, line in zip(rows, table, strict=True)}


def simulate(**options: object) -> str:
    """What ``manage.py simulate_tournament`` prints with ``options`` (the slug last)."""
    out = io.StringIO()
    call_command("simulate_tournament", no_progress=True, stdout=out, **options)
    return out.getvalue()


@pytest.fixture
def organiser() -> User:
    return OrganiserFactory.create(username="organiser")


@pytest.fixture
def tournament(db: None) -> Tournament:
    return make_tournament()


@pytest.fixture
def playing(organiser: User) -> Tournament:
    """Round 1 closed, round 2 published with its matches unreported."""
    tournament = make_tournament(8)
    play_round(tournament, organiser)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    return tournament


def seats(match: Match) -> list[Seat]:
    return sorted(match.seats.select_related("entry__player__user"), key=lambda seat: seat.seat)


def account(seat: Seat) -> User:
    """The account of the seat's player (``make_tournament`` gives each one by default)."""
    user = seat.entry.player.user
    assert user is not None, f"{seat.entry.player} has no account"
    return user


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Service messages in English, so tests can quote them (pages set their own language)."""
    from django.utils import translation

    with translation.override("en"):
        yield
