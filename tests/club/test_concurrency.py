"""Two players accept their invitations at the same moment with the same username: one
gets the account, the other is told the name is taken (not a server error), and the
second player is left without an account. Each runs in its own thread, so on its own
database connection."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.utils import translation

from club import accounts
from tests.factories import PlayerFactory
from tests.tournaments.test_concurrency import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PASSWORD = "kn0bs-and-nibs-31"


@pytest.mark.parametrize(
    "usernames",
    [("greta", "greta"), ("CaseName", "casename")],
    ids=["the same name", "the same name in other letters' case"],
)
def test_two_players_taking_one_username_at_once(
    monkeypatch: pytest.MonkeyPatch, usernames: tuple[str, str]
) -> None:
    players = [PlayerFactory.create(name=name) for name in ("Greta Garbo", "Greta Gustafsson")]
    invitations = [accounts.invitation_create(player=player) for player in players]
    both_checked = threading.Barrier(2, timeout=10)
    validate = password_validation.validate_password

    def after_both_checked_the_name(password: str, user: object = None) -> None:
        # Both have found the name free; now both save it.
        both_checked.wait()
        validate(password, user)  # type: ignore[arg-type]

    monkeypatch.setattr(password_validation, "validate_password", after_both_checked_the_name)
    token = [invitation.path.rstrip("/").rsplit("/", 1)[-1] for invitation in invitations]
    with translation.override("en"):
        outcomes = run_together(
            *(
                lambda player=player, token=token[n], name=usernames[n]: accounts.invitation_accept(
                    player=player, token=token, username=name, password=PASSWORD
                )
                for n, player in enumerate(players)
            )
        )
    refused = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert len(refused) == 1, outcomes
    assert isinstance(refused[0], ValidationError), refused
    [message] = refused[0].message_dict["username"]
    assert message.endswith("is taken; choose another."), message
    assert get_user_model().objects.filter(username__iexact=usernames[0]).count() == 1
    for player in players:
        player.refresh_from_db()
    assert sorted(player.user_id is not None for player in players) == [False, True]
