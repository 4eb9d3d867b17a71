"""This process's fan-out of a game's broadcasts: one subscription per game handing
each broadcast to every socket here that follows it, the steps its sockets share, and
the watchdog that makes up a lost broadcast from the read model.

The followers here are :class:`Follower`: what :mod:`games.live.fanout` knows of a
socket (its ``Socket`` protocol), each with a real cursor (``Watch``) on a real game;
the broadcasts go through the channel layer of the settings (in memory, embedded).
"""

from __future__ import annotations

import asyncio
import math
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer

from accounts.models import User
from eventlog import store
from games.live import fanout
from games.live.cursor import Watch
from games.table import stream_of
from games.visibility import Viewer
from games.write.path import group_name
from games.write.tables import load_table
from tests.games.drivers import next_move, seated_game

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5


class Follower:
    """A socket as the fan-out sees it: its cursor, and what it was handed."""

    def __init__(self, watch: Watch | None) -> None:
        self.watch = watch
        self.delivered: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    def deliver(self, message: dict[str, Any]) -> None:
        self.delivered.append(message)
        self.arrived.set()

    async def next_versions(self, count: int) -> list[Any]:
        """The versions of the first ``count`` messages handed to it (waiting for them)."""
        async with asyncio.timeout(TIMEOUT):
            while len(self.delivered) < count:
                self.arrived.clear()
                await self.arrived.wait()
        return [message.get("version") for message in self.delivered]


Follow = Callable[..., Awaitable[Follower]]


@pytest.fixture
async def follow() -> AsyncIterator[Follow]:
    """Follow a game with a new follower (watching as ``user``, or with no cursor yet);
    every follower unfollows after the test."""
    following: list[tuple[uuid.UUID, Follower]] = []

    async def start(
        game_id: uuid.UUID, user: User | None = None, *, watching: bool = True
    ) -> Follower:
        watch = None
        if watching:
            user_id = user.pk if user is not None else None
            watch = await database_sync_to_async(Watch.open)(str(game_id), user_id)
        follower = Follower(watch)
        await fanout.follow(game_id, follower)
        following.append((game_id, follower))
        return follower

    yield start
    for game_id, follower in following:
        await fanout.unfollow(game_id, follower)


@database_sync_to_async
def seated() -> tuple[uuid.UUID, list[User]]:
    return seated_game(players=3)


@database_sync_to_async
def moved(game_id: uuid.UUID, users: list[User], seed: int = 0) -> int:
    """Make the next move; the log's version after it."""
    next_move(game_id, users, random.Random(seed))
    return store.version(stream_of(game_id))


def layer() -> BaseChannelLayer:
    channel_layer = get_channel_layer()
    assert channel_layer is not None
    return channel_layer


async def broadcast(game_id: uuid.UUID, version: int) -> None:
    await layer().group_send(group_name(game_id), {"type": "game.events", "version": version})


async def lose_broadcasts(game_id: uuid.UUID) -> None:
    """Take this process's channel out of the game's group, as a Redis that restarted
    without its subscriptions would: what is published next reaches no one here."""
    channel = await fanout._FOLLOWED[game_id].subscribed  # type: ignore[misc]
    await layer().group_discard(group_name(game_id), channel)


# --- Following ---------------------------------------------------------------------------


async def test_each_broadcast_to_a_game_is_handed_once_to_each_of_its_followers_in_order(
    follow: Follow,
) -> None:
    # Given two followers of a game, and one of another game
    game_id, users = await seated()
    other_id, _ = await seated()
    first, second = await follow(game_id, users[0]), await follow(game_id)
    elsewhere = await follow(other_id)

    # When two broadcasts come for the game
    await broadcast(game_id, 41)
    await broadcast(game_id, 42)

    # Then each follower of the game is handed each once, in order, and the game's
    # newest version heard is the last one's; the other game's follower is handed none
    assert await first.next_versions(2) == [41, 42]
    assert await second.next_versions(2) == [41, 42]
    assert fanout._FOLLOWED[game_id].heard == 42
    assert elsewhere.delivered == []


async def test_a_follower_that_unfollowed_is_handed_nothing_more_while_the_others_still_are(
    follow: Follow,
) -> None:
    # Given two followers of a game, the first of which unfollows
    game_id, users = await seated()
    leaving, staying = await follow(game_id, users[0]), await follow(game_id)
    await fanout.unfollow(game_id, leaving)

    # When a broadcast comes
    await broadcast(game_id, 7)

    # Then only the one still following is handed it
    assert await staying.next_versions(1) == [7]
    assert leaving.delivered == []
    assert fanout._FOLLOWED[game_id].sockets == {staying}


async def test_unfollowing_a_game_nobody_here_follows_changes_nothing(follow: Follow) -> None:
    # Given a follower of one game
    game_id, _ = await seated()
    follower = await follow(game_id)

    # When it unfollows a game it never followed, and a stranger unfollows its game
    await fanout.unfollow(uuid.uuid4(), follower)
    await fanout.unfollow(game_id, Follower(None))

    # Then it still follows its game
    assert fanout._FOLLOWED[game_id].sockets == {follower}


# --- The steps followers share -----------------------------------------------------------


@database_sync_to_async
def broadcast_rows(game_id: uuid.UUID, after: int) -> list[Any]:
    """The records after ``after`` as a broadcast carries them."""
    return [store.record_to_message(record) for record in store.read(stream_of(game_id), after)]


async def test_followers_at_one_version_share_the_step_a_broadcast_brings_them_to(
    follow: Follow,
) -> None:
    # Given two spectators and a player following a game at one version, and a move
    game_id, users = await seated()
    spectators = [await follow(game_id), await follow(game_id)]
    await follow(game_id, users[0])
    assert spectators[0].watch is not None
    before = spectators[0].watch.table
    await moved(game_id, users)
    rows = await broadcast_rows(game_id, before.version)

    # When the first spectator and then the second take the broadcast
    first = fanout.next_message(spectators[0].watch, rows)
    assert spectators[1].watch is not None
    second = fanout.next_message(spectators[1].watch, rows)

    # Then they got one message from one step, folded once for every viewer here at that
    # version, at the log's table
    assert first is not None
    assert second == first
    [step] = fanout._FOLLOWED[game_id].steps
    assert set(step.views) == {Viewer(None), Viewer(0)}
    assert step.table == await database_sync_to_async(load_table)(game_id)
    assert spectators[0].watch.table is step.table


async def test_a_game_keeps_the_last_two_steps_its_followers_took(follow: Follow) -> None:
    # Given a spectator following a game
    game_id, users = await seated()
    spectator = await follow(game_id)
    assert spectator.watch is not None
    table = spectator.watch.table

    # When three moves are made, and the spectator takes each one's broadcast
    steps = []
    for seed in range(3):
        await moved(game_id, users, seed)
        rows = await broadcast_rows(game_id, table.version)
        assert fanout.next_message(spectator.watch, rows) is not None
        step = fanout._FOLLOWED[game_id].steps[-1]
        steps.append(step)
        table = step.table

    # Then the game keeps the last two
    assert fanout._FOLLOWED[game_id].steps == steps[1:]
    assert [step.table.version for step in steps] == [
        steps[0].before.version + 1,
        steps[0].before.version + 2,
        steps[0].before.version + 3,
    ]


# --- The watchdog ------------------------------------------------------------------------


async def test_the_watchdog_tells_only_the_followers_behind_the_read_model(
    follow: Follow,
) -> None:
    # Given a game whose broadcasts are lost here, followed by a cursor that will be
    # behind, a follower with no cursor yet, and a cursor opened after the move
    game_id, users = await seated()
    behind = await follow(game_id)
    unopened = await follow(game_id, watching=False)
    await lose_broadcasts(game_id)
    version = await moved(game_id, users)
    current = await follow(game_id)

    # When the watchdog looks in on the games quiet since now, twice
    first = await fanout.look_in(quiet_since=time.monotonic())
    told = await fanout.look_in(quiet_since=time.monotonic())

    # Then at the first look nobody is told (a broadcast may be late, not lost)
    assert first == 0
    assert fanout._FOLLOWED[game_id].missing == version
    # And at the second only the follower behind is handed the version the read model holds
    assert told == 1
    assert await behind.next_versions(1) == [version]
    assert unopened.delivered == current.delivered == []
    assert fanout._FOLLOWED[game_id].heard == version


async def test_the_watchdog_tells_nobody_of_a_version_whose_broadcast_came_late(
    follow: Follow,
) -> None:
    # Given a followed game whose move's broadcast is on its way here when a look finds
    # the move in the read model
    game_id, users = await seated()
    follower = await follow(game_id)
    version = await moved(game_id, users)
    assert await follower.next_versions(1) == [version]
    followed = fanout._FOLLOWED[game_id]
    followed.heard = version - 1  # as it was before the broadcast came
    assert await fanout.look_in(quiet_since=math.inf) == 0
    assert followed.missing == version

    # When the broadcast is heard, and the watchdog looks again
    followed.heard = version
    told = await fanout.look_in(quiet_since=math.inf)

    # Then nobody is handed the version again
    assert told == 0
    assert [message.get("version") for message in follower.delivered] == [version]


async def test_the_watchdog_reads_no_game_heard_of_since_and_after_a_resubscription_all(
    follow: Follow,
) -> None:
    # Given a followed game whose broadcast of a move was lost here
    game_id, users = await seated()
    quiet_since = time.monotonic() - 1
    follower = await follow(game_id)
    await lose_broadcasts(game_id)
    version = await moved(game_id, users)

    # When the watchdog looks in on the games quiet since before it was followed
    told = await fanout.look_in(quiet_since=quiet_since)

    # Then it reads nothing of it: it was followed since
    assert told == 0
    assert follower.delivered == []

    # When the subscriptions came back and every game is looked in on again
    told = await fanout.look_again()

    # Then the follower is handed the version it lacks, once
    assert told == 1
    assert await follower.next_versions(1) == [version]
    assert await fanout.look_in(quiet_since=math.inf) == 0
