"""The outbox delivers every group's newest message, whatever the layer does meanwhile.

The layer here is a stand-in that fails until told to answer, as a paused or
restarted Redis does; the real Redis's outages are in tests/reliability/test_delivery.py.
"""

import asyncio
import logging
import time
from typing import Any

import pytest

from runtime import outbox
from runtime.outbox import IN_PLACE_SECONDS, RETRY_MOST, Outbox, send_in_place


class Layer:
    """Takes messages while ``up``; otherwise each send fails, as a dead Redis's does."""

    def __init__(self, *, up: bool) -> None:
        self.up = up
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.attempts = 0

    async def send(self, group: str, message: dict[str, Any]) -> None:
        self.attempts += 1
        await asyncio.sleep(0)
        if not self.up:
            raise ConnectionError("Connection refused")
        self.sent.append((group, message))


async def settled(box: Outbox) -> None:
    while box.senders:
        await asyncio.wait(list(box.senders.values()))


async def test_a_message_that_fails_is_sent_again_once_the_layer_answers() -> None:
    layer = Layer(up=False)
    box = Outbox(layer.send)

    box.put("game.a", {"version": 13})
    await asyncio.sleep(0.3)
    layer.up = True
    await settled(box)

    assert layer.sent == [("game.a", {"version": 13})]
    assert layer.attempts > 2
    assert box.delivered == 1


async def test_only_a_groups_newest_message_waits_while_the_layer_is_down() -> None:
    layer = Layer(up=False)
    box = Outbox(layer.send)

    for version in (13, 14, 15):
        box.put("game.a", {"version": version})
    box.put("game.b", {"version": 7})
    await asyncio.sleep(0.2)
    box.put("game.a", {"version": 16})
    layer.up = True
    await settled(box)

    assert sorted(layer.sent, key=lambda sent: sent[0]) == [
        ("game.a", {"version": 16}),
        ("game.b", {"version": 7}),
    ]
    assert list(box.senders) == []
    assert box.waiting == {}


async def test_a_newer_message_is_merged_into_the_waiting_one_when_told_how() -> None:
    layer = Layer(up=False)
    box = Outbox(layer.send)

    def merge(waiting: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
        return {**newer, "records": waiting["records"] + newer["records"]}

    box.put("game.a", {"version": 13, "records": [13]}, merge)
    await asyncio.sleep(0.1)
    box.put("game.a", {"version": 14, "records": [14]}, merge)
    box.put("game.a", {"version": 15, "records": [15]}, merge)
    layer.up = True
    await settled(box)

    # The first failed while nothing waited: it is the one the others merge into.
    assert layer.sent == [("game.a", {"version": 15, "records": [13, 14, 15]})]


async def test_the_waiting_messages_go_out_within_the_longest_pause_after_a_long_outage() -> None:
    layer = Layer(up=False)
    box = Outbox(layer.send)
    box.put("game.a", {"version": 3})
    await asyncio.sleep(3 * RETRY_MOST)

    layer.up = True
    answered = time.monotonic()
    await settled(box)

    assert layer.sent == [("game.a", {"version": 3})]
    assert time.monotonic() - answered <= RETRY_MOST + 0.2


async def test_a_send_that_does_not_answer_counts_as_failed_and_is_sent_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A paused Redis: the first send hangs past the timeout, the next goes through.
    monkeypatch.setattr(outbox, "SEND_SECONDS", 0.1)
    hung: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []

    async def send(group: str, message: dict[str, Any]) -> None:
        if not hung:
            hung.append(message)
            await asyncio.sleep(10)
        sent.append(message)

    box = Outbox(send)
    box.put("game.a", {"version": 1})
    await asyncio.wait_for(settled(box), 2)

    assert hung == [{"version": 1}]
    assert sent == [{"version": 1}]


async def test_an_outage_is_logged_once_with_its_end_and_leaves_no_error_unretrieved(
    caplog: pytest.LogCaptureFixture,
) -> None:
    unhandled: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(
        lambda loop, context: unhandled.append(context)
    )
    layer = Layer(up=False)
    box = Outbox(layer.send)

    with caplog.at_level(logging.WARNING, logger="atu.outbox"):
        for group in ("game.a", "game.b", "game.c"):
            box.put(group, {"version": 1})
        await asyncio.sleep(0.4)
        layer.up = True
        await settled(box)

    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2
    assert messages[0].startswith("channel layer publish failed (ConnectionError")
    assert messages[1].startswith("channel layer answers again after ")
    assert unhandled == []
    assert box.failing_since is None
    assert box.failed == 0


async def test_a_process_without_a_server_loop_gives_up_after_a_few_seconds() -> None:
    layer = Layer(up=False)

    started = time.monotonic()
    went = await send_in_place(layer.send, "game.a", {"version": 1})

    assert went is False
    assert IN_PLACE_SECONDS - 1 <= time.monotonic() - started <= IN_PLACE_SECONDS + 0.5
    assert layer.attempts > 3


async def test_a_process_without_a_server_loop_sends_at_once_when_the_layer_answers() -> None:
    layer = Layer(up=True)

    went = await send_in_place(layer.send, "game.a", {"version": 1})

    assert went is True
    assert layer.sent == [("game.a", {"version": 1})]
