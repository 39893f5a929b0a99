"""Reads for the tournament pages and documents, each in a fixed number of queries.

The views, the printed documents and the export read through here; what the
algorithms need is read by ``tournaments.bridge``, which the standings here wrap.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Case, Exists, OuterRef, Prefetch, Q, QuerySet, Value, When
from django.shortcuts import get_object_or_404

from club.models import Player
from club.names import distinct_names
from competition import playoff
from core.caching import computed_once
from scoring.rules.match import MatchResult, check_match
from tournaments import bridge
from tournaments.access import Actor
from tournaments.bridge import StandingRow
from tournaments.marks import listed_first
from tournaments.models import (
    Entry,
    ForbiddenPair,
    Game,
    Match,
    ResultChange,
    Round,
    Seat,
    Tournament,
)
from tournaments.ports import rating_list
from tournaments.progress import with_progress
from tournaments.services.playoff import finish_refusal, playoff_refusal
from tournaments.services.rounds import pairing_refusal


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """The Swiss standings after ``through_round`` (default: every published round), best
    first, each line with its entry and player (``bridge.standings``)."""
    return bridge.standings(tournament, through_round=through_round)


def tournaments_listed() -> QuerySet[Tournament]:
    """Every tournament, newest first: the real ones, then the unrated, then rehearsals."""
    return with_progress(
        Tournament.objects.select_related("champion__player").order_by(
            *listed_first(), "-year", "-starts_on", "name"
        )
    )


def current_championship() -> Tournament | None:
    """The latest championship that has started, else the next one; with where it stands
    (``progress.with_progress``) and its champion, as the pages show it."""
    championships = Tournament.objects.filter(is_championship=True).select_related(
        "champion__player"
    )
    return with_progress(championships).order_by("-year").first()


def champions_by_year() -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(is_championship=True, champion__isnull=False)
        .select_related("champion__player")
        .order_by("-year")
    )


def rounds_of(tournament: Tournament) -> list[Round]:
    """Every round of the tournament, proposals included, in order."""
    return list(tournament.rounds.order_by("number"))


def round_count(tournament: Tournament) -> int:
    return tournament.rounds.count()


def published_swiss_rounds(tournament: Tournament) -> list[Round]:
    """The Swiss rounds players have seen, in order, without their pairings' reasons."""
    rounds = published_rounds(tournament).filter(kind=Round.Kind.SWISS)
    return list(rounds.defer("explanation"))


def round_in_play(tournament: Tournament) -> bool:
    return tournament.rounds.filter(status=Round.Status.PLAYING).exists()


def entries_listed(tournament: Tournament) -> QuerySet[Entry]:
    """The tournament's entries with their players, by name."""
    return tournament.entries.select_related("player").order_by("player__name", "player__club")


def entry_of(tournament: Tournament, pk: int) -> Entry:
    """An entry of ``tournament``, with its player, or 404."""
    return get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, pk=pk)


def _seats_prefetch() -> Prefetch[str, QuerySet[Seat]]:
    return Prefetch("seats", queryset=Seat.objects.select_related("entry__player").order_by("seat"))


TABLE_ORDER = ("is_bye", "table", "bracket_slot")


def round_matches(round_: Round, *, only: Collection[int] | None = None) -> list[Match]:
    """A round's matches in table order (the bye last), seats, players and games loaded;
    ``only``: those of these ids alone."""
    matches = round_.matches.all() if only is None else round_.matches.filter(pk__in=only)
    return list(
        matches.prefetch_related(
            _seats_prefetch(), Prefetch("games", queryset=Game.objects.order_by("number"))
        ).order_by(*TABLE_ORDER)
    )


@dataclass(frozen=True)
class MatchVersion:
    """A match of a round as its row of the pairings is kept: by its own version."""

    pk: int
    version: str
    unplayed: bool
    """No result yet: its row shows the expected scores, which follow the rating list."""


UNPLAYED = (Match.Status.PENDING, Match.Status.IN_PLAY, Match.Status.ONLINE)
"""A match with no result reported yet."""


def round_match_versions(round_: Round) -> list[MatchVersion]:
    """The round's matches in table order with their versions, in one query."""
    return [
        MatchVersion(pk, f"{pk}.{version}.{updated_at.timestamp()}", not bye and status in UNPLAYED)
        for pk, version, updated_at, status, bye in round_.matches.order_by(
            *TABLE_ORDER
        ).values_list("pk", "version", "updated_at", "status", "is_bye")
    ]


def unplayed_pairs(round_: Round) -> dict[int, tuple[int, int]]:
    """Each match of the round with no result yet (byes aside): its players' ids, seat
    0's first, in one query (what its expected scores are computed from)."""
    seats = (
        Seat.objects.filter(match__round=round_, match__status__in=UNPLAYED, match__is_bye=False)
        .order_by("match_id", "seat")
        .values_list("match_id", "entry__player_id")
    )
    players: dict[int, list[int]] = {}
    for match, player in seats:
        players.setdefault(match, []).append(player)
    return {match: (pair[0], pair[1]) for match, pair in players.items() if len(pair) == 2}


def round_player_names(round_: Round) -> dict[int, str]:
    """The names of the round's players as its pairings show them (``distinct_names``), by
    player id: told apart across the whole round, however few of its rows are drawn."""
    return distinct_names(Player.objects.filter(entries__seats__round=round_).distinct())


# How long the records before a round are kept (a change to those rounds makes them
# unreachable long before).
RECORDS_KEPT_SECONDS = 24 * 60 * 60


def rounds_version(rounds: Iterable[Round]) -> str:
    """A digest of what ``rounds`` are at: it changes with any result in them, and with any
    change to the tournament that is not a result (``services.changes``).

    Each round counts by id, version and publication time, so the digest is unique
    even in a database made anew under an old cache (as the demo's is).
    """
    parts = sorted(
        f"{r.pk}.{r.results_version}.{r.published_at.timestamp() if r.published_at else ''}"
        for r in rounds
    )
    return hashlib.blake2b(",".join(parts).encode(), digest_size=16).hexdigest()


def _versioned_rounds(tournament: Tournament, through: int) -> list[Round]:
    """Rounds 1 to ``through`` with what ``rounds_version`` reads, in one query.

    ``tournament_id`` is loaded too: a round reached through ``tournament.rounds`` is
    handed its tournament by Django, which reads that field, so leaving it out cost a
    query a round.
    """
    return list(
        tournament.rounds.filter(number__lte=through).only(
            "pk", "tournament_id", "number", "status", "results_version", "published_at"
        )
    )


@dataclass(frozen=True)
class RoundVersions:
    """What a round's page keys on: ``page``, every round up to it (a report in it, a
    correction before it, or any change that is not a result) and, while the round is
    played, the rating list (its unplayed matches' expected scores); ``earlier``, the
    rounds before it alone (the players' records on its pairings)."""

    page: str
    earlier: str


def round_versions(tournament: Tournament, number: int) -> RoundVersions:
    """The versions of round ``number``'s page (``RoundVersions``), in one query (two while
    the round is played: the rating list's version)."""
    rounds = _versioned_rounds(tournament, number)
    page = rounds_version(rounds)
    if any(r.number == number and r.status == Round.Status.PLAYING for r in rounds):
        page += f"|ratings.{rating_list().version()}"
    return RoundVersions(page=page, earlier=rounds_version(r for r in rounds if r.number < number))


def standings_version(tournament: Tournament) -> str:
    """What the standings (and the documents printed from them) key on: every change that
    is not a result, and every final result; no query (``services.changes``)."""
    return (
        f"{tournament.pk}.{tournament.created_at.timestamp()}"
        f".{tournament.setup_version}.{tournament.final_version}"
    )


def setup_version(tournament: Tournament) -> str:
    """What a page keys on for everything but results (names, entries, rounds, settings)."""
    return f"{tournament.pk}.{tournament.created_at.timestamp()}.{tournament.setup_version}"


def match_version(tournament: Tournament, pk: int) -> str | None:
    """What the page of match ``pk`` keys on: the match's own version and the tournament's
    setup; None when the tournament has no such match."""
    found = (
        Match.objects.filter(pk=pk, round__tournament=tournament)
        .values_list("version", "updated_at")
        .first()
    )
    if found is None:
        return None
    version, updated_at = found
    return f"{setup_version(tournament)}|{pk}.{version}.{updated_at.timestamp()}"


def records_before(
    tournament: Tournament, number: int, *, earlier_version: str | None = None
) -> dict[int, str]:
    """Each entry's W-L record after the rounds before ``number``.

    Kept in the cache under the versions of those rounds, so the results coming in for
    round ``number`` do not make every reader of its pairings count them all again.
    ``earlier_version``: their ``rounds_version`` when the caller has it already.
    """
    if number <= 1:
        return {}
    if earlier_version is None:
        earlier_version = rounds_version(_versioned_rounds(tournament, number - 1))
    key = f"records:{tournament.pk}:{number}:{earlier_version}"

    def count() -> dict[int, str]:
        table = bridge.standings_table(tournament, through_round=number - 1)
        return {standing.entrant: standing.record for standing in table}

    return computed_once(key, count, timeout=RECORDS_KEPT_SECONDS, wait=2.0) or {}


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


def my_table(tournament: Tournament, actor: Actor) -> MyTable | None:
    """The actor's match in the latest published round (by account or private link), if any.

    The match comes with what its page shows (``match_for_page``'s round, seats, players
    and games), so a page about it need not load it again.
    """
    if not actor.is_known:
        return None
    round_ = tournament.rounds.exclude(status=Round.Status.PROPOSED).order_by("-number").first()
    if round_ is None:
        return None
    mine = Q(entry=actor.entry) if actor.entry is not None else Q()
    if actor.is_authenticated:
        mine |= Q(entry__player__user=actor.user)
    seat = Seat.objects.filter(mine, round=round_).first()
    if seat is None:
        return None
    match = _matches_for_page().get(pk=seat.match_id)
    return MyTable(round=round_, match=match, seat=seat.seat)


def my_tables_now(
    user: User | AnonymousUser, private_keys: Mapping[str, str]
) -> list[tuple[Tournament, MyTable]]:
    """The visitor's match in the round being played of each tournament they are in.

    The visitor is known by their account's player and by the private links opened in
    this visit (``private_keys``: a tournament's address to its key, as the session
    keeps them). Between rounds (the last one closed, the next not yet published)
    there is no match now.
    """
    known = Q(entries__player__user=user) if user.is_authenticated else Q(pk__in=[])
    known |= Q(slug__in=list(private_keys))
    playing = Tournament.objects.filter(
        known, status__in=[Tournament.Status.SWISS, Tournament.Status.PLAYOFF]
    )
    tables = []
    for tournament in playing.distinct().order_by(*listed_first(), "-starts_on", "name"):
        key = private_keys.get(tournament.slug)
        entry = tournament.entries.filter(private_key=key).first() if key else None
        mine = my_table(tournament, Actor(user=user, entry=entry))
        if mine is not None and mine.round.status == Round.Status.PLAYING:
            tables.append((tournament, mine))
    return tables


def _matches_for_page() -> QuerySet[Match]:
    return Match.objects.select_related("round").prefetch_related(
        _seats_prefetch(), Prefetch("games", queryset=Game.objects.order_by("number"))
    )


def match_for_page(tournament: Tournament, pk: int) -> Match:
    """A match of ``tournament`` with its round, seats, players and games, or 404."""
    return get_object_or_404(_matches_for_page(), pk=pk, round__tournament=tournament)


def match_result(match: Match) -> MatchResult | None:
    """The engine's tally of a match's saved games (dealers, skunks, game points, spread).

    The games were checked by the engine when they were saved (``services.matches`` is
    their only writer, behind ``services.results.check_report``): nothing is judged
    again here. None until the first game is saved.
    """
    games = [(game.winner, game.loser_score) for game in match.games.all()]
    if match.first_dealer is None or not games:
        return None
    return check_match(
        best_of=match.best_of,
        first_dealer=match.first_dealer,
        games=games,
        scheme=bridge.scheme_of(match.round.tournament),
    )


def result_by_organiser(match: Match) -> bool:
    """Whether the match's result, as it stands, is an organiser's (entered or corrected),
    not the players' or the site's: the latest change to it in the result log says."""
    latest = match.changes.exclude(action=ResultChange.Action.ONLINE_STARTED).order_by("-pk")
    action = latest.values_list("action", flat=True).first()
    return action in (ResultChange.Action.ENTERED, ResultChange.Action.SETTLED)


def bracket_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """The bracket as the page draws it: each play-off round with its matches by slot.

    Each match comes with its seats in order, their entries (with the play-off seed)
    and players, and its games.
    """
    rounds = tournament.rounds.filter(kind=Round.Kind.PLAYOFF).order_by("number")
    result = []
    for round_ in rounds.prefetch_related("matches__seats__entry__player", "matches__games"):
        matches = sorted(round_.matches.all(), key=lambda m: m.bracket_slot or 0)
        result.append(
            {
                "round": round_,
                "label": playoff.round_label(2 * len(matches)),
                "matches": [
                    {"match": m, "seats": sorted(m.seats.all(), key=lambda s: s.seat)}
                    for m in matches
                ],
            }
        )
    return result


def recorded_game(tournament: Tournament, match: int, number: int) -> Game:
    """Game ``number`` of a published match of ``tournament`` whose engine record is kept,
    with its match and round, or 404."""
    return get_object_or_404(
        Game.objects.select_related("match__round").exclude(
            match__round__status=Round.Status.PROPOSED
        ),
        match__pk=match,
        match__round__tournament=tournament,
        number=number,
        record__isnull=False,
    )


def rounds_paired_after(round_: Round) -> list[Round]:
    """Rounds paired after ``round_`` (on standings that a correction to it would change)."""
    return list(
        Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number).order_by(
            "number"
        )
    )


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
    return match.changes.select_related("user", "player").order_by("at", "pk")


def published_rounds(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.exclude(status=Round.Status.PROPOSED).order_by("number")


def entries_of(player: Player) -> QuerySet[Entry]:
    """The player's entries, newest first: real tournaments, then unrated, then rehearsals."""
    return (
        Entry.objects.filter(player=player)
        .select_related("tournament")
        .order_by(
            *listed_first("tournament__"),
            "-tournament__year",
            "-tournament__starts_on",
            "tournament__name",
        )
    )


def entry_by_private_key(key: str) -> Entry | None:
    """The entry a private link opens, or None for an unknown or revoked key."""
    if not key:
        return None
    return Entry.objects.select_related("tournament", "player").filter(private_key=key).first()


# The organisers' desk: what needs attention in a round, and what may be done next.

ATTENTION_ORDER = (
    Match.Status.DISPUTED,
    Match.Status.REPORTED,
    Match.Status.IN_PLAY,
    Match.Status.PENDING,
)


def needs_attention(round_: Round) -> list[Match]:
    """The round's matches that are not final, most urgent first, in two queries.

    Disputed matches come first (an organiser must settle them), then those reported
    and awaiting the opponent's confirmation, then those in play, then the unreported;
    by table within each. An empty list means the round can be closed.
    """
    urgency = Case(
        *(When(status=status, then=Value(rank)) for rank, status in enumerate(ATTENTION_ORDER)),
        default=Value(len(ATTENTION_ORDER)),
    )
    return list(
        round_.matches.exclude(status=Match.Status.FINAL)
        .prefetch_related(_seats_prefetch())
        .order_by(urgency, "table")
    )


def attention_names(matches: Sequence[Match]) -> dict[int, str]:
    """The names of the players of ``matches`` (``needs_attention``), told apart by
    ``club.names.distinct_names`` (the seats and their players are prefetched)."""
    return distinct_names(seat.entry.player for match in matches for seat in match.seats.all())


@dataclass(frozen=True)
class OrganiserDesk:
    """What an organiser may do next with a tournament; each refusal says why not (or None)."""

    swiss_rounds: int
    closed_rounds: int
    current: Round | None
    pair_refusal: str | None
    playoff_refusal: str | None
    finish_refusal: str | None
    end_early_refusal: str | None

    @property
    def can_end_early(self) -> bool:
        """Finishing now is possible, but only by ending before the last Swiss round."""
        return self.finish_refusal is not None and self.end_early_refusal is None


def organiser_desk(tournament: Tournament, rounds: Sequence[Round] | None = None) -> OrganiserDesk:
    """The next steps for ``tournament``; pass its ``rounds`` in order if already loaded."""
    rounds = list(tournament.rounds.order_by("number")) if rounds is None else list(rounds)
    swiss = [r for r in rounds if r.kind == Round.Kind.SWISS]
    return OrganiserDesk(
        swiss_rounds=tournament.swiss_rounds,
        closed_rounds=sum(r.status == Round.Status.CLOSED for r in swiss),
        current=next((r for r in reversed(rounds) if r.status != Round.Status.CLOSED), None),
        pair_refusal=pairing_refusal(tournament, rounds),
        playoff_refusal=playoff_refusal(tournament, rounds),
        finish_refusal=finish_refusal(tournament, rounds),
        end_early_refusal=finish_refusal(tournament, rounds, early=True),
    )


def entries_marked_paired(tournament: Tournament) -> QuerySet[Entry]:
    """The entries with their players, each with ``is_paired``: seated in some round already."""
    return tournament.entries.select_related("player").annotate(
        is_paired=Exists(Seat.objects.filter(entry=OuterRef("pk")))
    )


def next_swiss_round(tournament: Tournament) -> int:
    """The number the next Swiss round will have (a late entry's first round)."""
    return tournament.rounds.filter(kind=Round.Kind.SWISS).count() + 1


def proposal(tournament: Tournament, number: int, *, pk: int | None = None) -> Round | None:
    """The proposed round ``number`` (the very one with ``pk``, when given), or None when it
    is gone: published, paired again (a new round of that number) or discarded."""
    rounds = tournament.rounds.filter(number=number, status=Round.Status.PROPOSED)
    return (rounds if pk is None else rounds.filter(pk=pk)).first()


def round_exists(tournament: Tournament, number: int) -> bool:
    return tournament.rounds.filter(number=number).exists()


def is_playoff_final(round_: Round) -> bool:
    """A play-off round of one match: its winner is the champion."""
    return round_.kind == Round.Kind.PLAYOFF and round_.matches.count() == 1


def round_entries(round_: Round) -> QuerySet[Entry]:
    """The entries seated in ``round_``, with their players."""
    return Entry.objects.filter(seats__round=round_).select_related("player")


def entry_names(tournament: Tournament) -> dict[int, str]:
    """Each entry's player's name, by entry id."""
    return {e.pk: str(e.player) for e in tournament.entries.select_related("player")}


def forbidden_pairs_of(tournament: Tournament) -> QuerySet[ForbiddenPair]:
    return tournament.forbidden_pairs.select_related("first__player", "second__player")


def forbidden_pair_of(tournament: Tournament, pk: int) -> ForbiddenPair:
    return get_object_or_404(ForbiddenPair, tournament=tournament, pk=pk)
