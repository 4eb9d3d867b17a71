"""The concrete fields behind the plain SQL the hot write paths build by hand."""

from __future__ import annotations

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
