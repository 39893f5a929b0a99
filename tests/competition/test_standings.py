"""Standings and tie-breaks (docs/rules.md §4.2), on small tournaments worked out by hand.

Letters in the comments are the entrant ids: A=1, B=2, ... A game is written
"121-N": the winner had 121, the loser N; it is worth 121-N of spread.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.standings import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    ByeValue,
    GameScore,
    PlayedMatch,
    Standing,
    compute_standings,
)
from scoring.rules.match import ACC, ONE_PER_GAME, STANDARD, GamePoints

A, B, C, D, E, F, G, H = range(1, 9)


def won(round_: int, winner: int, loser: int, *loser_scores: int) -> PlayedMatch:
    """``winner`` beat ``loser``, winning every game, the loser on these scores."""
    games = tuple(GameScore(winner, n) for n in loser_scores or (100, 100))
    return PlayedMatch(round_, (winner, loser), winner, games)


def bye(round_: int, player: int) -> PlayedMatch:
    return PlayedMatch(round_, (player,), player)


def table(standings: list[Standing]) -> list[tuple[int, int]]:
    return [(s.rank, s.entrant) for s in standings]


def by_entrant(standings: list[Standing]) -> dict[int, Standing]:
    return {s.entrant: s for s in standings}


def test_equal_wins_separated_by_game_points() -> None:
    # A beats B 121-91, 121-91: 2 + 2 = 4 game points, spread 30 + 30 = 60.
    # C beats D 121-90, 121-119: a skunk 3 + 2 = 5 game points, spread 31 + 2 = 33.
    # C is first on game points although A has more spread.
    matches = [won(1, A, B, 91, 91), won(1, C, D, 90, 119)]
    result = compute_standings([A, B, C, D], matches, points=STANDARD)
    assert table(result) == [(1, C), (2, A), (3, D), (4, B)]
    rows = by_entrant(result)
    assert (rows[C].game_points, rows[C].spread) == (5, 33)
    assert (rows[A].game_points, rows[A].spread) == (4, 60)
    # The losers have no game points; D lost by less (-33 against -60).
    assert (rows[D].game_points, rows[D].spread, rows[B].spread) == (0, -33, -60)


def test_equal_game_points_separated_by_spread() -> None:
    # A beats B 121-100 twice: 4 game points, spread 42. C beats D 121-110 twice:
    # 4 game points, spread 22.
    matches = [won(1, A, B, 100, 100), won(1, C, D, 110, 110)]
    result = compute_standings([A, B, C, D], matches, points=STANDARD)
    assert table(result) == [(1, A), (2, C), (3, D), (4, B)]


def test_buchholz_and_shared_places() -> None:
    # Every match 2-0 on 121-100: 4 game points and +42 to the winner, -42 to the
    # loser, so players with the same record tie on game points and spread.
    # Round 1: A-B, C-D, E-F; round 2: A-C, B-E, D-F (winner first).
    matches = [won(1, A, B), won(1, C, D), won(1, E, F), won(2, A, C), won(2, B, E), won(2, D, F)]
    result = compute_standings([A, B, C, D, E, F], matches, points=STANDARD)
    rows = by_entrant(result)
    # B, C, D and E are 1-1. Buchholz: B met A (2) and E (1) = 3; C met D (1) and
    # A (2) = 3; D met C (1) and F (0) = 1; E met F (0) and B (1) = 1.
    assert [rows[p].buchholz for p in (B, C, D, E)] == [3, 3, 1, 1]
    # B and C never met, nor did D and E: head to head leaves them tied, so they
    # share places, listed by id, and the next place skips: 1, 2, 2, 4, 4, 6.
    assert table(result) == [(1, A), (2, B), (2, C), (4, D), (4, E), (6, F)]
    assert [s.shared for s in result] == [False, True, True, True, True, False]


def test_head_to_head_separates_a_tie() -> None:
    # A round robin of four, every match 2-0 on 121-100.
    # R1: A-B, C-D. R2: A-C, B-D. R3: D-A, B-C (winner first).
    matches = [won(1, A, B), won(1, C, D), won(2, A, C), won(2, B, D), won(3, D, A), won(3, B, C)]
    result = compute_standings([A, B, C, D], matches, points=STANDARD)
    rows = by_entrant(result)
    # A and B are 2-1: 8 game points, spread 42 + 42 - 42 = 42. In a round robin
    # Buchholz is the others' wins: A 2 + 1 + 1 = 4, B 2 + 1 + 1 = 4. A beat B.
    # C and D are 1-2, Buchholz 1 + 2 + 2 = 5 each. C beat D.
    assert [rows[p].record for p in (A, B, C, D)] == ["2-1", "2-1", "1-2", "1-2"]
    assert [rows[p].buchholz for p in (A, B, C, D)] == [4, 4, 5, 5]
    assert table(result) == [(1, A), (2, B), (3, C), (4, D)]
    # Without head to head in the chain they share places.
    chain = ("match_wins", "game_points", "spread", "buchholz")
    shared = compute_standings([A, B, C, D], matches, points=STANDARD, tiebreaks=chain)
    assert table(shared) == [(1, A), (1, B), (3, C), (3, D)]


def test_three_way_tie_head_to_head_cannot_separate() -> None:
    # A round robin of four: A beats B, B beats C, C beats A, and all three beat D.
    # A, B and C are 2-1 with the same game points, spread and Buchholz, and one win
    # each among themselves: they share first place, and D is 4th.
    matches = [won(1, A, B), won(1, C, D), won(2, B, C), won(2, A, D), won(3, C, A), won(3, B, D)]
    result = compute_standings([A, B, C, D], matches, points=STANDARD)
    assert table(result) == [(1, A), (1, B), (1, C), (4, D)]
    assert [s.shared for s in result] == [True, True, True, False]


def test_head_to_head_separates_some_and_leaves_the_rest_tied() -> None:
    # Six players, three rounds, every match 2-0 on 121-100; the chain is just
    # match wins, then head to head.
    # R1: A-B, C-D, E-F. R2: C-E, B-D, F-A. R3: A-D, B-E, F-C (winner first).
    matches = [won(1, A, B), won(1, C, D), won(1, E, F)]
    matches += [won(2, C, E), won(2, B, D), won(2, F, A)]
    matches += [won(3, A, D), won(3, B, E), won(3, F, C)]
    chain = ("match_wins", "head_to_head")
    result = compute_standings([A, B, C, D, E, F], matches, points=STANDARD, tiebreaks=chain)
    # A, B, C and F have 2 wins. Among those four: F beat A and C (2), A beat B
    # (1), B and C beat no one of them (0), and B and C never met.
    assert table(result) == [(1, F), (2, A), (3, B), (3, C), (5, E), (6, D)]


def test_head_to_head_is_applied_again_within_the_players_it_left_tied() -> None:
    # Eight players, three rounds; A, B, C, D win twice, W, X, Y, Z once.
    W, X, Y, Z = E, F, G, H
    matches = [won(1, A, C), won(1, B, D), won(1, W, Y), won(1, Z, X)]
    matches += [won(2, C, B), won(2, A, W), won(2, D, X), won(2, Y, Z)]
    matches += [won(3, X, A), won(3, B, Y), won(3, C, Z), won(3, D, W)]
    chain = ("match_wins", "head_to_head")
    result = compute_standings(range(1, 9), matches, points=STANDARD, tiebreaks=chain)
    # Among A B C D: A beat C, B beat D, C beat B: one win each for A, B, C, none
    # for D. Among A B C again: A beat C, C beat B; B's win was over D. Among A C:
    # A beat C. So A, C, B, D. Likewise W beat Y, Y beat Z, Z beat X: W, Y, Z, X.
    assert [s.entrant for s in result] == [A, C, B, D, W, Y, Z, X]
    assert not any(s.shared for s in result)


def test_head_to_head_at_its_place_in_the_chain() -> None:
    # A round robin of four. R1: A beats B 121-110 twice, C beats D 121-110 twice.
    # R2: A beats C 121-110 twice, B beats D 121-0 twice.
    # R3: D beats A 121-110 twice, B beats C 121-110 twice.
    matches = [won(1, A, B, 110, 110), won(1, C, D, 110, 110)]
    matches += [won(2, A, C, 110, 110), won(2, B, D, 0, 0)]
    matches += [won(3, D, A, 110, 110), won(3, B, C, 110, 110)]
    # A and B are 2-1. Spread: A +22 +22 -22 = 22; B -22 +242 +22 = 242. A beat B.
    # C and D are 1-2. Spread: C +22 -22 -22 = -22; D -22 -242 +22 = -242. C beat D.
    head_first = ("match_wins", "head_to_head", "spread")
    result = compute_standings([A, B, C, D], matches, points=STANDARD, tiebreaks=head_first)
    assert [s.entrant for s in result] == [A, B, C, D]
    spread_first = ("match_wins", "spread", "head_to_head")
    result = compute_standings([A, B, C, D], matches, points=STANDARD, tiebreaks=spread_first)
    assert [s.entrant for s in result] == [B, A, C, D]


def test_a_bye_is_a_match_win_worth_two_plain_games_and_no_buchholz() -> None:
    # R1: A beats B, C has the bye. R2: C beats A, B has the bye.
    matches = [won(1, A, B), bye(1, C), won(2, C, A, 100, 100), bye(2, B)]
    rows = by_entrant(compute_standings([A, B, C], matches, points=STANDARD))
    # C: a bye (1 win, 4 game points, spread 0) and a 2-0 win (4, +42).
    assert (rows[C].match_wins, rows[C].byes, rows[C].game_points, rows[C].spread) == (2, 1, 8, 42)
    assert (rows[C].record, rows[C].played, rows[C].games_won) == ("2-0", 2, 4)
    # Buchholz counts opponents met, not byes: C met only A (1 win), B only A.
    assert (rows[C].buchholz, rows[B].buchholz, rows[A].buchholz) == (1, 1, 3)
    assert rows[C].opponents == (A,)
    assert rows[B].record == "1-1"
    # The tournament may value a bye otherwise.
    other = ByeValue(game_points=2, spread=10, games_won=1)
    rows = by_entrant(compute_standings([A, B, C], matches, points=STANDARD, bye=other))
    assert (rows[C].game_points, rows[C].spread, rows[C].games_won) == (6, 52, 3)
    assert ByeValue.plain_wins(ONE_PER_GAME) == ByeValue(game_points=2, spread=0, games_won=2)


@pytest.mark.parametrize(
    ("scheme", "loser_score", "points"),
    [
        # A plain win (91 or more), a skunk (90 or fewer), a double skunk (60 or fewer).
        (STANDARD, 91, 2), (STANDARD, 90, 3), (STANDARD, 61, 3),
        (STANDARD, 60, 4), (STANDARD, 0, 4),
        (ACC, 91, 2), (ACC, 90, 3), (ACC, 61, 3), (ACC, 60, 3), (ACC, 0, 3),
        (ONE_PER_GAME, 91, 1), (ONE_PER_GAME, 90, 1), (ONE_PER_GAME, 60, 1),
    ],
)  # fmt: skip
def test_game_points_under_each_preset(scheme: GamePoints, loser_score: int, points: int) -> None:
    result = by_entrant(compute_standings([A, B], [won(1, A, B, loser_score)], points=scheme))
    assert (result[A].game_points, result[B].game_points) == (points, 0)
    assert (result[A].spread, result[B].spread) == (121 - loser_score, loser_score - 121)


def test_the_match_loser_keeps_the_game_points_of_a_game_won() -> None:
    # A beats B 2-1: B wins 121-50 (double skunk, 4), A wins 121-100 (2) and
    # 121-80 (skunk, 3). A: 5 game points, spread -71 + 21 + 41 = -9; B: 4, +9.
    games = (GameScore(B, 50), GameScore(A, 100), GameScore(A, 80))
    result = compute_standings([A, B], [PlayedMatch(1, (A, B), A, games)], points=STANDARD)
    rows = by_entrant(result)
    assert (rows[A].game_points, rows[A].spread, rows[A].games_won) == (5, -9, 2)
    assert (rows[B].game_points, rows[B].spread, rows[B].games_lost) == (4, 9, 2)
    # Match wins come first: A is ahead on a negative spread.
    assert table(result) == [(1, A), (2, B)]


def test_a_changed_chain_changes_the_order() -> None:
    # As above: C has more game points (5 to 4), A more spread (60 to 33).
    matches = [won(1, A, B, 91, 91), won(1, C, D, 90, 119)]
    chain = ("match_wins", "spread", "game_points")
    result = compute_standings([A, B, C, D], matches, points=STANDARD, tiebreaks=chain)
    assert table(result) == [(1, A), (2, C), (3, D), (4, B)]
    # Games won alone (two each for A and C, none for B and D) cannot separate them.
    games_only = compute_standings([A, B, C, D], matches, points=STANDARD, tiebreaks=["games_won"])
    assert table(games_only) == [(1, A), (1, C), (3, B), (3, D)]


def test_undecided_matches_are_ignored() -> None:
    unfinished = PlayedMatch(2, (A, C), None, (GameScore(C, 40),))
    matches = [won(1, A, B), unfinished]
    rows = by_entrant(compute_standings([A, B, C], matches, points=STANDARD))
    assert (rows[C].played, rows[C].game_points, rows[C].spread, rows[C].opponents) == (0, 0, 0, ())
    assert rows[A].opponents == (B,)


def test_opponents_in_round_order_and_everyone_listed() -> None:
    matches = [won(2, C, A), won(1, A, B)]
    rows = by_entrant(compute_standings([A, B, C, D], matches, points=STANDARD))
    assert rows[A].opponents == (B, C)
    assert rows[D].played == 0


@pytest.mark.parametrize(
    ("matches", "tiebreaks", "message"),
    [
        ([won(1, A, B)], ["match_wins", "sonneborn"], "unknown tie-break"),
        ([won(1, A, E)], DEFAULT_TIEBREAKS, "not entrants"),
        ([PlayedMatch(1, (A, B), C)], DEFAULT_TIEBREAKS, "did not play"),
        ([PlayedMatch(1, (A, A), A)], DEFAULT_TIEBREAKS, "two different players"),
        ([PlayedMatch(1, (A, B), A, (GameScore(C, 3),))], DEFAULT_TIEBREAKS, "did not play"),
        ([won(1, A, B, 121)], DEFAULT_TIEBREAKS, "0 to 120"),
    ],
)
def test_impossible_input_raises(
    matches: list[PlayedMatch], tiebreaks: list[str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        compute_standings([A, B, C], matches, points=STANDARD, tiebreaks=tiebreaks)


def test_known_keys() -> None:
    assert set(DEFAULT_TIEBREAKS) <= set(TIEBREAKS)


@given(
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(1, 8), st.booleans(), st.integers(0, 120)),
        max_size=30,
    )
)
def test_totals_balance(raw: list[tuple[int, int, bool, int]]) -> None:
    matches = [
        PlayedMatch(1, (a, b), a if first else b, (GameScore(a if first else b, n),))
        for a, b, first, n in raw
        if a != b
    ]
    result = compute_standings(range(1, 9), matches, points=STANDARD)
    assert sum(s.spread for s in result) == 0
    assert sum(s.match_wins for s in result) == sum(s.match_losses for s in result) == len(matches)
    ranks = [s.rank for s in result]
    assert ranks == sorted(ranks)
    assert all(s.rank == 1 + sum(1 for o in result if o.rank < s.rank) for s in result)
