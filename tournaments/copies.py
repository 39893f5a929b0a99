"""Matches already on the rating list: a tournament that repeats a rated one's results.

A copy of an exported tournament, imported under any name, address or dates, has the
same matches as the tournament it was exported from; rated, it would count them a
second time. Two matches are *the same* when both are final, not byes and have games,
their rounds have the same number, they are between the same two players of the
register (whoever sat first), and their games have the same winners with the same
loser scores, in the same order. A match is *on the list* when a rated tournament other
than its own has the same match.
"""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Match, Tournament

MatchKey = tuple[int, frozenset[int], tuple[tuple[int, int], ...]]


def _match_keys(matches: QuerySet[Match]) -> dict[MatchKey, Match]:
    """Each of ``matches`` by what makes it the same result: its round's number, its two
    players of the register, and its games' winners and loser scores in order."""
    keys: dict[MatchKey, Match] = {}
    for match in matches.select_related("round").prefetch_related("seats__entry", "games"):
        player_of = {seat.seat: seat.entry.player_id for seat in match.seats.all()}
        games = tuple(
            (player_of[game.winner], game.loser_score)
            for game in sorted(match.games.all(), key=lambda game: game.number)
        )
        keys[(match.round.number, frozenset(player_of.values()), games)] = match
    return keys


def matches_on_the_list(tournament: Tournament) -> list[Match]:
    """The matches of ``tournament`` that another rated tournament already has on the list.

    Two matches are *the same* when their rounds have the same number, they are between
    the same two players of the register (whoever sat first), and their games have the
    same winners with the same loser scores, in the same order; both are final and not
    byes, and the other tournament is rated. A copy of an exported tournament, under any
    name, address or dates, has all its rated matches on the list again.
    """
    mine = _match_keys(_results(Match.objects.filter(round__tournament=tournament)))
    if not mine:
        return []
    others = _results(
        Match.objects.filter(
            round__tournament__rated=True,
            round__number__in={number for number, _players, _games in mine},
            seats__entry__player__in={player for _n, players, _g in mine for player in players},
        ).exclude(round__tournament=tournament)
    ).distinct()
    theirs = _match_keys(others)
    return [match for key, match in mine.items() if key in theirs]


def _results(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Those of ``matches`` that are results: final, no bye, with games."""
    return matches.filter(status=Match.Status.FINAL, is_bye=False, games__isnull=False).distinct()


def lock_rated_switches() -> None:
    """Take the one lock that every change of which tournaments are rated takes (the rated
    switch, a rated import), until the transaction ends: the rows of every tournament, in
    order. Two such changes at once then run one after the other, so the second's copy
    check (``copy_refusal``) sees the first's tournament rated; each locking only its own
    row, a tournament and its copy could both be made rated and their matches counted
    twice. Tournaments are few, and the switch is an administrator's command."""
    list(Tournament.objects.select_for_update().order_by("pk").values_list("pk", flat=True))


def copy_refusal(tournament: Tournament) -> str | None:
    """Why ``tournament`` cannot be rated (the first of its matches already on the list),
    or None."""
    already = matches_on_the_list(tournament)
    if not already:
        return None
    first = already[0]
    names = " – ".join(sorted(seat.entry.player.name for seat in first.seats.all()))
    # For the administrator at the terminal (import_tournament, set_tournament_rated),
    # in English like the commands.
    return (
        f"{len(already)} of its matches are already on the rating list from another rated "
        f"tournament (round {first.round.number}: {names}, the same games); it looks like "
        "a copy."
    )
