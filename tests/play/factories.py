"""Factories for practice games: started through the services, so the state is the engine's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import factory

from play.models import PracticeGame
from play.services import (
    load_match,
    practice_autoplay,
    practice_decide,
    practice_start,
    stand_in_decision,
)
from scoring.game import Game
from scoring.strategy import ComputerPlayer
from tests.factories import UserFactory


class PracticeGameFactory(factory.django.DjangoModelFactory):
    """A member's practice game at its first decision; ``finished=True`` plays it to the end."""

    class Meta:
        model = PracticeGame

    owner = factory.SubFactory(UserFactory)
    session_key = ""
    level = PracticeGame.Level.EASY
    best_of = 1
    seed = factory.Sequence(lambda n: 1000 + n)
    self_count = False
    muggins = False

    @classmethod
    def _create(cls, model_class: type[PracticeGame], *args: Any, **kwargs: Any) -> PracticeGame:
        finished = kwargs.pop("finished", False)
        for ignored in ("state", "version", "record", "winner"):
            kwargs.pop(ignored, None)
        practice = practice_start(**kwargs)
        if finished:
            practice = practice_autoplay(practice=practice, level="easy")
        return practice


class GuestPracticeGameFactory(PracticeGameFactory):
    owner = None
    session_key = factory.Sequence(lambda n: f"guest-session-{n:04d}")


def play_until(
    practice: PracticeGame, condition: Callable[[Game], bool], *, limit: int = 400
) -> PracticeGame:
    """Let a stand-in computer take the player's decisions until ``condition`` holds."""
    stand_in = ComputerPlayer("easy", 3)
    for _ in range(limit):
        game = load_match(practice).game
        if condition(game):
            return practice
        decision = stand_in_decision(load_match(practice), stand_in)
        practice = practice_decide(practice=practice, version=practice.version, decision=decision)
    raise AssertionError("the condition never held")
