"""import_tournament against hostile files: each is refused by path, and nothing is saved.

Every case starts from a real export (``export_tournament``) and changes one thing. The
command must end in a ``CommandError`` whose message starts with the path of the value at
fault (or, for a file that cannot be read as JSON at all, says why), and must add no row.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.factories import OrganiserFactory
from tests.snapshots import Rows, restore, snapshot
from tests.tournaments.conftest import make_tournament, play_round
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
from tournaments.services import playoff

pytestmark = pytest.mark.django_db

MODELS = (Tournament, Player, Entry, ForbiddenPair, Round, Match, Seat, Game, ResultChange)

Data = dict[str, Any]


def export(slug: str) -> Data:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    data: Data = json.loads(out.getvalue())
    return data


def play_two_rounds() -> str:
    """Five players, two closed rounds with a bye each; round 1 table 1 went to three games."""
    organiser = OrganiserFactory.create(username="organiser")
    tournament = make_tournament(5, swiss_rounds=2)
    play_round(tournament, organiser, lambda m: [(0, 88), (1, 60), (0, 100)])
    play_round(tournament, organiser)
    return tournament.slug


# The tournaments are played once per module and their rows inserted again into each
# test's database (tests/snapshots.py): some forty cases each start from one of them.
@pytest.fixture(scope="module")
def played_rows(django_db_setup: None, django_db_blocker: Any) -> Rows[str]:
    with django_db_blocker.unblock():
        return snapshot(play_two_rounds)


@pytest.fixture
def played(db: None, played_rows: Rows[str]) -> Tournament:
    return Tournament.objects.get(slug=restore(played_rows))


def first_match(data: Data) -> Data:
    match: Data = data["rounds"][0]["matches"][0]
    return match


def rename(match: Data, old: int, new: int) -> None:
    """Put player ``new`` in ``old``'s place everywhere in ``match``."""

    def swap(value: int) -> int:
        return new if value == old else value

    match["players"] = [swap(p) for p in match["players"]]
    match["first_dealer"] = swap(match["first_dealer"])
    match["winner"] = swap(match["winner"])
    for game in match["games"]:
        game["dealer"], game["winner"] = swap(game["dealer"]), swap(game["winner"])


def setter(path: str, value: Any) -> Callable[[Data], None]:
    """A mutation that sets the value at a dotted path (``rounds.0.matches.1.table``)."""
    *parents, last = path.split(".")

    def mutate(data: Data) -> None:
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return mutate


def other_player(data: Data) -> None:
    match = first_match(data)
    match["winner"] = next(p for p in match["players"] if p != match["winner"])


def twice_in_round(data: Data) -> None:
    matches = data["rounds"][0]["matches"]
    rename(matches[1], matches[1]["players"][0], matches[0]["players"][0])


def stranger(data: Data) -> None:
    match = first_match(data)
    rename(match, match["players"][0], 999)


def same_player_twice(data: Data) -> None:
    match = first_match(data)
    rename(match, match["players"][1], match["players"][0])


def duplicate_player(data: Data) -> None:
    data["players"][1]["id"] = data["players"][0]["id"]


def namesake(data: Data) -> None:
    data["players"][1]["name"] = data["players"][0]["name"]
    data["players"][1]["club"] = data["players"][0]["club"]


def game_after_decided(data: Data) -> None:
    match = first_match(data)
    last = match["games"][-1]
    loser = next(p for p in match["players"] if p != last["winner"])
    match["games"].append(
        {"number": 4, "dealer": loser, "winner": last["winner"], "loser_score": 5}
    )


def undecided_but_final(data: Data) -> None:
    match = first_match(data)
    match["games"].pop()
    match["winner"] = None


def in_play_in_closed_round(data: Data) -> None:
    match = first_match(data)
    match["games"].pop()
    match["status"], match["winner"] = "in_play", None


def pending_with_decided_games(data: Data) -> None:
    data["rounds"][1]["matches"][0]["status"] = "pending"


def dealer_out_of_turn(data: Data) -> None:
    match = first_match(data)
    game = match["games"][1]
    game["dealer"] = next(p for p in match["players"] if p != game["dealer"])


def bye_also_at_a_table(data: Data) -> None:
    data["rounds"][0]["byes"][0] = first_match(data)["players"][0]


def unknown_forbidden_pair(data: Data) -> None:
    data["forbidden_pairs"] = [[data["players"][0]["id"], 999]]


def nested(depth: int) -> Callable[[Data], None]:
    return setter("rounds.0.explanation.deep", json.loads("[" * depth + "]" * depth))


# (case, mutation, path at the start of the message)
CASES: list[tuple[str, Callable[[Data], None], str]] = [
    ("unknown tie-break", setter("tournament.tiebreaks.1", "coin_toss"), "tournament.tiebreaks[1]"),
    (
        "repeated tie-break",
        setter("tournament.tiebreaks.1", "match_wins"),
        "tournament.tiebreaks[1]",
    ),
    ("no tie-break", setter("tournament.tiebreaks", []), "tournament.tiebreaks"),
    ("tournament status", setter("tournament.status", "abandoned"), "tournament.status"),
    ("round status", setter("rounds.0.status", "paused"), "rounds[0].status"),
    ("proposed round", setter("rounds.0.status", "proposed"), "rounds[0].status"),
    ("round kind", setter("rounds.0.kind", "knockout"), "rounds[0].kind"),
    ("match status", setter("rounds.0.matches.0.status", "won"), "rounds[0].matches[0].status"),
    ("pending, decided games", pending_with_decided_games, "rounds[1].matches[0].status"),
    ("final, undecided games", undecided_but_final, "rounds[0].matches[0].status"),
    ("in play in a closed round", in_play_in_closed_round, "rounds[0].matches[0].status"),
    ("winner contradicts games", other_player, "rounds[0].matches[0].winner"),
    ("tournament best of 2", setter("tournament.best_of", 2), "tournament.best_of"),
    ("play-off best of 4", setter("tournament.playoff_best_of", 4), "tournament.playoff_best_of"),
    ("match best of 2", setter("rounds.0.matches.0.best_of", 2), "rounds[0].matches[0].best_of"),
    ("match best of 0", setter("rounds.0.matches.0.best_of", 0), "rounds[0].matches[0].best_of"),
    (
        "loser scored 130",
        setter("rounds.1.matches.0.games.0.loser_score", 130),
        "rounds[1].matches[0].games[0].loser_score",
    ),
    (
        "negative loser score",
        setter("rounds.0.matches.0.games.1.loser_score", -5),
        "rounds[0].matches[0].games[1].loser_score",
    ),
    ("game after the match was decided", game_after_decided, "rounds[0].matches[0].games[3]"),
    ("dealer breaks loser deals next", dealer_out_of_turn, "rounds[0].matches[0].games[1].dealer"),
    (
        "game numbered wrong",
        setter("rounds.0.matches.0.games.1.number", 5),
        "rounds[0].matches[0].games[1].number",
    ),
    ("duplicate player id", duplicate_player, "players[1].id"),
    ("same name and club", namesake, "players[1]"),
    ("duplicate round number", setter("rounds.1.number", 1), "rounds[1].number"),
    ("round 0", setter("rounds.0.number", 0), "rounds[0].number"),
    ("negative round", setter("rounds.0.number", -3), "rounds[0].number"),
    ("duplicate table", setter("rounds.0.matches.1.table", 1), "rounds[0].matches[1].table"),
    ("player twice in a round", twice_in_round, "rounds[0].matches[1].players"),
    ("bye player also at a table", bye_also_at_a_table, "rounds[0].byes[0]"),
    ("player not in the list", stranger, "rounds[0].matches[0].players[0]"),
    ("player plays themselves", same_player_twice, "rounds[0].matches[0].players[1]"),
    (
        "three players at a table",
        lambda data: first_match(data)["players"].append(data["players"][4]["id"]),
        "rounds[0].matches[0].players",
    ),
    ("unknown bye player", setter("rounds.0.byes.0", 999), "rounds[0].byes[0]"),
    ("unknown champion", setter("tournament.champion", 999), "tournament.champion"),
    ("unknown forbidden pair", unknown_forbidden_pair, "forbidden_pairs[0][1]"),
    (
        "string for a number",
        setter("rounds.0.matches.0.games.1.loser_score", "88"),
        "rounds[0].matches[0].games[1].loser_score",
    ),
    ("string for the year", setter("tournament.year", "2026"), "tournament.year"),
    ("list for an object", setter("tournament.game_points", [2, 3, 4]), "tournament.game_points"),
    ("object for a list", setter("rounds", {"1": {}}), "rounds"),
    ("boolean for a table", setter("rounds.0.matches.0.table", True), "rounds[0].matches[0].table"),
    ("boolean for best of", setter("tournament.best_of", True), "tournament.best_of"),
    ("number for a flag", setter("players.0.withdrawn", 0), "players[0].withdrawn"),
    ("float for a number", setter("rounds.0.seed", 1.5), "rounds[0].seed"),
    ("seed too large", setter("rounds.0.seed", 10**30), "rounds[0].seed"),
    ("empty player name", setter("players.0.name", "   "), "players[0].name"),
    ("1,000-character player name", setter("players.0.name", "A" * 1000), "players[0].name"),
    ("empty club", setter("players.0.club", ""), "players[0].club"),
    ("1,000-character tournament name", setter("tournament.name", "B" * 1000), "tournament.name"),
    ("empty tournament name", setter("tournament.name", ""), "tournament.name"),
    ("NUL in a name", setter("players.0.club", "Upp\x00sala"), "players[0].club"),
    (
        "NUL in the explanation",
        setter("rounds.0.explanation.method", "x\x00"),
        "rounds[0].explanation.method",
    ),
    ("half a surrogate pair", setter("tournament.venue", "\ud800"), "tournament.venue"),
    ("bad date", setter("tournament.starts_on", "1 May"), "tournament.starts_on"),
    ("ends before it starts", setter("tournament.ends_on", "2026-04-01"), "tournament.ends_on"),
    ("shrinking game points", setter("tournament.game_points.skunk", 1), "tournament.game_points"),
    ("play-off of one", setter("tournament.playoff_size", 1), "tournament.playoff_size"),
    ("no Swiss rounds", setter("tournament.swiss_rounds", 0), "tournament.swiss_rounds"),
    ("unknown field", setter("tournament.best_off", 3), "tournament.best_off"),
    ("missing field", lambda data: data["players"][0].pop("name"), "players[0].name"),
    ("not an export", setter("format", "something/else"), "format"),
    ("another version", setter("version", 2), "version"),
    (
        "game record that does not replay",
        setter("rounds.0.matches.0.games.0.record", {"deals": 5}),
        "rounds[0].matches[0].games[0].record",
    ),
    (
        "game record that is a number",
        setter("rounds.0.matches.0.games.0.record", 5),
        "rounds[0].matches[0].games[0].record",
    ),
    # 32 levels are allowed: the top is level 0, "deep" is level 4.
    ("nested a hundred deep", nested(100), "rounds[0].explanation.deep" + "[0]" * 29),
]


def counts() -> list[int]:
    return [model.objects.count() for model in MODELS]


def refused(file: Path, **options: Any) -> str:
    """The import's error message, after checking that nothing was saved."""
    before = counts()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(file), stdout=io.StringIO(), **options)
    assert counts() == before
    return str(error.value)


@pytest.mark.parametrize(("case", "mutate", "path"), CASES, ids=[case for case, _, _ in CASES])
def test_a_hostile_file_is_refused_by_path(
    played: Tournament, tmp_path: Path, case: str, mutate: Callable[[Data], None], path: str
) -> None:
    data = export(played.slug)
    mutate(data)
    file = tmp_path / "hostile.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    message = refused(file, slug="hostile")
    assert message.startswith(f"{path}: "), message


def start_a_play_off() -> str:
    """Six of seven players in a play-off: its first round has two byes (places 0 and 2)."""
    organiser = OrganiserFactory.create(username="organiser")
    tournament = make_tournament(7, swiss_rounds=1, playoff_size=6)
    play_round(tournament, organiser)
    playoff.playoff_start(tournament=tournament)
    return tournament.slug


@pytest.fixture(scope="module")
def bracket_rows(django_db_setup: None, django_db_blocker: Any) -> Rows[str]:
    with django_db_blocker.unblock():
        return snapshot(start_a_play_off)


@pytest.fixture
def bracket(db: None, bracket_rows: Rows[str]) -> Tournament:
    return Tournament.objects.get(slug=restore(bracket_rows))


def seeded(data: Data, seed: int) -> str:
    """The path of the player with ``seed`` in the play-off."""
    index = next(n for n, p in enumerate(data["players"]) if p.get("playoff_seed") == seed)
    return f"players[{index}]"


def player_at(data: Data, path: str) -> Data:
    player: Data = data["players"][int(path[len("players[") : -1])]
    return player


def old_seeds(data: Data) -> str:
    data["rounds"][1]["explanation"] = {"seeds": {"12": 1, "13": 2}}
    return "rounds[1].explanation.seeds"


def seed_zero(data: Data) -> str:
    top = seeded(data, 1)
    player_at(data, top)["playoff_seed"] = 0
    return f"{top}.playoff_seed"


def seed_twice(data: Data) -> str:
    second = seeded(data, 2)
    player_at(data, second)["playoff_seed"] = 1
    return f"{second}.playoff_seed"


def unseeded_in_play_off(data: Data) -> str:
    last = seeded(data, 6)
    del player_at(data, last)["playoff_seed"]
    return f"{last}.playoff_seed"


def bye_without_place(data: Data) -> str:
    bye = data["rounds"][1]["byes"][0]
    data["rounds"][1]["byes"][0] = bye["player"]
    return "rounds[1].byes[0]"


def bye_place_taken(data: Data) -> str:
    data["rounds"][1]["byes"][1]["bracket_slot"] = data["rounds"][1]["matches"][0]["bracket_slot"]
    return "rounds[1].byes[1].bracket_slot"


# (case, a mutation that gives the path at the start of the message)
PLAYOFF_CASES: list[tuple[str, Callable[[Data], str]]] = [
    ("seeds in the explanation", old_seeds),
    ("seed 0", seed_zero),
    ("seed given twice", seed_twice),
    ("a player in the play-off without a seed", unseeded_in_play_off),
    ("a bye without its place", bye_without_place),
    ("a place of the bracket taken twice", bye_place_taken),
]


@pytest.mark.parametrize(("case", "mutate"), PLAYOFF_CASES, ids=[case for case, _ in PLAYOFF_CASES])
def test_a_play_off_that_cannot_be_is_refused_by_path(
    bracket: Tournament, tmp_path: Path, case: str, mutate: Callable[[Data], str]
) -> None:
    data = export(bracket.slug)
    path = mutate(data)
    file = tmp_path / "hostile.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    message = refused(file, slug="hostile")
    assert message.startswith(f"{path}: "), message


# (case, the file's bytes from a valid export's JSON text, words in the message)
FILE_CASES: list[tuple[str, Callable[[str], bytes], str]] = [
    (
        "nested thousands deep",
        lambda text: text.replace(
            '"explanation": {', '"explanation": {"deep": ' + "[" * 50_000 + "]" * 50_000 + ", ", 1
        ).encode(),
        "nested deeper than",
    ),
    (
        "10 MB",
        lambda text: text.replace(
            '"format"', '"padding": "' + "x" * 10_000_000 + '", "format"'
        ).encode(),
        "larger than 5 MB",
    ),
    ("not UTF-8", lambda text: text.replace("Uppsala", "Östersund").encode("latin-1"), "not UTF-8"),
    ("not JSON", lambda text: text[: len(text) // 2].encode(), "not JSON"),
    ("NaN", lambda text: text.replace('"seed": 11', '"seed": NaN', 1).encode(), "not JSON"),
    (
        "huge number",
        lambda text: text.replace('"seed": 11', '"seed": ' + "9" * 5000, 1).encode(),
        "not JSON",
    ),
    ("top level a list", lambda text: f"[{text}]".encode(), "one JSON object"),
    ("top level a string", lambda text: b'"hello"', "one JSON object"),
    ("empty file", lambda text: b"", "not JSON"),
]


@pytest.mark.parametrize(("case", "build", "words"), FILE_CASES, ids=[c for c, _, _ in FILE_CASES])
def test_a_file_that_is_no_export_is_refused(
    played: Tournament, tmp_path: Path, case: str, build: Callable[[str], bytes], words: str
) -> None:
    text = json.dumps(export(played.slug), ensure_ascii=False)
    file = tmp_path / "hostile.json"
    file.write_bytes(build(text))
    assert words in refused(file, slug="hostile")


def test_a_bad_slug_on_the_command_line_is_refused(played: Tournament, tmp_path: Path) -> None:
    file = tmp_path / "t.json"
    file.write_text(json.dumps(export(played.slug)), encoding="utf-8")
    assert refused(file, slug="not a slug!").startswith("--slug: ")
    assert refused(file).startswith("tournament.slug: ")  # the address is taken


def test_a_second_championship_for_the_year_is_refused(played: Tournament, tmp_path: Path) -> None:
    make_tournament(0, name="SM", is_championship=True, year=2026)
    data = export(played.slug)
    data["tournament"]["is_championship"] = True
    file = tmp_path / "t.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert refused(file, slug="copy").startswith("tournament.is_championship: ")


def test_a_valid_export_imports_and_its_pages_answer(played: Tournament, tmp_path: Path) -> None:
    file = tmp_path / "t.json"
    file.write_text(json.dumps(export(played.slug)), encoding="utf-8")
    before = counts()
    call_command("import_tournament", str(file), slug="copy", stdout=io.StringIO())
    assert counts()[0] == before[0] + 1
    client = Client()
    for name in ("standings", "detail"):
        response = client.get(reverse(f"tournaments:{name}", args=["copy"]))
        assert response.status_code == 200, name
    assert b"Player 00" in client.get(reverse("tournaments:standings", args=["copy"])).content


def test_two_players_of_the_file_cannot_be_one_player_of_the_register(
    played: Tournament, tmp_path: Path
) -> None:
    data = export(played.slug)
    first = data["players"][0]
    # The first is found by name and club; the second, with no namesake in its club, by
    # its id, which is the first's register id.
    data["players"] = [
        {**first, "id": 99_999},
        {**data["players"][1], "id": first["id"], "name": first["name"], "club": "Lund"},
    ]
    data.update(rounds=[], forbidden_pairs=[], standings=[])
    data["tournament"]["champion"] = None
    file = tmp_path / "t.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert refused(file, slug="copy").startswith("players[1]: is the same player of the register")


def test_standard_input_is_read_up_to_the_limit(
    played: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = json.dumps(export(played.slug))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    call_command("import_tournament", "-", slug="copy", stdout=io.StringIO())
    assert Tournament.objects.filter(slug="copy").exists()
    big = text.replace('"format"', '"padding": "' + "x" * 2_000_000 + '", "format"')
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(big.encode())))
    with pytest.raises(CommandError, match="larger than 1 MB"):
        call_command("import_tournament", "-", slug="copy2", max_size=1, stdout=io.StringIO())
