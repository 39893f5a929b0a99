"""factory_boy factories for the models, shared by the tests.

Call ``UserFactory.create(...)``: factory_boy types ``create`` and ``build`` as the model
(``DjangoModelFactory[User]``), while calling the class itself is untyped.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from factory.declarations import LazyAttribute, PostGeneration, Sequence
from factory.django import DjangoModelFactory, Password
from factory.faker import Faker

from club.models import Player
from club.services import fold


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = Sequence(lambda n: f"user{n}")
    password = Password("secret-pass-121")


def _join_organisers(user: User, create: bool, extracted: object, **kwargs: object) -> None:
    group, _ = Group.objects.get_or_create(name=settings.ORGANISER_GROUP)
    user.groups.add(group)


class OrganiserFactory(UserFactory):
    organiser_group = PostGeneration(_join_organisers)


class PlayerFactory(DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = Faker("name", locale="sv_SE")
    club = Faker("city", locale="sv_SE")
    search_key = LazyAttribute(lambda player: fold(f"{player.name} {player.club}"))
