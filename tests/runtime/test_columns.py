"""The hot write paths' values, as Django's own fields would save them."""

from __future__ import annotations

import uuid
import warnings
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection, models

from eventlog.models import StoredEvent
from games.models import Game
from runtime.columns import _NUMBERS, _STORED_AS_IS, db_row, db_value

AT = datetime(2026, 11, 27, 3, 15, 42, 123456, tzinfo=UTC)

# Every column the log's INSERT and the game's UPDATE write, with the values they write
# and some they never do (a bool for a number, a naive time, a text UUID).
CASES: list[tuple[type[models.Model], str, Any]] = [
    (StoredEvent, "stream", "game:2f0c"),
    (StoredEvent, "sequence", 41),
    (StoredEvent, "sequence", True),
    (StoredEvent, "type", "CardPlayed"),
    (StoredEvent, "schema_version", 1),
    (StoredEvent, "payload", {"hand": 3, "seat": 1, "card": "JS"}),
    (StoredEvent, "payload", [1, "two", None]),
    (StoredEvent, "actor", 7),
    (StoredEvent, "actor", None),
    (StoredEvent, "recorded_at", AT),
    (StoredEvent, "recorded_at", AT.replace(tzinfo=None)),
    (Game, "id", uuid.UUID("2f0c9a4e-6b1d-4f3a-9c1e-0d5e7a8b9c10")),
    (Game, "id", "2f0c9a4e-6b1d-4f3a-9c1e-0d5e7a8b9c10"),
    (Game, "status", "playing"),
    (Game, "hand", 12),
    (Game, "version", 218),
    (Game, "scores", [10, -3, 27, 5]),
    (Game, "seats", [{"seat": 0, "alias": "Ana", "user_id": 3}]),
    (Game, "creator_id", 3),
    (Game, "paused", False),
    (Game, "rematch_of", None),
    (Game, "updated_at", AT),
]


def comparable(value: Any) -> Any:
    """A saved value as it reaches the database: a JSON wrapper by its type and text."""
    dumps = getattr(value, "dumps", None)
    if callable(dumps) and hasattr(value, "obj"):
        return type(value), dumps(value.obj)
    return type(value), value


@pytest.mark.django_db
@pytest.mark.parametrize(("model", "name", "value"), CASES)
def test_a_value_is_saved_as_the_fields_own_get_db_prep_save_saves_it(
    model: type[models.Model], name: str, value: Any
) -> None:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    with warnings.catch_warnings():
        # A naive time is made aware, with Django's warning, both ways.
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = field.get_db_prep_save(value, connection)
        saved = db_value(model, name, value, connection)

    assert comparable(saved) == comparable(expected)


def test_every_field_class_stored_as_is_is_a_column_of_the_cases() -> None:
    stored = set()
    for model, name, _ in CASES:
        field = model._meta.get_field(name)
        stored.add(type(field.target_field if isinstance(field, models.ForeignKey) else field))

    assert {*_STORED_AS_IS, *_NUMBERS} <= stored


@pytest.mark.django_db
def test_a_row_is_saved_column_by_column_as_each_value_alone() -> None:
    # Given a row of the log's columns, as the log's INSERT writes them
    names = ("stream", "sequence", "type", "schema_version", "payload", "actor", "recorded_at")
    values = ("game:2f0c", 41, "CardPlayed", 1, {"card": "JS"}, None, AT)

    # When it is saved as a row
    saved = db_row(StoredEvent, names, connection)(values)

    # Then each column holds what its value alone is saved as
    assert [comparable(value) for value in saved] == [
        comparable(db_value(StoredEvent, name, value, connection))
        for name, value in zip(names, values, strict=True)
    ]
