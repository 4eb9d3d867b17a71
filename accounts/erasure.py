"""What the apps keep of a person, each erased and exported by its own app.

The accounts are the lowest app that knows a person, below the event log, the games
and the championships that keep what a person did: so each of those registers its
part here, from its ``AppConfig.ready`` (:func:`on_erasure`, :func:`on_export`), and
the account's deletion and its data export call them all (decision 3503)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Erases what the app keeps of the user (their id), inside the deletion's transaction.
Eraser = Callable[[int], None]
# What the app keeps of the user (their id), as JSON-ready values.
Exporter = Callable[[int], Any]

_ERASERS: dict[str, Eraser] = {}
_EXPORTERS: dict[str, Exporter] = {}


def on_erasure(name: str, eraser: Eraser) -> None:
    """Have ``eraser`` erase the app ``name``'s part of a deleted account; the parts
    are erased in the order registered (the apps' order in ``INSTALLED_APPS``)."""
    _ERASERS[name] = eraser


def on_export(name: str, exporter: Exporter) -> None:
    """Have ``exporter`` give the app ``name``'s part of an account's data export,
    under the key ``name``."""
    _EXPORTERS[name] = exporter


def erasers() -> list[tuple[str, Eraser]]:
    return list(_ERASERS.items())


def exporters() -> list[tuple[str, Exporter]]:
    return list(_EXPORTERS.items())
