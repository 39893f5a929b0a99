"""Factories for practice games: started through the services, so the state is the engine's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from factory.declarations import Sequence, SubFactory
from factory.django import DjangoModelFactory

from play.models import PracticeGame
from play.services import (
    load_match,
    practice_autoplay,
    practice_decide,
    practice_start,
    stand_in_decision,
)
from scoring.players.strategy import ComputerPlayer
from scoring.rules.game import Game
from tests.factories import UserFactory


class PracticeGameFactory(DjangoModelFactory[PracticeGame]):
    """A member's practice game at its first decision; ``finished=True`` plays it to the end.

    ``create(...)`` is typed (a ``PracticeGame``); calling the class itself is not.
    """

    class Meta:
        model = PracticeGame

    owner: SubFactory | None = SubFactory(UserFactory)
    session_key: str | Sequence = ""
    level = PracticeGame.Level.EASY
    best_of = 1
    seed = Sequence(lambda n: 1000 + n)
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
    session_key = Sequence(lambda n: f"guest-session-{n:04d}")


def owner_of(practice: PracticeGame) -> User:
    """The member whose game this is (``PracticeGameFactory`` games have one)."""
    assert practice.owner is not None, "a guest's game has no owner"
    return practice.owner


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
        practice = practice_decide(pk=practice.pk, version=practice.version, decision=decision)
    raise AssertionError("the condition never held")
