"""A pairing's explanation in words (tournaments.explain): the sentences the organisers
read under a proposed round, from the data that competition.pairing keeps; in English,
with plurals, each float said once. No database."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils import translation

from competition.pairing import ByeReason, PairingResult, pair_round
from tests.competition.test_pairing import entrant
from tests.competition.test_seeding import by_id, fresh, seeded_round
from tournaments.explain import explanation_lines, seeding_lines, seeding_summary

# --- the explanation in words ------------------------------------------------------


def words(result: PairingResult) -> list[str]:
    names = {e: f"P{e}" for e in result.explanation.order}
    with translation.override("en"):
        return explanation_lines(result.explanation.to_json(), names)


def test_the_words_say_each_float_once_with_plurals() -> None:
    field = [entrant(p, w, p, met=[90 + p, 95 + p]) for p, w in {1: 2, 2: 1, 3: 1, 4: 0}.items()]
    lines = words(pair_round(field, seed=0))
    floats = [line for line in lines if " plays " in line]
    assert floats == [
        "P1 (2 wins) plays P2 (1 win): an odd number of the players paired have more wins "
        "than P2, so one of them plays down.",
        "P3 (1 win) plays P4 (0 wins): an odd number of the players paired have more wins "
        "than P4, so one of them plays down.",
    ]
    assert "Score group with 2 match wins: 1 player." in lines
    assert "Score group with 1 match win: 2 players." in lines
    assert "Score group with 0 match wins: 1 player." in lines
    assert not any(re.search(r"\b1 (wins|match wins|players)\b", line) for line in lines)


def test_the_words_give_a_blocked_float() -> None:
    # 1 and 2 lead but have met: both float down, and the words say why.
    field = [
        entrant(1, 1, 1, met=[9, 2]),
        entrant(2, 1, 2, met=[8, 1]),
        entrant(3, 0, 3, met=[7]),
        entrant(4, 0, 4, met=[6]),
    ]
    floats = [line for line in words(pair_round(field, seed=2)) if " plays " in line]
    assert len(floats) == 2
    assert all("rematches or forbidden pairs ruled out" in line for line in floats)


def test_round_one_words_give_the_bye_as_part_of_the_draw() -> None:
    result = pair_round([entrant(i, 0, 1) for i in range(1, 8)], seed=3)
    lines = words(result)
    assert lines[0].startswith("Round 1 is a random draw from seed 3")
    bye = [line for line in lines if "has the bye" in line]
    assert bye == [
        f"P{result.bye} has the bye: in round 1 the bye is part of the draw, and the last "
        "player drawn sits out."
    ]
    assert not any("lowest-ranked" in line for line in lines)


def test_round_one_words_name_the_later_drawn_who_could_not_sit_out() -> None:
    field = [entrant(i, 0, 1) for i in range(1, 4)]
    order = pair_round(field, seed=4).explanation.order
    # Forbid the first two drawn to meet: the last drawn cannot sit out.
    result = pair_round(field, seed=4, forbidden=[frozenset(order[:2])])
    assert result.bye != order[-1]
    choice = result.explanation.bye
    assert choice is not None
    assert choice.reason is ByeReason.DRAWN
    assert choice.passed_over_blocked == (order[-1],)
    assert (
        f"P{result.bye} has the bye, as part of the draw: the players drawn after them "
        f"(P{order[-1]}) could not sit out without leaving an illegal pairing."
    ) in words(result)


# --- a round 1 seeded by rating -------------------------------------------------------


def seeding_words(data: Mapping[str, object]) -> list[str]:
    names = {p: f"P{p}" for p in range(1, 10)}
    with translation.override("en"):
        return explanation_lines(data, names)


def test_the_words_say_how_round_one_was_seeded() -> None:
    result = seeded_round()
    data = result.explanation.to_json()
    lines = seeding_words(data)
    unrated = [s.player for s in result.explanation.seeding[6:]]
    assert lines[0] == (
        "Round 1 is seeded by rating: the top half of the seeding order plays the bottom half, "
        "1 v 5, 2 v 6 and so on. Players without a rating come below the rated ones; they, "
        "and players with equal ratings, are in the order of a random draw from seed 5."
    )
    assert (
        f"P2 plays P{unrated[0]}, not P6 as seeded: forbidden pairs ruled out the seeded "
        "pairs, and this is the nearest pairing without them."
    ) in lines
    assert f"P{unrated[-1]} has the bye: the lowest in the seeding order sits out." in lines
    assert not any("same number of match wins" in line for line in lines)
    with translation.override("en"):
        table = [(line.place, line.name, line.rating) for line in seeding_lines(data, {})]
    assert table[:2] == [(1, "1", "1750"), (2, "2", "1700")]
    assert table[6:] == [(7 + k, str(p), "unrated") for k, p in enumerate(unrated)]


def test_the_words_of_a_random_draw_are_as_they_were() -> None:
    data = pair_round(fresh(7), seed=3).explanation.to_json()
    assert seeding_summary(data) == ""
    assert seeding_lines(data, {}) == []
    assert seeding_words(data)[0].startswith("Round 1 is a random draw from seed 3")


def test_two_or_three_players_are_seeded_without_a_second_board() -> None:
    data = pair_round(fresh(3), seed=0, ratings=by_id(3)).explanation.to_json()
    with translation.override("en"):
        assert seeding_summary(data).startswith(
            "Round 1 is seeded by rating: the top half of the seeding order plays the bottom "
            "half. Players"
        )
