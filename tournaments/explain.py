"""A pairing's explanation in words, for the organisers who check a proposal.

The pairing stores its reasons as data (``tournaments.pairing.Explanation``,
kept as JSON on the round); this turns them into translated sentences with
the players' names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _names(ids: Any, names: Mapping[int, str]) -> str:
    return ", ".join(names.get(int(i), str(i)) for i in ids)


def explanation_lines(data: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """Sentences saying how the round was drawn or paired, who floated and why, and the bye."""
    if not data:
        return []
    lines = []
    if data.get("method") == "random_draw":
        lines.append(
            _("Round 1 is a random draw from seed %(seed)s: the same seed gives the same draw.")
            % {"seed": data.get("seed")}
        )
    else:
        lines.append(
            _(
                "Paired over the whole field at once: no rematches, no forbidden pairs, as few "
                "players as possible outside their score group, then the smallest differences "
                "in match wins (seed %(seed)s)."
            )
            % {"seed": data.get("seed")}
        )
        for group in data.get("score_groups", []):
            count = len(group["players"])
            lines.append(
                ngettext(
                    "%(wins)d match wins: %(count)d player.",
                    "%(wins)d match wins: %(count)d players.",
                    count,
                )
                % {"wins": group["match_wins"], "count": count}
            )
    for item in data.get("floats", []):
        values = {
            "player": names.get(item["player"], item["player"]),
            "opponent": names.get(item["opponent"], item["opponent"]),
            "own": item["own_wins"],
            "other": item["opponent_wins"],
        }
        if item["reason"] == "odd_group":
            text = _(
                "%(player)s (%(own)d wins) plays %(opponent)s (%(other)d wins): the score group "
                "had an odd number of players."
            )
        else:
            text = _(
                "%(player)s (%(own)d wins) plays %(opponent)s (%(other)d wins): inside the score "
                "group every opponent was a rematch or a forbidden pair."
            )
        lines.append(text % values)
    if data.get("method") != "random_draw" and not data.get("floats"):
        lines.append(_("Everyone plays someone with the same number of match wins."))
    bye = data.get("bye")
    if bye:
        player = names.get(bye["player"], bye["player"])
        if bye.get("passed_over_had_bye") or bye.get("passed_over_blocked"):
            lines.append(
                _(
                    "%(player)s has the bye: lower-ranked players already had one "
                    "(%(had)s) or could not sit out without leaving an illegal pairing "
                    "(%(blocked)s)."
                )
                % {
                    "player": player,
                    "had": _names(bye.get("passed_over_had_bye", []), names) or "–",
                    "blocked": _names(bye.get("passed_over_blocked", []), names) or "–",
                }
            )
        else:
            lines.append(
                _("%(player)s has the bye: the lowest-ranked player without a bye.")
                % {"player": player}
            )
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
