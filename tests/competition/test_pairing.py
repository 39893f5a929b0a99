"""Swiss pairing (docs/rules.md §4.4): worked cases by hand, then properties of whole
simulated tournaments checked against a brute force over every perfect matching."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.pairing import (
    ByeReason,
    Entrant,
    Explanation,
    FloatDirection,
    FloatReason,
    NoLegalPairing,
    NoLegalPairingReason,
    PairingMethod,
    PairingResult,
    pair_round,
)
from competition.standings import GameScore, PlayedMatch, compute_standings
from scoring.rules.match import STANDARD
from tests.profiles import examples


def entrant(
    id: int,  # noqa: A002
    wins: int,
    rank: int,
    met: Sequence[int] = (),
    byes: int = 0,
    *,
    active: bool = True,
) -> Entrant:
    return Entrant(id, wins, rank, frozenset(met), byes, active)


def opponents(result: PairingResult) -> dict[int, int]:
    return dict(result.pairs) | {b: a for a, b in result.pairs}


def together(result: PairingResult, a: int, b: int) -> bool:
    return opponents(result).get(a) == b


# --- round 1 ---------------------------------------------------------------------


def test_round_one_is_a_reproducible_draw() -> None:
    field = [entrant(i, 0, 1) for i in range(1, 9)]
    first = pair_round(field, seed=7)
    assert first.explanation.method is PairingMethod.RANDOM_DRAW
    # The same seed gives the same draw, whatever order the entrants come in.
    assert pair_round(list(reversed(field)), seed=7) == first
    # The draw order is the standings: 1st v 2nd, 3rd v 4th, ...
    order = first.explanation.order
    assert first.pairs == tuple(zip(order[::2], order[1::2], strict=True))
    draws = {pair_round(field, seed=seed).pairs for seed in range(20)}
    assert len(draws) > 15


def test_round_one_bye_goes_to_the_last_drawn() -> None:
    result = pair_round([entrant(i, 0, 1) for i in range(1, 8)], seed=3)
    assert result.bye == result.explanation.order[-1]
    assert result.explanation.bye is not None
    assert result.explanation.bye.reason is ByeReason.DRAWN


# --- the bye -------------------------------------------------------------------------

# Round 1 of five: 1 beat 2, 3 beat 4, 5 had the bye. Standings: 1, 3, 5 (one win
# each), then 2 and 4. Player 4 is last and has had no bye.
AFTER_ROUND_ONE = [
    entrant(1, 1, 1, met=[2]),
    entrant(3, 1, 2, met=[4]),
    entrant(5, 1, 3, byes=1),
    entrant(2, 0, 4, met=[1]),
    entrant(4, 0, 5, met=[3]),
]


def test_odd_field_bye_to_the_lowest_ranked() -> None:
    result = pair_round(AFTER_ROUND_ONE, seed=1)
    assert result.bye == 4
    # The odd group of three sends one player down to 2; not 1, who has met 2.
    # Of 3 and 5, pairing 1 v 3 keeps the neighbours in the order together.
    assert result.pairs == ((1, 3), (5, 2))
    assert result.explanation.bye is not None
    assert result.explanation.bye.reason is ByeReason.LOWEST_RANKED


def test_a_player_with_a_bye_gets_no_second_one() -> None:
    # Round 2 of that field: 4 sat out, 1 beat 3, 2 beat 5. Round 3 standings:
    # 1 (two wins), then 2, 3, 4, 5 on one win each. 5 and 4, the two lowest,
    # have had a bye, so the bye goes to 3.
    field = [
        entrant(1, 2, 1, met=[2, 3]),
        entrant(2, 1, 2, met=[1, 5]),
        entrant(3, 1, 3, met=[4, 1]),
        entrant(4, 1, 4, met=[3], byes=1),
        entrant(5, 1, 5, met=[2], byes=1),
    ]
    result = pair_round(field, seed=1)
    assert result.bye == 3
    choice = result.explanation.bye
    assert choice is not None
    assert choice.reason is ByeReason.LOWEST_RANKED
    assert choice.passed_over_had_bye == (5, 4)
    # 1 floats down to the group {2, 4, 5}; 2 has met both 1 and 5.
    assert result.pairs == ((1, 5), (2, 4))


def test_bye_passes_over_a_player_whose_bye_blocks_the_rest() -> None:
    # Three players left who have not had a bye: 1 v 2 have met; if 3 (last) sat
    # out, 1 and 2 would have to meet again. So 2 sits out and 1 plays 3.
    field = [entrant(1, 1, 1, met=[2]), entrant(2, 0, 2, met=[1]), entrant(3, 0, 3)]
    result = pair_round(field, seed=5)
    assert result.bye == 2
    assert result.pairs == ((1, 3),)
    choice = result.explanation.bye
    assert choice is not None
    assert choice.reason is ByeReason.LOWER_RANKED_BLOCKED
    assert choice.passed_over_blocked == (3,)


# --- score groups and floats ---------------------------------------------------------


def test_rematch_avoided_even_if_it_costs_floats() -> None:
    # 1 and 2 lead with a win each but have met; 3 and 4 have none.
    field = [
        entrant(1, 1, 1, met=[9, 2]),
        entrant(2, 1, 2, met=[8, 1]),
        entrant(3, 0, 3, met=[7]),
        entrant(4, 0, 4, met=[6]),
    ]
    result = pair_round(field, seed=2)
    assert not together(result, 1, 2)
    floats = result.explanation.floats
    assert {f.player for f in floats} == {1, 2, 3, 4}
    assert {f.reason for f in floats} == {FloatReason.BLOCKED}


def test_forbidden_pair_respected() -> None:
    field = [entrant(1, 1, 1, met=[9]), entrant(2, 1, 2, met=[8])]
    field += [entrant(3, 0, 3, met=[7]), entrant(4, 0, 4, met=[6])]
    assert together(pair_round(field, seed=2), 1, 2)
    result = pair_round(field, seed=2, forbidden=[frozenset({1, 2})])
    assert not together(result, 1, 2)


def test_forbidden_pair_respected_in_round_one() -> None:
    field = [entrant(i, 0, 1) for i in range(1, 7)]
    free = pair_round(field, seed=11)
    a, b = free.pairs[0]
    result = pair_round(field, seed=11, forbidden=[frozenset({a, b})])
    assert not together(result, a, b)


# docs/rules.md §4.4, worked: (wins, met, pairs, float differences largest first). Everyone
# has met two outsiders (90-99) so that nobody is in round 1; rank = id.
RULES_EXAMPLES = [
    # One on 2 wins, two on 1, one on 0: 2 v 1 and 1 v 0, not 2 v 0 and 1 v 1.
    ({1: 2, 2: 1, 3: 1, 4: 0}, [], ((1, 2), (3, 4)), (1, 1)),
    # The same when the leader has met the first 1-win player: the other one.
    ({1: 2, 2: 1, 3: 1, 4: 0}, [(1, 2)], ((1, 3), (2, 4)), (1, 1)),
    # The leader has met both: only then 2 v 0.
    ({1: 2, 2: 1, 3: 1, 4: 0}, [(1, 2), (1, 3)], ((1, 4), (2, 3)), (2,)),
    # A leader, a big even group and a trailer: a chain 3 v 2, 2 v 0 (2, 1)
    # rather than 3 v 0 (3): the largest difference counts first.
    ({1: 3, 2: 2, 3: 2, 4: 2, 5: 2, 6: 0}, [], ((1, 2), (3, 4), (5, 6)), (2, 1)),
    # Two odd groups next to each other: one float, one win apart.
    ({1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0}, [], ((1, 2), (3, 4), (5, 6), (7, 8)), (1,)),
]


@pytest.mark.parametrize(("wins", "met", "pairs", "differences"), RULES_EXAMPLES)
def test_rules_examples(
    wins: dict[int, int],
    met: list[tuple[int, int]],
    pairs: tuple[tuple[int, int], ...],
    differences: tuple[int, ...],
) -> None:
    before = {p: {90 + p % 5, 95 + p % 5} for p in wins}
    for a, b in met:
        before[a].add(b)
        before[b].add(a)
    field = [entrant(p, w, p, met=sorted(before[p])) for p, w in wins.items()]
    result = pair_round(field, seed=0)
    assert result.pairs == pairs
    found = sorted((abs(wins[a] - wins[b]) for a, b in result.pairs if wins[a] != wins[b]))
    assert tuple(reversed(found)) == differences


def test_the_rules_example_explained() -> None:
    field = [entrant(p, w, p, met=[90 + p, 95 + p]) for p, w in {1: 2, 2: 1, 3: 1, 4: 0}.items()]
    result = pair_round(field, seed=0)
    floats = {(f.player, f.opponent, f.direction, f.reason) for f in result.explanation.floats}
    assert floats == {
        (1, 2, FloatDirection.DOWN, FloatReason.ODD_GROUP),
        (2, 1, FloatDirection.UP, FloatReason.ODD_GROUP),
        (3, 4, FloatDirection.DOWN, FloatReason.ODD_GROUP),
        (4, 3, FloatDirection.UP, FloatReason.ODD_GROUP),
    }
    groups = [(g.match_wins, g.players) for g in result.explanation.score_groups]
    assert groups == [(2, (1,)), (1, (2, 3)), (0, (4,))]


def test_float_goes_to_the_next_group_down() -> None:
    # {1, 2, 3} on 2 wins and {4, 5, 6} on 1 are odd, {7, 8} on 0 even: the last of
    # the top group meets the first of the next (a difference of 1, not 2).
    wins = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0}
    field = [entrant(p, w, p, met=[100 + p]) for p, w in wins.items()]
    result = pair_round(field, seed=4)
    assert result.pairs == ((1, 2), (3, 4), (5, 6), (7, 8))
    down = [f for f in result.explanation.floats if f.direction is FloatDirection.DOWN]
    assert [(f.player, f.opponent, f.reason) for f in down] == [(3, 4, FloatReason.ODD_GROUP)]


# Round 6 of a simulated 40-player, 6-round tournament (benchmarks.pairing's
# random results, seed 266), in standings order: id, match wins, opponents met.
# The old weights (fewest cross pairs first) paired 30 (3 wins) with 15 (0 wins),
# three wins apart, though four floats one win apart were possible.
FORTY_ROUND_SIX = """
36 5 1 8 14 24 26 | 1 4 3 13 16 21 36 | 34 4 10 13 17 18 39 | 3 4 1 10 17 33 39
40 4 6 21 26 28 33 | 27 4 10 11 14 29 38 | 37 4 4 14 23 31 33 | 10 4 3 5 20 27 34
24 3 7 11 20 36 39 | 20 3 8 10 24 33 35 | 33 3 3 20 22 37 40 | 13 3 1 7 16 30 34
6 3 9 12 16 22 40 | 35 3 5 14 15 20 32 | 21 3 1 22 31 32 40 | 22 3 2 6 21 26 33
4 3 12 26 30 31 37 | 14 3 27 32 35 36 37 | 30 3 2 4 13 19 28 | 39 2 3 5 7 24 34
8 2 11 17 20 29 36 | 7 2 11 13 18 24 39 | 32 2 14 18 21 35 38 | 18 2 2 7 29 32 34
38 2 15 27 28 31 32 | 23 2 5 9 16 19 37 | 16 2 1 6 13 23 29 | 2 2 9 18 22 25 30
19 2 12 23 26 28 30 | 11 2 7 8 9 24 27 | 25 2 2 5 9 12 17 | 26 2 4 19 22 36 40
31 2 4 15 21 37 38 | 29 1 8 15 16 18 27 | 28 1 17 19 30 38 40 | 17 1 3 8 25 28 34
5 1 10 23 25 35 39 | 9 1 2 6 11 23 25 | 12 1 4 6 15 19 25 | 15 0 12 29 31 35 38
"""


def forty_round_six() -> list[Entrant]:
    rows = [row.split() for row in FORTY_ROUND_SIX.replace("|", "\n").split("\n") if row.strip()]
    return [
        entrant(int(row[0]), int(row[1]), rank, met=[int(o) for o in row[2:]])
        for rank, row in enumerate(rows, start=1)
    ]


def test_forty_players_float_one_win_where_the_old_weights_floated_three() -> None:
    field = forty_round_six()
    assert len(field) == 40
    assert all(len(e.opponents) == 5 for e in field)
    wins = {e.id: e.match_wins for e in field}
    result = pair_round(field, seed=1388598585)
    check_rules(field, result, ())
    gaps = sorted(abs(wins[a] - wins[b]) for a, b in result.pairs if wins[a] != wins[b])
    # Six score groups of 1, 7, 11, 14, 6 and 1 players (5 wins down to 0): above
    # four of the five gaps between them the players are an odd number, so four
    # pairs cross, each one win apart.
    assert gaps == [1, 1, 1, 1]
    assert not together(result, 30, 15)
    by_id = {e.id: e for e in field}
    assert cost_of(by_id, result.explanation.order, None, result.pairs) == best_possible(field)


def best_possible(field: list[Entrant]) -> Cost:
    """A lower bound on the cost of any pairing of a field without a bye, reached in
    the forty: a gap between score groups with an odd number of players above it is
    crossed by at least one pair, at least one win apart (the groups here are one
    win apart)."""
    sizes: dict[int, int] = {}
    for e in field:
        sizes[e.match_wins] = sizes.get(e.match_wins, 0) + 1
    above, odd_cuts = 0, 0
    for wins in sorted(sizes, reverse=True)[:-1]:
        above += sizes[wins]
        odd_cuts += above % 2
    return (0, 0), (1,) * odd_cuts


def test_withdrawn_and_late_entries() -> None:
    field = [
        entrant(1, 2, 1, met=[2, 3]),
        entrant(2, 1, 2, met=[1, 4]),
        entrant(3, 1, 3, met=[4, 1], active=False),
        entrant(4, 0, 4, met=[3, 2]),
        entrant(5, 0, 5),  # a late entry: no games, no wins
    ]
    result = pair_round(field, seed=3)
    # 1 and 2 have met, so both leave their groups; 2 has met 4, so 2 plays 5.
    assert result.pairs == ((1, 4), (2, 5))
    assert result.bye is None
    assert result.explanation.not_paired == (3,)
    assert result.explanation.method is PairingMethod.SWISS


# --- no legal pairing --------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "forbidden", "reason", "players"),
    [
        # Two players who have already met.
        (
            [entrant(1, 1, 1, met=[2]), entrant(2, 0, 2, met=[1])],
            [],
            NoLegalPairingReason.NO_OPPONENT_LEFT,
            {1, 2},
        ),
        # One player has met everyone in an even field.
        (
            [
                entrant(1, 3, 1, met=[2, 3, 4]),
                entrant(2, 1, 2, met=[1]),
                entrant(3, 1, 3, met=[1]),
                entrant(4, 1, 4, met=[1]),
            ],
            [],
            NoLegalPairingReason.NO_OPPONENT_LEFT,
            {1},
        ),
        # ... or in an odd field, but has had the bye while others have not.
        (
            [
                entrant(1, 3, 1, met=[2, 3], byes=1),
                entrant(2, 1, 2, met=[1]),
                entrant(3, 1, 3, met=[1]),
            ],
            [],
            NoLegalPairingReason.NO_OPPONENT_LEFT,
            {1},
        ),
        # A forbidden pair counts like a meeting.
        (
            [
                entrant(1, 1, 1, met=[3]),
                entrant(2, 0, 2, met=[4]),
                entrant(3, 0, 3, met=[1]),
                entrant(4, 1, 4, met=[2]),
            ],
            [frozenset({1, 2}), frozenset({1, 4})],
            NoLegalPairingReason.NO_OPPONENT_LEFT,
            {1},
        ),
        # Everyone has someone, but 1, 2 and 3 all have only 4.
        (
            [
                entrant(1, 1, 1, met=[2, 3]),
                entrant(2, 1, 2, met=[1, 3]),
                entrant(3, 0, 3, met=[1, 2]),
                entrant(4, 0, 4, met=[9]),
            ],
            [],
            NoLegalPairingReason.NO_PERFECT_PAIRING,
            None,
        ),
        (
            [entrant(1, 0, 1), entrant(2, 0, 1, active=False)],
            [],
            NoLegalPairingReason.TOO_FEW_PLAYERS,
            set(),
        ),
    ],
)
def test_no_legal_pairing(
    field: list[Entrant],
    forbidden: list[frozenset[int]],
    reason: NoLegalPairingReason,
    players: set[int] | None,
) -> None:
    with pytest.raises(NoLegalPairing) as caught:
        pair_round(field, seed=1, forbidden=forbidden)
    assert caught.value.reason is reason
    if players is None:
        assert len(caught.value.players) == 2
        assert set(caught.value.players) <= {1, 2, 3}
    else:
        assert set(caught.value.players) == players
    assert isinstance(caught.value, ValueError)


def test_bad_input_raises() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_round([entrant(1, 0, 1), entrant(1, 0, 1)], seed=1)
    with pytest.raises(ValueError, match="seed"):
        pair_round([entrant(1, 0, 1), entrant(2, 0, 1)], seed=-1)
    with pytest.raises(ValueError, match="forbidden"):
        pair_round([entrant(1, 0, 1), entrant(2, 0, 1)], seed=1, forbidden=[frozenset({1})])


def test_explanation_survives_json() -> None:
    result = pair_round(AFTER_ROUND_ONE, seed=9)
    data = json.loads(json.dumps(result.explanation.to_json()))
    assert data["bye"]["player"] == 4
    assert data["method"] == "swiss"
    # The same shape as dataclasses.asdict, which rounds stored before to_json used.
    assert data == json.loads(json.dumps(dataclasses.asdict(result.explanation)))
    # The site may add its own keys (swaps by hand); from_json ignores them.
    assert Explanation.from_json({**data, "swapped": [[1, 2]]}) == result.explanation


# --- whole tournaments: properties -------------------------------------------------


def simulate(
    size: int,
    rounds: int,
    *,
    seed: int,
    forbidden: Sequence[frozenset[int]] = (),
    withdraw: float = 0.0,
) -> Iterator[tuple[list[Entrant], PairingResult | NoLegalPairing]]:
    """Pair and play ``rounds`` rounds with random results; yield each round's input
    and its pairing (or the NoLegalPairing that ended the tournament)."""
    rng = random.Random(seed)
    active = set(range(1, size + 1))
    matches: list[PlayedMatch] = []
    for number in range(1, rounds + 1):
        field = entrants_after(range(1, size + 1), matches, active)
        try:
            result = pair_round(field, seed=rng.randrange(2**31), forbidden=forbidden)
        except NoLegalPairing as error:
            yield field, error
            return
        yield field, result
        matches += play(number, result, rng)
        active -= {p for p in active if rng.random() < withdraw}


def entrants_after(
    ids: Sequence[int] | range, matches: Sequence[PlayedMatch], active: set[int]
) -> list[Entrant]:
    standings = compute_standings(ids, matches, points=STANDARD)
    return [
        Entrant(
            s.entrant, s.match_wins, s.rank, frozenset(s.opponents), s.byes, s.entrant in active
        )
        for s in standings
    ]


def play(number: int, result: PairingResult, rng: random.Random) -> list[PlayedMatch]:
    played = [PlayedMatch(number, (result.bye,), result.bye)] if result.bye is not None else []
    for pair in result.pairs:
        winner = rng.choice(pair)
        loser = pair[0] if winner == pair[1] else pair[1]
        games = [GameScore(winner, rng.randrange(121)) for _ in range(2)]
        if rng.random() < 0.4:
            games.insert(rng.randrange(2), GameScore(loser, rng.randrange(121)))
        played.append(PlayedMatch(number, pair, winner, tuple(games)))
    return played


def perfect_matchings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for matching in perfect_matchings([*rest[:k], *rest[k + 1 :]]):
            yield [(first, partner), *matching]


Cost = tuple[tuple[int, int], tuple[int, ...]]


def best_by_brute_force(
    field: Sequence[Entrant], forbidden: Sequence[frozenset[int]], order: Sequence[int]
) -> Cost | None:
    """The least (bye's place from the bottom, win differences of the cross pairs
    largest first) over every legal choice of bye and pairs; None if there is no
    legal one.

    ``order`` is the pairing order, which breaks ties in rank for the bye."""
    active = [e for e in field if e.active]
    by_id = {e.id: e for e in active}
    fewest = min(e.byes for e in active)
    bye_options: list[int | None] = (
        [e.id for e in active if e.byes == fewest] if len(active) % 2 else [None]
    )
    best = None
    for bye in bye_options:
        seated = [e.id for e in active if e.id != bye]
        for matching in perfect_matchings(seated):
            if any(b in by_id[a].opponents or frozenset({a, b}) in forbidden for a, b in matching):
                continue
            cost = cost_of(by_id, order, bye, matching)
            best = cost if best is None else min(best, cost)
    return best


def cost_of(
    by_id: dict[int, Entrant],
    order: Sequence[int],
    bye: int | None,
    pairs: Sequence[tuple[int, int]],
) -> Cost:
    bye_rank = (-by_id[bye].rank, -order.index(bye)) if bye is not None else (0, 0)
    gaps = (abs(by_id[a].match_wins - by_id[b].match_wins) for a, b in pairs)
    return bye_rank, tuple(sorted((gap for gap in gaps if gap), reverse=True))


def check_rules(
    field: Sequence[Entrant], result: PairingResult, forbidden: Sequence[frozenset[int]]
) -> None:
    by_id = {e.id: e for e in field}
    active = {e.id for e in field if e.active}
    seated = [p for pair in result.pairs for p in pair]
    if result.bye is not None:
        seated.append(result.bye)
    assert sorted(seated) == sorted(active)  # everyone active exactly once
    for a, b in result.pairs:
        assert b not in by_id[a].opponents  # never a rematch
        assert frozenset({a, b}) not in forbidden
        key_a, key_b = (-by_id[a].match_wins, by_id[a].rank), (-by_id[b].match_wins, by_id[b].rank)
        assert key_a <= key_b  # the higher player first
    if result.bye is not None:
        assert by_id[result.bye].byes == min(by_id[p].byes for p in active)


tournaments = st.fixed_dictionaries(
    {
        "size": st.integers(2, 10),
        "rounds": st.integers(1, 6),
        "seed": st.integers(0, 2**31),
        "forbidden": st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), max_size=3),
        "withdraw": st.sampled_from([0.0, 0.0, 0.1]),
    }
)


@settings(max_examples=examples(500), deadline=None)
@given(tournaments)
def test_simulated_tournaments_obey_the_rules_and_are_optimal(t: dict[str, Any]) -> None:
    forbidden = [frozenset(p) for p in t["forbidden"] if p[0] != p[1]]
    for field, outcome in simulate(
        t["size"], t["rounds"], seed=t["seed"], forbidden=forbidden, withdraw=t["withdraw"]
    ):
        if isinstance(outcome, NoLegalPairing):
            enough = sum(e.active for e in field) >= 2
            ids = [e.id for e in field]
            assert not enough or best_by_brute_force(field, forbidden, ids) is None
            continue
        check_rules(field, outcome, forbidden)
        order = outcome.explanation.order
        best = best_by_brute_force(field, forbidden, order)
        by_id = {e.id: e for e in field}
        assert best is not None
        assert cost_of(by_id, order, outcome.bye, outcome.pairs) == best
        floats = len(outcome.explanation.floats)
        assert floats == 2 * len(best[1])  # both players of every pair across groups


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(16, 40), st.integers(0, 2**31))
def test_larger_tournaments_obey_the_rules(size: int, seed: int) -> None:
    byes: dict[int, int] = {}
    for field, outcome in simulate(size, 7, seed=seed):
        assert isinstance(outcome, PairingResult)
        check_rules(field, outcome, ())
        if outcome.bye is not None:
            byes[outcome.bye] = byes.get(outcome.bye, 0) + 1
    # Seven rounds, at least 16 players: everyone keeps at least 8 possible
    # opponents, so there is always a pairing and nobody needs a second bye.
    assert all(count == 1 for count in byes.values())


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(2, 16), st.integers(1, 4), st.integers(0, 2**31), st.randoms())
def test_same_seed_same_pairing(size: int, rounds: int, seed: int, shuffler: random.Random) -> None:
    for field, outcome in simulate(size, rounds, seed=seed):
        if isinstance(outcome, NoLegalPairing):
            break
        shuffled = list(field)
        shuffler.shuffle(shuffled)
        again = pair_round(shuffled, seed=outcome.explanation.seed)
        assert again == outcome
