"""Tournament matches played on the site: proposed by one player, accepted by the other,
played through the engine by the tournament's rules, and recorded as the match's final
result with its game points, spread, records and a line in the result log; a resignation
hands the match to the organisers, who may also settle it while it is played."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from play.championship import match_propose, refusal_to_propose
from play.errors import PlayError
from play.models import Challenge, OnlineGame
from play.online import (
    challenge_accept,
    challenge_close,
    load_online,
    online_decide,
    online_resign,
)
from play.services import stand_in_decision
from scoring.players.strategy import ComputerPlayer
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments import bridge, selectors
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import Match, ResultChange, Tournament
from tournaments.services import results, rounds

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def tournament() -> Tournament:
    return make_tournament(4, best_of=3, points_win=2, points_skunk=3, points_double_skunk=4)


@pytest.fixture
def match(tournament: Tournament) -> Match:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    return Match.objects.filter(round=round_, is_bye=False).order_by("table")[0]


def players(match: Match) -> tuple[User, User]:
    first, second = seats(match)
    return account(first), account(second)


def accepted(match: Match, *, seed: int = 5) -> OnlineGame:
    first, second = players(match)
    proposal = match_propose(match=match, member=second)
    return challenge_accept(pk=proposal.pk, member=first, seed=seed)


def play_to_the_end(
    game: OnlineGame, *, levels: tuple[str, str] = ("expert", "standard")
) -> OnlineGame:
    """Both seats play as the computer of ``levels`` would, each posting from their own
    account. (The expert gives nothing away in a review: give both seats a lower level for
    a game where each makes mistakes.)"""
    computer = {0: ComputerPlayer(levels[0], 1), 1: ComputerPlayer(levels[1], 2)}
    users = dict(enumerate(game.pair))
    for _step in range(3000):
        if game.finished:
            return game
        match = load_online(game)
        seat = match.game.to_move or 0
        decision = stand_in_decision(match, computer[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    raise AssertionError("the match did not end")


def test_a_proposal_accepted_starts_the_match_in_its_seats_by_the_tournament_rules(
    match: Match,
) -> None:
    first, second = players(match)
    proposal = match_propose(match=match, member=second)
    assert (proposal.challenger, proposal.challenged) == (second, first)
    assert proposal.best_of == 3
    game = challenge_accept(pk=proposal.pk, member=first)
    # The match's seats, whoever proposed; the engine counts (no muggins in a tournament).
    assert game.pair == (first, second)
    assert (game.best_of, game.self_count, game.muggins) == (3, False, False)
    assert game.match == match
    match.refresh_from_db()
    assert match.status == Match.Status.ONLINE
    assert match.get_status_display() == "Being played on the site"
    assert list(match.changes.values_list("action", flat=True)) == ["online_started"]
    # Nobody reports a match being played: its result records itself.
    with pytest.raises(TournamentError, match="being played on the site"):
        results.match_report_result(
            match=match, by=Actor(user=first), first_dealer=0, games=[(0, 100), (0, 90)]
        )


def test_the_played_match_is_final_with_its_games_points_spread_and_records(
    tournament: Tournament, match: Match
) -> None:
    game = play_to_the_end(accepted(match))
    engine = load_online(game)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.winner == engine.winner
    assert match.first_dealer == engine.games[0].first_dealer
    stored = list(match.games.order_by("number"))
    assert [(g.winner, g.loser_score) for g in stored] == [
        (g.winner, g.scores[1 - g.winner]) for g in engine.games if g.winner is not None
    ]
    assert [g.record for g in stored] == [g.record() for g in engine.games]
    # The standings count it with the engine's game points and spread.
    played = {
        row.entry.pk: row for row in bridge.standings(tournament) if row.entry.pk in _entries(match)
    }
    winner_entry = seats(match)[engine.winner or 0].entry.pk
    loser_entry = seats(match)[1 - (engine.winner or 0)].entry.pk
    assert played[winner_entry].game_points == engine.result.game_points[engine.winner or 0]
    assert played[winner_entry].spread == engine.result.spread[engine.winner or 0]
    assert played[loser_entry].spread == -engine.result.spread[engine.winner or 0]
    log = list(match.changes.order_by("pk"))
    assert [change.action for change in log] == ["online_started", "online"]
    assert log[-1].get_action_display() == "played on the site"
    assert log[-1].who == "the site"
    # Nothing left to do for the organisers.
    assert match not in selectors.needs_attention(match.round)


def _entries(match: Match) -> set[int]:
    return {seat.entry_id for seat in match.seats.all()}


def test_who_may_propose_and_when(match: Match, tournament: Tournament) -> None:
    first, second = players(match)
    other = Match.objects.exclude(pk=match.pk).get(round=match.round, is_bye=False)
    stranger = players(other)[0]
    assert refusal_to_propose(match, stranger) == "You can only report your own match."
    with pytest.raises(PlayError, match="your own match"):
        match_propose(match=match, member=stranger)
    match_propose(match=match, member=first)
    with pytest.raises(PlayError, match="already proposed it: wait"):
        match_propose(match=match, member=first)
    with pytest.raises(PlayError, match="opponent has already proposed it"):
        match_propose(match=match, member=second)
    # Games saved at the table: the match is finished there.
    results.match_report_result(
        match=other, by=Actor(user=stranger), first_dealer=0, games=[(0, 100)]
    )
    with pytest.raises(PlayError, match="already saved"):
        match_propose(match=other, member=stranger)


def test_an_opponent_without_an_account_plays_at_the_table(db: None) -> None:
    tournament = make_tournament(2, accounts=False)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = Match.objects.get(round=round_)
    first = seats(match)[0].entry.player
    first.user = User.objects.create_user("first")
    first.save()
    refusal = refusal_to_propose(match, first.user)
    assert refusal == (
        f"{seats(match)[1].entry.player.name} has no account on the site, "
        "so this match is played at the table."
    )


def test_a_proposal_declined_or_accepted_after_the_match_was_reported_starts_nothing(
    match: Match,
) -> None:
    first, second = players(match)
    proposal = match_propose(match=match, member=second)
    challenge_close(pk=proposal.pk, member=first)
    assert Challenge.objects.get().status == Challenge.Status.DECLINED
    proposal = match_propose(match=match, member=second)
    results.match_report_result(match=match, by=Actor(user=first), first_dealer=0, games=[(0, 90)])
    with pytest.raises(PlayError, match="no longer open"):  # it lapsed
        challenge_accept(pk=proposal.pk, member=first)
    assert not OnlineGame.objects.exists()
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY


def test_a_resignation_hands_the_match_to_the_organisers(match: Match) -> None:
    game = accepted(match)
    online_resign(pk=game.pk, member=game.pair[1])
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    name = seats(match)[1].entry.player.name
    assert match.dispute_note == f"{name} resigned the match played on the site, at 0–0 in games."
    assert list(match.changes.values_list("action", flat=True))[-1] == "online_stopped"


def test_an_organiser_may_settle_a_match_being_played_and_it_ends_there(
    match: Match,
) -> None:
    from tests.factories import OrganiserFactory

    game = accepted(match)
    results.match_settle(
        match=match, organiser=OrganiserFactory.create(), first_dealer=1, games=[(1, 80), (1, 70)]
    )
    game.refresh_from_db()
    assert (game.finished, game.ended, game.winner) == (True, OnlineGame.Ended.ORGANISER, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert [(g.winner, g.loser_score) for g in match.games.order_by("number")] == [
        (1, 80),
        (1, 70),
    ]
    assert ResultChange.Action.ONLINE not in match.changes.values_list("action", flat=True)


@pytest.mark.parametrize(
    ("language", "own", "theirs"),
    [
        ("sv", "Du föreslog att ni spelar er match mot {other} på webbplatsen", "{name} föreslår"),
        ("en", "You proposed to play your match against {other} on the site", "{name} proposes"),
    ],
)
def test_a_proposal_is_worded_for_who_reads_it_and_names_the_opponent(
    match: Match, language: str, own: str, theirs: str
) -> None:
    from django.test import Client
    from django.urls import reverse

    first, second = players(match)
    names = {user: user.player.name for user in (first, second)}
    match_propose(match=match, member=second)
    for reader, other in ((second, first), (first, second)):
        client = Client()
        client.force_login(reader)
        client.cookies["django_language"] = language
        lobby = client.get(reverse("play:lobby")).content.decode()
        if reader == second:  # the one who proposed it
            assert own.format(other=names[other]) in lobby
            assert theirs.format(name=names[second]) not in lobby
        else:
            assert theirs.format(name=names[second]) in lobby
