"""Every reader of a table of three or four is told the same game from their own chair.

A table is played through the services with a fixed seed; at each kind of moment (the
lay-away, cards played, a go, 31, the shows, the end) its page is drawn for every member at
the table and for a member looking on, in Swedish and in English, and each name and each
"you" on it is checked against the engine's record: who played each card on the table,
who deals and whose crib it is, whom the game waits for, what each other seat holds and
whether it deals or is to move, each side's score on the board, and whose every line of
the news and the log is. A table of four members is read by four players and a spectator;
a table of three with the computer in one seat by its two members and a spectator.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from play.board import face
from play.models import Challenge, OnlineGame
from play.online import load_online, online_decide
from play.services import stand_in_decision
from play.tables import table_begin, table_sit
from scoring.players.strategy import ComputerPlayer
from scoring.rules.cards import Card
from scoring.rules.events import Event, EventType, Phase
from scoring.rules.match import Match as EngineMatch
from tests.factories import PlayerFactory, UserFactory
from tests.play.test_online_readers import Moment, client_for

pytestmark = pytest.mark.django_db

MEMBERS = ("Anna Åkesson", "Björn Berg", "Cecilia Ceder", "David Dahl", "Eva Ek")
LANGUAGES = ("sv", "en")
YOU = {"sv": r"\b(du|Du|din|Din|ditt|Ditt|dina|Dina|dig)\b", "en": r"\b(you|You|your|Your)\b"}
TEXTS: dict[str, dict[str, str]] = {
    "sv": {
        "your crib": "Din krubba",
        "you deal": "du är giv",
        "partner deals": "din partner",
        "your move": "Ditt drag.",
        "deals": "är giv",
        "to move": "på tur",
        "and": "och",
    },
    "en": {
        "your crib": "Your crib",
        "you deal": "you deal",
        "partner deals": "your partner",
        "your move": "Your move.",
        "deals": "deals",
        "to move": "to move",
        "and": "and",
    },
}
SPECTATOR = None


@dataclass
class Table:
    """A table's game, its members by seat (None: the computer) and its readers."""

    game: OnlineGame
    users: dict[int, User]
    names: Mapping[str, tuple[str, ...]]
    """Each seat's name in each language."""
    watcher: User

    @property
    def seats(self) -> int:
        return self.game.seats

    def reader(self, seat: int | None) -> User:
        return self.watcher if seat is None else self.users[seat]


def member(number: int) -> User:
    user = UserFactory.create(username=f"reader{number}")
    PlayerFactory.create(user=user, name=MEMBERS[number], club="Umeå")
    return user


@pytest.fixture
def four() -> Table:
    """Four members at a table to 121, partners Anna and Cecilia against Björn and David."""
    users = [member(number) for number in range(5)]
    challenge = Challenge.objects.create(challenger=users[0], seats=4, target=121)
    game = None
    for seat in (2, 1, 3):
        game = table_sit(pk=challenge.pk, member=users[seat], seat=seat, seed=23)
    assert game is not None
    names = dict.fromkeys(LANGUAGES, MEMBERS[:4])
    return Table(game, dict(enumerate(users[:4])), names, users[4])


@pytest.fixture
def three() -> Table:
    """Two members and the computer (seat 1) at a table of three to 61."""
    users = [member(number) for number in range(5)]
    challenge = Challenge.objects.create(challenger=users[0], seats=3, target=61)
    table_sit(pk=challenge.pk, member=users[2], seat=2)
    game = table_begin(pk=challenge.pk, member=users[0], seed=31)
    names = {
        "en": (MEMBERS[0], "Computer", MEMBERS[2]),
        "sv": (MEMBERS[0], "Datorn", MEMBERS[2]),
    }
    return Table(game, {0: users[0], 2: users[2]}, names, users[4])


WANTED = {"discard": 2, "play": 8, "go": 3, "31": 1, "show": 4, "game over": 1}


def kinds(events: list[Event], match: EngineMatch, game: OnlineGame) -> list[str]:
    phase = match.game.phase
    if game.finished:
        return ["game over"]
    found = []
    typed = events
    if phase is Phase.DISCARD and any(e.type is EventType.DISCARD for e in typed):
        found.append("discard")
    if phase is Phase.PLAY and any(e.type is EventType.PLAY for e in typed):
        found.append("play")
    if any(e.type is EventType.GO for e in typed):
        found.append("go")
    if any(e.type is EventType.PLAY and e.count == 31 for e in typed):
        found.append("31")
    if any(e.type is EventType.SHOW for e in typed):
        found.append("show")
    return found


def played_through(table: Table) -> Iterator[Moment]:
    """Each wanted moment of the table's game, its members' decisions by stand-ins."""
    seen = dict.fromkeys(WANTED, 0)
    game = table.game
    match = load_online(game)
    while not game.finished:
        due = sorted(match.game.awaiting, key=lambda seat: seat != match.game.to_move)
        seat = due[0]
        before = len(match.game.events)
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        game = online_decide(
            pk=game.pk, member=table.users[seat], moves=game.moves_of(seat), decision=decision
        )
        match = load_online(game)
        for kind in kinds(list(match.game.events[before:]), match, game):
            if seen[kind] < WANTED[kind]:
                seen[kind] += 1
                yield Moment(kind, game, match)
                break


@pytest.mark.parametrize("fixture", ["four", "three"])
def test_each_reader_at_a_table_is_told_who_did_what(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    table: Table = request.getfixturevalue(fixture)
    readers = [*sorted(table.users), SPECTATOR]
    drawn = set()
    for moment in played_through(table):
        drawn.add(moment.kind)
        for seat in readers:
            for language in LANGUAGES:
                check_page(table, moment, seat, language)
    assert drawn == set(WANTED)


@dataclass(frozen=True)
class Page:
    """A table's page as one reader read it, with what each check needs."""

    text: str
    moment: Moment
    seat: int | None
    names: tuple[str, ...]
    language: str
    where: str

    def parts(self) -> tuple[str, Moment, int | None, tuple[str, ...], str, str]:
        return self.text, self.moment, self.seat, self.names, self.language, self.where


def check_page(table: Table, moment: Moment, seat: int | None, language: str) -> None:
    response = client_for(table.reader(seat), language).get(
        reverse("play:online_game", args=[moment.game.pk])
    )
    assert response.status_code == 200
    text = response.content.decode()
    where = f"{moment.kind}, read by seat {seat} in {language}"
    names = table.names[language]
    with translation.override(language):
        page = Page(text, moment, seat, names, language, where)
        for check in (
            check_play_area,
            check_crib_and_deal,
            check_turn,
            check_seats,
            check_sides,
            check_lines,
        ):
            check(page)


def called(seat: int, reader: int | None, names: tuple[str, ...], language: str) -> str:
    return ("du" if language == "sv" else "you") if seat == reader else names[seat]


def check_play_area(page: Page) -> None:
    """Each card in the count is named with the seat the engine says laid it."""
    text, moment, seat, names, language, where = page.parts()
    shown = re.findall(
        r'<span class="laid [^"]*" data-seat="(\d)" data-card="(\w+)">.*?'
        r'<span class="laid-by">([^<]*)</span>',
        text,
        re.DOTALL,
    )
    game = moment.match.game
    if game.phase is not Phase.PLAY:
        assert not shown, where
        return
    assert [(card, int(who)) for who, card, _by in shown] == [
        (str(card), who) for who, card in game.sequence
    ], where
    for who, _card, by in shown:
        assert html.unescape(by) == called(int(who), seat, names, language), where


def check_crib_and_deal(page: Page) -> None:
    """The crib and the deal are the engine's dealer's: "yours", a partner's, or by name."""
    text, moment, seat, names, language, where = page.parts()
    dealer = moment.match.game.dealer
    crib = html.unescape(re.findall(r"data-crib>([^<]*)</span>", text)[0])
    line = html.unescape(re.findall(r'<p class="match-line">(.*?)</p>', text, re.DOTALL)[0])
    if dealer == seat:
        assert crib == TEXTS[language]["your crib"], where
    else:
        assert names[dealer] in crib, where
    if moment.match.game.phase is Phase.DONE or moment.game.finished:
        return
    if dealer == seat:
        assert TEXTS[language]["you deal"] in line, where
        return
    assert names[dealer] in line, where
    assert TEXTS[language]["you deal"] not in line, where
    partner = seat is not None and table_partner(moment, seat) == dealer
    assert (TEXTS[language]["partner deals"] in line) == partner, where


def table_partner(moment: Moment, seat: int) -> int | None:
    return (seat + 2) % 4 if moment.match.game.seats == 4 else None


def check_turn(page: Page) -> None:
    """Whom the game waits for: "your move", or the others by name (never the reader)."""
    text, moment, seat, names, language, where = page.parts()
    turn = html.unescape(re.findall(r'<p class="turn"[^>]*>(.*?)</p>', text, re.DOTALL)[0])
    awaiting = moment.match.game.awaiting
    if moment.game.finished:
        return
    if seat is not None and seat in awaiting:
        assert TEXTS[language]["your move"] in turn, where
        return
    assert TEXTS[language]["your move"] not in turn, where
    for other in awaiting:
        assert names[other] in turn, where
    for other in set(range(moment.match.game.seats)) - set(awaiting):
        assert names[other] not in turn, where


def check_seats(page: Page) -> None:
    """Every other seat (every seat, for a spectator), from the reader's left round the
    table: its name, whether it deals and is to move, and how many cards it holds."""
    text, moment, seat, names, language, where = page.parts()
    spots = re.findall(
        r'<li class="table-spot seat[^"]*">\s*<span class="spot-label">(.*?)</span>\s*'
        r'<span class="backs" role="img" aria-label="(\d+) ',
        text,
        re.DOTALL,
    )
    game = moment.match.game
    count = game.seats
    order = (
        list(range(count)) if seat is None else [(seat + step) % count for step in range(1, count)]
    )
    assert len(spots) == len(order), where
    for other, (label, holds) in zip(order, spots, strict=True):
        label = html.unescape(re.sub(r"<[^>]+>", "", label))
        told = f"{where}: seat {other} {label!r}"
        assert label.startswith(names[other]), told
        assert (TEXTS[language]["deals"] in label) == (other == game.dealer), told
        to_move = other in game.awaiting and not moment.game.finished
        assert (TEXTS[language]["to move"] in label) == to_move, told
        assert int(holds) == len(game.hand(other)), told


def check_sides(page: Page) -> None:
    """The board's legend: each side's score as the engine keeps it, the reader's first,
    named "you" (with four, "you and" the partner) or by its players' names."""
    text, moment, seat, names, language, where = page.parts()
    legend = re.findall(
        r'<span class="legend legend-p(\d)">.*?</span>([^<]*)<strong data-score-text="\d">(\d+)'
        r"</strong>",
        text,
        re.DOTALL,
    )
    game = moment.match.game
    sides = game.seating.sides
    assert len(legend) == sides, where
    mine = None if seat is None else game.seating.side_of[seat]
    if mine is not None:
        assert int(legend[0][0]) == mine, where
    you = YOU[language]
    for side_text, raw, score in legend:
        side = int(side_text)
        name = html.unescape(raw).strip()
        assert int(score) == game.scores[side], where
        members = [s for s in range(game.seats) if game.seating.side_of[s] == side]
        if side == mine:
            assert re.search(you, name), where
            assert seat is not None
            for partner in set(members) - {seat}:
                assert names[partner] in name, where
        else:
            assert not re.search(you, name), where
            for other in members:
                assert names[other] in name, where


def check_lines(page: Page) -> None:
    """Each line of the news and the log: the reader's own told as "you", another's by
    the name of its seat, each card laid named with the seat that laid it, and the win
    told to the winning side as theirs."""
    text, moment, seat, names, language, where = page.parts()
    lines = re.findall(
        r'<li class="line ([^"]*)" data-pegs="[^"]*" data-scores="[^"]*" data-seat="(\d)">\s*'
        r'<span class="line-text">([^<]*)</span>(.*?)</li>',
        text,
        re.DOTALL,
    )
    assert lines, where
    you = YOU[language]
    game = moment.match.game
    laid: dict[str, set[int]] = {}  # each card's name, and who laid it in some deal
    for deal in game.record()["deals"]:
        for event in deal["events"]:
            if event["type"] == "play":
                name = str(face(Card.parse(event["card"])).name)
                laid.setdefault(name, set()).add(event["player"])
    for classes, player_text, raw, rest in lines:
        player, said = int(player_text), html.unescape(raw)
        told = f"{where}: {said!r}"
        kinds = classes.split()
        if "line-win" in kinds:
            side = game.seating.side_of[player]
            ours = seat is not None and game.seating.side_of[seat] == side
            assert bool(re.match(you, said)) == ours, told  # the winners named first
            if not ours:
                winners = [s for s in range(game.seats) if game.seating.side_of[s] == side]
                assert said.startswith(names[winners[0]]), told
            continue
        if player == seat:
            assert "mine" in kinds, told
            assert re.search(you, said), told
            assert names[player] not in said, told
        else:
            assert "theirs" in kinds, told
            assert names[player] in said, told
            assert not re.match(you, said), told
            if seat is None:
                assert not re.search(you, said), told
        if "line-play" in kinds:
            card = html.unescape(re.findall(r'aria-label="([^"]*)"', rest)[0])
            assert player in laid[card], told
