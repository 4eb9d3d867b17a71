"""Items that many callers of one event loop submit, sent together.

Sent one by one, every item of a burst pays a round trip of its own, and each waits
for the loop to come back to its reply before the next one goes. Here the items that
wait while a send is under way are sent together, in the order they came: a burst
costs a round trip per batch. An item that finds no send under way is sent at once,
alone, by its own caller (:meth:`Batcher._send_alone`). The event log's appends
(:mod:`eventlog.loopdb`) and the channel layer's publishes (:mod:`runtime.channel_layer`)
are sent so (decision 1802).

An item has a key (its stream, its channel). None is sent while a batch holding its
key is under way, so a key's items are sent in the order they came and never
overtake one another.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")


@dataclass(eq=False)
class _Waiting(Generic[Item, Outcome]):
    item: Item
    done: asyncio.Future[Outcome]


class Batcher(Generic[Item, Outcome]):
    """Sends the items submitted with ``send(batch)``, which returns each item's
    outcome, or an exception for those that failed (one it raises fails them all).

    ``limit`` items per batch at most, ``senders`` batches under way at once at most;
    with ``distinct`` a batch holds one item per key at most (two would be sent in an
    order the receiver does not keep)."""

    def __init__(
        self,
        send: Callable[[list[Item]], Awaitable[Sequence[Outcome | Exception]]],
        *,
        key: Callable[[Item], Hashable],
        limit: int,
        senders: int,
        distinct: bool = False,
    ) -> None:
        self._send = send
        self._key = key
        self._limit = limit
        self._most_senders = senders
        self._distinct = distinct
        self._waiting: deque[_Waiting[Item, Outcome]] = deque()
        # The senders under way (held: the loop keeps only a weak reference to a task),
        # and the keys of their batches.
        self._senders: set[asyncio.Task[None]] = set()
        self._held: set[Hashable] = set()
        # Items sent alone by their callers (_send_alone), under way.
        self._alone = 0

    async def submit(self, item: Item) -> Outcome:
        """Send ``item`` with those waiting meanwhile; its outcome."""
        waiting = _Waiting[Item, Outcome](item, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        if len(self._waiting) == 1 and not self._sending():
            return await self._send_alone(waiting)
        self._start_sender()
        return await waiting.done

    def _sending(self) -> int:
        return len(self._senders) + self._alone

    def _start_sender(self) -> None:
        if self._waiting and self._sending() < self._most_senders:
            # A task of its own: the batch it sends holds other callers' items, and a
            # caller cancelled (its socket closed) must not cancel their send.
            self._senders.add(asyncio.ensure_future(self._send_waiting()))

    async def _send_alone(self, waiting: _Waiting[Item, Outcome]) -> Outcome:
        """Send ``waiting``'s item from its caller's own task, if it is still alone once
        the loop has run what else came in this turn: nothing waited and nothing was
        being sent, so no other caller's item is in its batch and it needs no task of
        its own (a move alone, as most are while the tables are not all busy, then pays
        for none). Otherwise it goes with the others, sent by a sender task: a burst
        still goes out together."""
        self._alone += 1
        try:
            await asyncio.sleep(0)
            key = self._key(waiting.item)
            alone = (
                len(self._waiting) == 1 and self._waiting[0] is waiting and key not in self._held
            )
            if alone:
                self._waiting.popleft()
                self._held.add(key)
                try:
                    (outcome,) = await self._send([waiting.item])
                finally:
                    self._held.discard(key)
        except BaseException:
            waiting.done.cancel()  # Its caller is gone: no one is to hear its outcome.
            raise
        finally:
            self._alone -= 1
            # What came meanwhile and found no sender free, or found this key held (and,
            # cancelled while it waited its turn, this item itself).
            self._start_sender()
        if not alone:
            return await waiting.done
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def fail_waiting(self, error: Exception) -> None:
        """Fail every item not yet taken into a batch with ``error`` (what would send
        them has closed)."""
        while self._waiting:
            _settle(self._waiting.popleft(), error)

    async def _send_waiting(self) -> None:
        try:
            while True:
                batch, keys = self._take()
                if not batch:
                    return
                self._held |= keys
                try:
                    outcomes = await self._send([waiting.item for waiting in batch])
                except Exception as error:
                    outcomes = [error] * len(batch)
                finally:
                    self._held -= keys
                for waiting, outcome in zip(batch, outcomes, strict=True):
                    _settle(waiting, outcome)
        finally:
            # Out of the count in the same step as its last look at the queue: an item
            # that comes after it starts a sender of its own, and one held back by a
            # batch under way is taken by that batch's sender when it looks again.
            sender = asyncio.current_task()
            assert sender is not None
            self._senders.discard(sender)

    def _take(self) -> tuple[list[_Waiting[Item, Outcome]], set[Hashable]]:
        """The items sent next, in the order they came, and their keys: none whose
        key a batch under way holds (nor, ``distinct``, one whose key this batch
        already has)."""
        batch: list[_Waiting[Item, Outcome]] = []
        keys: set[Hashable] = set()
        later: list[_Waiting[Item, Outcome]] = []
        while self._waiting and len(batch) < self._limit:
            waiting = self._waiting.popleft()
            key = self._key(waiting.item)
            if key in self._held or (self._distinct and key in keys):
                later.append(waiting)
            else:
                batch.append(waiting)
                keys.add(key)
        self._waiting.extendleft(reversed(later))
        return batch, keys


def _settle(waiting: _Waiting[Item, Outcome], outcome: Outcome | Exception) -> None:
    if waiting.done.done():
        return  # Its caller was cancelled.
    if isinstance(outcome, Exception):
        waiting.done.set_exception(outcome)
    else:
        waiting.done.set_result(outcome)
