"""Reading one value of an export: its JSON type, and the model's own rules for its field.

Terms: a *path* names a place in the file the way an organiser reads it,
``rounds[2].matches[5].games[1].loser_score`` (lists count from 0). Every
problem is an ``InvalidExport`` whose message starts with the path of the value
at fault. The readers here check only the JSON type (a whole number, a string,
true/false, a list, an object); what a value may be is left to the model fields
and constraints (``model_fields``, ``model_constraints``) and to the engine.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Collection, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from tournaments.errors import TournamentError


class InvalidExport(TournamentError):
    """A file that is not a possible tournament export; ``path`` names the value at fault."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.path = path
        self.problem = problem


def at(path: str, key: str) -> str:
    """The path of ``key`` in the object at ``path``."""
    if key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key)}]"


def item(path: str, index: int) -> str:
    return f"{path}[{index}]"


def kind(value: object) -> str:
    """The JSON type of a value, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def obj(
    value: object, path: str, *, required: Collection[str] = (), optional: Collection[str] = ()
) -> dict[str, Any]:
    """An object with the ``required`` fields and at most the ``optional`` ones besides."""
    if not isinstance(value, dict):
        raise InvalidExport(path, f"must be an object, not {kind(value)}")
    unknown = [key for key in value if key not in required and key not in optional]
    if unknown:
        raise InvalidExport(at(path, unknown[0]), "is not a field of a tournament export")
    missing = [key for key in required if key not in value]
    if missing:
        raise InvalidExport(at(path, missing[0]), "is missing")
    return value


def mapping(value: object, path: str) -> dict[str, Any]:
    """An object with any fields (the pairing's reasons, a game record)."""
    if not isinstance(value, dict):
        raise InvalidExport(path, f"must be an object, not {kind(value)}")
    return value


def array(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidExport(path, f"must be a list, not {kind(value)}")
    return value


def integer(
    value: object, path: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """A whole number (true and false are not numbers here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        found = value if isinstance(value, float) else kind(value)
        raise InvalidExport(path, f"must be a whole number, not {found}")
    if minimum is not None and value < minimum:
        raise InvalidExport(path, f"must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise InvalidExport(path, f"must be at most {maximum}, not {value}")
    return value


def optional_integer(value: object, path: str, **bounds: int) -> int | None:
    return None if value is None else integer(value, path, **bounds)


def text(value: object, path: str) -> str:
    """A string, stripped of the spaces around it."""
    if not isinstance(value, str):
        raise InvalidExport(path, f"must be a string, not {kind(value)}")
    return value.strip()


def boolean(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidExport(path, f"must be true or false, not {kind(value)}")
    return value


def date(value: object, path: str) -> datetime.date:
    """A day written as YYYY-MM-DD."""
    try:
        return datetime.date.fromisoformat(text(value, path))
    except ValueError as error:
        raise InvalidExport(path, f"must be a day written YYYY-MM-DD, not {value!r}") from error


def model_fields(instance: models.Model, paths: Mapping[str, str]) -> None:
    """The model's field rules (length, choices, range) on the fields named in ``paths``.

    ``paths`` maps a model field to the path of its value in the file.
    """
    exclude = [field.name for field in instance._meta.fields if field.name not in paths]
    try:
        instance.clean_fields(exclude=exclude)
    except ValidationError as error:
        name, errors = next(iter(error.error_dict.items()))
        problem = " ".join(message for e in errors for message in e.messages)
        field = instance._meta.get_field(name)  # clean_fields checks concrete fields only
        choices = field.choices if isinstance(field, models.Field) else None
        if choices and errors[0].code == "invalid_choice":
            problem += " It is one of: " + ", ".join(str(value) for value, _label in choices) + "."
        raise InvalidExport(paths[name], problem) from error


def model_constraints(instance: models.Model, problems: Mapping[str, tuple[str, str]]) -> None:
    """The model's check constraints named in ``problems``: constraint -> (path, message)."""
    for constraint in instance._meta.constraints:
        if constraint.name not in problems:
            continue
        try:
            constraint.validate(type(instance), instance)
        except ValidationError as error:
            path, problem = problems[constraint.name]
            raise InvalidExport(path, problem) from error


def player_ref(value: object, path: str, known: Collection[int]) -> int:
    """A player named by id, who must be in the export's ``players`` list."""
    player = integer(value, path)
    if player not in known:
        raise InvalidExport(path, f"player {player} is not in the players list")
    return player
