from __future__ import annotations

import asyncio
import contextvars

import pytest

from runtime import eager

MARK: contextvars.ContextVar[str] = contextvars.ContextVar("MARK", default="unset")


async def test_a_coroutine_that_never_waits_runs_to_its_end_at_once_without_a_task() -> None:
    # Given a coroutine that waits for nothing
    done: list[str] = []

    async def work() -> None:
        done.append("sent")

    # When it is started
    task = eager.start(work())

    # Then it has run, before the caller goes on, and no task carries it
    assert (task, done) == (None, ["sent"])


async def test_a_coroutine_that_waits_is_carried_on_by_a_task_with_what_it_waited_for() -> None:
    # Given a coroutine that does part of its work, waits for a future, then finishes
    steps: list[str] = []
    future: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def work() -> None:
        steps.append("before")
        steps.append(await future)

    # When it is started
    task = eager.start(work())

    # Then the part before the wait has run at once, and a task waits for the rest
    assert steps == ["before"]
    assert task is not None and not task.done()
    # And once the future is done, the task gives the coroutine its result
    future.set_result("after")
    await asyncio.wait_for(task, 1)
    assert steps == ["before", "after"]


async def test_a_waiting_coroutine_is_cancelled_through_its_task() -> None:
    # Given a started coroutine waiting for a future that never comes
    seen: list[str] = []

    async def work() -> None:
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    task = eager.start(work())
    assert task is not None

    # When its task is cancelled
    task.cancel()

    # Then the coroutine is told where it waits, and the task ends cancelled
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == ["cancelled"]


async def test_what_a_started_coroutine_sets_in_its_context_stays_its_own() -> None:
    # Given a coroutine that sets a context variable before it waits and after
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    seen: list[str] = []

    async def work() -> None:
        MARK.set("before the wait")
        await future
        seen.append(MARK.get())
        MARK.set("after the wait")

    # When it is started, runs its first part, and is then carried on to its end
    task = eager.start(work())
    assert task is not None
    future.set_result(None)
    await asyncio.wait_for(task, 1)

    # Then it saw its own setting across the wait, and its caller's context is untouched
    assert seen == ["before the wait"]
    assert MARK.get() == "unset"


async def test_an_error_raised_before_any_wait_is_raised_to_the_caller() -> None:
    # Given a coroutine that fails at once
    async def work() -> None:
        raise ValueError("refused")

    # When it is started, then the caller gets its error
    with pytest.raises(ValueError, match="refused"):
        eager.start(work())
