"""Swiss pairing: who plays whom in the next round, and who sits out.

Terms used here:

- *entrant*: a player in the tournament; only *active* entrants are paired
  (withdrawn ones keep their results but are not paired again).
- *score group*: the active entrants with the same number of match wins.
- *pairing order*: score groups from the most match wins down, each in standings
  order (``rank``, 1 = top); equal ranks are ordered by the seeded draw.
- *float*: a player paired outside their score group, *down* against a player
  with fewer match wins or *up* against one with more.
- *bye*: with an odd number of active entrants one sits out. It goes to the
  lowest-ranked entrant (highest ``rank``; equal ranks by the seeded draw, the
  later drawn lower; in round 1 the last drawn) with the fewest byes so far, so
  nobody gets a second bye while someone has none, and only to one whose bye
  leaves a legal pairing of the rest.
- *legal pair*: two entrants who have not met and whom the organiser has not
  forbidden to meet.

Round 1 (nobody has played) is a random draw: the ids are sorted, shuffled with
``random.Random(seed)``, and the draw order stands in for the standings, so
1st v 2nd, 3rd v 4th, ... and the last drawn sits out. Or, when the organiser
seeds it by rating (``ratings`` given), the seeding order stands in for them and
its top half plays its bottom half, 1 v n/2+1, 2 v n/2+2, ..., the lowest seeded
sitting out (``competition.seeding``).

Every round is paired over the whole field at once by a maximum-weight perfect
matching (``competition.matching``), with these priorities in order: the bye as
above; then, where players must meet someone outside their score group, the
differences in match wins as small as possible, the largest first (the fewest
pairs at the largest difference, then the fewest at the next, down to the pairs
one win apart); then the standings order within groups, the Monrad way (1st v
2nd, 3rd v 4th: squared distances in the pairing order as small as possible);
finally a tie-break drawn from the seed. So with one player on 2 wins, two on 1
and one on 0 the pairs are 2 v 1 and 1 v 0 (two floats one win apart), not
2 v 0 and 1 v 1 (one float two wins apart); and a group blocked by rematches or
forbidden pairs floats to the nearest groups that can take its players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from enum import Enum, StrEnum
from typing import Any, cast

import numpy as np

from competition.field import Field
from competition.matching import Matching, Unpairable, solve
from competition.seeding import (
    Seed,
    SeedingChange,
    draw_order,
    seeded_matching,
    seeding_changes,
    seeding_order,
)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the pairing sees them.

    ``rank`` is the current standings place (1 = top; shared places allowed),
    ``opponents`` the ids of everyone already met, ``byes`` how many byes so far.
    """

    id: int
    match_wins: int
    rank: int
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    active: bool = True


class PairingMethod(StrEnum):
    RANDOM_DRAW = "random_draw"
    BY_RATING = "by_rating"
    SWISS = "swiss"


class FloatDirection(StrEnum):
    DOWN = "down"
    UP = "up"


class FloatReason(StrEnum):
    """Why a player floated.

    ``ODD_GROUP``: an odd number of the players paired have more match wins than
    the lower player of the pair, so one of them must play down; the pair is one
    score group apart and the only pair across that gap.
    ``BLOCKED``: more pairs cross the gap than that, or the pair skips a score
    group: rematches or forbidden pairs ruled out the pairings with smaller
    differences.
    """

    ODD_GROUP = "odd_group"
    BLOCKED = "blocked"


class ByeReason(StrEnum):
    """``LOWEST_RANKED``: the lowest-ranked entrant with the fewest byes.

    ``LOWER_RANKED_BLOCKED``: lower-ranked entrants with as few byes could not sit
    out, because the rest could then not all be paired legally.

    ``DRAWN``: round 1, where the bye is part of the draw: the last drawn sits out
    (or, if their bye would leave an illegal pairing, the last drawn who can;
    ``passed_over_blocked`` names those drawn after them).

    ``LOWEST_SEEDED``: round 1 seeded by rating: the lowest in the seeding order
    sits out (or the lowest who can; ``passed_over_blocked`` names those below).
    """

    LOWEST_RANKED = "lowest_ranked"
    LOWER_RANKED_BLOCKED = "lower_ranked_blocked"
    DRAWN = "drawn"
    LOWEST_SEEDED = "lowest_seeded"


@dataclass(frozen=True, slots=True)
class ScoreGroup:
    match_wins: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Float:
    player: int
    opponent: int
    direction: FloatDirection
    own_wins: int
    opponent_wins: int
    reason: FloatReason


@dataclass(frozen=True, slots=True)
class ByeChoice:
    """The bye and why: lower-ranked players passed over, and on what grounds."""

    player: int
    reason: ByeReason
    byes_before: int
    passed_over_had_bye: tuple[int, ...]
    passed_over_blocked: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Explanation:
    """Structured reasons for a pairing, for the site to render and translate.

    ``order`` is the pairing order (round 1: the shuffled draw, or the seeding
    order). ``window`` and ``edges_considered`` tell which edge set the matching
    searched (``None`` = every legal pair). A round 1 seeded by rating keeps the
    ``seeding`` order with each player's rating then, and the boards that
    forbidden pairs moved off their seeded pairs (``seeding_changes``); both are
    empty for any other round.
    """

    method: PairingMethod
    seed: int
    order: tuple[int, ...]
    score_groups: tuple[ScoreGroup, ...]
    floats: tuple[Float, ...]
    bye: ByeChoice | None
    not_paired: tuple[int, ...]
    window: int | None
    edges_considered: int
    seeding: tuple[Seed, ...] = ()
    seeding_changes: tuple[SeedingChange, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Plain dicts, lists, ints, strings and ``None``: ready for a JSON field.

        Keys are the field names and enums their string codes: the shape of
        ``dataclasses.asdict`` with lists for tuples.
        """
        return cast(dict[str, Any], _plain(self))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Explanation:
        """The inverse of ``to_json``; keys it does not know are ignored."""
        bye = data["bye"]
        return cls(
            method=PairingMethod(data["method"]),
            seed=data["seed"],
            order=tuple(data["order"]),
            score_groups=tuple(
                ScoreGroup(g["match_wins"], tuple(g["players"])) for g in data["score_groups"]
            ),
            floats=tuple(
                Float(
                    f["player"],
                    f["opponent"],
                    FloatDirection(f["direction"]),
                    f["own_wins"],
                    f["opponent_wins"],
                    FloatReason(f["reason"]),
                )
                for f in data["floats"]
            ),
            bye=None
            if bye is None
            else ByeChoice(
                bye["player"],
                ByeReason(bye["reason"]),
                bye["byes_before"],
                tuple(bye["passed_over_had_bye"]),
                tuple(bye["passed_over_blocked"]),
            ),
            not_paired=tuple(data["not_paired"]),
            window=data["window"],
            edges_considered=data["edges_considered"],
            seeding=tuple(Seed(s["player"], s["rating"]) for s in data.get("seeding", [])),
            seeding_changes=tuple(
                SeedingChange(c["player"], c["opponent"], c["seeded"])
                for c in data.get("seeding_changes", [])
            ),
        )


def _plain(value: object) -> object:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class PairingResult:
    """Pairs in table order (table 1 first: the highest group), the bye, and why."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    explanation: Explanation


class NoLegalPairingReason(StrEnum):
    TOO_FEW_PLAYERS = "too_few_players"
    NO_OPPONENT_LEFT = "no_opponent_left"
    NO_PERFECT_PAIRING = "no_perfect_pairing"


_MESSAGES = {
    NoLegalPairingReason.TOO_FEW_PLAYERS: "fewer than two active players",
    NoLegalPairingReason.NO_OPPONENT_LEFT: (
        "these players have met, or may not meet, every other active player: {players}"
    ),
    NoLegalPairingReason.NO_PERFECT_PAIRING: (
        "every pairing leaves players without a legal opponent, for example {players}"
    ),
}


class NoLegalPairing(ValueError):
    """No pairing obeys the rules; ``reason`` and ``players`` say why, for the site."""

    def __init__(self, reason: NoLegalPairingReason, players: Sequence[int] = ()) -> None:
        self.reason = reason
        self.players = tuple(players)
        text = _MESSAGES[reason].format(players=", ".join(map(str, self.players)))
        super().__init__(f"no legal pairing: {text}")


def pair_round(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    forbidden: Iterable[frozenset[int]] = (),
    ratings: Mapping[int, float] | None = None,
) -> PairingResult:
    """Pair the active entrants for the next round; see the module docstring.

    ``seed`` (0 or more) makes the draw and every tie-break reproducible; store it
    with the round. ``ratings`` (entrant id -> rating, the unrated left out) seeds
    round 1 by rating instead of drawing it; later rounds ignore them. Raises
    ``NoLegalPairing`` when no pairing obeys the rules.
    """
    everyone = _checked(entrants, seed)
    active = [e for e in everyone if e.active]
    if len(active) < 2:
        raise NoLegalPairing(NoLegalPairingReason.TOO_FEW_PLAYERS)
    method, order, seeding = _pairing_order(active, seed, ratings)
    ranking = _lowest_first(method, order)
    field = Field.build(
        [e.match_wins for e in order],
        _legal(order, forbidden),
        _bye_order(order, ranking),
        seed=seed,
    )
    _check_everyone_has_an_opponent(order, field)
    try:
        matching = seeded_matching(field) if method is PairingMethod.BY_RATING else solve(field)
    except Unpairable as error:
        players = [order[p].id for p in error.unpaired]
        raise NoLegalPairing(NoLegalPairingReason.NO_PERFECT_PAIRING, players) from error
    pairs = tuple((order[i].id, order[j].id) for i, j in matching.pairs)
    bye = order[matching.bye].id if matching.bye is not None else None
    not_paired = tuple(e.id for e in everyone if not e.active)
    explanation = _explain(method, seed, order, ranking, field, matching, not_paired)
    if seeding:
        seated = [e.id for e in order if e.id != bye]
        changes = seeding_changes(seated, pairs)
        explanation = replace(explanation, seeding=seeding, seeding_changes=changes)
    return PairingResult(pairs, bye, explanation)


def _checked(entrants: Iterable[Entrant], seed: int) -> list[Entrant]:
    if seed < 0:
        raise ValueError(f"the seed must be 0 or more, not {seed}")
    everyone = list(entrants)
    ids = [e.id for e in everyone]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant id appears twice")
    return everyone


def _pairing_order(
    active: list[Entrant], seed: int, ratings: Mapping[int, float] | None
) -> tuple[PairingMethod, list[Entrant], tuple[Seed, ...]]:
    """The method, the pairing order and (round 1 by rating) the seeding order."""
    by_id = {e.id: e for e in active}
    if all(e.match_wins == 0 and not e.opponents and e.byes == 0 for e in active):
        if ratings is not None:
            seeding = seeding_order(by_id, ratings, seed=seed)
            return PairingMethod.BY_RATING, [by_id[s.player] for s in seeding], seeding
        return PairingMethod.RANDOM_DRAW, [by_id[p] for p in draw_order(by_id, seed)], ()
    drawn_at = {player: place for place, player in enumerate(draw_order(by_id, seed))}
    order = sorted(active, key=lambda e: (-e.match_wins, e.rank, drawn_at[e.id]))
    return PairingMethod.SWISS, order, ()


def _legal(order: list[Entrant], forbidden: Iterable[frozenset[int]]) -> np.ndarray:
    position = {e.id: p for p, e in enumerate(order)}
    legal = ~np.eye(len(order), dtype=bool)
    blocked = [(e.id, other) for e in order for other in e.opponents]
    for pair in forbidden:
        if len(pair) != 2:
            raise ValueError(f"a forbidden pair needs two different players: {set(pair)}")
        a, b = pair
        blocked.append((a, b))
    for a, b in blocked:
        if a in position and b in position:
            legal[position[a], position[b]] = legal[position[b], position[a]] = False
    return legal


def _lowest_first(method: PairingMethod, order: list[Entrant]) -> list[int]:
    """Every position, lowest-ranked first: by ``rank``, equal ranks by the order.

    In round 1 the ranks mean nothing yet, so the draw (or the seeding) alone decides.
    """
    if method is not PairingMethod.SWISS:
        return list(reversed(range(len(order))))
    return sorted(range(len(order)), key=lambda p: (order[p].rank, p), reverse=True)


def _bye_order(order: list[Entrant], ranking: list[int]) -> list[int]:
    """Positions that may sit out, lowest-ranked first: those with the fewest byes."""
    fewest = min(e.byes for e in order)
    return [p for p in ranking if order[p].byes == fewest]


def _check_everyone_has_an_opponent(order: list[Entrant], field: Field) -> None:
    """Name the players with no legal opponent at all, unless one bye covers them."""
    stranded = [p for p in range(len(order)) if not field.legal[p].any()]
    coverable = field.needs_bye and len(stranded) == 1 and stranded[0] in field.bye_order
    if stranded and not coverable:
        players = [order[p].id for p in stranded]
        raise NoLegalPairing(NoLegalPairingReason.NO_OPPONENT_LEFT, players)


def _explain(
    method: PairingMethod,
    seed: int,
    order: list[Entrant],
    ranking: list[int],
    field: Field,
    matching: Matching,
    not_paired: tuple[int, ...],
) -> Explanation:
    return Explanation(
        method=method,
        seed=seed,
        order=tuple(e.id for e in order),
        score_groups=_score_groups(order),
        floats=_floats(order, matching),
        bye=None
        if matching.bye is None
        else _bye_choice(method, order, ranking, field, matching.bye),
        not_paired=not_paired,
        window=matching.window,
        edges_considered=matching.edges,
    )


def _score_groups(order: list[Entrant]) -> tuple[ScoreGroup, ...]:
    wins = sorted({e.match_wins for e in order}, reverse=True)
    return tuple(ScoreGroup(w, tuple(e.id for e in order if e.match_wins == w)) for w in wins)


def _floats(order: list[Entrant], matching: Matching) -> tuple[Float, ...]:
    """Both players of every cross pair (down, then up), with the reason it was needed.

    Between two neighbouring score groups (a *cut*), the number of pairs that
    cross it must be odd exactly when the players above it are an odd number.
    A pair is ``ODD_GROUP`` when it crosses a single cut and is the one forced
    crossing there; a cut crossed more often, or a skipped group, shows a block.
    """
    seated = [p for p in range(len(order)) if p != matching.bye]
    values = sorted({order[p].match_wins for p in seated}, reverse=True)
    group_of = {p: values.index(order[p].match_wins) for p in seated}
    cross_pairs = [(i, j) for i, j in matching.pairs if group_of[i] != group_of[j]]
    crossings = _crossings(group_of, cross_pairs, len(values))
    floats: list[Float] = []
    for i, j in cross_pairs:
        cut = group_of[i]
        odd = group_of[j] == cut + 1 and crossings[cut] == 1
        reason = FloatReason.ODD_GROUP if odd else FloatReason.BLOCKED
        high, low = order[i], order[j]
        floats.append(
            Float(high.id, low.id, FloatDirection.DOWN, high.match_wins, low.match_wins, reason)
        )
        floats.append(
            Float(low.id, high.id, FloatDirection.UP, low.match_wins, high.match_wins, reason)
        )
    return tuple(floats)


def _crossings(
    group_of: dict[int, int], cross_pairs: list[tuple[int, int]], groups: int
) -> list[int]:
    """How many cross pairs cross each cut (cut ``g``: below score group ``g``)."""
    crossings = [0] * groups
    for i, j in cross_pairs:
        for cut in range(group_of[i], group_of[j]):
            crossings[cut] += 1
    return crossings


def _bye_choice(
    method: PairingMethod, order: list[Entrant], ranking: list[int], field: Field, bye: int
) -> ByeChoice:
    """Lower-ranked players who did not sit out: more byes already, or blocked.

    The matching takes the first player of the bye order whose bye leaves a legal
    pairing, so everyone before it is blocked. In round 1 the order is the draw, or
    the seeding order.
    """
    chosen = order[bye]
    lower = ranking[: ranking.index(bye)]
    had_bye = tuple(order[p].id for p in lower if order[p].byes > chosen.byes)
    blocked = tuple(order[p].id for p in field.bye_order[: field.bye_order.index(bye)])
    if method is PairingMethod.RANDOM_DRAW:
        reason = ByeReason.DRAWN
    elif method is PairingMethod.BY_RATING:
        reason = ByeReason.LOWEST_SEEDED
    else:
        reason = ByeReason.LOWER_RANKED_BLOCKED if blocked else ByeReason.LOWEST_RANKED
    return ByeChoice(chosen.id, reason, chosen.byes, had_bye, blocked)
