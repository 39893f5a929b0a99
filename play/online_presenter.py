"""What each reader of a game between members is told about the people at the table.

A game's page has three readers: the player in seat 0, the player in seat 1 (each reads
their own seat as "you") and, for a championship match, a spectator (both players by
name). ``Facts`` is the one place that turns a seat into the word its reader sees: who
deals and owns the crib, whom the game waits for, who played each card on the table,
and the scores. The templates read these facts and never a seat number, so that every
reader is told the same game from their own chair.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from play.board import CardFace
from play.selectors import Laid, TableView


@dataclass(frozen=True)
class PlayedCard:
    """A card on the table in the play, with who played it as the reader says it."""

    card: CardFace
    seat: int
    by: str
    """ "you" (the reader's own card) or the player's name."""
    mine: bool


@dataclass(frozen=True)
class Score:
    """One player's score in the current game, named as the reader says it."""

    seat: int
    who: str
    points: int
    mine: bool


@dataclass(frozen=True)
class Facts:
    """The table of a game between members as the reader in ``seat`` (None: a spectator)
    is told it."""

    seat: int | None
    names: tuple[str, ...]
    table: TableView

    def called(self, seat: int) -> str:
        """``seat`` as the reader says it: "you" for their own seat, else the name."""
        return _("you") if seat == self.seat else self.names[seat]

    @property
    def dealer(self) -> str:
        """Who deals this deal (and owns the crib)."""
        return self.called(self.table.dealer)

    @property
    def dealer_is_you(self) -> bool:
        return self.table.dealer == self.seat

    @property
    def crib(self) -> str:
        """The crib's label: "Your crib", or whose it is by name."""
        if self.dealer_is_you:
            return _("Your crib")
        return _("Crib (%(name)s deals)") % {"name": self.names[self.table.dealer]}

    @property
    def your_move(self) -> bool:
        return self.seat is not None and self.seat in self.table.awaiting

    @property
    def waiting_for(self) -> list[str]:
        """The players the game waits for other than the reader, by name."""
        return [self.names[seat] for seat in sorted(self.table.awaiting) if seat != self.seat]

    @property
    def sequence(self) -> list[PlayedCard]:
        """The cards played since the count began, each with who played it."""
        return [self._played(laid) for laid in self.table.sequence]

    @property
    def played_before(self) -> list[PlayedCard]:
        """The cards played in this deal before the count last began again."""
        return [self._played(laid) for laid in self.table.laid_before]

    @property
    def scores(self) -> list[Score]:
        """Both scores, the reader's first (a spectator's: seat 0 first)."""
        order = (1, 0) if self.seat == 1 else (0, 1)
        return [
            Score(seat, self.called(seat), self.table.scores[seat], seat == self.seat)
            for seat in order
        ]

    def _played(self, laid: Laid) -> PlayedCard:
        return PlayedCard(laid.card, laid.seat, self.called(laid.seat), laid.seat == self.seat)
