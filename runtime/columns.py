"""The concrete fields behind the plain SQL the hot write paths build by hand."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import models


@cache
def column(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """``model``'s field ``name``, which must be a column of its table (not a
    relation's reverse side): the type ``get_field`` cannot promise."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def column_name(model: type[models.Model], name: str) -> str:
    """The name of ``model``'s column ``name`` in its table."""
    name_in_table = column(model, name).column
    if name_in_table is None:
        raise TypeError(f"{model.__name__}.{name} has no column")
    return name_in_table


# What the hot write paths save, on PostgreSQL, without Django's chain of calls for each
# value (a dozen values on every move), where it would give the same
# (tests/runtime/test_columns.py holds each to Django's own get_db_prep_save): a value of
# these fields' exact types as it is, a whole number as psycopg's type for its column.
_STORED_AS_IS: dict[type[models.Field[Any, Any]], tuple[type, ...]] = {
    models.CharField: (str,),
    models.BigAutoField: (int,),
    models.BooleanField: (bool,),
    models.UUIDField: (uuid.UUID,),
}
_NUMBERS = (
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.BigIntegerField,
)


@dataclass(frozen=True)
class _Saving:
    field: models.Field[Any, Any]
    postgresql: bool
    # The exact types of the values the column stores as they are.
    as_is: tuple[type, ...] = ()
    # What a whole number is made, for a number's column.
    number: Callable[[int], Any] | None = None
    aware_datetimes: bool = False
    json: bool = False


_SAVING: dict[tuple[type[models.Model], str, str], _Saving] = {}


def _saving(model: type[models.Model], name: str, connection: Any) -> _Saving:
    key = (model, name, connection.vendor)
    saving = _SAVING.get(key)
    if saving is None:
        field = column(model, name)
        stored = type(field.target_field if isinstance(field, models.ForeignKey) else field)
        if connection.vendor != "postgresql":
            saving = _Saving(field, postgresql=False)
        elif stored in _NUMBERS:
            # Django wraps a number so on psycopg 3 only; elsewhere the field decides.
            types = getattr(connection.ops, "integerfield_type_map", {})
            number = types.get(field.get_internal_type())
            saving = _Saving(field, number is not None, number=number)
        else:
            saving = _Saving(
                field,
                True,
                as_is=_STORED_AS_IS.get(stored, ()),
                aware_datetimes=stored is models.DateTimeField,
                json=stored is models.JSONField,
            )
        _SAVING[key] = saving
    return saving


def db_value(model: type[models.Model], name: str, value: Any, connection: Any) -> Any:
    """``value`` as ``model``'s column ``name`` stores it through ``connection``: what
    the field's ``get_db_prep_save`` gives, without its calls where the value is plain."""
    return _saved(_saving(model, name, connection), value, connection)


def db_row(
    model: type[models.Model], names: Sequence[str], connection: Any
) -> Callable[[Sequence[Any]], list[Any]]:
    """:func:`db_value` for a row of ``model``'s columns ``names``, each column's way
    of saving looked up once for all the rows a statement writes."""
    savings = [_saving(model, name, connection) for name in names]

    def row(values: Sequence[Any]) -> list[Any]:
        return [
            _saved(saving, value, connection) for saving, value in zip(savings, values, strict=True)
        ]

    return row


def _saved(saving: _Saving, value: Any, connection: Any) -> Any:
    kind = type(value)
    if saving.postgresql:
        if value is None or kind in saving.as_is:
            return value
        if saving.number is not None and kind is int:
            return saving.number(value)
        if saving.aware_datetimes and kind is datetime and value.tzinfo is not None:
            return value
        if saving.json and (kind is dict or kind is list):
            field = saving.field
            assert isinstance(field, models.JSONField)
            return connection.ops.adapt_json_value(value, field.encoder)
    return saving.field.get_db_prep_save(value, connection)
