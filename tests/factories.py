"""factory_boy factories for the models, shared by the tests."""

from __future__ import annotations

import factory
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from club.models import Player
from club.services import fold


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-121")


class OrganiserFactory(UserFactory):
    @factory.post_generation
    def organiser_group(self, create: bool, extracted: object, **kwargs: object) -> None:
        group, _ = Group.objects.get_or_create(name=settings.ORGANISER_GROUP)
        self.groups.add(group)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Faker("name", locale="sv_SE")
    club = factory.Faker("city", locale="sv_SE")
    search_key = factory.LazyAttribute(lambda player: fold(f"{player.name} {player.club}"))
