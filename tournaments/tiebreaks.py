"""The tie-breaks as the site names them: one table for the model, the form, the pages and PDFs.

A tournament orders its standings by a *chain* of tie-breaks (``Tournament.tiebreaks``,
docs/rules.md §4.2), each named by its *key*. The plain-Python ``competition.standings`` computes
each key and knows no words; this table gives every key what people read:

- *label*: the tie-break's name, as the form offers it and as the heading of its column;
- *legend*: the sentence that explains it under the standings, on the page and on paper;
- *column*: whether it is a figure of its own in the standings tables (match wins are
  the W-L column, and head to head is no number at all, only its line in the legend).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from competition import standings

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


@dataclass(frozen=True)
class Tiebreak:
    """A tie-break; with ``column``, ``key`` is also the ``Standing`` field printed."""

    key: str
    label: _StrPromise
    legend: _StrPromise
    column: bool


TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak(
        "match_wins",
        _("Match wins"),
        _("Matches won; a bye counts as a won match."),
        column=False,
    ),
    Tiebreak(
        "game_points",
        _("Game points"),
        _(
            "Game points: for each game won, points by the tournament's scheme "
            "(plain win, skunk, double skunk); a bye gives the bye value."
        ),
        column=True,
    ),
    Tiebreak(
        "spread",
        _("Spread"),
        _(
            "Spread: for each game, 121 minus the loser's score, plus to the winner "
            "and minus to the loser."
        ),
        column=True,
    ),
    Tiebreak(
        "buchholz",
        _("Buchholz"),
        _("Buchholz: the sum of the match wins of the opponents met (a bye is not counted)."),
        column=True,
    ),
    Tiebreak(
        "head_to_head",
        _("Head to head"),
        _("Head to head: match wins in the matches between the players still tied."),
        column=False,
    ),
    Tiebreak(
        "games_won",
        _("Games won"),
        _("Games won: every game won in the matches played; a bye counts as two."),
        column=True,
    ),
)
BY_KEY = {tiebreak.key: tiebreak for tiebreak in TIEBREAKS}
CHOICES = [(tiebreak.key, tiebreak.label) for tiebreak in TIEBREAKS]
DEFAULT_CHAIN = standings.DEFAULT_TIEBREAKS


MINUS = "\u2212"
"""The minus sign of every difference a page or document shows (a hyphen is not one)."""


def signed(value: int) -> str:
    """A difference as shown: ``+12``, ``−12``, ``0``."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def shown(key: str, value: int) -> str:
    """A standings figure as pages and documents show it: the spread with its sign."""
    return signed(value) if key == "spread" else str(value)


def label(key: str) -> str:
    return str(BY_KEY[key].label)


def legend(chain: Iterable[str]) -> list[str]:
    """The legend's lines for ``chain``, in its order."""
    return [str(BY_KEY[key].legend) for key in chain]


def columns(chain: Sequence[str], *, always: Sequence[str] = ()) -> list[str]:
    """The keys with a column of their own: the chain's in its order, then ``always``'s."""
    keys = [key for key in chain if BY_KEY[key].column]
    return keys + [key for key in always if key not in keys]


def validate_chain(value: object) -> None:
    """A chain is a list of known keys, each once (the field refuses an empty one itself)."""
    keys = value if isinstance(value, list) else [value]
    unknown = [key for key in keys if not isinstance(key, str) or key not in BY_KEY]
    if unknown or not isinstance(value, list):  # a lone key is not a chain either
        raise ValidationError(
            _("Unknown tie-break: %(key)s."),
            code="unknown",
            params={"key": unknown[0] if unknown else value},
        )
    if len(set(keys)) != len(keys):
        raise ValidationError(_("Each tie-break can appear only once in the order."), code="twice")
