"""``manage.py simulate_tournament``: a whole tournament played by the computer, as a rehearsal.

It goes through the same services the pages use: register the players, pair
each round, publish it, let one player of every match report it game by game and
the other confirm it, close the round, and run the play-off. Every game is played
by the engine's computer players and its record is kept with the result.

Each player is given a computer level that plays all their games: ``--level``
gives every player the same one; ``--levels easy,standard,expert`` spreads the
players over several, in turn in the order the players are taken (members in the
register's order), so the same members keep the same levels from one rehearsal to
the next and the rating list can be checked against their strength. The standings show
each player's level. The tournament's slug is the last line of the output.

A rehearsal (``Tournament.rehearsal``) is never rated and never the year's championship,
and every page and document of it says so (``tournaments.marks``). Its players
(``tournaments.rehearsal``) are made up for it (``--fictional``: not members, so on no
member's page; the default when the register has no members) or the register's members
(``--members``: the rehearsal is then listed on their pages, marked). With members on
the register the command asks for one of the two. ``--rated`` makes a
tournament of members whose results count (docs/rating.md): not a rehearsal.
"""

from __future__ import annotations

import datetime
import random
import sys
import time
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from club.models import Player
from club.selectors import members
from scoring.players.strategy import LEVELS
from tournaments import bridge
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import Match, Round, Seat, Tournament
from tournaments.rehearsal import made_up_players, members_to_rehearse
from tournaments.services import playoff as playoff_services
from tournaments.services import results, rounds
from tournaments.services import tournaments as tournament_services
from tournaments.simulation import play_match, spread_levels


class Progress:
    """A progress bar on standard error."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled

    def step(self, label: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        width = 30
        filled = width * self.done // max(self.total, 1)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {label:<24}"
        )
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def _actor(seat: Seat) -> Actor:
    """The seat's player as they report: by their account (a member) or, made
    up, by their private link (``tournaments.rehearsal``)."""
    return Actor(user=seat.entry.player.user or AnonymousUser(), entry=seat.entry)


def _logs_in(seat: Seat) -> bool:
    """Whether someone can log in as the seat's player (to report their own match)."""
    account = seat.entry.player.user
    return account is not None and account.has_usable_password()


def _made_up(options: dict[str, Any]) -> bool:
    """Whether the players are made up (``--fictional``) or the register's members."""
    if options["fictional"]:
        if options["rated"]:
            raise CommandError("Made-up players are never rated: give --members with --rated.")
        return True
    if options["members"] or options["rated"]:
        return False
    if not members().exists():
        return True
    raise CommandError(
        "The register has members. Give --fictional to rehearse with made-up players (on no "
        "member's page), or --members to rehearse with the members (the rehearsal is then "
        "listed on their pages, marked as one)."
    )


def _levels(options: dict[str, Any]) -> list[str]:
    """The levels the players are spread over, from ``--level`` or ``--levels``."""
    if options["levels"] is None:
        return [options["level"] or "standard"]
    if options["level"] is not None:
        raise CommandError(
            "Give --level (every player at one level) or --levels (players spread over "
            "several), not both."
        )
    levels = [level.strip() for level in options["levels"].split(",")]
    valid = ", ".join(LEVELS)
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise CommandError(
            f"Unknown level {unknown[0]!r} in --levels; the levels are {valid} (comma-separated)."
        )
    if len(set(levels)) < len(levels):
        raise CommandError(f"--levels names a level twice; give each of {valid} at most once.")
    return levels


class Command(BaseCommand):
    help = (
        "Rehearse a tournament: create one and play it with the engine's computer players, "
        "all at --level, or spread evenly over --levels (each player's games at their own "
        "level, shown in the standings). Its players are made up (--fictional: not members, "
        "on no member's page; the default when the register has no members) or the "
        "register's members (--members); with members on the register, say which. A "
        "rehearsal is never rated nor the year's championship, and is marked as one "
        "wherever it is shown; --rated makes a tournament of members that counts instead."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=40)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument(
            "--playoff", type=int, default=None, help="play-off size (default: none)"
        )
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--level",
            choices=LEVELS,
            default=None,
            help="every player's computer level (default: standard)",
        )
        parser.add_argument(
            "--levels",
            default=None,
            help="comma-separated levels, e.g. easy,standard,expert: the players are spread "
            "over them evenly, in turn in the register's order (not with --level)",
        )
        parser.add_argument("--best-of", type=int, default=3, choices=[1, 3, 5, 7])
        parser.add_argument("--name", default="", help="the tournament's name")
        parser.add_argument("--year", type=int, default=None)
        parser.add_argument(
            "--championship", action="store_true", help="make it the year's championship"
        )
        parser.add_argument(
            "--stop-after",
            type=int,
            default=None,
            help="play only this many rounds; then pair the next and report part of it "
            "(a round in play)",
        )
        parser.add_argument("--venue", default="", help="where it is played (default: none)")
        parser.add_argument(
            "--rated",
            action="store_true",
            help="count its matches on the club's rating list: a tournament of members, not a "
            "rehearsal (default: an unrated rehearsal)",
        )
        players = parser.add_mutually_exclusive_group()
        players.add_argument(
            "--fictional",
            action="store_true",
            help="made-up players, created for this rehearsal: not members, so on no member's "
            "page, not in the register, the rating list or the lobby (the default when the "
            "register has no members)",
        )
        players.add_argument(
            "--members",
            action="store_true",
            help="the register's active members, in its order (new members added if too few), "
            "each given an account to report with: the rehearsal is listed on their pages, "
            "marked as one",
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("A tournament needs at least two players.")
        levels = _levels(options)
        if options["championship"] and not options["rated"]:
            raise CommandError(
                "A rehearsal is never the year's championship: leave out --championship, or "
                "give --rated for a tournament of members that counts."
            )
        made_up = _made_up(options)
        started = time.perf_counter()
        try:
            tournament, players = self._create(options, made_up=made_up)
            level_of = spread_levels([player.pk for player in players], levels)
            self._play(tournament, level_of, options)
        except TournamentError as error:
            raise CommandError(str(error)) from error
        self._print_standings(tournament, level_of)
        self.stdout.write(f"({time.perf_counter() - started:.1f} s)")
        self.stdout.write(tournament.slug)

    def _create(self, options: dict[str, Any], *, made_up: bool) -> tuple[Tournament, list[Player]]:
        """The tournament with its players checked in, and those players in the order they
        were taken (the register's, or made up)."""
        rng = random.Random(options["seed"])
        year = options["year"] or timezone.localdate().year
        start = datetime.date(year, 5, 1)
        tournament = tournament_services.tournament_create(
            name=options["name"] or f"Simulated tournament {options['seed']}",
            year=year,
            venue=options["venue"],
            starts_on=start,
            ends_on=start + datetime.timedelta(days=1),
            is_championship=options["championship"],
            swiss_rounds=options["rounds"],
            best_of=options["best_of"],
            playoff_size=options["playoff"],
            seed=options["seed"],
            rated=options["rated"],
            rehearsal=not options["rated"],
        )
        count = options["players"]
        players = made_up_players(count, rng) if made_up else members_to_rehearse(count, rng)
        for player in players:
            tournament_services.entry_add(tournament=tournament, player=player, checked_in=True)
        return tournament, players

    def _play(
        self, tournament: Tournament, level_of: dict[int, str], options: dict[str, Any]
    ) -> None:
        matches_per_round = options["players"] // 2
        stop = options["stop_after"]
        swiss = options["rounds"] if stop is None else min(stop, options["rounds"])
        progress = Progress(matches_per_round * swiss, enabled=not options["no_progress"])
        for _number in range(swiss):
            round_ = rounds.round_propose(tournament=tournament)
            rounds.round_publish(round=round_)
            self._play_round(round_, level_of, progress)
            rounds.round_close(round=round_)
        progress.finish()
        if stop is not None and stop < options["rounds"]:
            round_ = rounds.round_propose(tournament=tournament)
            rounds.round_publish(round=round_)
            self._play_round(round_, level_of, None, share=0.5)
            return
        if options["playoff"]:
            bracket: Round | None = playoff_services.playoff_start(tournament=tournament)
            while bracket is not None:
                self._play_round(bracket, level_of, None)
                rounds.round_close(round=bracket)
                bracket = tournament.rounds.filter(
                    kind=Round.Kind.PLAYOFF, status=Round.Status.PLAYING
                ).first()
        else:
            playoff_services.tournament_finish(tournament=tournament)

    def _play_round(
        self,
        round_: Round,
        level_of: dict[int, str],
        progress: Progress | None,
        share: float = 1.0,
    ) -> None:
        matches = list(
            round_.matches.filter(is_bye=False).prefetch_related("seats__entry__player__user")
        )
        if share < 1:
            # Leave the matches of people who can log in for them to report themselves.
            matches = [m for m in matches if not any(_logs_in(s) for s in m.seats.all())]
        for match in matches[: round(len(matches) * share)]:
            seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
            names = (seats[0].entry.player.name, seats[1].entry.player.name)
            seed = round_.tournament.seed * 100_003 + round_.number * 1_009 + (match.table or 0)
            levels = (level_of[seats[0].entry.player_id], level_of[seats[1].entry.player_id])
            played = play_match(seed=seed, best_of=match.best_of, names=names, levels=levels)
            reporter, opponent = (_actor(s) for s in seats)
            reported = results.match_report_result(
                match=match, by=reporter, first_dealer=played.first_dealer, games=played.games
            )
            results.game_records_attach(match=match, records=played.records)
            results.match_confirm(match=match, by=opponent, version=reported.report_version)
            if progress is not None:
                progress.step(f"round {round_.number}, table {match.table}")

    def _print_standings(self, tournament: Tournament, level_of: dict[int, str]) -> None:
        tournament.refresh_from_db()
        rows = bridge.standings(tournament)
        if tournament.rehearsal:
            made_up = tournament.entries.filter(player__fictional=True).exists()
            who = "made-up players" if made_up else "members of the register"
            self.stdout.write(f"A rehearsal with {who}: not rated.")
        self.stdout.write(f"\n{tournament.name}: standings")
        self.stdout.write(
            f"{'#':>3}  {'Player':<28} {'Level':<8} {'W-L':>5} {'GP':>4} {'Spread':>7} {'Bh':>4}"
        )
        for row in rows:
            s = row.standing
            place = f"{s.rank}{'=' if s.shared else ''}"
            level = level_of[row.entry.player_id]
            self.stdout.write(
                f"{place:>3}  {row.entry.player.name[:28]:<28} {level:<8} {s.record:>5} "
                f"{s.game_points:>4} {s.spread:>7} {s.buchholz:>4}"
            )
        if tournament.champion is not None:
            self.stdout.write(f"Winner: {tournament.champion.player}")
        open_matches = Match.objects.filter(round__tournament=tournament).exclude(
            status=Match.Status.FINAL
        )
        if open_matches.exists():
            self.stdout.write(
                f"{open_matches.count()} matches of the current round still to be played."
            )
