"""Matches (docs/rules.md §2.9, §3, §4.1): checking reported results, game points, spread,
and the live best-of-N match of games."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.events import Phase
from scoring.rules.match import (
    ACC,
    ONE_PER_GAME,
    STANDARD,
    GamePoints,
    Match,
    MatchReportError,
    ReportFault,
    check_match,
    game_points,
    skunk_of,
    spread,
)
from tests.scoring.gameplay import play_randomly

# ------------------------------------------------------- skunks and game points


@pytest.mark.parametrize(
    ("loser_score", "skunk", "standard", "acc", "one"),
    [
        (120, "none", 2, 2, 1),
        (91, "none", 2, 2, 1),  # 91 or more: no skunk
        (90, "skunk", 3, 3, 1),  # 90 or fewer: skunk
        (61, "skunk", 3, 3, 1),
        (60, "double", 4, 3, 1),  # 60 or fewer: double skunk (ACC: no bonus for it)
        (31, "double", 4, 3, 1),  # a "triple skunk" is not used
        (0, "double", 4, 3, 1),
    ],
)
def test_game_points_at_the_skunk_lines(
    loser_score: int, skunk: str, standard: int, acc: int, one: int
) -> None:
    assert skunk_of(loser_score) == skunk
    assert game_points(loser_score) == standard
    assert game_points(loser_score, STANDARD) == standard
    assert game_points(loser_score, ACC) == acc
    assert game_points(loser_score, ONE_PER_GAME) == one


def test_the_schemes_and_their_presets() -> None:
    assert (STANDARD.win, STANDARD.skunk, STANDARD.double_skunk) == (2, 3, 4)
    assert (ACC.win, ACC.skunk, ACC.double_skunk) == (2, 3, 3)
    assert (ONE_PER_GAME.win, ONE_PER_GAME.skunk, ONE_PER_GAME.double_skunk) == (1, 1, 1)
    assert GamePoints() == STANDARD
    assert GamePoints.PRESETS == {"standard": STANDARD, "acc": ACC, "one": ONE_PER_GAME}
    custom = GamePoints(win=5, skunk=7, double_skunk=9)
    assert [game_points(s, custom) for s in (91, 90, 60)] == [5, 7, 9]


@pytest.mark.parametrize(("loser_score", "margin"), [(120, 1), (91, 30), (90, 31), (0, 121)])
def test_spread_is_121_minus_the_loser_score(loser_score: int, margin: int) -> None:
    assert spread(loser_score) == margin


# ------------------------------------------------------------- check_match


def test_a_two_nil_match() -> None:
    result = check_match(best_of=3, first_dealer=1, games=[(0, 100), (0, 80)])
    assert result.winner == 0
    assert result.decided
    assert result.wins == (2, 0)
    assert result.game_points == (2 + 3, 0)
    assert result.spread == (21 + 41, -62)
    assert result.games_needed == 2
    assert [game.skunk for game in result.games] == ["none", "skunk"]
    assert [game.number for game in result.games] == [1, 2]
    assert [game.spread for game in result.games] == [21, 41]


def test_a_two_one_match_with_acc_points() -> None:
    result = check_match(best_of=3, first_dealer=0, games=[(1, 50), (0, 120), (1, 60)], scheme=ACC)
    assert result.winner == 1
    assert result.wins == (1, 2)
    assert result.game_points == (2, 3 + 3)
    assert result.spread == (-71 + 1 - 61, 71 - 1 + 61)


def test_the_loser_of_a_game_deals_the_next() -> None:
    result = check_match(best_of=7, first_dealer=1, games=[(1, 100), (1, 100), (0, 100), (1, 9)])
    assert [game.dealer for game in result.games] == [1, 0, 0, 1]


@pytest.mark.parametrize(
    ("best_of", "games", "winner", "wins"),
    [
        (1, [(1, 70)], 1, (0, 1)),
        (5, [(0, 100), (1, 100), (0, 100), (1, 100), (0, 100)], 0, (3, 2)),
        (5, [(1, 100), (1, 100), (1, 100)], 1, (0, 3)),
        (7, [(0, 100)] * 4, 0, (4, 0)),
        (7, [(0, 1), (1, 1)] * 3 + [(1, 1)], 1, (3, 4)),
    ],
)
def test_best_of_one_five_and_seven(
    best_of: int, games: list[tuple[int, int]], winner: int, wins: tuple[int, int]
) -> None:
    result = check_match(best_of=best_of, first_dealer=0, games=games)
    assert (result.winner, result.wins, result.games_needed) == (winner, wins, best_of // 2 + 1)


def test_a_match_not_yet_decided_has_no_winner() -> None:
    result = check_match(best_of=3, first_dealer=0, games=[(0, 100), (1, 100)])
    assert result.winner is None
    assert not result.decided
    assert check_match(best_of=5, first_dealer=0, games=[]).wins == (0, 0)


F = ReportFault
RANGE, NOT_INT = F.LOSER_SCORE_OUT_OF_RANGE, F.LOSER_SCORE_NOT_A_NUMBER


@pytest.mark.parametrize(
    ("best_of", "first_dealer", "games", "message", "reason", "game"),
    [
        (3, 0, [(0, 121)], "game 1: the loser's score is 0 to 120, not 121", RANGE, 1),
        (3, 0, [(0, 100), (1, 130)], "game 2: the loser's score is 0 to 120", RANGE, 2),
        (3, 0, [(0, -1)], "game 1: the loser's score is 0 to 120, not -1", RANGE, 1),
        (3, 0, [(0, 90.5)], "game 1: the loser's score must be a whole number", NOT_INT, 1),
        (3, 0, [(0, True)], "game 1: the loser's score must be a whole number", NOT_INT, 1),
        (3, 0, [(2, 90)], "game 1: the winner is player 0 or 1, not 2", F.WINNER, 1),
        (3, 0, [(-1, 90)], "the winner is player 0 or 1", F.WINNER, 1),
        (3, 0, [(True, 90)], "the winner is player 0 or 1", F.WINNER, 1),
        (3, 0, [(0, 100), (0, 100), (1, 100)], "game 3 was played after", F.NOT_NEEDED, 3),
        (1, 0, [(0, 100), (1, 100)], "game 2 was played after the match", F.NOT_NEEDED, 2),
        (5, 0, [(1, 9)] * 4, "game 4 was played after the match was decided", F.NOT_NEEDED, 4),
        (2, 0, [(0, 100)], "best of 1, 3, 5 or 7", F.BEST_OF, None),
        (4, 0, [(0, 100)], "best of 1, 3, 5 or 7", F.BEST_OF, None),
        (9, 0, [(0, 100)], "best of 1, 3, 5 or 7", F.BEST_OF, None),
        (3, 2, [(0, 100)], "the first dealer is player 0 or 1", F.FIRST_DEALER, None),
    ],
)  # fmt: skip
def test_impossible_reports_are_refused_with_their_reason_and_game(
    best_of: int,
    first_dealer: int,
    games: list[tuple[int, int]],
    message: str,
    reason: ReportFault,
    game: int | None,
) -> None:
    with pytest.raises(MatchReportError) as caught:
        check_match(best_of=best_of, first_dealer=first_dealer, games=games)
    assert message in str(caught.value)
    assert (caught.value.reason, caught.value.game) == (reason, game)
    assert isinstance(caught.value, ValueError)


reports = st.lists(
    st.tuples(st.sampled_from([0, 1]), st.integers(min_value=0, max_value=120)), max_size=8
)


# A few milliseconds per example; the explicit deadline allows for a loaded machine.
@settings(deadline=timedelta(seconds=1))
@given(best_of=st.sampled_from([1, 3, 5, 7]), first_dealer=st.sampled_from([0, 1]), games=reports)
def test_a_report_is_refused_exactly_when_it_goes_on_after_the_match_is_won(
    best_of: int, first_dealer: int, games: list[tuple[int, int]]
) -> None:
    needed = best_of // 2 + 1
    wins = [0, 0]
    decided_at = None
    for number, (winner, _) in enumerate(games, start=1):
        wins[winner] += 1
        if decided_at is None and wins[winner] == needed:
            decided_at = number
    if decided_at is not None and decided_at < len(games):
        with pytest.raises(MatchReportError, match=f"game {decided_at + 1} was played after"):
            check_match(best_of=best_of, first_dealer=first_dealer, games=games)
        return
    result = check_match(best_of=best_of, first_dealer=first_dealer, games=games)
    assert sum(result.wins) == len(games)
    assert result.winner == (games[-1][0] if decided_at else None)
    assert sum(result.spread) == 0
    assert result.spread[0] == sum((1 if w == 0 else -1) * (121 - s) for w, s in games)
    for player in (0, 1):
        assert result.game_points[player] == sum(game_points(s) for w, s in games if w == player)
    dealers = [first_dealer, *(1 - winner for winner, _ in games)][: len(games)]
    assert [game.dealer for game in result.games] == dealers


# --------------------------------------------------------------- live matches


def play_match(match: Match, rng: random.Random) -> Match:
    while True:
        play_randomly(match.game, rng)
        if match.winner is not None:
            return match
        match.next_game()


@pytest.mark.parametrize(("best_of", "seed"), [(1, 1), (3, 2), (3, 3), (5, 4), (7, 5)])
def test_a_live_match_runs_to_a_majority_with_the_loser_dealing_next(
    best_of: int, seed: int
) -> None:
    match = play_match(Match.new(seed=seed, best_of=best_of), random.Random(seed))
    games = match.games
    needed = best_of // 2 + 1
    assert needed <= len(games) <= best_of
    winners = [game.winner for game in games]
    assert winners.count(match.winner) == needed
    assert winners[-1] == match.winner
    assert any(event.type == "cut" for event in games[0].events)
    for previous, game in zip(games, games[1:], strict=False):
        assert previous.winner is not None
        assert game.first_dealer == 1 - previous.winner
        assert not any(event.type == "cut" for event in game.events)
    assert len({game.seed for game in games}) == len(games)
    assert match.winner is not None
    assert match.result.wins[match.winner] == needed


def test_the_next_game_waits_for_the_current_one_and_the_match_for_none() -> None:
    match = Match.new(seed=8, best_of=3, first_dealer=1)
    assert match.game.first_dealer == 1
    with pytest.raises(ValueError, match="not over"):
        match.next_game()
    play_match(match, random.Random(8))
    with pytest.raises(ValueError, match="already decided"):
        match.next_game()


@pytest.mark.parametrize("best_of", [0, 2, 4, 9])
def test_a_live_match_is_best_of_1_3_5_or_7(best_of: int) -> None:
    with pytest.raises(ValueError, match="best of 1, 3, 5 or 7"):
        Match.new(seed=1, best_of=best_of)


def test_a_saved_match_loads_and_plays_on_identically() -> None:
    match = Match.new(seed=21, best_of=5, players=("Anna", "Bo"), muggins=True,
                      self_count=frozenset({0}))  # fmt: skip
    rng = random.Random(21)
    play_randomly(match.game, rng)
    match.next_game()
    play_randomly(match.game, rng, steps=30)
    loaded = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert loaded.to_json() == match.to_json()
    assert (loaded.players, loaded.self_count, loaded.muggins) == (
        ("Anna", "Bo"),
        frozenset({0}),
        True,
    )
    play_match(loaded, random.Random(5))
    play_match(match, random.Random(5))
    assert loaded.record() == match.record()


def test_the_match_record() -> None:
    match = play_match(Match.new(seed=6, best_of=3, players=("Anna", "Bo")), random.Random(6))
    record = json.loads(json.dumps(match.record()))
    assert record["best_of"] == 3
    assert record["winner"] == match.winner
    assert record["players"] == ["Anna", "Bo"]
    assert [game["winner"] for game in record["games"]] == [g.winner for g in match.games]
    assert record["games"] == [json.loads(json.dumps(g.record())) for g in match.games]
    result = check_match(
        best_of=3,
        first_dealer=record["games"][0]["first_dealer"],
        games=[(g["winner"], g["final_scores"][1 - g["winner"]]) for g in record["games"]],
    )
    assert record["wins"] == list(result.wins)
    assert record["game_points"] == list(result.game_points)
    assert record["spread"] == list(result.spread)
    for game, following in zip(record["games"], record["games"][1:], strict=False):
        assert following["first_dealer"] == 1 - game["winner"]
        assert following["deals"][0]["dealer"] == 1 - game["winner"]


def test_an_unfinished_match_records_no_winner() -> None:
    match = Match.new(seed=9, best_of=3)
    assert match.game.phase is Phase.DISCARD
    record = match.record()
    assert record["winner"] is None
    assert record["wins"] == [0, 0]
    assert record["games"][0]["winner"] is None


# ------------------------------------------- a single game of three or four, or to 61


@pytest.mark.parametrize(
    ("seats", "target", "players"),
    [
        (3, 61, ("Anna", "Left", "Right")),
        (4, 91, ("Anna", "Left", "Partner", "Right")),
        (2, 61, ("Anna", "Computer")),
    ],
)
def test_a_match_of_three_or_four_or_a_shorter_game_is_one_game(
    seats: int, target: int, players: tuple[str, ...]
) -> None:
    match = Match.new(seed=36, best_of=1, players=players, seats=seats, target=target)
    assert (match.game.seats, match.game.target) == (seats, target)
    rng = random.Random(36)
    play_randomly(match.game, rng, steps=40)
    loaded = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert loaded.to_json() == match.to_json()
    assert (loaded.seats, loaded.target, loaded.players) == (seats, target, players)
    play_randomly(match.game, rng)
    assert match.game.phase is Phase.DONE
    assert match.winner == match.game.winner
    record = match.record()
    assert record["winner"] == match.game.winner
    assert record["wins"] == [int(side == match.winner) for side in range(len(match.game.scores))]
    assert "game_points" not in record
    assert "spread" not in record  # both reckoned between two to 121
    with pytest.raises(ValueError, match="two players to 121"):
        _ = match.result


@pytest.mark.parametrize(("seats", "target"), [(3, 121), (4, 121), (2, 61), (2, 91)])
def test_a_best_of_three_is_for_two_to_121_only(seats: int, target: int) -> None:
    with pytest.raises(ValueError, match="played by two players to 121"):
        Match.new(seed=1, best_of=3, seats=seats, target=target)


def test_a_match_of_two_to_121_is_saved_as_before_seats_were_known() -> None:
    match = Match.new(seed=5, best_of=3)
    assert match.two_to_121
    assert "seats" not in match.to_json()["games"][0]
    assert "target" not in match.to_json()["games"][0]
