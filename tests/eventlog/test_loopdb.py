import os

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from eventlog import loopdb
from eventlog.loopdb import numbered


def test_numbered_gives_each_placeholder_its_number_after_those_before_it() -> None:
    # Given an UPDATE with psycopg's placeholders, the 4th to 6th of its statement
    sql = 'UPDATE "t" SET "a" = %s, "b" = %s WHERE "id" = %s'

    # When it is numbered after the three parameters before it
    text = numbered(sql, 3)

    # Then its placeholders are PostgreSQL's own, $4 to $6, in order
    assert text == 'UPDATE "t" SET "a" = $4, "b" = $5 WHERE "id" = $6'


def test_numbered_leaves_a_statement_without_parameters_as_it_is() -> None:
    assert numbered("SELECT 1", 7) == "SELECT 1"


@pytest.mark.parametrize("sql", ["SELECT %s LIKE 'a%%'", "SELECT %(name)s"])
def test_numbered_refuses_a_statement_with_any_other_percent_sign(sql: str) -> None:
    with pytest.raises(ValueError, match="only %s placeholders can be numbered"):
        numbered(sql, 0)


loop_pool_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a server's loop has a pool of its own on PostgreSQL only (production mode)",
)


@loop_pool_only
@pytest.mark.django_db(transaction=True)
async def test_the_loops_pool_lends_no_connection_the_server_closed_while_it_was_idle() -> None:
    async with loopdb.serving():
        # Given a connection of the loop's pool, given back and waiting in it
        async with loopdb.connection() as borrowed:
            cursor = await borrowed.execute("SELECT pg_backend_pid()")
            (pid,) = await cursor.fetchone() or (None,)

        # When the server ends its session, as a restart ends every one
        await sync_to_async(_terminate)(pid)

        # Then the next connection lent is a live one
        async with loopdb.connection() as borrowed:
            cursor = await borrowed.execute("SELECT pg_backend_pid()")
            (lent,) = await cursor.fetchone() or (None,)
        assert lent != pid


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
        (ended,) = cursor.fetchone()
    connection.close()
    assert ended is True


@loop_pool_only
@pytest.mark.django_db(transaction=True)
async def test_the_loops_pool_lends_connections_past_a_thousand_open_sockets() -> None:
    # Given a server process holding over a thousand descriptors (its players' sockets)
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        async with loopdb.serving():
            # When a move borrows a connection, whose socket is numbered past them
            async with loopdb.connection() as borrowed:
                assert borrowed.pgconn.socket > 1024
                await borrowed.execute("SELECT 1")
            # Then, given back and borrowed again, it passes the pool's check
            async with loopdb.connection() as again:
                cursor = await again.execute("SELECT 1")
                assert await cursor.fetchone() == (1,)
    finally:
        for descriptor in held:
            os.close(descriptor)
