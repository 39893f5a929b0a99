"""Every reader of a game between members is told the same game from their own chair.

A recorded game is driven through the services with a fixed seed; at each kind of
moment (the discards, each card played, a go, 31, each show, a count checked for
muggins and the call, the end of a game, the end of the match) its page is drawn for
seat 0, seat 1 and a spectator, in Swedish and in English, and each name and each
"you" on it is checked against the game's record: who played each card on the table,
who deals and owns the crib, whom the game waits for, whose every line of the news is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from play.board import face
from play.championship import match_propose
from play.models import OnlineGame
from play.online import challenge_accept, challenge_create, load_online, online_decide
from play.services import Action, Decision, stand_in_decision
from scoring.players.strategy import ComputerPlayer
from scoring.rules.cards import Card
from scoring.rules.events import Event, EventType, Phase
from scoring.rules.match import Match as EngineMatch
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

NAMES = ("Anna Åkesson", "Björn Åkesson")
LANGUAGES = ("sv", "en")
YOU_WORDS = {"sv": r"\b(du|Du|din|Din|ditt|Ditt|dina|Dina|dig)\b", "en": r"\b(you|You|your|Your)\b"}
TEXTS = {
    "sv": {"your crib": "Din krubba", "you deal": "du är giv", "your move": "Ditt drag."},
    "en": {"your crib": "Your crib", "you deal": "you deal", "your move": "Your move."},
}
SPECTATOR = None


@dataclass
class Moment:
    """One state of the game worth drawing: what kind of moment, and the engine's match."""

    kind: str
    game: OnlineGame
    match: EngineMatch


def client_for(user: User | None, language: str) -> Client:
    client = Client(headers={"accept-language": language})
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


def kinds(events: list[Event], match: EngineMatch, game: OnlineGame) -> list[str]:
    """What kind of moment a decision's ``events`` leave the game at."""
    phase = match.game.phase
    found = []
    if game.finished:
        return ["match over"]
    if phase is Phase.DONE:
        return ["game over"]
    if phase is Phase.DISCARD and any(e.type is EventType.DISCARD for e in events):
        found.append("discard")
    if any(e.type is EventType.PLAY for e in events) and phase is Phase.PLAY:
        found.append("play")
    if any(e.type is EventType.GO for e in events):
        found.append("go")
    if any(e.type is EventType.PLAY and e.count == 31 for e in events):
        found.append("31")
    if any(e.type is EventType.SHOW for e in events):
        found.append("show")
    if phase is Phase.MUGGINS:
        found.append("muggins")
    if any(e.type is EventType.MUGGINS for e in events):
        found.append("call")
    return found


WANTED = {
    "discard": 2, "play": 10, "go": 2, "31": 1, "show": 4, "muggins": 3, "call": 3,
    "game over": 1, "match over": 1,
}  # fmt: skip


def played_through(
    game: OnlineGame, users: dict[int, User], decide: Callable[[EngineMatch, int], Decision]
) -> Iterator[Moment]:
    """Each wanted moment of the match, played to its end by ``decide``."""
    seen = dict.fromkeys(WANTED, 0)
    match = load_online(game)
    while not game.finished:
        seat = match.game.to_move if match.game.to_move is not None else 0
        before = len(match.game.events)
        number = len(match.games)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decide(match, seat)
        )
        match = load_online(game)
        events = match.game.events[before:] if len(match.games) == number else []
        for kind in kinds(list(events), match, game):
            if seen[kind] < WANTED[kind]:
                seen[kind] += 1
                yield Moment(kind, game, match)
                break


def site_counting(match: EngineMatch, seat: int) -> Decision:
    return stand_in_decision(match, ComputerPlayer("standard", seat), seat)


def self_counting(match: EngineMatch, seat: int) -> Decision:
    """Claims one short, or one over every third count; calls the points missed, lets a
    count stand, or calls one too many, in turn."""
    game = match.game
    if game.phase is Phase.COUNT:
        worth = game.showing_score
        assert worth is not None
        over = len(game.events) % 3 == 0
        return Decision(Action.COUNT, points=worth.total + 1 if over else max(0, worth.total - 1))
    if game.phase is Phase.MUGGINS:
        missed = game.missed or 0
        return Decision(Action.MUGGINS, points=(missed, 0, missed + 1)[len(game.events) % 3])
    return site_counting(match, seat)


def named(user: User, name: str) -> User:
    """``user`` playing under ``name`` (their player's, made if they have none)."""
    if hasattr(user, "player"):
        user.player.name = name
        user.player.save(update_fields=["name"])
    else:
        PlayerFactory.create(user=user, name=name, club="Umeå")
    return User.objects.select_related("player").get(pk=user.pk)


@pytest.fixture
def championship() -> tuple[OnlineGame, dict[int, User]]:
    """A championship match best of 3 on the site (a spectator may watch), site counting."""
    tournament = make_tournament(2, best_of=3)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = Match.objects.get(round=round_)
    users = {seat.seat: named(account(seat), NAMES[seat.seat]) for seat in seats(match)}
    proposal = match_propose(match=match, member=users[1])
    return challenge_accept(pk=proposal.pk, member=users[0], seed=7), users


@pytest.fixture
def muggins_game() -> tuple[OnlineGame, dict[int, User]]:
    """A game between members with muggins: each counts their own hand, the other calls."""
    users = {
        seat: named(UserFactory.create(username=f"reader{seat}"), NAMES[seat]) for seat in (0, 1)
    }
    challenge = challenge_create(challenger=users[0], challenged=users[1], muggins=True)
    return challenge_accept(pk=challenge.pk, member=users[1], seed=8), users


def test_each_reader_of_a_championship_match_is_told_who_did_what(
    championship: tuple[OnlineGame, dict[int, User]],
) -> None:
    game, users = championship
    drawn = set()
    for moment in played_through(game, users, site_counting):  # each page as the game stands
        drawn.add(moment.kind)
        for seat in (0, 1, SPECTATOR):
            for language in LANGUAGES:
                check_page(moment, users, seat, language)
    assert drawn == set(WANTED) - {"muggins", "call"}


def test_each_player_of_a_game_with_muggins_is_told_who_did_what(
    muggins_game: tuple[OnlineGame, dict[int, User]],
) -> None:
    game, users = muggins_game
    drawn = set()
    for moment in played_through(game, users, self_counting):
        drawn.add(moment.kind)
        for seat in (0, 1):
            for language in LANGUAGES:
                check_page(moment, users, seat, language)
    assert {"show", "muggins", "call", "match over"} <= drawn


def check_page(moment: Moment, users: dict[int, User], seat: int | None, language: str) -> None:
    """The page of ``moment`` as ``seat`` reads it in ``language``, checked against the record."""
    reader = None if seat is None else users[seat]
    page = client_for(reader, language).get(reverse("play:online_game", args=[moment.game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    where = f"{moment.kind}, read by seat {seat} in {language}"
    record = moment.match.game.record()
    deal = record["deals"][-1]
    you = YOU_WORDS[language]
    with translation.override(language):
        owners = card_owners(record)
        check_play_area(text, deal, seat, language, where)
        check_crib_and_deal(text, deal, seat, language, where, moment)
        check_turn(text, moment, seat, language, where)
        check_lines(text, owners, seat, you, where)


def card_owners(record: dict[str, object]) -> dict[str, set[int]]:
    """Each card's name (as the reader's language says it) and who played it in the game's
    record (the log tells the scoring cards of every deal)."""
    owners: dict[str, set[int]] = {}
    deals = record["deals"]
    assert isinstance(deals, list)
    for deal in deals:
        for event in deal["events"]:
            if event["type"] == "play":
                owners.setdefault(face(Card.parse(event["card"])).name, set()).add(event["player"])
    return owners


def called(seat: int, reader: int | None, language: str) -> str:
    return ("du" if language == "sv" else "you") if seat == reader else NAMES[seat]


def check_play_area(
    text: str, deal: dict[str, object], seat: int | None, language: str, where: str
) -> None:
    """Each card on the table is named with the player the record says played it."""
    events = deal["events"]
    assert isinstance(events, list)
    sequence: list[tuple[str, int]] = []
    for event in events:
        if event["type"] == "play":
            sequence.append((event["card"], event["player"]))
            if event["count"] == 31:
                sequence = []
        elif event["type"] == "last":
            sequence = []
    shown = re.findall(
        r'<span class="laid [^"]*" data-seat="(\d)" data-card="(\w+)">.*?'
        r'<span class="laid-by">([^<]*)</span>',
        text,
        re.DOTALL,
    )
    if 'data-phase="play"' not in text:
        assert not shown, where
        return
    assert [(card, int(player)) for player, card, _ in shown] == sequence, where
    for player, _card, by in shown:
        assert html.unescape(by) == called(int(player), seat, language), where


def check_crib_and_deal(
    text: str, deal: dict[str, object], seat: int | None, language: str, where: str, moment: Moment
) -> None:
    """The crib and the deal are the dealer's of the record: "yours" or by name."""
    dealer = deal["dealer"]
    assert isinstance(dealer, int)
    crib = html.unescape(re.findall(r"data-crib>([^<]*)</span>", text)[0])
    line = html.unescape(re.findall(r'<p class="match-line">(.*?)</p>', text, re.DOTALL)[0])
    if dealer == seat:
        assert crib == TEXTS[language]["your crib"], where
    else:
        assert NAMES[dealer] in crib, where
        if seat is not None:
            assert NAMES[seat] not in crib, where
    if moment.match.game.phase is Phase.DONE:
        return
    if dealer == seat:
        assert TEXTS[language]["you deal"] in line, where
    else:
        assert NAMES[dealer] in line, where
        assert TEXTS[language]["you deal"] not in line, where


def check_turn(text: str, moment: Moment, seat: int | None, language: str, where: str) -> None:
    """Whom the game waits for: "your move", or the others by name (never the reader's)."""
    turn = html.unescape(re.findall(r'<p class="turn"[^>]*>(.*?)</p>', text, re.DOTALL)[0])
    awaiting = moment.match.game.awaiting
    if moment.game.finished or moment.match.game.phase is Phase.DONE:
        return
    if seat is not None and seat in awaiting:
        assert TEXTS[language]["your move"] in turn, where
    for other in awaiting - {seat}:
        if seat is None or seat not in awaiting:
            assert NAMES[other] in turn, where
    if seat is not None:
        assert NAMES[seat] not in turn, where


def check_lines(
    text: str, owners: dict[str, set[int]], seat: int | None, you: str, where: str
) -> None:
    """Each line of the news and the log: the reader's own told as "you", the others' by
    name, and each card in the play named with the player who played it."""
    lines = re.findall(
        r'<li class="line ([^"]*)" data-pegs="[^"]*" data-scores="[^"]*" data-seat="(\d)">\s*'
        r'<span class="line-text">([^<]*)</span>(.*?)</li>',
        text,
        re.DOTALL,
    )
    assert lines, where
    for classes, player_text, raw, rest in lines:
        player, said = int(player_text), html.unescape(raw)
        told = f"{where}: {said!r}"
        if player == seat:
            assert "mine" in classes.split(), told
            assert re.search(you, said), told
            assert NAMES[player] not in said, told
        else:
            assert "theirs" in classes.split(), told
            assert NAMES[player] in said, told
            assert not re.match(you, said), told
            if seat is None:
                assert not re.search(you, said), told
        if "line-play" in classes.split():
            card = html.unescape(re.findall(r'aria-label="([^"]*)"', rest)[0])
            assert player in owners[card], told
