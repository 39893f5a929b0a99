"""``manage.py review_game {practice,online} PK [--json]``: the engine's review of a finished
game, stored or computed now (docs/game-record.md, "The review of a game")."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from play.models import OnlineGame, PracticeGame
from play.reviews import Kind, game_of, review_store
from scoring.review import Decision, GameReview, from_json


class Command(BaseCommand):
    help = (
        "Print the engine's review of a finished practice game or game between members: "
        "every decision with what it gave away (--json: the review as JSON). A review not "
        "stored yet is computed and stored; a game in progress is refused."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=[kind.value for kind in Kind])
        parser.add_argument("pk", type=int, help="the game's id")
        parser.add_argument("--json", action="store_true", help="the review as one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        kind, pk = Kind(options["kind"]), options["pk"]
        try:
            game = game_of(kind, pk)
        except (PracticeGame.DoesNotExist, OnlineGame.DoesNotExist):
            raise CommandError(f"There is no {kind} game {pk}.") from None
        if not game.finished:
            raise CommandError(
                f"The {kind} game {pk} is still being played: it is reviewed once it is over."
            )
        stored = review_store(kind=kind, pk=pk)
        assert stored is not None  # a finished game is always reviewed
        if options["json"]:
            self.stdout.write(json.dumps(stored.review, ensure_ascii=False))
            return
        self._describe(from_json(stored.review))

    def _describe(self, review: GameReview) -> None:
        for seat in (0, 1):
            totals = review.totals(seat)
            self.stdout.write(
                f"Player {seat}: accuracy {totals.accuracy:.1f} (discards "
                f"{totals.discard_accuracy:.1f}, play {totals.play_accuracy:.1f}); given away "
                f"{totals.discards_lost:.2f} in {totals.discards} discards, "
                f"{totals.play_lost:.2f} in {totals.plays} plays; "
                f"{totals.count_missed} missed in the count."
            )
        for decision in review.decisions:
            self.stdout.write(_line(decision))


def _line(decision: Decision) -> str:
    where = f"game {decision.game} deal {decision.deal} player {decision.seat} {decision.kind}"
    mark = " *" if decision.marked else ""
    if decision.kind == "discard":
        chosen, best = " ".join(map(str, decision.chosen)), " ".join(map(str, decision.best))
        crib = "own crib" if decision.dealer else "opponent's crib"
        hand = " ".join(map(str, decision.hand))
        return (
            f"{where}: {hand} ({crib}) laid {chosen}, best {best}, lost {decision.lost:.2f}{mark}"
        )
    if decision.kind == "play":
        laid, best = " ".join(map(str, decision.chosen)), " ".join(map(str, decision.best))
        return (
            f"{where}: at {decision.count_before} laid {laid}, expert {best}, "
            f"lost {decision.lost:.2f}{mark}"
        )
    return f"{where}: claimed {decision.claimed}, worth {decision.worth}{mark}"
