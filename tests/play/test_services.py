"""Practice games through the services: start, decisions the engine checks, the computer's
answers, stale and illegal decisions that change nothing, matches, hints and clean-up."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from play.errors import PlayError
from play.models import GameReview, PracticeGame
from play.services import (
    COMPUTER,
    HUMAN,
    Action,
    Decision,
    load_match,
    practice_cleanup,
    practice_decide,
    practice_hint,
    practice_start,
    stand_in_decision,
)
from scoring.players.strategy import ComputerPlayer
from scoring.review import from_json
from scoring.rules.cards import DECK, Card
from scoring.rules.events import EventType, Phase
from scoring.rules.game import Game
from scoring.rules.replay import replay
from tests.factories import UserFactory
from tests.play.factories import GuestPracticeGameFactory, PracticeGameFactory, play_until

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def decide(practice: PracticeGame, decision: Decision) -> PracticeGame:
    return practice_decide(pk=practice.pk, version=practice.version, decision=decision)


def unchanged(practice: PracticeGame) -> bool:
    saved = PracticeGame.objects.get(pk=practice.pk)
    return saved.state == practice.state and saved.version == practice.version


def test_start_cuts_deals_and_the_computer_lays_away_first() -> None:
    practice = PracticeGameFactory.create(seed=42)
    game = load_match(practice).game
    assert practice.version == 0
    assert game.phase is Phase.DISCARD
    assert game.awaiting == frozenset({HUMAN})
    assert len(game.hand(HUMAN)) == 6
    assert len(game.kept(COMPUTER)) == 4  # the computer's two are in the crib already
    assert game.events[0].type == "cut"
    again = PracticeGameFactory.create(seed=42, owner=practice.owner)
    assert again.state["games"][0]["decisions"] == practice.state["games"][0]["decisions"]


def test_a_legal_discard_turns_the_starter_and_the_computer_answers() -> None:
    practice = PracticeGameFactory.create(seed=7)
    six = load_match(practice).game.hand(HUMAN)
    after = decide(practice, Decision(Action.DISCARD, six[:2]))
    game = load_match(after).game
    assert after.version == 1
    assert game.starter is not None
    assert game.kept(HUMAN) == six[2:]
    assert game.phase is Phase.PLAY
    assert game.to_move == HUMAN  # the computer has led already if it was its turn
    news = game.events[after.news_from :]
    assert news[0].type == "discard"
    assert news[0].player == HUMAN


@pytest.mark.parametrize(
    ("decision", "code"),
    [
        (Decision(Action.DISCARD, (Card.parse("5H"), Card.parse("5H"))), "not_two_cards"),
        (Decision(Action.PLAY, (Card.parse("5H"),)), "wrong_phase"),
        (Decision(Action.COUNT, points=3), "wrong_phase"),
        (Decision(Action.NEXT), "not_over"),
    ],
)
def test_refused_decisions_change_nothing(decision: Decision, code: str) -> None:
    practice = PracticeGameFactory.create(seed=11)
    six = load_match(practice).game.hand(HUMAN)
    if decision.action is Action.DISCARD:  # a card the player holds, twice
        decision = Decision(Action.DISCARD, (six[0], six[0]))
    with pytest.raises(PlayError) as refused:
        decide(practice, decision)
    assert refused.value.code == code
    assert unchanged(practice)


def test_a_card_not_held_is_refused_by_name() -> None:
    practice = PracticeGameFactory.create(seed=12)
    six = load_match(practice).game.hand(HUMAN)
    stranger = next(card for card in DECK if card not in six)
    with pytest.raises(PlayError) as refused:
        decide(practice, Decision(Action.DISCARD, (six[0], stranger)))
    assert refused.value.code == "not_held"
    assert "is not in your hand" in refused.value.message
    assert unchanged(practice)


def test_a_stale_version_is_refused_and_changes_nothing() -> None:
    practice = PracticeGameFactory.create(seed=13)
    six = load_match(practice).game.hand(HUMAN)
    after = decide(practice, Decision(Action.DISCARD, six[:2]))
    with pytest.raises(PlayError) as refused:  # the same post again: a double click
        practice_decide(pk=after.pk, version=0, decision=Decision(Action.DISCARD, six[:2]))
    assert refused.value.code == "stale"
    assert unchanged(after)


def test_a_card_that_would_pass_31_is_refused() -> None:
    def blocked(game: Game) -> bool:
        playing = game.phase is Phase.PLAY and game.to_move == HUMAN
        return playing and len(game.legal_plays(HUMAN)) < len(game.hand(HUMAN))

    practice = play_until(PracticeGameFactory.create(seed=5), blocked)
    game = load_match(practice).game
    too_big = next(card for card in game.hand(HUMAN) if card not in game.legal_plays(HUMAN))
    with pytest.raises(PlayError) as refused:
        decide(practice, Decision(Action.PLAY, (too_big,)))
    assert refused.value.code == "past_31"
    assert "would take the count past 31" in refused.value.message
    assert unchanged(practice)


def test_a_game_to_121_is_finished_with_its_record() -> None:
    practice = PracticeGameFactory.create(seed=21, finished=True)
    assert practice.finished
    game = load_match(practice).game
    assert game.phase is Phase.DONE
    assert practice.winner == game.winner
    assert max(game.scores) == 121
    assert practice.record is not None
    record = practice.record["games"][0]
    assert record["final_scores"] == list(game.scores)
    steps = list(replay(record))
    assert steps[-1].game.scores == game.scores
    with pytest.raises(PlayError):
        decide(practice, Decision(Action.NEXT))  # a single game: nothing follows it


def test_in_a_match_the_loser_deals_the_next_game() -> None:
    practice = play_until(
        PracticeGameFactory.create(seed=3, best_of=3), lambda game: game.phase is Phase.DONE
    )
    first = load_match(practice).game
    assert not practice.finished
    assert first.winner is not None
    after = decide(practice, Decision(Action.NEXT))
    match = load_match(after)
    assert len(match.games) == 2
    assert match.game.dealer == 1 - first.winner
    assert after.news_from == 0
    assert not any(event.type == "cut" for event in match.game.events)


def test_a_match_ends_when_one_side_has_won_two() -> None:
    practice = PracticeGameFactory.create(seed=8, best_of=3, finished=True)
    match = load_match(practice)
    assert 2 <= len(match.games) <= 3
    assert practice.winner is not None
    assert practice.record is not None
    assert match.result.wins[practice.winner] == 2
    assert len(practice.record["games"]) == len(match.games)


def test_count_it_yourself_with_muggins_gives_the_missed_points_to_the_computer() -> None:
    practice = play_until(
        PracticeGameFactory.create(seed=9, self_count=True, muggins=True),
        lambda game: game.phase is Phase.COUNT and _worth(game) > 0,
    )
    game = load_match(practice).game
    worth = _worth(game)
    with pytest.raises(PlayError) as refused:
        decide(practice, Decision(Action.COUNT, points=worth + 1))
    assert refused.value.code == "more_than_worth"
    assert "more than it is worth" in refused.value.message
    assert unchanged(practice)
    computer_before = game.scores[COMPUTER]
    after = decide(practice, Decision(Action.COUNT, points=0))
    news = load_match(after).game.events[after.news_from :]
    muggins = next(event for event in news if event.type is EventType.MUGGINS)
    assert muggins.player == COMPUTER
    assert muggins.points == worth
    assert load_match(after).game.scores[COMPUTER] >= computer_before + worth


def _worth(game: Game) -> int:
    """The hand being counted, scored here by ``score_hand`` (the engine's own ``showing_score``
    must agree)."""
    from scoring.rules.hand import score_hand

    assert game.showing is not None
    assert game.starter is not None
    _, what, cards = game.showing
    worth = score_hand(cards, game.starter, crib=what == "crib").total
    assert game.showing_score is not None
    assert game.showing_score.total == worth
    return worth


def test_hints_give_every_discard_then_the_card_to_lay() -> None:
    practice = PracticeGameFactory.create(seed=14)
    hint = practice_hint(practice=practice)
    assert len(hint.discards) == 15
    totals = [option.total_ev for option in hint.discards]
    assert totals == sorted(totals, reverse=True)
    for option in hint.discards:
        sign = 1 if hint.dealer else -1
        expected = option.hand_ev + sign * option.crib_ev + option.peg_ev
        assert option.total_ev == pytest.approx(expected)
    practice = play_until(practice, lambda game: game.to_move == HUMAN and game.phase is Phase.PLAY)
    best = practice_hint(practice=practice).best_play
    assert best in load_match(practice).game.legal_plays(HUMAN)


def hinted_decision(practice: PracticeGame) -> Decision:
    """The decision the hint gives (its first discard, its card), else what is due."""
    hint = practice_hint(practice=practice)
    if hint.discards:
        return Decision(Action.DISCARD, hint.discards[0].discard)
    if hint.best_play is not None:
        return Decision(Action.PLAY, (hint.best_play,))
    return stand_in_decision(load_match(practice), ComputerPlayer("easy", 1))


@pytest.mark.parametrize("seed", [8, 23])
def test_a_match_played_by_every_hint_gives_nothing_away_in_its_review(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks, seed: int
) -> None:
    """The hint is the one judge (docs/review.md): a member who follows it at every
    discard and every card of a best-of-3 match against the expert gives away 0 points in
    the match's review, and the expert computer none either."""
    practice = PracticeGameFactory.create(level="expert", best_of=3, seed=seed)
    with django_capture_on_commit_callbacks(execute=True):
        while not practice.finished:
            practice = decide(practice, hinted_decision(practice))
    review = from_json(GameReview.objects.get(practice=practice).review)
    followed = review.of(HUMAN, "discard") + review.of(HUMAN, "play")
    assert len(review.of(HUMAN, "discard")) >= 8
    assert [(d.game, d.deal, d.kind, d.lost) for d in followed if d.lost > 0] == []
    assert [d for d in followed if d.best != d.chosen and d.kind == "discard"] == []
    for seat in (HUMAN, COMPUTER):
        totals = review.totals(seat)
        assert (totals.discards_lost, totals.play_lost, totals.accuracy) == (0.0, 0.0, 100.0)


def test_a_game_belongs_to_a_member_or_a_session() -> None:
    with pytest.raises(ValueError, match="belongs"):
        practice_start(level="easy")
    guest = GuestPracticeGameFactory.create()
    assert guest.owner is None
    assert guest.session_key


def test_cleanup_deletes_only_old_guest_games() -> None:
    old_guest = GuestPracticeGameFactory.create()
    new_guest = GuestPracticeGameFactory.create()
    old_member = PracticeGameFactory.create()
    long_ago = timezone.now() - datetime.timedelta(days=8)
    PracticeGame.objects.filter(pk__in=[old_guest.pk, old_member.pk]).update(updated=long_ago)
    assert practice_cleanup(days=7) == 1
    left = set(PracticeGame.objects.values_list("pk", flat=True))
    assert left == {new_guest.pk, old_member.pk}


def test_cleanup_command_takes_the_number_of_days(capsys: pytest.CaptureFixture[str]) -> None:
    guest = GuestPracticeGameFactory.create()
    three_days = timezone.now() - datetime.timedelta(days=3)
    PracticeGame.objects.filter(pk=guest.pk).update(updated=three_days)
    call_command("cleanup_practice_games")
    assert PracticeGame.objects.filter(pk=guest.pk).exists()
    call_command("cleanup_practice_games", "--days", "2")
    assert not PracticeGame.objects.filter(pk=guest.pk).exists()
    assert "Deleted 1" in capsys.readouterr().out


@pytest.mark.parametrize("days", ["-1", "0"])
def test_cleanup_refuses_to_take_the_games_being_played(days: str) -> None:
    """0 days would delete every guest's game in progress; fewer makes no sense."""
    guest = GuestPracticeGameFactory.create()
    with pytest.raises(CommandError, match="1 or more"):
        call_command("cleanup_practice_games", "--days", days)
    with pytest.raises(ValueError, match="1 or more"):
        practice_cleanup(days=int(days))
    assert PracticeGame.objects.filter(pk=guest.pk).exists()


def test_a_decision_leaves_its_live_match_for_the_page() -> None:
    practice = PracticeGameFactory.create()
    six = load_match(practice).game.hand(HUMAN)
    after = decide(practice, Decision(Action.DISCARD, six[:2]))
    live = load_match(after)
    assert live is load_match(after)  # not replayed again
    assert live.to_json() == PracticeGame.objects.get(pk=practice.pk).state
    after.refresh_from_db()
    assert load_match(after) is not live  # a row read afresh is replayed afresh


def test_the_table_tells_the_news_and_the_log_of_the_whole_narration() -> None:
    """The table writes out only the lines it shows; they are the whole story's lines."""
    from play.narration import START_PEGS, narrate
    from play.selectors import practice_table

    practice = PracticeGameFactory.create(level="expert", seed=31)
    for _ in range(12):
        table = practice_table(practice=practice)
        lines = narrate(load_match(practice).game.events)
        news_from = min(practice.news_from, len(lines))
        assert table.news == lines[news_from:]
        assert table.log == [line for line in lines if line.logged]
        assert table.pegs_before == (lines[news_from - 1].pegs if news_from else START_PEGS)
        practice = decide(
            practice, stand_in_decision(load_match(practice), ComputerPlayer("easy", 1))
        )


def test_demo_practice_games_are_played_once() -> None:
    from demo.play import DEMO_PRACTICE, seed_practice_games

    UserFactory.create(username="anna")
    assert seed_practice_games() == len(DEMO_PRACTICE)
    assert seed_practice_games() == 0
    games = PracticeGame.objects.filter(owner__username="anna")
    assert games.count() == len(DEMO_PRACTICE)
    assert all(game.finished for game in games)


def test_names_and_lines_written_once_still_follow_the_reader_language() -> None:
    """Card names and the log's lines are kept once written: per language, never mixed."""
    from django.utils import translation

    from play.board import card_name, face
    from play.narration import narrate, speech_language

    five = Card(5, "H")
    practice = PracticeGameFactory.create(level="expert", seed=31)
    while not any(event.items for event in load_match(practice).game.events):
        stand_in = stand_in_decision(load_match(practice), ComputerPlayer("easy", 1))
        practice = decide(practice, stand_in)
    events = load_match(practice).game.events
    told = {}
    for language in ("sv", "en", "sv", "en"):
        with translation.override(language):
            told[language] = (card_name(five), face(five).name, narrate(events))
            assert speech_language() == language
    swedish_name, swedish_face, swedish_lines = told["sv"]
    english_name, english_face, english_lines = told["en"]
    assert (swedish_name, swedish_face) == ("hjärter 5", "hjärter 5")
    assert (english_name, english_face) == ("5 of hearts", "5 of hearts")
    assert any(line.text.startswith("Du ") for line in swedish_lines)
    assert any(line.text.startswith("You ") for line in english_lines)
    assert not any(line.text.startswith("You ") for line in swedish_lines)
    # The counts are said in the reader's language even when the sentences are asked in another.
    with translation.override("en"):
        swedish_counts = narrate(events, language="sv")
    assert [line.text for line in swedish_counts] == [line.text for line in english_lines]
    assert [line.said for line in swedish_counts] == [line.said for line in swedish_lines]
    assert any(line.said for line in swedish_lines)
    assert [line.said for line in swedish_lines] != [line.said for line in english_lines]
