"""When an event's next round may start: the one rule that the service starting it
decides by (tournaments.services.event_start_round) and that the organizer's page
offers its "Start round" button by (tournaments.selectors.event_picture), so the page
never offers what the service would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.table import CLASSIC, ONLINE, ROOM
from tournaments import seating
from tournaments.errors import (
    EventError,
    EventOver,
    NotEnoughPlayers,
    PlayersNotInFours,
    RoundInProgress,
    TooFewInPlace,
)

# Where an event's tables are played when each player says at check-in.
BOTH = "both"

Groups = list[tuple[str, list[int]]]


def groups(place: str, present: Iterable[tuple[int, bool]]) -> Groups:
    """The players to seat in the next round (``present``: each checked-in player not
    withdrawn, and whether they said they are in the room) by where their tables are
    played: at an event played both online and in the room, as each said at check-in."""
    present = sorted(present)
    if place != BOTH:
        return [(place, [player for player, _ in present])]
    room = [player for player, in_room in present if in_room]
    online = [player for player, in_room in present if not in_room]
    return [(where, players) for where, players in ((ROOM, room), (ONLINE, online)) if players]


def seating_refusal(kind: str, seated: Groups) -> EventError | None:
    """Why the players of ``seated`` cannot fill the tables of a round, if they cannot."""
    if not seated:
        return PlayersNotInFours(0) if kind == CLASSIC else NotEnoughPlayers(0)
    if kind == CLASSIC:
        if all(len(p) >= seating.PARTNERSHIP_TABLE and not len(p) % 4 for _, p in seated):
            return None
        return PlayersNotInFours(sum(len(present) for _, present in seated))
    if all(len(present) >= seating.MIN_TABLE for _, present in seated):
        return None
    if len(seated) > 1:
        place, few = min(seated, key=lambda group: len(group[1]))
        return TooFewInPlace(place, len(few))
    return NotEnoughPlayers(sum(len(present) for _, present in seated))


def next_round_refusal(
    *, kind: str, started: int, total: int, unfinished: int, seated: Groups
) -> EventError | None:
    """Why the next round may not start now, or None if it may: every round has
    started; the last one still plays at ``unfinished`` tables; or the players to
    seat (``seated``, see :func:`groups`) do not fill tables."""
    if started >= total:
        return EventOver()
    if unfinished:
        return RoundInProgress(started, unfinished)
    return seating_refusal(kind, seated)
