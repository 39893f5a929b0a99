"""Private links: a player's own page without an account, and every edge of what it allows."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import make_tournament, seats
from tournaments.models import Entry, Game, Match, ResultChange, Tournament
from tournaments.services import links, results, rounds

pytestmark = pytest.mark.django_db


def published_match(tournament: Tournament) -> Match:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    return match


@pytest.fixture
def field() -> Tournament:
    """Players without accounts: private links are all they have."""
    return make_tournament(6, accounts=False)


def link(entry: Entry) -> str:
    entry.refresh_from_db()
    return reverse("private_link", kwargs={"key": entry.private_key})


def opened(entry: Entry) -> Client:
    """A phone that has opened ``entry``'s private link (English pages)."""
    client = Client()
    client.cookies["django_language"] = "en"
    assert client.get(link(entry)).status_code == 200
    return client


def action(match: Match, name: str) -> str:
    return reverse(f"tournaments:{name}", args=[match.round.tournament.slug, match.pk])


def report(*games: tuple[int, int], first_dealer: int = 0) -> dict[str, str]:
    data = {"first_dealer": str(first_dealer)}
    for number, (winner, score) in enumerate(games, start=1):
        data[f"game_{number}_winner"] = str(winner)
        data[f"game_{number}_loser_score"] = str(score)
    return data


def untouched(match: Match) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    assert not Game.objects.filter(match=match).exists()
    assert not ResultChange.objects.filter(match=match).exists()


def test_every_entry_has_its_own_unguessable_key(field: Tournament) -> None:
    keys = list(field.entries.values_list("private_key", flat=True))
    assert len(set(keys)) == len(keys) == 6
    assert all(key is not None and len(key) >= 14 for key in keys)


def test_the_private_link_shows_the_players_table_opponent_and_report_form(
    field: Tournament,
) -> None:
    match = published_match(field)
    me, opponent = seats(match)
    page = opened(me.entry).get(link(me.entry)).content.decode()
    assert me.entry.player.name in page
    assert f"Table {match.table}" in page
    assert f"against {opponent.entry.player.name}" in page
    assert action(match, "match_report") in page
    assert 'name="game_1_winner"' in page


def test_two_players_report_game_by_game_and_confirm_through_their_links(
    field: Tournament,
) -> None:
    match = published_match(field)
    me, opponent = seats(match)
    mine, theirs = opened(me.entry), opened(opponent.entry)

    response = mine.post(action(match, "match_report"), report((0, 85)))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY
    # The opponent sees the game so far, and the round page says the match is in play.
    their_page = theirs.get(link(opponent.entry)).content.decode()
    assert "Games so far" in their_page
    assert "85" in their_page
    reader = Client()
    reader.cookies["django_language"] = "sv"
    round_page = reader.get(reverse("tournaments:round", args=[field.slug, 1]))
    assert "Pågår" in round_page.content.decode()

    mine.post(action(match, "match_report"), report((0, 85), (0, 100)))
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert theirs.post(action(match, "match_confirm"), {"version": match.report_version})[
        "Location"
    ].endswith(f"/match/{match.pk}/")
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.winner == 0
    log = list(match.changes.order_by("pk").values_list("action", "player__name"))
    assert log == [
        ("saved", me.entry.player.name),
        ("reported", me.entry.player.name),
        ("confirmed", opponent.entry.player.name),
    ]
    # The log shows people's names, and the page shows the log to the players.
    assert opponent.entry.player.name in theirs.get(action(match, "match")).content.decode()


def test_a_confirmation_of_a_report_that_changed_since_the_page_was_drawn_is_refused(
    field: Tournament,
) -> None:
    match = published_match(field)
    me, opponent = seats(match)
    mine, theirs = opened(me.entry), opened(opponent.entry)
    mine.post(action(match, "match_report"), report((0, 85), (0, 100)))
    match.refresh_from_db()
    seen = match.report_version
    assert f'name="version" value="{seen}"' in theirs.get(link(opponent.entry)).content.decode()

    # The reporter changes the result after the opponent drew the page.
    mine.post(action(match, "match_report"), report((0, 85), (1, 100), (0, 40)))
    response = theirs.post(action(match, "match_confirm"), {"version": seen})
    assert response.status_code == 409
    assert "The report has changed, check it again." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert match.games.count() == 3
    # The page drawn with the refusal shows the new report and confirms it.
    assert f'name="version" value="{match.report_version}"' in response.content.decode()
    theirs.post(action(match, "match_confirm"), {"version": match.report_version})
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL


def test_a_confirmation_without_a_version_is_refused(field: Tournament) -> None:
    match = published_match(field)
    me, opponent = seats(match)
    opened(me.entry).post(action(match, "match_report"), report((0, 85), (0, 100)))
    response = opened(opponent.entry).post(action(match, "match_confirm"))
    assert response.status_code == 409
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


@pytest.mark.parametrize(
    ("note", "message"),
    [
        ("", "Say what is wrong with the report."),
        ("   ", "Say what is wrong with the report."),
        ("x" * 501, "at most 500 characters"),
    ],
)
def test_a_dispute_needs_a_reason_of_at_most_500_characters(
    field: Tournament, note: str, message: str
) -> None:
    match = published_match(field)
    me, opponent = seats(match)
    opened(me.entry).post(action(match, "match_report"), report((0, 85), (0, 100)))
    response = opened(opponent.entry).post(action(match, "match_dispute"), {"note": note})
    assert response.status_code == 400
    assert message in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert match.changes.count() == 1


def test_a_500_character_reason_is_kept_whole_and_the_round_page_shows_the_dispute(
    field: Tournament,
) -> None:
    match = published_match(field)
    me, opponent = seats(match)
    opened(me.entry).post(action(match, "match_report"), report((0, 85), (0, 100)))
    note = "Game 2 was mine. " * 29 + "abc"
    assert len(note) == 496
    opened(opponent.entry).post(action(match, "match_dispute"), {"note": note})
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    assert match.dispute_note == note.strip()
    logged = match.changes.last()
    assert logged is not None
    assert logged.note == note.strip()


def test_a_link_of_another_tournament_opens_nothing_there(field: Tournament) -> None:
    match = published_match(field)
    other = make_tournament(4, accounts=False, name="Other Open")
    stranger = other.entries.first()
    assert stranger is not None
    response = opened(stranger).post(action(match, "match_report"), report((0, 85), (0, 100)))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    untouched(match)


def test_a_link_cannot_report_confirm_or_dispute_another_players_match(
    field: Tournament,
) -> None:
    match = published_match(field)
    bystander = field.entries.exclude(seats__match=match).first()
    assert bystander is not None
    client = opened(bystander)
    response = client.post(action(match, "match_report"), report((0, 85), (0, 100)))
    assert response.status_code == 400
    assert "You can only report your own match." in response.content.decode()
    untouched(match)
    me = seats(match)[0]
    opened(me.entry).post(action(match, "match_report"), report((0, 85), (0, 100)))
    match.refresh_from_db()
    for name, data in (
        ("match_confirm", {"version": match.report_version}),
        ("match_dispute", {"note": "Not true"}),
    ):
        response = client.post(action(match, name), data)
        assert response.status_code == 403
        match.refresh_from_db()
        assert match.status == Match.Status.REPORTED


def test_the_reporter_cannot_confirm_their_own_report(field: Tournament) -> None:
    match = published_match(field)
    me = seats(match)[0]
    client = opened(me.entry)
    client.post(action(match, "match_report"), report((0, 85), (0, 100)))
    match.refresh_from_db()
    response = client.post(action(match, "match_confirm"), {"version": match.report_version})
    assert response.status_code == 409
    assert "Your opponent confirms your report, not you." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


def test_a_revoked_link_stops_working_at_once_and_a_new_one_works(field: Tournament) -> None:
    match = published_match(field)
    me = seats(match)[0]
    old_link = link(me.entry)
    client = opened(me.entry)
    links.entry_link_revoke(entry=me.entry)
    assert client.get(old_link).status_code == 404
    response = client.post(action(match, "match_report"), report((0, 85), (0, 100)))
    assert "/accounts/login/" in response["Location"]
    untouched(match)

    links.entry_link_issue(entry=me.entry)
    new_link = link(me.entry)
    assert new_link != old_link
    assert Client().get(old_link).status_code == 404
    assert (
        opened(me.entry).post(action(match, "match_report"), report((0, 85), (0, 100))).status_code
        == 302
    )


def test_an_unknown_link_says_so(field: Tournament) -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    response = client.get(reverse("private_link", kwargs={"key": "abcdefghjkmnpq"}))
    assert response.status_code == 404
    assert "This link does not work" in response.content.decode()


def test_organisers_revoke_and_replace_links_and_players_cannot(
    field: Tournament, organiser: User
) -> None:
    entry = field.entries.first()
    assert entry is not None
    old = entry.private_key
    anonymous = Client().post(
        reverse("tournaments:private_link_issue", args=[field.slug, entry.pk])
    )
    assert "/accounts/login/" in anonymous["Location"]
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournaments:private_links", args=[field.slug])).content.decode()
    assert f"/p/{old}/" in page
    client.post(reverse("tournaments:private_link_revoke", args=[field.slug, entry.pk]))
    entry.refresh_from_db()
    assert entry.private_key is None
    client.post(reverse("tournaments:private_link_issue", args=[field.slug, entry.pk]))
    entry.refresh_from_db()
    assert entry.private_key not in (None, old)


# The public match page: where a score sheet's code leads. It reports for nobody but a
# player known by their account or their own private link.

ASKED = {
    "sv": "Spelar du den här matchen? Logga in eller öppna din egen privata länk "
    "(skanna koden på din inloggningslapp) för att rapportera resultatet.",
    "en": "Playing this match? To report the result, log in or open your own private link "
    "(scan the code on your login slip).",
}
NOT_ONE_OF_THEM = (
    "Playing this match? This account is not one of its players: to report the result, "
    "open your own private link (scan the code on your login slip)."
)


def match_page(match: Match, client: Client) -> str:
    response = client.get(action(match, "match"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["sv", "en"])
def test_a_visitor_on_the_match_page_is_asked_to_log_in_or_use_their_own_link(
    field: Tournament, language: str
) -> None:
    match = published_match(field)
    visitor = Client()
    visitor.cookies["django_language"] = language
    page = match_page(match, visitor)
    assert ASKED[language] in page
    login = reverse("login") + "?next=" + action(match, "match")
    assert f'href="{login}"' in page
    assert action(match, "match_report") not in page


def test_a_logged_in_member_who_does_not_play_it_is_asked_for_their_own_link() -> None:
    tournament = make_tournament(6)
    match = published_match(tournament)
    other = tournament.entries.exclude(pk__in=[seat.entry_id for seat in seats(match)]).first()
    assert other is not None
    assert other.player.user is not None
    member = Client()
    member.cookies["django_language"] = "en"
    member.force_login(other.player.user)
    page = match_page(match, member)
    assert NOT_ONE_OF_THEM in page
    assert ASKED["en"] not in page
    assert action(match, "match_report") not in page


def test_a_player_of_the_match_is_offered_it_as_before() -> None:
    tournament = make_tournament(6)
    match = published_match(tournament)
    me, _opponent = seats(match)
    logged_in = Client()
    logged_in.cookies["django_language"] = "en"
    assert me.entry.player.user is not None
    logged_in.force_login(me.entry.player.user)
    for client in (logged_in, opened(me.entry)):
        page = match_page(match, client)
        assert action(match, "match_report") in page
        assert "Playing this match?" not in page


def test_nobody_is_asked_once_the_match_is_final(field: Tournament, organiser: User) -> None:
    match = published_match(field)
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 80)] * 2)
    visitor = Client()
    visitor.cookies["django_language"] = "en"
    assert "Playing this match?" not in match_page(match, visitor)
