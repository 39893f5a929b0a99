"""The validation pass of an import: the whole export checked before anything is written.

``check_export`` reads the export's JSON object into an ``ImportPlan``: unsaved
model instances and plain values, each checked for its JSON type, by its model
field and constraints, and by the engine (match lengths, every match; see
``tournaments.exchange.matches``), with every reference to a player checked
against the ``players`` list. It writes nothing; it asks the database only to
evaluate the model's check constraints and to refuse an address in use or a
second championship for the year. Any problem raises ``InvalidExport`` naming
the path of the value at fault.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from club.models import Player
from scoring.rules.match import MatchReportError, check_match
from tournaments.exchange.export import FORMAT, VERSION
from tournaments.exchange.fields import (
    InvalidExport,
    array,
    at,
    boolean,
    date,
    integer,
    item,
    model_constraints,
    model_fields,
    obj,
    optional_integer,
    player_ref,
    text,
)
from tournaments.exchange.matches import RoundPlan, check_rounds
from tournaments.models import Entry, Round, Tournament
from tournaments.tiebreaks import BY_KEY as TIEBREAKS

MAX_ID = 2**63 - 1
TOURNAMENT = "tournament"
# Where each checked field of the tournament is in the file.
TOURNAMENT_PATHS = {
    **{
        field: at(TOURNAMENT, field)
        for field in (
            "name",
            "slug",
            "year",
            "venue",
            "starts_on",
            "ends_on",
            "is_championship",
            "swiss_rounds",
            "best_of",
            "playoff_size",
            "playoff_best_of",
            "bye_game_points",
            "seed",
            "status",
        )
    },
    "points_win": "tournament.game_points.win",
    "points_skunk": "tournament.game_points.skunk",
    "points_double_skunk": "tournament.game_points.double_skunk",
}
TOURNAMENT_CONSTRAINTS = {
    "tournament_best_of_odd": ("tournament.best_of", "a match is best of 1, 3, 5 or 7 games"),
    "tournament_dates_in_order": ("tournament.ends_on", "the last day is before the first day"),
    "tournament_has_rounds": (
        "tournament.swiss_rounds",
        "a tournament has at least one Swiss round",
    ),
    "tournament_skunk_points_grow": (
        "tournament.game_points",
        "game points cannot shrink: win <= skunk <= double_skunk",
    ),
    "tournament_playoff_size": ("tournament.playoff_size", "a play-off needs at least two players"),
}

SETTINGS_OPTIONAL = (
    "slug",
    "venue",
    "starts_on",
    "ends_on",
    "is_championship",
    "swiss_rounds",
    "playoff_size",
    "playoff_best_of",
    "bye_game_points",
    "seed",
    "status",
    "champion",
)


@dataclass(frozen=True)
class PlayerPlan:
    """A player of the export, to be found in the register (or added) and entered."""

    path: str
    id: int
    name: str
    club: str
    checked_in: bool
    withdrawn: bool
    first_round: int
    playoff_seed: int | None


@dataclass(frozen=True)
class ImportPlan:
    """A checked export: everything the writing pass saves, nothing saved yet."""

    tournament: Tournament
    players: tuple[PlayerPlan, ...]
    forbidden_pairs: tuple[tuple[int, int], ...]
    rounds: tuple[RoundPlan, ...]
    champion: int | None


def check_export(data: dict[str, Any], *, slug: str = "") -> ImportPlan:
    """The plan of the import of ``data`` (under ``slug`` when given), or ``InvalidExport``."""
    obj(
        data,
        "",
        required=("format", "version", TOURNAMENT, "players", "rounds"),
        optional=("forbidden_pairs", "standings"),
    )
    if data["format"] != FORMAT:
        raise InvalidExport("format", f"must be {FORMAT!r}: this is not a tournament export")
    if integer(data["version"], "version") != VERSION:
        raise InvalidExport("version", f"must be {VERSION}, the only version there is")
    settings = obj(
        data[TOURNAMENT],
        TOURNAMENT,
        required=("name", "year", "best_of", "game_points", "tiebreaks"),
        optional=SETTINGS_OPTIONAL,
    )
    tournament = check_tournament(settings, slug=slug, rounds=len(array(data["rounds"], "rounds")))
    check_register(tournament, slug_path="--slug" if slug else TOURNAMENT_PATHS["slug"])
    players = check_players(data["players"])
    known = {player.id for player in players}
    plan = ImportPlan(
        tournament=tournament,
        players=players,
        forbidden_pairs=check_forbidden_pairs(data.get("forbidden_pairs", []), known),
        rounds=tuple(check_rounds(data["rounds"], tournament, known)),
        champion=_champion(settings.get("champion"), known),
    )
    check_seeded(plan.players, plan.rounds)
    array(data.get("standings", []), "standings")  # the site computes them again
    return plan


def check_tournament(data: dict[str, Any], *, slug: str, rounds: int) -> Tournament:
    """The tournament's settings as an unsaved ``Tournament``, checked by its model."""
    tournament = Tournament(**_calendar(data), **_format(data, rounds))
    tournament.slug = slug or _slug(data)
    paths = {**TOURNAMENT_PATHS, "slug": "--slug" if slug else TOURNAMENT_PATHS["slug"]}
    model_fields(tournament, paths)
    model_constraints(tournament, TOURNAMENT_CONSTRAINTS)
    return tournament


def _slug(data: dict[str, Any]) -> str:
    if "slug" not in data:
        raise InvalidExport(TOURNAMENT_PATHS["slug"], "is missing (or give one with --slug)")
    return text(data["slug"], TOURNAMENT_PATHS["slug"])


def _calendar(data: dict[str, Any]) -> dict[str, Any]:
    """Name, place and days, the status and the draw seed."""
    path = TOURNAMENT_PATHS
    year = integer(data["year"], path["year"], minimum=datetime.MINYEAR, maximum=datetime.MAXYEAR)
    return {
        "name": text(data["name"], path["name"]),
        "year": year,
        "venue": text(data.get("venue", ""), path["venue"]),
        "starts_on": date(data.get("starts_on", f"{year:04d}-01-01"), path["starts_on"]),
        "ends_on": date(data.get("ends_on", f"{year:04d}-01-01"), path["ends_on"]),
        "is_championship": boolean(data.get("is_championship", False), path["is_championship"]),
        "status": text(data.get("status", Tournament.Status.SWISS), path["status"]),
        "seed": integer(data.get("seed", 0), path["seed"]),
    }


def _format(data: dict[str, Any], rounds: int) -> dict[str, Any]:
    """How matches are played and scored, and how the standings are ordered."""
    path = TOURNAMENT_PATHS
    points = obj(
        data["game_points"], "tournament.game_points", required=("win", "skunk", "double_skunk")
    )
    return {
        "swiss_rounds": integer(data.get("swiss_rounds", max(1, rounds)), path["swiss_rounds"]),
        "best_of": match_length(data["best_of"], path["best_of"]),
        "playoff_size": optional_integer(data.get("playoff_size"), path["playoff_size"]),
        "playoff_best_of": match_length(data.get("playoff_best_of", 3), path["playoff_best_of"]),
        "points_win": integer(points["win"], path["points_win"]),
        "points_skunk": integer(points["skunk"], path["points_skunk"]),
        "points_double_skunk": integer(points["double_skunk"], path["points_double_skunk"]),
        "tiebreaks": tiebreaks(data["tiebreaks"], "tournament.tiebreaks"),
        "bye_game_points": integer(data.get("bye_game_points", 4), path["bye_game_points"]),
    }


def match_length(value: object, path: str) -> int:
    """A number of games a match may be best of, as the engine allows it."""
    best_of = integer(value, path)
    try:
        check_match(best_of=best_of, first_dealer=0, games=())
    except MatchReportError as error:
        raise InvalidExport(path, str(error)) from error
    return best_of


def tiebreaks(value: object, path: str) -> list[str]:
    """The standings order: tie-breaks the standings know, each once, at least one."""
    chain: list[str] = []
    for index, key in enumerate(array(value, path)):
        name = text(key, item(path, index))
        if name not in TIEBREAKS:
            raise InvalidExport(
                item(path, index), f"{name!r} is not a tie-break; they are {', '.join(TIEBREAKS)}"
            )
        if name in chain:
            raise InvalidExport(item(path, index), f"{name!r} is already in the order")
        chain.append(name)
    if not chain:
        raise InvalidExport(path, "needs at least one tie-break")
    return chain


def check_players(value: object) -> tuple[PlayerPlan, ...]:
    """The players, each once: one id, and one name and club the register can tell apart."""
    plans: list[PlayerPlan] = []
    ids: dict[int, str] = {}
    names: dict[tuple[str, str], str] = {}
    seeds: dict[int, str] = {}
    for index, data in enumerate(array(value, "players")):
        plan = _player(data, item("players", index))
        if plan.id in ids:
            raise InvalidExport(
                at(plan.path, "id"), f"player {plan.id} is given twice (also {ids[plan.id]})"
            )
        if plan.playoff_seed in seeds:
            raise InvalidExport(
                at(plan.path, "playoff_seed"),
                f"seed {plan.playoff_seed} is given twice (also {seeds[plan.playoff_seed]})",
            )
        if plan.playoff_seed is not None:
            seeds[plan.playoff_seed] = plan.path
        if (plan.name, plan.club) in names:
            raise InvalidExport(
                plan.path,
                f"has the same name and club as {names[plan.name, plan.club]}: the register "
                "could not tell them apart",
            )
        ids[plan.id] = names[plan.name, plan.club] = plan.path
        plans.append(plan)
    return tuple(plans)


def _player(value: object, path: str) -> PlayerPlan:
    data = obj(
        value,
        path,
        required=("id", "name", "club"),
        optional=("checked_in", "withdrawn", "first_round", "playoff_seed"),
    )
    plan = PlayerPlan(
        path=path,
        id=integer(data["id"], at(path, "id"), minimum=1, maximum=MAX_ID),
        name=text(data["name"], at(path, "name")),
        club=text(data["club"], at(path, "club")),
        checked_in=boolean(data.get("checked_in", True), at(path, "checked_in")),
        withdrawn=boolean(data.get("withdrawn", False), at(path, "withdrawn")),
        first_round=integer(data.get("first_round", 1), at(path, "first_round")),
        playoff_seed=optional_integer(
            data.get("playoff_seed"), at(path, "playoff_seed"), minimum=1
        ),
    )
    model_fields(Player(name=plan.name, club=plan.club), {f: at(path, f) for f in ("name", "club")})
    entry = Entry(first_round=plan.first_round, playoff_seed=plan.playoff_seed)
    model_fields(entry, {f: at(path, f) for f in ("first_round", "playoff_seed")})
    return plan


def check_seeded(players: Sequence[PlayerPlan], rounds: Sequence[RoundPlan]) -> None:
    """Everyone who plays in the play-off has a seed: the bracket pairs by them."""
    player_of = {player.id: player for player in players}
    for round_plan in rounds:
        if round_plan.round.kind != Round.Kind.PLAYOFF:
            continue
        for where, id_ in round_plan.players:
            player = player_of[id_]
            if player.playoff_seed is None:
                raise InvalidExport(
                    at(player.path, "playoff_seed"),
                    f"is missing: player {id_} plays in the play-off (at {where})",
                )


def check_forbidden_pairs(value: object, known: Collection[int]) -> tuple[tuple[int, int], ...]:
    """Pairs of two different players, each pair once."""
    pairs: list[tuple[int, int]] = []
    seen: dict[frozenset[int], str] = {}
    for index, pair in enumerate(array(value, "forbidden_pairs")):
        path = item("forbidden_pairs", index)
        players = array(pair, path)
        if len(players) != 2:
            raise InvalidExport(path, f"a forbidden pair is two players, not {len(players)}")
        first, second = (player_ref(p, item(path, i), known) for i, p in enumerate(players))
        if first == second:
            raise InvalidExport(item(path, 1), f"player {second} cannot be paired with themselves")
        if frozenset((first, second)) in seen:
            raise InvalidExport(path, f"is given twice (also {seen[frozenset((first, second))]})")
        seen[frozenset((first, second))] = path
        pairs.append((first, second))
    return tuple(pairs)


def _champion(value: object, known: Collection[int]) -> int | None:
    return None if value is None else player_ref(value, "tournament.champion", known)


def check_register(tournament: Tournament, *, slug_path: str) -> None:
    """What the database may refuse: an address in use, a second championship for the year."""
    if Tournament.objects.filter(slug=tournament.slug).exists():
        raise InvalidExport(
            slug_path,
            f"a tournament with the address {tournament.slug!r} exists already "
            "(import it under another address with --slug)",
        )
    if (
        tournament.is_championship
        and Tournament.objects.filter(year=tournament.year, is_championship=True).exists()
    ):
        raise InvalidExport(
            TOURNAMENT_PATHS["is_championship"], f"{tournament.year} already has a championship"
        )
