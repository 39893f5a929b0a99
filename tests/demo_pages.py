"""The pages of the demo data (``manage.py seed_demo``) that the page-by-page tests open."""

from __future__ import annotations

from django.urls import reverse

from club.models import Player
from tournaments.models import Entry, Match, Round, Tournament


def public_pages() -> list[str]:
    """The demo's public pages: the register, both championships, their rounds and matches."""
    pages = [reverse(name) for name in ("home", "player_list", "tournaments:list", "login")]
    pages += [reverse(name) for name in ("play:index", "play:stats")]
    player = Player.objects.order_by("pk").first()
    assert player is not None
    pages.append(reverse("player_detail", args=[player.pk]))
    for tournament in Tournament.objects.order_by("year"):
        slug = tournament.slug
        pages += [reverse(f"tournaments:{name}", args=[slug]) for name in ("detail", "standings")]
        if tournament.playoff_size:
            pages.append(reverse("tournaments:playoff", args=[slug]))
        for round_ in tournament.rounds.exclude(status=Round.Status.PROPOSED):
            pages.append(reverse("tournaments:round", args=[slug, round_.number]))
        match = (
            Match.objects.filter(round__tournament=tournament, is_bye=False, games__isnull=False)
            .order_by("pk")
            .first()
        )
        assert match is not None
        pages.append(reverse("tournaments:match", args=[slug, match.pk]))
        pages.append(reverse("tournaments:game_record", args=[slug, match.pk, 1]))
        entry = Entry.objects.filter(tournament=tournament).order_by("pk").first()
        assert entry is not None
        pages.append(reverse("tournaments:entry", args=[slug, entry.pk]))
    return pages


def organiser_pages() -> list[str]:
    championship = Tournament.objects.order_by("-year").first()
    assert championship is not None
    slug = championship.slug
    pages = [reverse(name) for name in ("player_add", "lockouts", "tournaments:create")]
    pages += [
        reverse(f"tournaments:{name}", args=[slug]) for name in ("edit", "entries", "private_links")
    ]
    return pages
