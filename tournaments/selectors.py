"""Reads for the tournament pages, each in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments import bridge
from tournaments.models import Entry, Game, Match, ResultChange, Round, Seat, Tournament

TIEBREAK_LEGEND = {
    "match_wins": _("Matches won; a bye counts as a won match."),
    "game_points": _(
        "Game points: for each game won, points by the tournament's scheme "
        "(plain win, skunk, double skunk); a bye gives the bye value."
    ),
    "spread": _(
        "Spread: for each game, 121 minus the loser's score, plus to the winner "
        "and minus to the loser."
    ),
    "buchholz": _(
        "Buchholz: the sum of the match wins of the opponents met (a bye is not counted)."
    ),
    "head_to_head": _("Head to head: match wins in the games between the players still tied."),
}


def tournaments_listed() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("champion__player").order_by(
        "-year", "-starts_on", "name"
    )


def current_championship() -> Tournament | None:
    """The latest championship that has started, else the next one."""
    return Tournament.objects.filter(is_championship=True).order_by("-year").first()


def champions_by_year() -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(is_championship=True, champion__isnull=False)
        .select_related("champion__player")
        .order_by("-year")
    )


def _seats_prefetch() -> Prefetch[Seat]:
    return Prefetch("seats", queryset=Seat.objects.select_related("entry__player").order_by("seat"))


def round_matches(round_: Round) -> list[Match]:
    """A round's matches in table order (the bye last), seats, players and games loaded."""
    return list(
        round_.matches.prefetch_related(
            _seats_prefetch(), Prefetch("games", queryset=Game.objects.order_by("number"))
        ).order_by("is_bye", "table", "bracket_slot")
    )


def records_before(tournament: Tournament, number: int) -> dict[int, str]:
    """Each entry's W-L record after the rounds before ``number``."""
    if number <= 1:
        return {}
    return {
        row.entry.pk: row.standing.record
        for row in bridge.standings(tournament, through_round=number - 1)
    }


@dataclass(frozen=True)
class MyTable:
    """The logged-in player's place in the current round."""

    round: Round
    match: Match
    seat: int

    @property
    def opponent(self) -> Entry | None:
        others = [s.entry for s in self.match.seats.all() if s.seat != self.seat]
        return others[0] if others else None


def my_table(tournament: Tournament, user: Any) -> MyTable | None:
    """The match of ``user``'s player in the latest published round, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    round_ = tournament.rounds.exclude(status=Round.Status.PROPOSED).order_by("-number").first()
    if round_ is None:
        return None
    seat = (
        Seat.objects.filter(round=round_, entry__player__user=user).select_related("match").first()
    )
    if seat is None:
        return None
    match = Match.objects.prefetch_related(_seats_prefetch()).get(pk=seat.match_id)
    return MyTable(round=round_, match=match, seat=seat.seat)


def entry_history(entry: Entry) -> list[Match]:
    """Every match of an entry, round by round."""
    return list(
        Match.objects.filter(seats__entry=entry)
        .exclude(round__status=Round.Status.PROPOSED)
        .select_related("round")
        .prefetch_related(
            _seats_prefetch(), Prefetch("games", queryset=Game.objects.order_by("number"))
        )
        .order_by("round__number")
    )


def match_log(match: Match) -> QuerySet[ResultChange]:
    return match.changes.select_related("user").order_by("at", "pk")


def published_rounds(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.exclude(status=Round.Status.PROPOSED).order_by("number")


def entries_of(player: Any) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__year")
    )
