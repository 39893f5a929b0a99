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
from scoring.players.pegplay import PegPosition, easy_play, evaluate_play, standard_play
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
    "finish_match",
    "peg_position",
    "play_computers",
]


KEPT = 4
"""Cards each player keeps for the play and the show."""
_PLAYS = {"easy": easy_play, "standard": standard_play}
"""The levels below the judge, each drawing with the player's own generator."""


class ComputerPlayer:
    """A computer player of ``level`` (one of ``LEVELS``), deterministic for its ``seed``."""

    def __init__(self, level: str, seed: int) -> None:
        if level not in LEVELS:
            raise ValueError(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
        self.level = level
        self.seed = seed

    def __repr__(self) -> str:
        return f"ComputerPlayer({self.level!r}, {self.seed!r})"

    def choose_discard(self, game: Game, player: int) -> tuple[Card, Card]:
        """The two cards ``player`` lays away from the six they hold."""
        six = game.hand(player)
        if self.level == "easy":
            first, second = self._rng("discard", six).sample(list(six), 2)
            return first, second
        dealer = game.dealer == player
        return analyse_discards(six, dealer=dealer, level=self.level)[0].discard

    def choose_play(self, game: Game, player: int) -> Card:
        """The card ``player`` lays; the game must be waiting for them to lay one."""
        position = peg_position(game, player)
        if not position.legal():
            raise ValueError(f"player {player} has no card to lay now")
        if self.level == JUDGE_LEVEL:
            # The one judge's card, its draw of the opponent's hands seeded by the position
            # alone: the card the hint offers and the review calls best (docs/review.md).
            return evaluate_play(position).best
        rng = self._rng("play", position.held, position.sequence, game.played, game.scores)
        return _PLAYS[self.level](position, rng)

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
