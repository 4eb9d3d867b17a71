from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from runtime.batching import Batcher


class Receiver:
    """What a batcher sends to: records each batch, and answers each item with its
    text upper-cased, or with an error for an item named ``bad``; holds each batch
    until released, so that the test decides what waits meanwhile."""

    def __init__(self) -> None:
        self.batches: list[list[tuple[str, str]]] = []
        # The task each batch was sent from.
        self.senders: list[asyncio.Task[object] | None] = []
        self.release = asyncio.Event()
        self.release.set()

    async def send(self, batch: list[tuple[str, str]]) -> Sequence[str | Exception]:
        self.batches.append(batch)
        self.senders.append(asyncio.current_task())
        await self.release.wait()
        if any(text == "crash" for _, text in batch):
            raise ConnectionError("the receiver went away")
        return [ValueError(text) if text == "bad" else text.upper() for _, text in batch]


async def turns() -> None:
    """Let every task that can run, run (a sender started, a batch taken)."""
    for _ in range(10):
        await asyncio.sleep(0)


Sending = Batcher[tuple[str, str], str]


async def under_way(
    first: tuple[str, str], *, limit: int = 4, senders: int = 1, distinct: bool = False
) -> tuple[Receiver, Sending, asyncio.Future[str]]:
    """A batcher, its receiver, and the caller of ``first``, which its receiver holds."""
    receiver = Receiver()
    receiver.release.clear()
    sending = Batcher(
        receiver.send, key=lambda item: item[0], limit=limit, senders=senders, distinct=distinct
    )
    caller = asyncio.ensure_future(sending.submit(first))
    await turns()
    return receiver, sending, caller


async def submitted(sending: Sending, items: list[tuple[str, str]]) -> list[asyncio.Future[str]]:
    """The callers of ``items``, each submitted, once the batcher has done what it can."""
    callers = [asyncio.ensure_future(sending.submit(item)) for item in items]
    await turns()
    return callers


async def test_items_waiting_while_a_send_is_under_way_go_out_together_in_their_order() -> None:
    # Given a send under way
    receiver, sending, first = await under_way(("a", "one"))
    # When six more items come meanwhile, and the send ends
    more = await submitted(sending, [(key, f"m{n}") for n, key in enumerate("bcdefg")])
    receiver.release.set()

    # Then each caller has its own outcome, and the first went alone, the others in
    # batches of at most four, in the order they came
    assert await first == "ONE"
    assert await asyncio.gather(*more) == ["M0", "M1", "M2", "M3", "M4", "M5"]
    assert receiver.batches == [
        [("a", "one")],
        [("b", "m0"), ("c", "m1"), ("d", "m2"), ("e", "m3")],
        [("f", "m4"), ("g", "m5")],
    ]


async def test_an_item_alone_is_sent_from_its_callers_task_and_a_batch_from_a_task_of_its_own() -> (
    None
):
    # Given an item that finds nothing waiting and no send under way, being sent
    receiver, sending, first = await under_way(("a", "one"))
    # When two more come meanwhile, and the send ends
    more = await submitted(sending, [("b", "two"), ("c", "three")])
    receiver.release.set()

    # Then the first was sent by its own caller, the two others together by a sender
    # that is none of their callers
    assert [await first, *await asyncio.gather(*more)] == ["ONE", "TWO", "THREE"]
    assert receiver.batches == [[("a", "one")], [("b", "two"), ("c", "three")]]
    assert receiver.senders[0] is first
    assert receiver.senders[1] not in (first, *more)


async def test_a_keys_items_wait_for_the_batch_under_way_that_holds_the_key() -> None:
    # Given two senders, and a batch of key "a" under way
    receiver, sending, first = await under_way(("a", "a1"), senders=2)
    # When another item of "a" comes, then one of "b"
    later = await submitted(sending, [("a", "a2"), ("b", "b1")])

    # Then the second sender sends "b" at once, but not "a" before the first batch ends
    assert receiver.batches == [[("a", "a1")], [("b", "b1")]]
    receiver.release.set()
    assert [await first, *await asyncio.gather(*later)] == ["A1", "A2", "B1"]
    assert receiver.batches == [[("a", "a1")], [("b", "b1")], [("a", "a2")]]


@pytest.mark.parametrize(
    ("distinct", "batches"),
    [
        (False, [[("a", "a1"), ("a", "a2")], [("a", "a3"), ("b", "b1")], [("c", "c1")]]),
        (True, [[("a", "a1"), ("b", "b1")], [("a", "a2"), ("c", "c1")], [("a", "a3")]]),
    ],
)
async def test_a_distinct_batch_holds_one_item_of_a_key_and_the_rest_keep_their_order(
    distinct: bool, batches: list[list[tuple[str, str]]]
) -> None:
    # Given a send under way, and batches of two
    receiver, sending, first = await under_way(("x", "go"), limit=2, distinct=distinct)
    # When three items of one key and two of others wait meanwhile
    items = [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("c", "c1")]
    waiting = await submitted(sending, items)
    receiver.release.set()

    # Then, distinct, a batch takes the next of another key in the key's place, and
    # what it leaves goes next, in the order it came
    assert [await first, *await asyncio.gather(*waiting)] == ["GO", "A1", "A2", "A3", "B1", "C1"]
    assert receiver.batches == [[("x", "go")], *batches]


async def test_an_item_that_fails_fails_alone_and_a_send_that_raises_fails_its_whole_batch() -> (
    None
):
    # Given a send under way
    receiver, sending, first = await under_way(("x", "go"), limit=2)
    # When a batch holds an item its receiver refuses, and the next one makes it raise
    items = [("a", "bad"), ("b", "fine"), ("c", "crash"), ("d", "lost")]
    waiting = await submitted(sending, items)
    receiver.release.set()
    outcomes = await asyncio.gather(first, *waiting, return_exceptions=True)

    # Then the refused item fails alone, and both items of the raising batch fail
    assert [type(outcome).__name__ for outcome in outcomes] == [
        "str",
        "ValueError",
        "str",
        "ConnectionError",
        "ConnectionError",
    ]
    assert outcomes[2] == "FINE"
    # And the batcher still sends
    assert await sending.submit(("e", "after")) == "AFTER"


async def test_a_cancelled_caller_cancels_no_one_elses_send() -> None:
    # Given a caller whose item is being sent, and two items waiting
    receiver, sending, first = await under_way(("x", "go"))
    items = await submitted(sending, [("a", "a1"), ("b", "b1")])

    # When the first caller, whose item started the sending, is cancelled (its socket
    # closed), and the send ends
    first.cancel()
    await turns()
    receiver.release.set()

    # Then the items waiting are still sent, together, each caller with its outcome
    assert await asyncio.gather(*items) == ["A1", "B1"]
    assert first.cancelled()
    assert receiver.batches == [[("x", "go")], [("a", "a1"), ("b", "b1")]]


async def test_failing_the_waiting_fails_what_no_batch_has_taken() -> None:
    # Given a batch under way and an item waiting
    receiver, sending, first = await under_way(("x", "go"))
    (waiting,) = await submitted(sending, [("a", "a1")])

    # When what sends them closes
    sending.fail_waiting(RuntimeError("closed"))
    receiver.release.set()

    # Then the waiting item fails with its error, and the batch under way ends
    with pytest.raises(RuntimeError, match=r"^closed$"):
        await waiting
    assert await first == "GO"
    assert receiver.batches == [[("x", "go")]]
