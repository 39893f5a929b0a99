"""Checking the rounds of an export: their matches, games, byes and game records.

Each match goes to the engine as the pages send it (``check_report``): the
engine checks the match length, every game, and decides who won. This module
adds only what the file says besides the games: the dealers and winner it
stores must be the ones the engine derives, and the status the one the site
would have given (*pending* with no games, *in play* while undecided,
*reported*, *disputed* or *final* once decided). A *seat* is a player's place
in a match, 0 or 1, in the order of ``matches[].players``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.match import MatchResult
from scoring.rules.replay import replay_live
from tournaments.errors import TournamentError
from tournaments.exchange.fields import (
    InvalidExport,
    array,
    at,
    integer,
    item,
    mapping,
    model_constraints,
    model_fields,
    obj,
    optional_integer,
    player_ref,
    text,
)
from tournaments.models import Match, Round, Tournament
from tournaments.services.results import check_report

ROUND_FIELDS = ("number", "kind", "status", "seed")
MATCH_FIELDS = ("table", "best_of", "bracket_slot", "status")
GAME_FIELDS = ("number", "dealer", "winner", "loser_score", "record")


@dataclass(frozen=True)
class MatchPlan:
    """A checked match: unsaved, with its players by id and the engine's verdict."""

    path: str
    match: Match
    players: tuple[int, int]
    result: MatchResult
    records: tuple[dict[str, Any] | None, ...]


@dataclass(frozen=True)
class ByePlan:
    """A bye: its player by id and, in the play-off, its place in the bracket."""

    path: str
    player: int
    bracket_slot: int | None


@dataclass(frozen=True)
class RoundPlan:
    path: str
    round: Round
    matches: tuple[MatchPlan, ...]
    byes: tuple[ByePlan, ...]

    @property
    def players(self) -> list[tuple[str, int]]:
        """Every player of the round, with the path of the place where they sit."""
        seated = [
            (at(plan.path, "players"), player) for plan in self.matches for player in plan.players
        ]
        return seated + [(bye.path, bye.player) for bye in self.byes]


@dataclass(frozen=True)
class ReportedGame:
    """A game as the file gives it, players turned into seats."""

    path: str
    winner: int
    loser_score: int
    dealer: int | None
    number: int | None
    record: dict[str, Any] | None


def check_rounds(value: object, tournament: Tournament, known: Collection[int]) -> list[RoundPlan]:
    plans: list[RoundPlan] = []
    numbers: dict[int, str] = {}
    for index, data in enumerate(array(value, "rounds")):
        plan = _round(data, item("rounds", index), tournament, known)
        number = plan.round.number
        if number in numbers:
            raise InvalidExport(
                at(plan.path, "number"), f"round {number} is given twice (also {numbers[number]})"
            )
        numbers[number] = plan.path
        plans.append(plan)
    return plans


def _round(value: object, path: str, tournament: Tournament, known: Collection[int]) -> RoundPlan:
    data = obj(
        value, path, required=("number", "matches"), optional=(*ROUND_FIELDS, "byes", "explanation")
    )
    round_ = Round(
        tournament=tournament,
        number=integer(data["number"], at(path, "number")),
        kind=text(data.get("kind", Round.Kind.SWISS), at(path, "kind")),
        status=text(data.get("status", Round.Status.CLOSED), at(path, "status")),
        seed=integer(data.get("seed", 0), at(path, "seed")),
    )
    model_fields(round_, {field: at(path, field) for field in ROUND_FIELDS})
    model_constraints(
        round_, {"round_number_positive": (at(path, "number"), "rounds count from 1")}
    )
    if round_.status == Round.Status.PROPOSED:
        raise InvalidExport(
            at(path, "status"), "only published rounds are exported (playing or closed)"
        )
    round_.explanation = _explanation(data.get("explanation"), at(path, "explanation"), round_)
    matches = tuple(
        _match(match, item(at(path, "matches"), index), round_, known)
        for index, match in enumerate(array(data["matches"], at(path, "matches")))
    )
    byes = tuple(
        _bye(bye, item(at(path, "byes"), index), round_, known)
        for index, bye in enumerate(array(data.get("byes", []), at(path, "byes")))
    )
    plan = RoundPlan(path, round_, matches, byes)
    _check_tables(matches)
    _check_bracket_slots(plan)
    _check_seated_once(plan)
    _check_closed(round_, matches)
    return plan


def _explanation(value: object, path: str, round_: Round) -> dict[str, Any]:
    """The pairing's reasons, kept as they are."""
    explanation = {} if value is None else mapping(value, path)
    if round_.kind == Round.Kind.PLAYOFF and "seeds" in explanation:
        raise InvalidExport(
            at(path, "seeds"),
            "the play-off seeds are no longer kept with a round: give each player's "
            "players[].playoff_seed",
        )
    return explanation


def _bye(value: object, path: str, round_: Round, known: Collection[int]) -> ByePlan:
    """A player id; in the play-off, ``{"player": id, "bracket_slot": n}``."""
    if round_.kind != Round.Kind.PLAYOFF:
        return ByePlan(path, player_ref(value, path, known), None)
    if not isinstance(value, dict):
        raise InvalidExport(
            path,
            'a play-off bye needs its place in the bracket: {"player": ..., "bracket_slot": ...}',
        )
    data = obj(value, path, required=("player", "bracket_slot"))
    return ByePlan(
        path,
        player_ref(data["player"], at(path, "player"), known),
        integer(data["bracket_slot"], at(path, "bracket_slot"), minimum=0),
    )


def _check_tables(matches: Sequence[MatchPlan]) -> None:
    tables: dict[int | None, str] = {}
    for plan in matches:
        table = plan.match.table
        if table in tables:
            raise InvalidExport(
                at(plan.path, "table"),
                f"table {table} is used twice in the round (also {tables[table]})",
            )
        tables[table] = plan.path


def _check_bracket_slots(plan: RoundPlan) -> None:
    """A place in the bracket holds one match or one bye."""
    places = [(at(match.path, "bracket_slot"), match.match.bracket_slot) for match in plan.matches]
    places += [(at(bye.path, "bracket_slot"), bye.bracket_slot) for bye in plan.byes]
    seen: dict[int, str] = {}
    for where, slot in places:
        if slot is None:
            continue
        if slot in seen:
            raise InvalidExport(where, f"place {slot} of the bracket is taken (by {seen[slot]})")
        seen[slot] = where.rpartition(".")[0]


def _check_seated_once(plan: RoundPlan) -> None:
    seen: dict[int, str] = {}
    for where, player in plan.players:
        if player in seen:
            raise InvalidExport(where, f"player {player} is already in this round ({seen[player]})")
        seen[player] = where


def _check_closed(round_: Round, matches: Sequence[MatchPlan]) -> None:
    """A round is closed only once every match is final (``services.rounds.close_refusal``)."""
    if round_.status != Round.Status.CLOSED:
        return
    for plan in matches:
        if plan.match.status != Match.Status.FINAL:
            raise InvalidExport(
                at(plan.path, "status"),
                f"is {plan.match.status!r}, but the round is closed: every match of a closed "
                "round is final",
            )


def _match(value: object, path: str, round_: Round, known: Collection[int]) -> MatchPlan:
    data = obj(
        value,
        path,
        required=("table", "players"),
        optional=(*MATCH_FIELDS, "first_dealer", "winner", "games"),
    )
    players = _two_players(data["players"], at(path, "players"), known)
    tournament = round_.tournament
    default_best_of = (
        tournament.playoff_best_of if round_.kind == Round.Kind.PLAYOFF else tournament.best_of
    )
    match = Match(
        round=round_,
        table=integer(data["table"], at(path, "table")),
        best_of=integer(data.get("best_of", default_best_of), at(path, "best_of")),
        bracket_slot=optional_integer(data.get("bracket_slot"), at(path, "bracket_slot")),
        status=text(data.get("status", Match.Status.PENDING), at(path, "status")),
    )
    model_fields(match, {field: at(path, field) for field in MATCH_FIELDS})
    if round_.kind == Round.Kind.PLAYOFF and match.bracket_slot is None:
        raise InvalidExport(
            at(path, "bracket_slot"), "a play-off match needs its place in the bracket"
        )
    games = _games(data.get("games", []), at(path, "games"), players)
    first_dealer = _first_dealer(data.get("first_dealer"), at(path, "first_dealer"), players, games)
    result = _verdict(match, first_dealer, games, path)
    _check_dealers(games, result, players)
    _check_winner(data, path, players, result)
    for game in games:
        _check_record(game)
    match.status = _status(data, at(path, "status"), match.status, result)
    match.first_dealer = first_dealer
    match.winner = result.winner
    return MatchPlan(path, match, players, result, tuple(game.record for game in games))


def _two_players(value: object, path: str, known: Collection[int]) -> tuple[int, int]:
    players = array(value, path)
    if len(players) != 2:
        raise InvalidExport(path, f"a match has two players, not {len(players)}")
    first, second = (
        player_ref(player, item(path, seat), known) for seat, player in enumerate(players)
    )
    if first == second:
        raise InvalidExport(item(path, 1), f"player {second} cannot play themselves")
    return first, second


def _seat(value: object, path: str, players: tuple[int, int]) -> int:
    player = integer(value, path)
    if player not in players:
        raise InvalidExport(path, f"player {player} does not play in this match")
    return players.index(player)


def _games(value: object, path: str, players: tuple[int, int]) -> list[ReportedGame]:
    games = []
    for index, game in enumerate(array(value, path)):
        game_path = item(path, index)
        data = obj(game, game_path, required=("winner", "loser_score"), optional=GAME_FIELDS)
        dealer = data.get("dealer")
        games.append(
            ReportedGame(
                path=game_path,
                winner=_seat(data["winner"], at(game_path, "winner"), players),
                loser_score=integer(data["loser_score"], at(game_path, "loser_score")),
                dealer=None if dealer is None else _seat(dealer, at(game_path, "dealer"), players),
                number=optional_integer(data.get("number"), at(game_path, "number")),
                record=None
                if data.get("record") is None
                else mapping(data["record"], at(game_path, "record")),
            )
        )
    return games


def _first_dealer(
    value: object, path: str, players: tuple[int, int], games: Sequence[ReportedGame]
) -> int | None:
    if value is not None:
        return _seat(value, path, players)
    if games and games[0].dealer is None:
        raise InvalidExport(path, "is missing: say who dealt first in game 1")
    return games[0].dealer if games else None


def _check_record(game: ReportedGame) -> None:
    """A game played on the site, as the engine recorded it: it must replay under the rules.

    That it tells the same result as the game is checked when it is attached
    (``services.results.game_records_attach``).
    """
    if game.record is None:
        return
    path = at(game.path, "record")
    try:
        last = deque(replay_live(game.record), maxlen=1)  # the game as the record leaves it
    except (ValueError, LookupError, TypeError, AttributeError) as error:
        problem = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise InvalidExport(
            path, f"is not a game record the engine can replay ({problem})"
        ) from error
    if not last or last[0][0].winner is None:
        raise InvalidExport(path, "is the record of a game that was not finished")


def _verdict(
    match: Match, first_dealer: int | None, games: Sequence[ReportedGame], path: str
) -> MatchResult:
    """The engine's verdict on the games; a match without games is checked for its length."""
    reported = [(game.winner, game.loser_score) for game in games]
    # With no game played the first dealer does not matter; seat 0 lets the engine check the rest.
    dealer = 0 if first_dealer is None else first_dealer
    try:
        return check_report(match, dealer, reported, complete=False)
    except TournamentError:
        raise _fault(match, dealer, reported, path) from None


def _fault(match: Match, dealer: int, reported: list[tuple[int, int]], path: str) -> InvalidExport:
    """What the engine refused, by path: it names the game, so ask it game by game."""
    decided = False
    for count in range(len(reported) + 1):
        try:
            decided = check_report(match, dealer, reported[:count], complete=False).decided
        except TournamentError as error:
            if count == 0:
                return InvalidExport(at(path, "best_of"), str(error))
            game = item(at(path, "games"), count - 1)
            return InvalidExport(game if decided else at(game, "loser_score"), str(error))
    return InvalidExport(path, "the engine refuses the match")  # not reached: the whole failed


def _check_dealers(
    games: Sequence[ReportedGame], result: MatchResult, players: tuple[int, int]
) -> None:
    for number, (given, derived) in enumerate(zip(games, result.games, strict=True), start=1):
        if given.number is not None and given.number != number:
            raise InvalidExport(
                at(given.path, "number"), f"is {given.number}, but this is game {number}"
            )
        if given.dealer is not None and given.dealer != derived.dealer:
            raise InvalidExport(
                at(given.path, "dealer"),
                f"player {players[derived.dealer]} dealt game {number}: the first dealer deals "
                "game 1 and the loser of each game deals the next",
            )


def _check_winner(
    data: dict[str, Any], path: str, players: tuple[int, int], result: MatchResult
) -> None:
    if "winner" not in data:
        return
    given = optional_integer(data["winner"], at(path, "winner"))
    won_by = None if result.winner is None else players[result.winner]
    if given != won_by:
        raise InvalidExport(
            at(path, "winner"),
            "the games do not decide the match, so it has no winner"
            if won_by is None
            else f"the games give the match to player {won_by}",
        )


def _status(data: dict[str, Any], path: str, given: str, result: MatchResult) -> str:
    """The match's status: the file's, when it is one the site gives a match with these games."""
    if not result.games:
        allowed, situation = [Match.Status.PENDING], "no game is given"
    elif not result.decided:
        allowed, situation = [Match.Status.IN_PLAY], "the games do not decide the match yet"
    else:
        allowed = [Match.Status.REPORTED, Match.Status.DISPUTED, Match.Status.FINAL]
        situation = "the games decide the match"
    if "status" not in data:
        return allowed[-1]
    if given not in allowed:
        names = [repr(status.value) for status in allowed]
        one_of = " or ".join(filter(None, [", ".join(names[:-1]), names[-1]]))
        raise InvalidExport(path, f"cannot be {given!r} when {situation}: it must be {one_of}")
    return given
