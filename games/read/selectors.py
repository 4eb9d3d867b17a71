"""Reads: rule presets, games and their tables folded from the log."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.guests import guests_of
from accounts.models import User
from eventlog import store
from games.errors import GameNotFound
from games.models import Game
from games.read.pins import granted_seat
from games.rules import (
    PRESET_TITLES,
    PRESETS,
    BidPlaced,
    RuleOptions,
    build_schedule,
    options_from_dict,
)
from games.rules.cards import MAX_PLAYERS, MIN_PLAYERS
from games.table import ROOM, STREAM_PREFIX, PlayerLeft, PlayerSeated, SeatTaken, stream_of
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


def game_streams() -> list[tuple[uuid.UUID, str]]:
    """Every game's id and stream in the log, in stream order (what a rebuild of a
    game read model reads)."""
    games = []
    for stream in store.streams(STREAM_PREFIX):
        try:
            games.append((uuid.UUID(stream.removeprefix(STREAM_PREFIX)), stream))
        except ValueError:
            continue  # not a game's stream
    return games


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


# What may be said at a table (games.read.chat): nothing, the quick phrases only, or
# free text too. A table of its own is a casual one: free. A home's table (a
# championship's) says nothing unless its home allows the phrases (decision 3506).
CHAT_OFF = "off"
CHAT_PHRASES = "phrases"
CHAT_FREE = "free"
CHAT_MODES = (CHAT_OFF, CHAT_PHRASES, CHAT_FREE)
# What a home may allow: never free text (a duplicate table's words would reach the
# tables still to play its deals, and an event's words are its director's to allow).
HOME_CHAT_MODES = (CHAT_OFF, CHAT_PHRASES)


@dataclass(frozen=True)
class TableHome:
    """Where another app seats a game: a championship's event, round and table."""

    event: str
    round: int
    table: int
    url: str
    # What its players may say at the table (HOME_CHAT_MODES).
    chat: str = CHAT_OFF
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
    # Time was called (the tables finish the deal in progress and play no more).
    # With warnings and no ends_at: a round in play with no limit, whose clock the
    # desk may yet set (time called by hand).
    time_called: bool = False


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


def games_list(
    status: str | None = None, *, viewer_id: int | None, rematch_of: uuid.UUID | None = None
) -> QuerySet[Game]:
    """The games the viewer ``viewer_id`` may see, of ``status`` if given: the status
    they see (a delayed table's finish held back from them is still in play), their
    figures still the read model's (:func:`game_summaries`); with ``rematch_of``, only
    that finished game's rematch (none until a player asks for it)."""
    games = visible_games(Game.objects.all(), viewer_id)
    if rematch_of is not None:
        games = games.filter(rematch_of=rematch_of)
    return seen_status(games, status, viewer_id, timezone.now()) if status else games


def game_summaries(games: Iterable[Game], *, viewer_id: int | None) -> list[Game]:
    """``games`` (rows of :func:`games_list`) with the figures the viewer ``viewer_id``
    sees: a delayed table held back from them as the delay has released it."""
    return seen_games(games, viewer_id, timezone.now())


# --- A player's own games and events ------------------------------------------------

# Where a game's read model lists its seats: at most one entry per seat.
_SEAT_ENTRIES = range(MAX_PLAYERS)


def person_ids(user_id: int) -> list[int]:
    """The ids a person's seats are named by: their account's, then each guest's who
    signed in to it (decision 3507), whose finished games are theirs too."""
    return [user_id, *guests_of(user_id)]


def player_games(user_ids: Sequence[int], *, finished: bool) -> QuerySet[Game]:
    """The games any of ``user_ids`` (:func:`person_ids`) sits at, the last played
    first: those waiting for their players or in play, or (``finished``) those over; no
    cancelled table. Read from the game read model, whose seats name each player by
    their user id, as the log does (a guest who registers is the same user: their
    games stay theirs). A player sees their own tables live, spectator delay or not
    (:func:`games.visibility.held_back`)."""
    seated = Q()
    for entry in _SEAT_ENTRIES:
        seated |= Q(**{f"seats__{entry}__user_id__in": list(user_ids)})
    statuses = [Game.Status.FINISHED] if finished else [Game.Status.OPEN, Game.Status.PLAYING]
    return Game.objects.filter(seated, status__in=statuses).order_by("-updated_at", "-pk")


@dataclass(frozen=True)
class PlayerGame:
    """A player's seat at one of their games: their alias, and once it is over their
    place and points."""

    game: Game
    seat: int
    alias: str
    place: int | None
    points: int | None


def player_seats(games: Iterable[Game], user_ids: Sequence[int]) -> list[PlayerGame]:
    """Each of ``games`` (rows of :func:`player_games`) with the person's seat at it:
    of the first of ``user_ids`` that sits there (the account's own seat, where a guest
    of theirs sat at the same table too)."""
    found = []
    for game in games:
        seats = {seat.get("user_id"): seat for seat in game.seats}
        seat = next(seats[user_id] for user_id in user_ids if user_id in seats)
        number = seat["seat"]
        over = game.status == Game.Status.FINISHED and number < len(game.places)
        found.append(
            PlayerGame(
                game=game,
                seat=number,
                alias=seat["alias"],
                place=game.places[number] if over else None,
                points=game.scores[number] if over and number < len(game.scores) else None,
            )
        )
    return found


@dataclass(frozen=True)
class PlayerEvent:
    """An event a player entered, as the app that runs it tells of it: where its page
    and, while a round is in play, the player's table are, and their place once it is
    over (as the viewer may see it: an event's finish is held back by its delay)."""

    code: str
    name: str
    url: str
    finished: bool
    # Whether its first round has started.
    started: bool
    entrants: int
    table_url: str | None = None
    place: int | None = None


# A player's events, in play or (finished) over, the last first: a sequence read a
# slice at a time (a page's). Registered by the app that runs events (see
# :func:`add_player_events`): the games app knows no app that uses it.
_PLAYER_EVENTS: list[Callable[[int, bool], Sequence[PlayerEvent]]] = []


def add_player_events(finder: Callable[[int, bool], Sequence[PlayerEvent]]) -> None:
    if finder not in _PLAYER_EVENTS:
        _PLAYER_EVENTS.append(finder)


def player_events(user_id: int, *, finished: bool) -> Sequence[PlayerEvent]:
    """The events ``user_id`` entered, in play or (``finished``) over: the app that
    runs events says (none without one)."""
    return _PLAYER_EVENTS[0](user_id, finished) if _PLAYER_EVENTS else ()


def player_games_export(user_id: int) -> list[dict[str, Any]]:
    """Every table the user ``user_id`` sat at, for their data export: the game, the
    seats they held under which alias, their bids while they held them, and the
    scores and places as the read model has them, seen as they see them (a delayed
    table as :mod:`games.visibility` releases it to them). Found through the aliases
    kept of them beside the log (one per seat taken), read in one query."""
    streams = store.personal_streams(user_id, STREAM_PREFIX)
    held: dict[str, list[dict[str, Any]]] = {stream: [] for stream in streams}
    bids: dict[str, list[dict[str, Any]]] = {stream: [] for stream in streams}
    holding: dict[str, set[int]] = {stream: set() for stream in streams}
    types = [PlayerSeated.__name__, SeatTaken.__name__, PlayerLeft.__name__, BidPlaced.__name__]
    for stream, record in store.read_streams(streams, types=types):
        event, mine = record.event, holding[stream]
        if isinstance(event, PlayerSeated | SeatTaken):
            if event.user_id == user_id:
                mine.add(event.seat)
                held[stream].append({"seat": event.seat, "alias": event.alias})
            else:
                mine.discard(event.seat)
        elif isinstance(event, PlayerLeft):
            mine.discard(event.seat)
        elif isinstance(event, BidPlaced) and event.seat in mine:
            bids[stream].append({"hand": event.hand, "seat": event.seat, "bid": event.bid})
    games = Game.objects.filter(
        pk__in=[uuid.UUID(stream.removeprefix(STREAM_PREFIX)) for stream in streams]
    ).order_by("created_at")
    return [
        {
            "id": str(game.pk),
            "code": game.code,
            "kind": game.kind,
            "place": game.place,
            "preset": game.preset,
            "status": game.status,
            "player_count": game.player_count,
            "created_at": game.created_at.isoformat(),
            "updated_at": game.updated_at.isoformat(),
            "seats": held[stream_of(game.pk)],
            "bids": bids[stream_of(game.pk)],
            "scores": game.scores,
            "places": game.places,
        }
        for game in game_summaries(games, viewer_id=user_id)
    ]
