import asyncio
import contextlib
import gc
import os
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import get_channel_layer

from config.asgi import application
from games.write.path import group_name, publish
from runtime.lifespan import in_background, off_the_thread, run_on_server_loop
from tests.games.live.test_two_processes import free_port, serve


@contextlib.asynccontextmanager
async def started_server() -> AsyncIterator[None]:
    """A server process's lifespan, started, and shut down on leaving."""
    startup = asyncio.Event()
    shutdown: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    messages: list[dict[str, Any]] = [{"type": "lifespan.startup"}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else await shutdown.get()

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "lifespan.startup.complete":
            startup.set()

    server = asyncio.create_task(application({"type": "lifespan"}, receive, send))
    await startup.wait()
    try:
        yield
    finally:
        await shutdown.put({"type": "lifespan.shutdown"})
        await server


@pytest.mark.django_db(transaction=True)
async def test_a_server_process_starts_and_stops_through_the_lifespan_protocol() -> None:
    messages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await application({"type": "lifespan"}, receive, send)

    assert sent == [{"type": "lifespan.startup.complete"}, {"type": "lifespan.shutdown.complete"}]


@pytest.mark.django_db(transaction=True)
async def test_a_move_published_from_a_timer_thread_reaches_sockets_via_the_server_loop() -> None:
    # Given a server process whose lifespan has started, and a socket in a game's group
    async with started_server():
        layer = get_channel_layer()
        game_id = uuid.uuid4()
        channel = await layer.new_channel()
        await layer.group_add(group_name(game_id), channel)
        loops: list[asyncio.AbstractEventLoop] = []

        async def remember_loop() -> None:
            loops.append(asyncio.get_running_loop())

        # When a timer thread (as the embedded bots use) publishes a new version
        thread = threading.Thread(target=publish, args=(game_id, 7))
        thread.start()
        await asyncio.to_thread(thread.join)
        thread = threading.Thread(target=run_on_server_loop, args=(remember_loop,))
        thread.start()
        await asyncio.to_thread(thread.join)

        # Then the socket's channel gets it, sent from the loop that serves the sockets
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert message == {"type": "game.events", "version": 7}
        await asyncio.sleep(0.05)
        assert loops == [asyncio.get_running_loop()]


@pytest.mark.django_db(transaction=True)
async def test_what_code_on_the_server_loop_hands_it_runs_next_on_that_loop() -> None:
    # Given a server process whose lifespan has started
    async with started_server():
        loops: list[asyncio.AbstractEventLoop] = []

        async def remember_loop() -> None:
            loops.append(asyncio.get_running_loop())

        # When code running on its loop (a move written there) hands it a coroutine
        run_on_server_loop(remember_loop)

        # Then it is not run in place, but next, on that loop
        assert loops == []
        await asyncio.sleep(0.05)
        assert loops == [asyncio.get_running_loop()]


@pytest.mark.django_db(transaction=True)
async def test_work_that_may_wait_on_redis_runs_off_the_thread_that_handed_it_over(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given a server process, and a call that waits as a paused Redis would make it
    done = threading.Event()
    ran_in: list[threading.Thread] = []

    def waits() -> None:
        time.sleep(0.3)
        ran_in.append(threading.current_thread())
        done.set()

    def fails() -> None:
        raise RuntimeError("the broker does not answer")

    async with started_server():
        # When the server loop and a thread of the process hand it over
        began = time.monotonic()
        off_the_thread(waits)
        off_the_thread(fails)
        handed = time.monotonic() - began
        await asyncio.to_thread(off_the_thread, waits)

        # Then neither waits for it, and it runs in another thread; a failure is logged
        assert handed < 0.1
        await asyncio.to_thread(done.wait, 5)
        await asyncio.sleep(0.5)
    assert len(ran_in) == 2
    assert threading.current_thread() not in ran_in
    assert "fails failed in the background" in caplog.text


def test_work_handed_over_outside_a_server_process_runs_in_place() -> None:
    ran_in: list[threading.Thread] = []

    off_the_thread(lambda: ran_in.append(threading.current_thread()))

    assert ran_in == [threading.current_thread()]


@pytest.mark.django_db(transaction=True)
async def test_a_server_process_shuts_down_once_what_runs_in_the_background_is_done() -> None:
    # Given a server process whose loop runs work in the background, which starts more
    done: list[str] = []

    async def step(name: str, then: str | None = None) -> None:
        await asyncio.sleep(0.05)
        done.append(name)
        if then is not None:
            in_background(step(then))

    async with started_server():
        in_background(step("first", then="second"))
        # When the server is told to shut down at once
    # Then it shut down only once both had run
    assert done == ["first", "second"]


@pytest.mark.django_db(transaction=True)
async def test_a_server_process_collects_garbage_on_its_loops_clock_from_startup_to_shutdown() -> (
    None
):
    # Given a server process whose lifespan has started
    async with started_server():
        # Then CPython's automatic collections are off and what startup made is frozen
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0

    # And once it has shut down, they are as they were
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


@pytest.mark.django_db(transaction=True)
async def test_a_server_process_records_its_loops_largest_hold_each_second(
    tmp_path: Path, settings: Any
) -> None:
    # Given a server process told to record its loop's holds
    settings.ATU_LOOP_LAG_LOG = tmp_path / "lag.log"
    async with started_server():
        # When its loop is held by a synchronous call, then runs a little more
        await asyncio.sleep(0.2)
        time.sleep(0.25)
        await asyncio.sleep(1.2)

    # Then each second it ran has a line, and the hold is the largest
    gaps = [float(line.split()[1]) for line in settings.ATU_LOOP_LAG_LOG.read_text().splitlines()]
    assert len(gaps) >= 1
    assert 200 <= max(gaps) < 350


def test_a_server_finishes_starting_while_its_database_does_not_answer(tmp_path: Path) -> None:
    # Given a "database" that takes connections and never says a word
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    database = f"postgres://atu@127.0.0.1:{silent.getsockname()[1]}/atu"
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "x" * 50}
    env.pop("REDIS_URL", None)

    # When a server process starts on it
    server = serve(env, port, log)
    try:
        # Then it finishes its startup and says it is resuming the automatic moves
        deadline = time.monotonic() + 30
        while "Application startup complete" not in log.read_text():
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert "resuming automatic moves" in log.read_text()
    finally:
        server.terminate()
        server.wait(timeout=20)
        silent.close()
