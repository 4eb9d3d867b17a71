"""Reads: rule presets, games and their tables folded from the log."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from games.errors import GameNotFound
from games.models import Game
from games.read.pins import granted_seat
from games.rules import PRESET_TITLES, PRESETS, RuleOptions, build_schedule, options_from_dict
from games.rules.cards import MAX_PLAYERS, MIN_PLAYERS
from games.table import ROOM
from games.visibility import directs_game, may_see_game, seen_games, seen_status, visible_games


@dataclass(frozen=True)
class PresetSummary:
    name: str
    title: str
    options: RuleOptions
    # Cards dealt per hand, by player count.
    sequences: dict[int, list[int]]


def rule_presets() -> list[PresetSummary]:
    """Every named preset with its deal sequence for each table size."""
    return [
        PresetSummary(
            name=name,
            title=PRESET_TITLES[name],
            options=options,
            sequences={
                players: [spec.cards for spec in build_schedule(options, players)]
                for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
            },
        )
        for name, options in PRESETS.items()
    ]


# A game id (UUID) or share code; anything else is no game of ours.
GAME_REFERENCE = re.compile(r"[0-9A-Za-z-]{1,36}")


def find_game(reference: str, *, viewer_id: int | None) -> Game:
    """A game by its id or its share code, if the viewer ``viewer_id`` (None:
    anonymous) may see it; otherwise it does not exist for them."""
    if not isinstance(reference, str) or not GAME_REFERENCE.fullmatch(reference):
        raise GameNotFound(reference)
    game: Game | None
    try:
        game = Game.objects.get(pk=uuid.UUID(reference))
    except (ValueError, Game.DoesNotExist):
        game = Game.objects.filter(code=reference.upper()).first()
    if game is None or not may_see_game(game, viewer_id):
        raise GameNotFound(reference)
    return game


def room_game(reference: str) -> Game:
    """A table in the room by its id or share code, whoever asks: its PIN, not the
    viewer, decides who may score it (a private event's table too)."""
    if not isinstance(reference, str) or not GAME_REFERENCE.fullmatch(reference):
        raise GameNotFound(reference)
    try:
        game = Game.objects.filter(pk=uuid.UUID(reference), place=ROOM).first()
    except ValueError:
        game = Game.objects.filter(code=reference.upper(), place=ROOM).first()
    if game is None:
        raise GameNotFound(reference)
    return game


def scored_game(
    reference: str, *, viewer_id: int | None, session: Mapping[str, Any] | None
) -> tuple[Game, int | None]:
    """A game as :func:`find_game` finds it, and the seat ``session`` scores it from
    if it is a table in the room whose PIN the session gave (None otherwise); such a
    session finds its table even where the viewer could not (a private event's)."""
    try:
        game = find_game(reference, viewer_id=viewer_id)
    except GameNotFound:
        game = room_game(reference)
        scorer = granted_seat(session, game.id)
        if scorer is None:
            raise
        return game, scorer
    return game, granted_seat(session, game.id) if game.place == ROOM else None


@dataclass(frozen=True)
class Scorer:
    """Who writes the deals of a table in the room down from a session: a seat (a
    player's own, or the one its PIN was given for), the director (the organizer who
    opened the table, or an event's deputy, not sitting at it), or nobody until the
    PIN is given."""

    seat: int | None
    director: bool = False
    # Whether the seat is the one its PIN was given for (not a signed-in player's own).
    by_pin: bool = False


def scorer_of(game: Game, *, user_id: int | None, session: Mapping[str, Any] | None) -> Scorer:
    """As the API's commands take them: a signed-in player or the director first, else
    the seat the session gave the PIN for."""
    if user_id is not None:
        own = next((seat["seat"] for seat in game.seats if seat.get("user_id") == user_id), None)
        if own is not None:
            return Scorer(own)
        if directs_game(game.id, game.creator_id, user_id):
            return Scorer(None, director=True)
    seat = granted_seat(session, game.id)
    return Scorer(seat, by_pin=seat is not None)


def set_bids(game: Game) -> list[int | None]:
    """Each deal's set bid (everyone bids it: the closing zero and eight bid deals),
    None where the bids are free."""
    options = options_from_dict(game.options)
    return [spec.forced_bid for spec in build_schedule(options, game.player_count)]


def bot_seats(game: Game) -> list[int]:
    """The seats of ``game`` that bots' accounts hold (not a person's seat a bot plays
    for them): the table page names them as bots, and never hands them back."""
    seats = {seat["user_id"]: seat["seat"] for seat in game.seats}
    bots = User.objects.filter(pk__in=seats, is_bot=True).values_list("pk", flat=True)
    return sorted(seats[pk] for pk in bots)


def rematch_game(game_id: uuid.UUID) -> Game | None:
    """The table where the players of the finished game ``game_id`` play again, if
    one of them asked for it."""
    return Game.objects.filter(rematch_of=game_id).first()


@dataclass(frozen=True)
class TableHome:
    """Where another app seats a game: a championship's event, round and table."""

    event: str
    round: int
    table: int
    url: str
    # What the table's pages show of its home beside the play (the event's desk: its
    # announcements and the call to its director): a template of the home's app,
    # included with ``home`` and ``seated`` (whether the viewer sits at the table), and
    # what its script is given. Empty: nothing.
    desk_template: str = ""
    desk: Mapping[str, Any] = field(default_factory=dict)
    # When the round's time is up (ISO; None: no limit), the warnings before it (the
    # seconds left at each, and the minutes it says) and the event's rule then, for
    # the table's countdown.
    ends_at: str | None = None
    warnings: tuple[tuple[int, int], ...] = ()
    at_time: str = ""


# Registered by the apps that seat games (see :func:`add_table_home`): the games app
# knows no app that uses it.
_HOMES: list[Callable[[uuid.UUID], TableHome | None]] = []


def add_table_home(finder: Callable[[uuid.UUID], TableHome | None]) -> None:
    if finder not in _HOMES:
        _HOMES.append(finder)


def table_home(game_id: uuid.UUID) -> TableHome | None:
    """The event table ``game_id`` is played at; None for a table of its own."""
    for finder in _HOMES:
        home = finder(game_id)
        if home is not None:
            return home
    return None


def games_list(status: str | None = None, *, viewer_id: int | None) -> QuerySet[Game]:
    """The games the viewer ``viewer_id`` may see, of ``status`` if given: the status
    they see (a delayed table's finish held back from them is still in play), their
    figures still the read model's (:func:`game_summaries`)."""
    games = visible_games(Game.objects.all(), viewer_id)
    return seen_status(games, status, viewer_id, timezone.now()) if status else games


def game_summaries(games: Iterable[Game], *, viewer_id: int | None) -> list[Game]:
    """``games`` (rows of :func:`games_list`) with the figures the viewer ``viewer_id``
    sees: a delayed table held back from them as the delay has released it."""
    return seen_games(games, viewer_id, timezone.now())
