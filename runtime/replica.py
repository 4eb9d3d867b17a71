"""Reads off the primary: the pages and API reads that tolerate a little staleness
(the lobby's lists, the event lists, player pages, season standings) may be served
by a PostgreSQL streaming replica, ``DATABASE_REPLICA_URL`` (decision 3702).

Only where the code says so: a view marked :func:`tolerates_staleness` reads, while
it runs, from the replica when one is configured (:class:`PrimaryRouter`). Nothing
else does: the write path, the log, the services, the sockets and every other page
read the primary, so nothing a command decides on comes from the replica. Writes, and
the save of a row read from the replica, go to the primary whatever the view;
migrations run on the primary only (the replica receives them by replication).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS

REPLICA = "replica"

_tolerated: ContextVar[bool] = ContextVar("atu_reads_tolerate_staleness", default=False)

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def reads_tolerating_staleness() -> Iterator[None]:
    """The block's reads from the replica, if there is one."""
    token = _tolerated.set(True)
    try:
        yield
    finally:
        _tolerated.reset(token)


def tolerates_staleness(view: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """A view whose reads may come from the replica (an API view's method through
    Django's ``method_decorator``). Who asks is known first, from the primary: an
    account made a moment ago may not have reached the replica yet."""

    @wraps(view)
    def wrapped(request: Any, *args: P.args, **kwargs: P.kwargs) -> R:
        # Django's request.user is lazy: resolved now, on the primary.
        request.user.is_authenticated  # noqa: B018
        with reads_tolerating_staleness():
            return view(request, *args, **kwargs)

    return wrapped


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


class PrimaryRouter:
    """Reads from the replica in a block that tolerates staleness, else where Django
    would (the primary, or a related row's own database); writes and migrations on
    the primary, always."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        return REPLICA if _tolerated.get() and replica_configured() else None

    def db_for_write(self, model: type, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        # One database and its copy: a row of either may name a row of the other.
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS
