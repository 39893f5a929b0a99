"""Saying a count aloud, the way players do, in English or Swedish.

Terms: a *count* is the list of scoring items of one hand, crib or card laid in
the play; a *phrase* is what is said for one item. Fifteens are said with the
running total ("fifteen two, fifteen four"); anything else names the item and,
unless it opens the count, the running total ("and a pair is six"). An opening
phrase gives its points ("a pair for two", "thirty-one for two") unless its name
already does ("a run of three", "one for his nob"). Swedish follows the club's
rule page: femton, par, triss, fyrtal, följd, flush, knekten.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from scoring.rules.items import ScoreKind


class Scored(Protocol):
    """A scoring item as ``scoring.rules.hand.ScoreItem`` defines it."""

    @property
    def kind(self) -> ScoreKind: ...
    @property
    def cards(self) -> tuple[object, ...]: ...
    @property
    def points(self) -> int: ...


class _Words(NamedTuple):
    numbers: tuple[str, ...]  # 0 to 31
    fifteen: str
    opening: dict[ScoreKind, str]  # phrase by kind, when the item opens the count
    later: dict[ScoreKind, str]  # phrase by kind, after other items
    names: dict[str, str]  # "pair2".."pair4" by cards alike, "run3".."run7" by length
    conjunction: str
    nothing: str


_ENGLISH_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_ENGLISH = _Words(
    numbers=(
        "zero",
        *_ENGLISH_UNITS,
        *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"),
        *("seventeen", "eighteen", "nineteen", "twenty"),
        *(f"twenty-{unit}" for unit in _ENGLISH_UNITS),
        *("thirty", "thirty-one"),
    ),
    fifteen="fifteen {total}",
    opening={
        ScoreKind.THIRTY_ONE: "thirty-one for {total}",
        ScoreKind.PAIR: "{name} for {total}",
        ScoreKind.RUN: "{name}",
        ScoreKind.FLUSH: "a flush for {total}",
        ScoreKind.NOBS: "one for his nob",
    },
    later={
        ScoreKind.THIRTY_ONE: "thirty-one is {total}",
        ScoreKind.PAIR: "{name} is {total}",
        ScoreKind.RUN: "{name} is {total}",
        ScoreKind.FLUSH: "a flush is {total}",
        ScoreKind.NOBS: "nobs is {total}",
    },
    names={
        "pair2": "a pair",
        "pair3": "a pair royal",
        "pair4": "a double pair royal",
        **{f"run{size}": f"a run of {_ENGLISH_UNITS[size - 1]}" for size in range(3, 8)},
    },
    conjunction="and",
    nothing="no points",
)

_SWEDISH_UNITS = ("ett", "två", "tre", "fyra", "fem", "sex", "sju", "åtta", "nio")
_SWEDISH = _Words(
    numbers=(
        "noll",
        *_SWEDISH_UNITS,
        *("tio", "elva", "tolv", "tretton", "fjorton", "femton", "sexton", "sjutton"),
        *("arton", "nitton", "tjugo"),
        *(f"tjugo{unit}" for unit in _SWEDISH_UNITS),
        *("trettio", "trettioett"),
    ),
    fifteen="femton {total}",
    opening={
        ScoreKind.THIRTY_ONE: "trettioett ger {total}",
        ScoreKind.PAIR: "{name} ger {total}",
        ScoreKind.RUN: "{name}",
        ScoreKind.FLUSH: "flush ger {total}",
        ScoreKind.NOBS: "knekten ger ett",
    },
    later={
        ScoreKind.THIRTY_ONE: "trettioett blir {total}",
        ScoreKind.PAIR: "{name} blir {total}",
        ScoreKind.RUN: "{name} blir {total}",
        ScoreKind.FLUSH: "flush blir {total}",
        ScoreKind.NOBS: "knekten blir {total}",
    },
    names={
        "pair2": "ett par",
        "pair3": "triss",
        "pair4": "fyrtal",
        **{f"run{size}": f"en följd på {_SWEDISH_UNITS[size - 1]}" for size in range(3, 8)},
    },
    conjunction="och",
    nothing="inga poäng",
)

LANGUAGES = {"en": _ENGLISH, "sv": _SWEDISH}


def say_count(items: Sequence[Scored], language: str = "en") -> str:
    """The whole count as one sentence: ``"fifteen two, fifteen four and a pair is six"``.

    A count of no items is ``"no points"`` (``"inga poäng"``). Raises
    ``ValueError`` for a language other than ``"en"`` and ``"sv"``.
    """
    words = LANGUAGES.get(language)
    if words is None:
        raise ValueError(f"no words for language {language!r}; use one of: {', '.join(LANGUAGES)}")
    phrases, total = [], 0
    for item in items:
        total += item.points
        phrases.append(_phrase(words, item, total, opening=total == item.points))
    if not phrases:
        return words.nothing
    if len(phrases) == 1:
        return phrases[0]
    return f"{', '.join(phrases[:-1])} {words.conjunction} {phrases[-1]}"


def _phrase(words: _Words, item: Scored, total: int, *, opening: bool) -> str:
    said_total = words.numbers[total] if total < len(words.numbers) else str(total)
    if item.kind == ScoreKind.FIFTEEN:
        return words.fifteen.format(total=said_total)
    name = ""
    if item.kind in (ScoreKind.PAIR, ScoreKind.RUN):
        name = words.names[f"{item.kind}{len(item.cards)}"]
    template = (words.opening if opening else words.later)[item.kind]
    return template.format(name=name, total=said_total)
