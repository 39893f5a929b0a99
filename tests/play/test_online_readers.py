"""Every reader of a game between members is told the same game from their own chair.

A recorded game is driven through the services with a fixed seed; at each kind of
moment (the discards, each card played, a go, 31, each show, a count checked for
muggins and the call, the end of a game, the end of the match) its page is drawn for
seat 0, seat 1 and a spectator, in Swedish and in English, and each name and each
"you" on it is checked against the game's record: who played each card on the table,
who deals and owns the crib, whom the game waits for, whose every line of the news is.
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from play.board import face, hole_xy
from play.championship import match_propose
from play.models import OnlineGame
from play.online import (
    challenge_accept,
    challenge_create,
    forget_online,
    load_online,
    online_decide,
    online_start,
)
from play.services import Action, Decision, stand_in_decision
from scoring.players.strategy import ComputerPlayer
from scoring.rules.cards import Card
from scoring.rules.events import WINNING_SCORE, Event, EventType, Phase
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


# ------------------------------------------------- a claim until the call, and after it

CLAIM_SEED = 15
"""Seat 0 is the pone and counts first, a hand worth 7 (the site's own stand-ins play)."""
CLAIMANT, CALLER = 0, 1
READERS = {"claimant": CLAIMANT, "caller": CALLER, "spectator": SPECTATOR}
CLAIMS = {"over-count": 2, "exact count": 0, "under-count": -2}
"""Each claim: how many points above the hand's worth."""
ROW = ("state", "version", "moves_0", "moves_1", "awaiting", "last_move")
"""The fields of a game's row that a decision changes."""
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


@pytest.fixture
def watched_muggins() -> tuple[OnlineGame, dict[int, User]]:
    """A game with muggins that a spectator may watch, at the first count.

    Only a championship match may be watched, and the site plays those by the club's rules,
    without muggins; one is seated at a game of muggins here so that a spectator's page is
    drawn as the players' are, and shown to tell no more than theirs.
    """
    tournament = make_tournament(2)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = Match.objects.get(round=round_)
    users = {seat.seat: named(account(seat), NAMES[seat.seat]) for seat in seats(match)}
    game = online_start(
        players=(users[0], users[1]), muggins=True, seed=CLAIM_SEED, tournament_match=match
    )
    engine = load_online(game)
    while engine.game.phase is not Phase.COUNT:
        seat = engine.game.to_move if engine.game.to_move is not None else 0
        game = online_decide(
            pk=game.pk,
            member=users[seat],
            moves=game.moves_of(seat),
            decision=site_counting(engine, seat),
        )
        engine = load_online(game)
    worth = engine.game.showing_score
    assert (engine.game.to_move, worth and worth.total) == (CLAIMANT, 7)
    return game, users


def claimed(game: OnlineGame, users: dict[int, User], points: int) -> OnlineGame:
    """``game`` after the claimant's claim of ``points``, moved at the moment the game was
    set up, so that every claim's page is drawn as at the same time."""
    game = online_decide(
        pk=game.pk,
        member=users[CLAIMANT],
        moves=game.moves_of(CLAIMANT),
        decision=Decision(Action.COUNT, points=points),
    )
    OnlineGame.objects.filter(pk=game.pk).update(last_move=game.created)
    return OnlineGame.objects.get(pk=game.pk)


def drawn(game: OnlineGame, users: dict[int, User], seat: int | None, language: str) -> str:
    """The game's page and the table its poll brings, as ``seat`` reads them in
    ``language`` (the per-request CSRF token left out)."""
    cache.clear()  # the log is cached by its length: the same for every claim
    client = client_for(None if seat is None else users[seat], language)
    page = client.get(reverse("play:online_game", args=[game.pk]))
    poll = client.get(reverse("play:online_table", args=[game.pk]), headers={"HX-Request": "true"})
    assert (page.status_code, poll.status_code) == (200, 200)
    return CSRF.sub(r'\1"', page.content.decode() + poll.content.decode())


def differences(page: str, other: str) -> set[tuple[str, str]]:
    """The numbers that differ between two pages alike in everything else (else fails)."""
    tokens, others = re.split(r"(\d+)", page), re.split(r"(\d+)", other)
    assert len(tokens) == len(others), "the pages differ in more than numbers"
    found = set()
    for token, theirs in zip(tokens, others, strict=True):
        if token != theirs:
            assert (token + theirs).isdigit(), f"{token!r} differs from {theirs!r}"
            found.add((token, theirs))
    return found


def pegged(claim: int, scores: tuple[int, ...]) -> set[str]:
    """What a claim of ``claim`` on ``scores`` puts on the page: the claim, the claimant's
    score with it pegged, and where that front peg stands on the board."""
    front = min(WINNING_SCORE, scores[CLAIMANT] + claim)
    return {str(claim), str(front), *map(str, hole_xy(CLAIMANT, front))}


def started_from(game: OnlineGame, scores: tuple[int, int]) -> OnlineGame:
    """``game`` as though it had started from ``scores`` (as the engine's practice positions
    do): the same cards and decisions, each score moved on by as much."""
    state = copy.deepcopy(game.state)
    del state["games"][0]["state"]  # the scores it had reached from 0-0
    state["games"][0]["start_scores"] = list(scores)
    OnlineGame.objects.filter(pk=game.pk).update(state=state)
    forget_online()
    return OnlineGame.objects.get(pk=game.pk)


STARTS = {"early": (0, 0), "for the game hole": (113, 100)}
"""Where the game started: the exact count and the over-count from 114 both reach 121."""


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("reader", READERS)
def test_until_the_call_every_claim_looks_the_same_to_every_reader(
    watched_muggins: tuple[OnlineGame, dict[int, User]], reader: str, language: str, start: str
) -> None:
    """After an over-count, the exact count and an under-count, each reader's page (the
    board, the scores, the news and the log, the table the page polls) differs only by the
    number claimed: every claim is pegged at once, as at the table, and nothing tells
    the caller which it was; a claim that reaches 121 waits for the call like any other."""
    game, users = watched_muggins
    game = started_from(game, STARTS[start])
    engine = load_online(game).game
    worth, scores = engine.showing_score.total, engine.scores  # type: ignore[union-attr]
    assert start == "early" or scores[CLAIMANT] + worth == WINNING_SCORE
    row = OnlineGame.objects.filter(pk=game.pk).values(*ROW).get()
    pages = {}
    for kind, above in CLAIMS.items():
        OnlineGame.objects.filter(pk=game.pk).update(**row)
        forget_online()
        at_claim = claimed(OnlineGame.objects.get(pk=game.pk), users, worth + above)
        pages[kind] = drawn(at_claim, users, READERS[reader], language)
        front = min(WINNING_SCORE, scores[CLAIMANT] + worth + above)
        assert 'data-phase="muggins"' in pages[kind], kind  # not over: the call is due
        assert f'data-peg="{CLAIMANT}-front" data-score="{front}"' in pages[kind], kind
        assert f'<strong data-score-text="{CLAIMANT}">{front}</strong>' in pages[kind], kind
        for counted in ('class="breakdown"', 'class="missed"', 'class="said"'):
            assert counted not in pages[kind], f"{kind}: {counted}"
    exact = pegged(worth, scores)
    for kind in ("over-count", "under-count"):
        other = pegged(worth + CLAIMS[kind], scores)
        for theirs, ours in differences(pages[kind], pages["exact count"]):
            assert theirs in other, f"{kind}, read by the {reader} in {language}: {theirs}"
            assert ours in exact, f"{kind}, read by the {reader} in {language}: {ours}"


SETTLED = {
    # After a claim of 9 for a hand worth 7, called for 7: the log's claim, show and call.
    ("claimant", "en"): (
        "You claim 9 points for your hand.",
        "You claimed 9, but it is worth 7: an over-count pegs nothing.",
        "Muggins! Björn Åkesson claims the 7 points you missed.",
    ),
    ("caller", "en"): (
        "Anna Åkesson claims 9 points for the hand.",
        "Anna Åkesson claimed 9, but it is worth 7: an over-count pegs nothing.",
        "Muggins! You claim the 7 points Anna Åkesson missed.",
    ),
    ("spectator", "en"): (
        "Anna Åkesson claims 9 points for the hand.",
        "Anna Åkesson claimed 9, but it is worth 7: an over-count pegs nothing.",
        "Muggins! Björn Åkesson claims the 7 points Anna Åkesson missed.",
    ),
    ("claimant", "sv"): (
        "Du begär 9 poäng för din hand.",
        "Du begärde 9, men den är värd 7: en överräkning ger inga poäng.",
        "Muggins! Björn Åkesson tar de 7 poäng du missade.",
    ),
    ("caller", "sv"): (
        "Anna Åkesson begär 9 poäng för handen.",
        "Anna Åkesson begärde 9, men den är värd 7: en överräkning ger inga poäng.",
        "Muggins! Du tar de 7 poäng Anna Åkesson missade.",
    ),
    ("spectator", "sv"): (
        "Anna Åkesson begär 9 poäng för handen.",
        "Anna Åkesson begärde 9, men den är värd 7: en överräkning ger inga poäng.",
        "Muggins! Björn Åkesson tar de 7 poäng Anna Åkesson missade.",
    ),
}


@pytest.mark.parametrize(("reader", "language"), SETTLED)
def test_the_call_settles_an_over_count_for_every_reader(
    watched_muggins: tuple[OnlineGame, dict[int, User]], reader: str, language: str
) -> None:
    """Called for the hand's worth, an over-count's pegs go back where they stood and the
    caller pegs what they called; the news tells the claim, the count and the call."""
    game, users = watched_muggins
    engine = load_online(game).game
    scores, backs = engine.scores, engine.previous_scores
    game = claimed(game, users, 9)
    game = online_decide(
        pk=game.pk,
        member=users[CALLER],
        moves=game.moves_of(CALLER),
        decision=Decision(Action.MUGGINS, points=7),
    )
    page = drawn(game, users, READERS[reader], language)
    pegs = {
        CLAIMANT: (scores[CLAIMANT], backs[CLAIMANT]),  # put back: the over-count pegs nothing
        CALLER: (scores[CALLER] + 7, scores[CALLER]),
    }
    for seat, (front, back) in pegs.items():
        assert f'data-peg="{seat}-front" data-score="{front}"' in page
        assert f'data-peg="{seat}-back" data-score="{back}"' in page
        assert f'<strong data-score-text="{seat}">{front}</strong>' in page
    told = [
        html.unescape(line or missed)
        for line, missed in re.findall(
            r'<span class="line-text">([^<]*)</span>|<p class="missed">([^<]*)</p>', page
        )
    ]
    claim, count, call = SETTLED[reader, language]
    shown = told.index(claim) + 1  # the hand shown, and what its claim pegged
    assert told[shown + 1 : shown + 3] == [count, call]
