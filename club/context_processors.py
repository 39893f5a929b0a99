"""Template context every page needs: the visitor's role."""

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from club.roles import is_organiser


def roles(request: HttpRequest) -> dict[str, object]:
    """Whether the visitor organises, and their player: each asked of the database when used.

    Lazy, because an htmx fragment (a move in a practice game, a polled table) mostly
    draws neither, and each costs a query.
    """
    user = request.user
    return {
        "is_organiser": SimpleLazyObject(lambda: is_organiser(user)),
        "my_player": SimpleLazyObject(
            lambda: getattr(user, "player", None) if user.is_authenticated else None
        ),
    }
