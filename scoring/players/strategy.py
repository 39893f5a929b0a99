"""The computer opponent: a player of one of three levels that decides for a seat.

Levels (docs/engine-strength.md measures how much each beats the one below):

- ``easy`` lays away two cards at random and lays any legal card, taking
  points when a card scores at once;
- ``standard`` lays away by the exact hand value over the 46 starters plus
  (as dealer) or minus (as pone) the crib table's mean with suits ignored,
  and pegs for points now less the opponent's likely reply, which keeps it
  from leaving a count of 5, 10 or 21 (``scoring.players.pegplay``);
- ``expert`` adds to the exact hand value the crib table by ranks and suits
  and the kept ranks' mean net in the play (``scoring.players.crib_table``), and in
  the play searches to the end of the deal over the hands the opponent is
  likely to hold, given what a sensible player keeps. It is the one judge
  (``JUDGE_LEVEL``): the hint and the review reckon every decision as it does.

With three or four at the table the levels are the same in kind
(``scoring.players.tableplay``): the discard of one card weighs the hand and whose crib it
is (a partner's crib is the player's own), and in the play the expert plays out deals
of the unseen cards instead of searching every line; with four every level plays for its
partnership (a partner's points are its own).

A computer player sees only what its seat sees: its own cards (held, kept
and laid away), the starter, the cards laid, the go's said and the scores.
Every decision is built from a ``PegPosition`` or the six cards alone, and
its randomness comes from the seed and that visible state (the expert's from
the visible state alone, drawn as the hint and the review draw), so the same
player decides the same way in the same position, in any process.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from scoring.players.discarding import JUDGE_LEVEL, LEVELS, DiscardOption, analyse_discards
from scoring.players.pegplay import (
    PegPosition,
    PlayEvaluation,
    easy_play,
    evaluate_play,
    standard_play,
)
from scoring.players.tableplay import (
    TablePosition,
    easy_table_play,
    evaluate_table_play,
    standard_table_play,
)
from scoring.rules.cards import DECK, Card
from scoring.rules.events import Event, EventType, Phase
from scoring.rules.game import Game
from scoring.rules.match import Match
from scoring.rules.pegging import MAX_COUNT

__all__ = [
    "JUDGE_LEVEL",
    "LEVELS",
    "ComputerPlayer",
    "DiscardOption",
    "analyse_discards",
    "discard_options",
    "finish_match",
    "judge_play",
    "peg_position",
    "play_computers",
    "table_position",
]


KEPT = 4
"""Cards each player keeps for the play and the show."""
_PLAYS = {"easy": easy_play, "standard": standard_play}
"""The levels below the judge, each drawing with the player's own generator."""
_TABLE_PLAYS = {"easy": easy_table_play, "standard": standard_table_play}
"""The same with three or four at the table."""


class ComputerPlayer:
    """A computer player of ``level`` (one of ``LEVELS``), deterministic for its ``seed``."""

    def __init__(self, level: str, seed: int) -> None:
        if level not in LEVELS:
            raise ValueError(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
        self.level = level
        self.seed = seed

    def __repr__(self) -> str:
        return f"ComputerPlayer({self.level!r}, {self.seed!r})"

    def choose_discard(self, game: Game, player: int) -> tuple[Card, ...]:
        """The two cards ``player`` lays away from the six they hold (one of five with three
        or four at the table)."""
        six = game.hand(player)
        if self.level == "easy":
            return tuple(self._rng("discard", six).sample(list(six), game.seating.laid_away))
        return discard_options(game, player, level=self.level)[0].discard

    def choose_play(self, game: Game, player: int) -> Card:
        """The card ``player`` lays; the game must be waiting for them to lay one."""
        if game.seats != 2:
            return self._choose_table_play(game, player)
        position = peg_position(game, player)
        if not position.legal():
            raise ValueError(f"player {player} has no card to lay now")
        if self.level == JUDGE_LEVEL:
            # The one judge's card, its draw of the opponent's hands seeded by the position
            # alone: the card the hint offers and the review calls best (docs/review.md).
            return evaluate_play(position).best
        rng = self._rng("play", position.held, position.sequence, game.played, game.scores)
        return _PLAYS[self.level](position, rng)

    def _choose_table_play(self, game: Game, player: int) -> Card:
        position = table_position(game, player)
        if not position.legal():
            raise ValueError(f"player {player} has no card to lay now")
        if self.level == JUDGE_LEVEL:
            return evaluate_table_play(position).best
        rng = self._rng("play", position.held, position.sequence, game.played, game.scores)
        return _TABLE_PLAYS[self.level](position, rng)

    def decide(self, game: Game, player: int) -> list[Event]:
        """Take the decision the game awaits from ``player`` and return its events."""
        if player not in game.awaiting:
            raise ValueError(f"the game is not waiting for player {player}")
        if game.phase is Phase.DISCARD:
            return game.discard(player, self.choose_discard(game, player))
        if game.phase is Phase.PLAY:
            return game.play(player, self.choose_play(game, player))
        if game.phase is Phase.MUGGINS:  # the computer finds every point missed
            assert game.missed is not None
            return game.call_muggins(player, game.missed)
        shown = game.showing_score  # the computer counts all it is worth: it misses nothing
        assert shown is not None
        return game.count_hand(player, shown.total)

    def _rng(self, *visible: object) -> random.Random:
        """A generator seeded by the player's seed and what it can see, nothing else.

        Cards are written in notation, so the seed text is the same in any process.
        """
        return random.Random(f"{self.level}:{self.seed}:{'|'.join(map(_text, visible))}")


def play_computers(game: Game, computers: Mapping[int, ComputerPlayer]) -> list[Event]:
    """Let the seats in ``computers`` take each decision due from them; return the events.

    Stops when the game is over or waits only for a seat that is not a computer
    (a person, who decides next). The seat whose turn it is decides first
    (``to_move``): while both lay away, the pone before the dealer. Self-play,
    the tournament rehearsal, practice games and the terminal game all play
    through this one loop.
    """
    events: list[Event] = []
    while game.phase is not Phase.DONE:
        due = sorted(game.awaiting, key=lambda seat: seat != game.to_move)
        seat = next((seat for seat in due if seat in computers), None)
        if seat is None:
            break
        events += computers[seat].decide(game, seat)
    return events


def finish_match(match: Match, computers: Mapping[int, ComputerPlayer]) -> Match:
    """Let two computer seats play ``match`` to its end, game after game (loser deals next)."""
    if set(computers) != {0, 1}:
        raise ValueError(
            f"a match is finished by two computer seats, not seats {sorted(computers)}"
        )
    play_computers(match.game, computers)
    while match.winner is None:
        play_computers(match.next_game(), computers)
    return match


def _text(value: object) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return "(" + " ".join(map(_text, value)) + ")"
    return repr(value)


def discard_options(game: Game, player: int, *, level: str = JUDGE_LEVEL) -> list[DiscardOption]:
    """Every way ``player`` may lay away, best first, as ``level`` reckons them; at the
    judge's level the hint's and the review's list. The crib counts for the player when it
    is their side's (with four, their partner's too)."""
    own = game.side_of(game.dealer) == game.side_of(player)
    table = game.seating
    return analyse_discards(
        game.hand(player), dealer=own, level=level, sides=table.sides, laid_away=table.laid_away
    )


def judge_play(game: Game, player: int) -> PlayEvaluation:
    """The one judge's reckoning of the cards ``player`` may lay now, for any table: the
    card the hint offers and the expert lays is its ``best``."""
    if game.seats == 2:
        return evaluate_play(peg_position(game, player))
    return evaluate_table_play(table_position(game, player))


def table_position(game: Game, player: int) -> TablePosition:
    """What ``player`` can see in the play with three or four at the table."""
    seats = game.seats
    laid: list[list[Card]] = [[] for _ in range(seats)]
    for seat, card in game.played:
        laid[seat].append(card)
    seen = {*own_cards(game, player), *(card for _, card in game.played)}
    if game.starter is not None:
        seen.add(game.starter)
    sequence = game.sequence
    passed = frozenset(_said_go_this_count(game.events))
    return TablePosition(
        mover=player,
        held=game.hand(player),
        sequence=sequence,
        laid=tuple(tuple(cards) for cards in laid),
        holding=tuple(KEPT - len(cards) for cards in laid),
        passed=passed,
        floors=tuple(_floor_from_goes(game.events, seat) for seat in range(seats)),
        unseen=tuple(card for card in DECK if card not in seen),
        scores=game.scores,
        side_of=game.seating.side_of,
        target=game.target,
    )


def own_cards(game: Game, player: int) -> tuple[Card, ...]:
    """The cards dealt to ``player``, those kept and those laid away (any table)."""
    laid_away = () if not game.crib else _laid_away(game, player)
    return (*game.kept(player), *laid_away)


def _laid_away(game: Game, player: int) -> tuple[Card, ...]:
    crib = game.crib[game.seating.from_pack :]  # each seat's from the dealer's left
    at = game.seating.round_from(game.dealer).index(player) * game.seating.laid_away
    return crib[at : at + game.seating.laid_away]


def _said_go_this_count(events: Sequence[Event]) -> set[int]:
    said: set[int] = set()
    for event in reversed(events):
        if event.type in (EventType.RESET, EventType.DEAL, EventType.STARTER):
            break
        if event.type is EventType.GO and event.player is not None:
            said.add(event.player)
    return said


def peg_position(game: Game, player: int) -> PegPosition:
    """What ``player`` can see in the play, and nothing of the opponent's hidden cards."""
    opponent = 1 - player
    sequence = game.sequence
    their_laid = [card for who, card in game.played if who == opponent]
    seen = {*own_six(game, player), *their_laid}
    if game.starter is not None:
        seen.add(game.starter)
    return PegPosition(
        held=game.hand(player),
        sequence=tuple(card for _, card in sequence),
        # Play alternates, so laying again on one's own card means they said go.
        opponent_passed=bool(sequence) and sequence[-1][0] == player,
        opponent_held=KEPT - len(their_laid),
        opponent_floor=_floor_from_goes(game.events, opponent),
        unseen=tuple(card for card in DECK if card not in seen),
        scores=(game.scores[player], game.scores[opponent]),
        opponent_laid=tuple(their_laid),
        opponent_deals=game.dealer == opponent,
    )


def own_six(game: Game, player: int) -> tuple[Card, ...]:
    """The six cards dealt to ``player``: those kept and their own two in the crib."""
    crib = game.crib  # the pone's two cards, then the dealer's
    mine = crib[:2] if player == game.pone else crib[2:]
    return (*game.kept(player), *mine)


def _floor_from_goes(events: Sequence[Event], opponent: int) -> int:
    """The highest value every card the opponent holds is known to exceed, this deal."""
    floor = 0
    for event in reversed(events):
        if event.type is EventType.DEAL:
            break
        if event.type is EventType.GO and event.player == opponent and event.count is not None:
            floor = max(floor, MAX_COUNT - event.count)
    return floor
