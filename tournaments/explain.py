"""A pairing's explanation in words, for the organisers who check a proposal.

The pairing stores its reasons as data (``competition.pairing.Explanation``,
kept as JSON on the round); this turns them into translated sentences with
the players' names. A *float* is a pair of players from different score groups;
the data holds it twice (the higher player floating down, the lower up) and the
words say it once. A round 1 *seeded by rating* (``competition.seeding``) also
keeps its *seeding order*, each player with their rating then or none (unrated),
which ``seeding_lines`` gives as a table's rows; a *board* is a place in its top
half.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext


def explanation_lines(data: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """Sentences saying how the round was drawn or paired, who floated and why, and the bye."""
    if not data:
        return []
    lines = _method_lines(data)
    lines += _float_lines(data.get("floats", []), names)
    lines += _seeding_change_lines(data.get("seeding_changes", []), names)
    if data.get("method") not in ("random_draw", "by_rating") and not data.get("floats"):
        lines.append(_("Everyone plays someone with the same number of match wins."))
    if data.get("bye"):
        lines.append(_bye_line(data, names))
    if data.get("not_paired"):
        lines.append(
            _("Not paired (withdrawn, not checked in or entering later): %(names)s.")
            % {"names": _names(data["not_paired"], names)}
        )
    for first, second in data.get("swapped", []):
        lines.append(
            _("Swapped by hand: %(a)s and %(b)s.")
            % {"a": names.get(first, first), "b": names.get(second, second)}
        )
    return lines


@dataclass(frozen=True, slots=True)
class SeedingLine:
    """A row of the seeding order: the place (1 = top), the name, the rating or "unrated"."""

    place: int
    name: str
    rating: str


def seeding_lines(data: Mapping[str, Any], names: Mapping[int, str]) -> list[SeedingLine]:
    """The seeding order of a round 1 seeded by rating, with the ratings it used; else []."""
    return [
        SeedingLine(
            place,
            names.get(seed["player"], str(seed["player"])),
            _("unrated") if seed["rating"] is None else str(round(seed["rating"])),
        )
        for place, seed in enumerate(data.get("seeding", []), start=1)
    ]


def seeding_summary(data: Mapping[str, Any]) -> str:
    """How a round 1 seeded by rating was paired, in a sentence or two; else ""."""
    if data.get("method") != "by_rating":
        return ""
    seated = len(data.get("seeding", [])) - (1 if data.get("bye") else 0)
    half = seated // 2
    if half >= 2:
        pairs = _(
            "Round 1 is seeded by rating: the top half of the seeding order plays the "
            "bottom half, 1 v %(first)d, 2 v %(second)d and so on."
        ) % {"first": half + 1, "second": half + 2}
    else:
        pairs = _(
            "Round 1 is seeded by rating: the top half of the seeding order plays the bottom half."
        )
    order = _(
        "Players without a rating come below the rated ones; they, and players with equal "
        "ratings, are in the order of a random draw from seed %(seed)s."
    ) % {"seed": data.get("seed")}
    return f"{pairs} {order}"


def _names(ids: Any, names: Mapping[int, str]) -> str:
    return ", ".join(names.get(int(i), str(i)) for i in ids)


def _wins(count: int) -> str:
    return ngettext("%(count)d win", "%(count)d wins", count) % {"count": count}


def _method_lines(data: Mapping[str, Any]) -> list[str]:
    if data.get("method") == "by_rating":
        return [seeding_summary(data)]
    if data.get("method") == "random_draw":
        return [
            _("Round 1 is a random draw from seed %(seed)s: the same seed gives the same draw.")
            % {"seed": data.get("seed")}
        ]
    lines = [
        _(
            "Paired over the whole field at once: no rematches, no forbidden pairs; where "
            "players must meet someone outside their score group, the differences in match "
            "wins are as small as possible, the largest first (seed %(seed)s)."
        )
        % {"seed": data.get("seed")}
    ]
    for group in data.get("score_groups", []):
        wins, count = group["match_wins"], len(group["players"])
        lines.append(
            _("Score group with %(wins)s: %(players)s.")
            % {
                "wins": ngettext("%(count)d match win", "%(count)d match wins", wins)
                % {"count": wins},
                "players": ngettext("%(count)d player", "%(count)d players", count)
                % {"count": count},
            }
        )
    return lines


def _float_lines(floats: list[Mapping[str, Any]], names: Mapping[int, str]) -> list[str]:
    """One sentence per pair across score groups, the higher player first."""
    lines, seen = [], set()
    for item in floats:
        pair = frozenset((item["player"], item["opponent"]))
        if pair in seen:
            continue
        seen.add(pair)
        high, low = (item["player"], item["opponent"])
        high_wins, low_wins = item["own_wins"], item["opponent_wins"]
        if high_wins < low_wins:
            high, low, high_wins, low_wins = low, high, low_wins, high_wins
        values = {
            "high": names.get(high, high),
            "low": names.get(low, low),
            "high_wins": _wins(high_wins),
            "low_wins": _wins(low_wins),
        }
        if item["reason"] == "odd_group":
            text = _(
                "%(high)s (%(high_wins)s) plays %(low)s (%(low_wins)s): an odd number of the "
                "players paired have more wins than %(low)s, so one of them plays down."
            )
        else:
            text = _(
                "%(high)s (%(high_wins)s) plays %(low)s (%(low_wins)s): rematches or forbidden "
                "pairs ruled out every pairing with smaller differences in match wins."
            )
        lines.append(text % values)
    return lines


def _seeding_change_lines(changes: list[Mapping[str, Any]], names: Mapping[int, str]) -> list[str]:
    """One sentence per board that forbidden pairs moved off its seeded pair."""
    return [
        _(
            "%(player)s plays %(opponent)s, not %(seeded)s as seeded: forbidden pairs ruled "
            "out the seeded pairs, and this is the nearest pairing without them."
        )
        % {
            "player": names.get(change["player"], change["player"]),
            "opponent": names.get(change["opponent"], change["opponent"]),
            "seeded": names.get(change["seeded"], change["seeded"]),
        }
        for change in changes
    ]


# The bye where an order chooses who sits out (the seeding, round 1's draw): the sentence
# when the last in the order could not (their names, "blocked"), and when they do.
_BYE_IN_ORDER = {
    "by_rating": (
        gettext_lazy(
            "%(player)s has the bye: the players below them in the seeding order "
            "(%(blocked)s) could not sit out without leaving an illegal pairing."
        ),
        gettext_lazy("%(player)s has the bye: the lowest in the seeding order sits out."),
    ),
    "random_draw": (
        gettext_lazy(
            "%(player)s has the bye, as part of the draw: the players drawn after them "
            "(%(blocked)s) could not sit out without leaving an illegal pairing."
        ),
        gettext_lazy(
            "%(player)s has the bye: in round 1 the bye is part of the draw, and the last "
            "player drawn sits out."
        ),
    ),
}


def _bye_line(data: Mapping[str, Any], names: Mapping[int, str]) -> str:
    bye = data["bye"]
    player = names.get(bye["player"], bye["player"])
    blocked = _names(bye.get("passed_over_blocked", []), names)
    if data.get("method") in _BYE_IN_ORDER:
        passed_over, last = _BYE_IN_ORDER[data["method"]]
        if blocked:
            return passed_over % {"player": player, "blocked": blocked}
        return last % {"player": player}
    if bye.get("passed_over_had_bye") or blocked:
        return _(
            "%(player)s has the bye: lower-ranked players already had one "
            "(%(had)s) or could not sit out without leaving an illegal pairing "
            "(%(blocked)s)."
        ) % {
            "player": player,
            "had": _names(bye.get("passed_over_had_bye", []), names) or "–",
            "blocked": blocked or "–",
        }
    return _("%(player)s has the bye: the lowest-ranked player without a bye.") % {"player": player}
