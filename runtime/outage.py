"""A database that goes away and comes back (a restart, a failover), decision 3702.

What it raises meanwhile (:data:`DATABASE_DOWN`) is answered
:class:`runtime.errors.DatabaseUnavailable` (503 with ``Retry-After`` on the API, an
``error`` on a socket): nothing was written, and the same request may be sent again.

Every connection a pool kept idle dies with the server. Django's pool checks each as
it lends it (``CONN_HEALTH_CHECKS``: a round trip); the event loop's own pool
(``eventlog.loopdb``), on the path of every live move, looks at it instead
(:func:`closed_by_the_server`), which costs no round trip.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError

# What a database that is down or restarting raises: Django's errors, and psycopg's own
# from the connections of a server's event loop (its pool's timeout among them).
DATABASE_DOWN: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)


async def closed_by_the_server(connection: psycopg.AsyncConnection[Any]) -> None:
    """A pool's check of a connection it is about to lend: it raises if the server
    closed it meanwhile. An idle connection hears nothing from a server that keeps it;
    one that goes away (a restart, an administrator) says goodbye first, so a socket
    with something to read whose reading leaves the connection bad is a connection gone,
    found without a round trip."""
    if connection.closed:
        raise psycopg.OperationalError("the connection is closed")
    pgconn = connection.pgconn
    # Something to read is not always a goodbye (under load, most often it was not, and
    # every connection lent was thrown away until the pool timed out): reading it says.
    # A goodbye is the server's last word, then the end of the stream: the second read
    # finds the end, where a message of a live server leaves nothing more to read.
    # poll, not select: a server holding a thousand sockets has descriptors past
    # select's 1024, where it raises, and every connection failed this check.
    waiting = select.poll()
    waiting.register(pgconn.socket, select.POLLIN)
    for _ in range(2):
        if not waiting.poll(0):
            return
        try:
            pgconn.consume_input()
        except psycopg.OperationalError:
            break
        if pgconn.status != psycopg.pq.ConnStatus.OK:
            break
    else:
        return
    # Closed here too, so that the pool drops it rather than lend it again.
    await connection.close()
    raise psycopg.OperationalError("the server closed the connection while it was idle")
