"""Only real results move the rating list: a tournament is rated or not (``Tournament.rated``);
a rehearsal and an imported copy are unrated, and the list is always what a recomputation
gives (docs/rating.md, What counts)."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from ratings.models import ListRating, PeriodRating, RatingList, RatingPeriod
from ratings.services import ratings_recompute
from tests.ratings.conftest import stored
from tests.tournaments.conftest import make_tournament, play_round, simulate
from tournaments.errors import TournamentError
from tournaments.exchange import export_tournament, import_tournament
from tournaments.models import Game, Match, Tournament
from tournaments.services import rounds
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db


def every_rating_row() -> list[list[dict[str, Any]]]:
    """Every row of every table of the rating list, with every column (ids and times too)."""
    models: list[Any] = [RatingList, RatingPeriod, PeriodRating, ListRating]
    return [list(model.objects.order_by("pk").values()) for model in models]


def assert_the_list_is_a_recomputation() -> None:
    kept = stored()
    ratings_recompute()
    assert stored() == kept


def rated_cup(organiser: User, **fields: Any) -> Tournament:
    tournament = make_tournament(4, **fields)
    for _ in range(2):
        play_round(tournament, organiser)
    return tournament


def test_a_tournament_made_on_the_site_is_rated_and_an_unrated_one_is_not_on_the_list(
    organiser: User,
) -> None:
    assert rated_cup(organiser).rated
    before = stored()
    friendly = make_tournament(4, name="Friendly", rated=False)
    play_round(friendly, organiser)
    assert stored() == before
    assert not RatingPeriod.objects.filter(round__tournament=friendly).exists()
    assert_the_list_is_a_recomputation()


def test_a_rehearsal_and_an_imported_copy_leave_the_rating_list_byte_for_byte(
    organiser: User,
) -> None:
    cup = rated_cup(organiser)
    data = json.loads(json.dumps(export_tournament(cup)))
    before = every_rating_row()
    assert before[3], "the members are on the list"
    # The rehearsal takes the register's active members: the rated ones.
    slug = simulate(players=4, rounds=2, best_of=1, seed=3, members=True)
    slug = slug.strip().splitlines()[-1]
    rehearsal = Tournament.objects.get(slug=slug)
    assert not rehearsal.rated
    assert Match.objects.filter(round__tournament=rehearsal, status=Match.Status.FINAL).count()
    copy = import_tournament(data, slug="copy")
    assert not copy.rated
    assert Game.objects.filter(match__round__tournament=copy).count()
    assert every_rating_row() == before


def test_a_rehearsal_is_rated_when_asked(organiser: User) -> None:
    slug = simulate(players=4, rounds=1, best_of=1, seed=3, rated=True).strip().splitlines()[-1]
    assert Tournament.objects.get(slug=slug).rated
    assert ListRating.objects.count() == 4


def test_a_rated_import_of_a_copy_is_refused_and_saves_nothing(
    organiser: User, tmp_path: Any
) -> None:
    cup = rated_cup(organiser)
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(export_tournament(cup)))
    before = every_rating_row()
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), slug="copy", rated=True, stdout=StringIO())
    assert "4 of its matches are already on the rating list" in str(refused.value)
    assert "round 1" in str(refused.value)
    assert "Import it without --rated" in str(refused.value)
    assert not Tournament.objects.filter(slug="copy").exists()
    assert every_rating_row() == before
    # Under other dates and a name, with the players seated the other way: still a copy.
    data = export_tournament(cup)
    data["tournament"].update(name="Old Cup", year=2025, starts_on="2025-05-01")
    data["tournament"]["ends_on"] = "2025-05-01"
    with pytest.raises(TournamentError):
        import_tournament(data, slug="old-cup", rated=True)
    # Unrated, the same file is imported and the list stays as it was.
    out = StringIO()
    call_command("import_tournament", str(path), slug="copy", stdout=out)
    assert out.getvalue().splitlines()[-1] == "copy"
    assert every_rating_row() == before


def test_a_rated_import_of_other_results_is_rated_as_a_recomputation_would(
    organiser: User,
) -> None:
    cup = rated_cup(organiser)
    data = export_tournament(cup)
    data["tournament"].update(name="Old Cup", year=2025, starts_on="2025-05-01")
    data["tournament"]["ends_on"] = "2025-05-01"
    for round_ in data["rounds"]:
        for match in round_["matches"]:
            match["games"][1]["loser_score"] -= 1  # other games: another tournament's results
    old = import_tournament(data, slug="old-cup", rated=True)
    assert old.rated
    periods = RatingPeriod.objects.order_by("position")
    assert [period.round.tournament for period in periods if period.round] == [old, old, cup, cup]
    assert_the_list_is_a_recomputation()


def test_the_list_is_a_recomputation_with_unrated_tournaments_imports_and_a_switch(
    organiser: User,
) -> None:
    spring = rated_cup(organiser, name="Spring Cup")
    friendly = make_tournament(0, name="Friendly", rated=False)
    for entry in spring.entries.select_related("player"):
        tournament_services.entry_add(tournament=friendly, player=entry.player, checked_in=True)
    play_round(friendly, organiser)
    import_tournament(export_tournament(spring), slug="copy")
    autumn = rated_cup(organiser, name="Autumn Cup")
    assert_the_list_is_a_recomputation()
    with_spring = stored()

    call_command("set_tournament_rated", spring.slug, "--unrated", stdout=StringIO())
    spring.refresh_from_db()
    assert not spring.rated
    assert not RatingPeriod.objects.filter(round__tournament=spring).exists()
    assert stored() != with_spring
    assert_the_list_is_a_recomputation()
    # Only autumn's players are left on the list, each with autumn's two matches.
    autumn_players = set(autumn.entries.values_list("player_id", flat=True))
    assert set(ListRating.objects.values_list("player_id", flat=True)) == autumn_players
    assert set(ListRating.objects.values_list("matches", flat=True)) == {2}

    out = StringIO()
    call_command("set_tournament_rated", spring.slug, "--rated", stdout=out)
    assert "is now rated" in out.getvalue()
    assert stored() == with_spring
    assert_the_list_is_a_recomputation()
    # The unrated copy cannot be made rated: its matches are spring's.
    with pytest.raises(CommandError, match="already on the rating list"):
        call_command("set_tournament_rated", "copy", "--rated", stdout=StringIO())
    assert stored() == with_spring


def test_set_tournament_rated_names_an_unknown_tournament() -> None:
    with pytest.raises(CommandError, match="No tournament has the address 'nope'"):
        call_command("set_tournament_rated", "nope", "--rated")


def form_data(tournament: Tournament, **changes: Any) -> dict[str, Any]:
    data = {
        "name": tournament.name,
        "year": tournament.year,
        "starts_on": tournament.starts_on.isoformat(),
        "ends_on": tournament.ends_on.isoformat(),
        "swiss_rounds": tournament.swiss_rounds,
        "seeding": tournament.seeding,
        "best_of": tournament.best_of,
        "playoff_best_of": tournament.playoff_best_of,
        "scheme": "standard",
        "points_win": 2,
        "points_skunk": 3,
        "points_double_skunk": 4,
        "bye_game_points": 4,
        "tiebreak_0": "match_wins",
        **changes,
    }
    return {key: value for key, value in data.items() if value is not False}


def test_an_organiser_turns_rating_off_until_round_one_is_published(organiser: User) -> None:
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "sv"
    form = client.get(reverse("tournaments:create")).content.decode()
    assert 'name="rated"' in form
    assert "checked" in form.split('name="rated"')[1].split(">")[0]
    assert "Matcherna räknas på klubbens ratinglista" in form
    tournament = make_tournament(4)
    edit = reverse("tournaments:edit", args=[tournament.slug])
    assert client.post(edit, form_data(tournament, rated=False)).status_code == 302
    tournament.refresh_from_db()
    assert not tournament.rated
    assert client.post(edit, form_data(tournament, rated="on")).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rated

    play_round(tournament, organiser)
    before = stored()
    client.cookies["django_language"] = "en"
    page = client.get(edit).content.decode()
    box = page.split('name="rated"')[1].split(">")[0]
    assert "disabled" in box
    assert "manage.py set_tournament_rated" in page
    # A form that says unrated changes nothing: the field is fixed.
    assert client.post(edit, form_data(tournament, rated=False)).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rated
    assert stored() == before
    with pytest.raises(TournamentError, match="set_tournament_rated"):
        tournament_services.tournament_update(tournament=tournament, rated=False)


def test_a_round_paired_but_not_published_leaves_the_setting_free(organiser: User) -> None:
    tournament = make_tournament(4)
    rounds.round_propose(tournament=tournament)
    tournament_services.tournament_update(tournament=tournament, rated=False)
    tournament.refresh_from_db()
    assert not tournament.rated
    assert_the_list_is_a_recomputation()
