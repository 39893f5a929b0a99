"""In the demo every member with an account logs in with the demo password, so that Anna's
proposal to play her championship match on the site can be accepted by her opponent (their
account was made without a password: a dead end)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from demo.club import DEMO_PLAYER
from play.models import Challenge, OnlineGame

pytestmark = pytest.mark.django_db


def test_annas_opponent_logs_in_with_the_demo_password_and_accepts_her_proposal(
    demo: str,
) -> None:
    assert "Every other member with an account" in demo
    proposal = Challenge.objects.select_related("challenged").get(
        challenger__username=DEMO_PLAYER[0], match__isnull=False
    )
    opponent = proposal.challenged
    assert opponent is not None
    client = Client()
    assert client.login(username=opponent.get_username(), password=DEMO_PLAYER[1])
    answered = client.post(
        reverse("play:challenge_answer", args=[proposal.pk]), {"answer": "accept"}
    )
    assert answered.status_code == 302
    assert OnlineGame.objects.filter(match=proposal.match).exists()
