"""Events driven through the services, with bots in every seat."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from eventlog import store
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_bots_to_end, play_to_end
from tournaments import patches, services
from tournaments.championship import championship_stream
from tournaments.models import Event

# Nine short deals (1, 3, 5, 7, 8, 7, 5, 3, 1) keep a whole event to seconds.
SHORT_RULES = {
    "schedule": "1-8-1",
    "step": 2,
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
}


def organizer() -> User:
    user: User = UserFactory.create(can_organize=True)
    return user


def bot_event(
    *, players: int, rounds: int, creator: User | None = None, **options: Any
) -> tuple[Event, User]:
    """An event of ``players`` bots, all checked in."""
    creator = creator or organizer()
    event = services.event_create(
        organizer=creator,
        name=options.pop("name", "Cupa Atu"),
        rounds=rounds,
        options=options.pop("rules", SHORT_RULES),
        **options,
    )
    services.event_add_bots(event_id=event.id, actor=creator, count=players)
    return Event.objects.get(pk=event.id), creator


def wait_until(condition: Callable[[], bool], seconds: float = 120, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached in {seconds} s: {what}")
        time.sleep(0.05)


def round_games(event_id: uuid.UUID, number: int) -> list[Game]:
    from tournaments.services import load_championship

    played = load_championship(event_id).rounds[number - 1]
    return [Game.objects.get(pk=game_id) for game_id in played.games]


def play_round(event_id: uuid.UUID, creator: User, seconds: float = 300) -> int:
    """Start the next round and wait for its bots to finish it; the round's number."""
    services.event_start_round(event_id=event_id, actor=creator)
    number = Event.objects.get(pk=event_id).rounds_started
    ids = [game.id for game in round_games(event_id, number)]

    def finished() -> bool:
        return not Game.objects.filter(pk__in=ids).exclude(status=Game.Status.FINISHED).exists()

    wait_until(finished, seconds, f"round {number} finished")
    return number


def private_event_round(players: int = 8) -> tuple[Event, User, list[User], list[Game]]:
    """A private event of ``players`` people (tables of four), its first round
    started: the event, its organizer, its entrants and its round's games."""
    return event_round(players, public=False)


def event_round(
    players: int, *, public: bool, **options: Any
) -> tuple[Event, User, list[User], list[Game]]:
    """An event of ``players`` people (tables of four), its first round started: the
    event, its organizer, its entrants and its round's games."""
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Cupa privată" if not public else "Cupa",
        rounds=1,
        options=SHORT_RULES,
        public=public,
        **options,
    )
    entrants: list[User] = UserFactory.create_batch(players)
    for entrant in entrants:
        services.event_register(event_id=event.id, actor=entrant)
        services.event_check_in(event_id=event.id, actor=entrant)
    services.event_start_round(event_id=event.id, actor=creator)
    return Event.objects.get(pk=event.id), creator, entrants, round_games(event.id, 1)


def played_drive_table(deals: int = 5) -> uuid.UUID:
    """The game of a one-round whist drive's one table of four bots, played to its end:
    classic Whist's tournament form of ``deals`` deals, trumps rotating with a no-trump
    fifth deal."""
    event, creator = bot_event(players=4, rounds=1, kind="classic", rules={"deals": deals})
    services.event_start_round(event_id=event.id, actor=creator)
    [game] = round_games(event.id, 1)
    play_bots_to_end(game.id)
    return game.id


def finished_events(event: Event) -> int:
    return [record.type for record in store.read(championship_stream(event.id))].count(
        "EventFinished"
    )


class Pictures:
    """An event socket's pictures as the pages hold them: each patch applied to the
    picture it was made from (tournaments.patches) and given back as the whole
    picture it makes, ``{"type": "event", "patched": True, ...}``."""

    def __init__(self) -> None:
        self.digest: str | None = None
        self.live: dict[str, Any] | None = None

    def take(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "event":
            self.digest, self.live = message["digest"], message["event"]
        elif message["type"] == "event.patch":
            assert self.live is not None and message["from"] == self.digest, (
                "a patch of a picture the socket does not hold"
            )
            self.live = {**patches.patched(self.live, message["patch"]), "me": message["me"]}
            self.digest = message["digest"]
            return {
                "type": "event",
                "version": message["version"],
                "digest": self.digest,
                "event": self.live,
                "patched": True,
            }
        return message


def played_event(players: int = 4, **options: Any) -> tuple[Event, User, list[User]]:
    """A public one-round event of ``players`` people (tables of four), its round
    played to the end: the event, its organizer and its entrants."""
    event, creator, entrants, games = event_round(players, public=True, **options)
    for game in games:
        play_to_end(game.id, entrants)
    return Event.objects.get(pk=event.id), creator, entrants


@dataclass
class Clock:
    """The site's time, stood still until a test moves it."""

    now: datetime


def stopped_clock(monkeypatch: pytest.MonkeyPatch, at: datetime) -> Clock:
    """Stop the site's clock (what ``django.utils.timezone.now`` says) at ``at``."""
    clock = Clock(at)
    monkeypatch.setattr(timezone, "now", lambda: clock.now)
    return clock
