"""The card tag draws each card as the practice pages always have: rank, suit, name."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from play.board import face
from scoring.rules.cards import Card


def draw(code: str, *, small: bool = False) -> str:
    template = Template("{% load cards %}{% card face small=small %}")
    return template.render(Context({"face": face(Card.parse(code)), "small": small}))


def test_a_small_ten_of_hearts() -> None:
    with translation.override("en"):
        assert draw("TH", small=True) == (
            '<span class="card suit-H card-small" role="img" aria-label="10 of hearts" '
            'title="10 of hearts"><span class="card-rank" aria-hidden="true">10</span>'
            '<span class="card-suit" aria-hidden="true">♥</span></span>'
        )


@pytest.mark.parametrize(("language", "name"), [("sv", "spader dam"), ("en", "queen of spades")])
def test_the_name_is_in_the_readers_language(language: str, name: str) -> None:
    with translation.override(language):
        drawn = draw("QS")
    assert f'aria-label="{name}"' in drawn
    assert "card-small" not in drawn
