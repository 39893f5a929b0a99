"""Two players with the same name are told apart in a list: by club, then by member number."""

from __future__ import annotations

import pytest
from django.utils import translation

from club.names import distinct_names
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_shared_name_is_told_apart_by_club_then_by_member_number() -> None:
    uppsala = PlayerFactory.create(name="Johan Andersson", club="Uppsala")
    lulea = PlayerFactory.create(name="Johan Andersson", club="Luleå")
    anna = PlayerFactory.create(name="Anna Ek", club="Umeå")
    twin = PlayerFactory.create(name="Anna Ek", club="Umeå")
    alone = PlayerFactory.create(name="Bertil Ås", club="Umeå")
    with translation.override("sv"):
        names = distinct_names([uppsala, lulea, anna, twin, alone, alone])
    assert names == {
        uppsala.pk: "Johan Andersson (Uppsala)",
        lulea.pk: "Johan Andersson (Luleå)",
        anna.pk: f"Anna Ek (Umeå, medlemsnr {anna.pk})",
        twin.pk: f"Anna Ek (Umeå, medlemsnr {twin.pk})",
        alone.pk: "Bertil Ås",
    }
    alone_again = distinct_names([uppsala, alone])
    assert alone_again == {uppsala.pk: "Johan Andersson", alone.pk: "Bertil Ås"}
