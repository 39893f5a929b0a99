"""Template context every page needs: the visitor's role."""

from django.http import HttpRequest

from club.roles import is_organiser


def roles(request: HttpRequest) -> dict[str, object]:
    user = request.user
    return {
        "is_organiser": is_organiser(user),
        "my_player": getattr(user, "player", None) if user.is_authenticated else None,
    }
