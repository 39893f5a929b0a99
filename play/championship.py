"""Tournament matches played on the site by their two players.

Terms: a *proposal* is a ``Challenge`` with its ``match``: one player of a match in
a round being played asks the other to play it on the site. Accepting it starts an
online game of the match (``play.online.challenge_accept``): the match's best of, its
seats, the tournament's rules (the engine counts every hand, no muggins: docs/rules.md
§5), and the match marked as played online (``tournaments.services.online``).
When the engine decides the match its games and their records become the match's
result; a resignation or a claim hands the match to the organisers. An organiser's
result ends the game (``play.receivers``), and a proposal lapses once its match is
decided otherwise or its round closes. Both players need an account: a game on the site
is played by members.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import full_clean
from play.errors import PlayError
from play.models import Challenge, OnlineGame
from scoring.rules.match import Match as EngineMatch
from tournaments.access import Actor
from tournaments.models import Match
from tournaments.services.changes import tournament_changed
from tournaments.services.online import (
    match_record_online,
    match_start_online,
    match_stop_online,
    refusal_to_play_online,
)


def _seated(match: Match) -> list[tuple[str, User | None]]:
    """Each seat's player's name and account (None: no active account)."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    return [
        (
            seat.entry.player.name,
            user if (user := seat.entry.player.user) is not None and user.is_active else None,
        )
        for seat in seats
    ]


def refusal_to_propose(match: Match, member: User) -> str | None:
    """Why ``member`` may not propose to play ``match`` on the site (None: they may)."""
    seat = Actor(user=member).seat_in(match)
    refusal = refusal_to_play_online(match, seat)
    if refusal is not None:
        return refusal
    assert seat is not None  # refusal_to_play_online refuses anyone else
    name, other = _seated(match)[1 - seat]
    if other is None:
        return _("%(name)s has no account on the site, so this match is played at the table.") % {
            "name": name
        }
    return None


def _locked_match(pk: int) -> Match:
    return (
        Match.objects.select_for_update()
        .select_related("round__tournament")
        .prefetch_related("seats__entry__player__user")
        .get(pk=pk)
    )


@transaction.atomic
def match_propose(*, match: Match, member: User) -> Challenge:
    """``member`` asks their opponent to play ``match`` on the site.

    Refusals (not their match, not in a round being played, already begun, an
    opponent without an account, a proposal already open) are ``PlayError``.
    """
    match = _locked_match(match.pk)
    refusal = refusal_to_propose(match, member)
    if refusal is not None:
        raise PlayError(refusal, code="refused")
    open_ = match.online_proposals.filter(status=Challenge.Status.OPEN).first()
    if open_ is not None:
        if open_.challenger_id == member.pk:
            raise PlayError(_("You have already proposed it: wait for the answer."))
        raise PlayError(_("Your opponent has already proposed it: accept it."))
    seat = Actor(user=member).seat_in(match)
    assert seat is not None
    challenge = Challenge(
        challenger=member,
        challenged=_seated(match)[1 - (seat or 0)][1],
        best_of=match.best_of,
        match=match,
    )
    full_clean(challenge, PlayError)
    challenge.save()
    proposal_changed(challenge)
    return challenge


def proposal_changed(challenge: Challenge) -> None:
    """The match page shows its proposal: a new, withdrawn or declined one changes it."""
    if challenge.match is not None:
        match = challenge.match
        tournament_changed(match.round.tournament_id, round_id=match.round_id, match_id=match.pk)


def match_start(*, match: Match, member: User) -> tuple[User, User]:
    """``member`` accepted the proposal of ``match``: the match is played online from now
    on. The accounts of its seats 0 and 1, the game's seats."""
    match = _locked_match(match.pk)
    refusal = refusal_to_propose(match, member)
    if refusal is not None:
        raise PlayError(refusal, code="refused")
    match_start_online(match=match, by=Actor(user=member))
    first, second = (user for _name, user in _seated(match))
    assert first is not None  # refusal_to_propose checked both
    assert second is not None
    return first, second


def record_match(game: OnlineGame, played: EngineMatch) -> None:
    """The decided engine match ``played`` of ``game`` becomes its tournament match's result.

    An organiser's result entered meanwhile stands: then nothing is recorded.
    """
    assert game.match is not None
    games = [(g.winner, g.scores[1 - g.winner]) for g in played.games if g.winner is not None]
    match_record_online(
        match=game.match,
        first_dealer=played.games[0].first_dealer,
        games=games,
        records=[g.record() for g in played.games],
    )


def stop_match(game: OnlineGame, played: EngineMatch, member: User, *, resigned: bool) -> None:
    """``member`` resigned ``game`` (or claimed it): its tournament match goes to the
    organisers, told who stopped it and the games won so far."""
    assert game.match is not None
    seat = game.seat_of(member.pk)
    assert seat is not None
    names = played.players
    wins = played.result.wins
    score = {
        "name": names[seat],
        "other": names[1 - seat],
        "won": wins[seat],
        "lost": wins[1 - seat],
    }
    if resigned:
        note = (
            _("%(name)s resigned the match played on the site, at %(won)d–%(lost)d in games.")
            % score
        )
    else:
        note = (
            _(
                "%(name)s claimed the match played on the site, at %(won)d–%(lost)d in games: "
                "%(other)s had not moved for 72 hours."
            )
            % score
        )
    match_stop_online(match=game.match, by=Actor(user=member), note=note)
