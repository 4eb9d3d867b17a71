"""Business actions on games: the one write path.

command -> load the table -> decide with the rules -> append at the expected
version -> project -> publish after commit. Views, consumers and tasks call these
functions; nothing writes events another way.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache, partial
from typing import Any

from cachetools import LRUCache
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import (
    BOT_NAMES,
    user_demo_lock,
    user_demo_organizer,
    user_ensure_bot_players,
)
from config.errors import DomainError
from config.lifespan import run_on_server_loop
from eventlog import store
from games import rules
from games.aliases import clean_alias, fitting_alias, require_free
from games.bots import BOTS, choose_command

# The levels of bot to offer, weakest first, and the one a seat gets unless another is
# chosen: named here too for the championships, which use the games through their services.
from games.bots import DEFAULT_LEVEL as DEFAULT_LEVEL
from games.bots import LEVEL_NAMES as LEVEL_NAMES
from games.bots.classic import choose_classic_command
from games.domain import (
    CLASSIC,
    GAME_KINDS,
    ROMANIAN,
    AnyEvent,
    DealRevealed,
    DealsCommitted,
    GameCreated,
    GamePaused,
    GameResumed,
    PlayerLeft,
    PlayerSeated,
    SeatAutomated,
    Table,
    TableCancelled,
    fold,
    stream_of,
)
from games.errors import (
    AlreadySeated,
    EventGameNoRematch,
    GameAlreadyStarted,
    GameIsOver,
    GameNotFinished,
    GamePausedError,
    IdempotencyKeyReused,
    InvalidInput,
    NotAPlayer,
    NotSeated,
    NotTheCreator,
    NotYourSeat,
    TableCancelledError,
    TableFull,
    UnknownBot,
    VersionConflict,
)
from games.models import CommandReceipt, DealSecret, Game
from games.rules import (
    RuleError,
    RuleOptions,
    Visibility,
    build_schedule,
    classic,
    options_from_dict,
)
from games.rules.errors import InvalidOneCardMode, ZeroPlayNotAllowed
from games.rules.shuffle import commitment
from games.selectors import (
    cached_table,
    load_table,
    rematch_game,
    remember_table,
    table_home,
    trust_table,
)
from games.signals import game_recorded
from games.turns import automatic_bot, automatic_move_delay, schedule_automatic_move
from games.visibility import deal_set_over

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 600
MAX_SPECTATOR_DELAY = 3600
# The demo table's bots: the strongest, as the table a visitor watches first. One
# decision a bot delay (1 s) at 7 ms CPU p50, 75 ms p95 is under a tenth of a core;
# a championship's several tables at once play the default level.
DEMO_BOT = "strong"
# How often a join is decided again after losing the race for a seat: once for each
# seat of the largest table, and once more to hear that it is full.
JOIN_ATTEMPTS = 7


@dataclass(frozen=True)
class CommandResult:
    game_id: uuid.UUID
    # The events the command appended (none when it was a retry of an earlier one).
    first_sequence: int
    last_sequence: int
    version: int
    replayed: bool = False
    # What the command appended, the table just before it (the caller's own) and the
    # one it brought the game to (shared with the table cache: never changed): enough
    # to show the new events to a viewer without reading the log again. Empty for a
    # retry answered from its receipt.
    records: tuple[store.Recorded, ...] = field(default=(), compare=False, repr=False)
    before: Table | None = field(default=None, compare=False, repr=False)
    table: Table | None = field(default=None, compare=False, repr=False)


def group_name(game_id: uuid.UUID) -> str:
    return f"game.{game_id.hex}"


def game_create(
    *,
    creator: User,
    player_count: int,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    turn_seconds: int | None = None,
    spectator_delay: int = 0,
    deal_set: str | None = None,
    kind: str = ROMANIAN,
    rematch_of: uuid.UUID | None = None,
) -> Game:
    """Open a table of ``player_count`` seats under a preset and/or explicit options;
    with ``turn_seconds``, a seat that has not acted by then is played by a bot.

    ``kind``: the game the table plays, Romanian Whist (the default) or classic
    partnership Whist (four seats, presets and options of :mod:`games.rules.classic`).

    ``spectator_delay``: seconds spectators lag behind the play. ``deal_set``: every
    table of the set plays the same deals, seat by seat (a duplicate round); their
    secrets are revealed once every table of the set has finished. ``rematch_of``: the
    finished game whose players play again here (see :func:`game_rematch`)."""
    if kind not in GAME_KINDS:
        raise InvalidInput(f"there is no game {kind!r}; choose one of {', '.join(GAME_KINDS)}")
    if isinstance(player_count, bool) or not isinstance(player_count, int):
        raise InvalidInput("player_count must be a whole number from 3 to 6")
    chosen: RuleOptions | classic.ClassicOptions
    if kind == CLASSIC:
        base_classic = classic.preset(preset) if preset else classic.ClassicOptions()
        chosen = classic.options_from_dict(options or {}, base_classic)
        if player_count != classic.PLAYERS:
            raise InvalidInput("classic whist is played by four, in two partnerships")
    else:
        chosen = options_from_dict(options or {}, rules.preset(preset) if preset else RuleOptions())
        build_schedule(chosen, player_count)
    if turn_seconds is not None and (
        isinstance(turn_seconds, bool)
        or not isinstance(turn_seconds, int)
        or not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS
    ):
        raise InvalidInput(
            f"a turn timer is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds, or none"
        )
    if (
        isinstance(spectator_delay, bool)
        or not isinstance(spectator_delay, int)
        or not 0 <= spectator_delay <= MAX_SPECTATOR_DELAY
    ):
        raise InvalidInput(f"a spectator delay is 0 to {MAX_SPECTATOR_DELAY} seconds")
    game_id = uuid.uuid4()
    created = GameCreated(
        new_code(),
        player_count,
        chosen.to_dict(),
        preset or "",
        creator.pk,
        turn_seconds,
        spectator_delay,
        deal_set,
        kind,
        str(rematch_of) if rematch_of else None,
    )
    _execute(
        game_id=game_id,
        actor=creator,
        expected_version=0,
        idempotency_key=None,
        command={},
        decide=lambda table: _fold_all(table, [created]),
        table=Table(),
    )
    return Game.objects.get(pk=game_id)


def game_join(
    *,
    game_id: uuid.UUID,
    user: User,
    alias: str,
    zero_play: bool = False,
    idempotency_key: str | None = None,
) -> CommandResult:
    """Seat ``user`` under ``alias``; the last seat taken starts the game.

    ``zero_play`` announces zero play from the start, as tables that require it
    then ask; the game records the announcement as it starts, before any deal.
    """
    alias = clean_alias(alias)

    def decide(table: Table) -> list[AnyEvent]:
        seat = table.seat_of(user.pk)
        if seat is not None:
            raise AlreadySeated(seat)
        if table.is_full:
            raise TableFull()
        require_free(alias, (s.alias for s in table.seats if s is not None))
        if zero_play and (table.is_classic or table.options.zero_play is None):
            raise ZeroPlayNotAllowed("zero play is not played at this table")
        free = table.seats.index(None)
        events = _fold_all(table, [PlayerSeated(free, user.pk, alias, zero_play)])
        if table.is_full:
            events += _start(game_id, table)
        return events

    return _seating(
        partial(
            _execute,
            game_id=game_id,
            actor=user,
            expected_version=None,
            idempotency_key=idempotency_key,
            command={"join": alias, "zero_play": zero_play},
            decide=decide,
        )
    )


def _seating(attempt: Callable[[], CommandResult]) -> CommandResult:
    """Run a command that seats players, which names no version: losing the append to
    another command (a racer taking the same seat) is no reason to refuse it. It is
    decided again on the log as it is now, which seats it in the next free seat or
    answers that the table is full. Each lost race is another event appended, so a few
    attempts are enough."""
    for _ in range(JOIN_ATTEMPTS - 1):
        with suppress(VersionConflict):
            return attempt()
    return attempt()


def game_fill_with_bots(
    *,
    game_id: uuid.UUID,
    actor: User,
    level: str = DEFAULT_LEVEL,
    idempotency_key: str | None = None,
) -> CommandResult:
    """Seat a bot of ``level`` (one of :data:`games.bots.LEVEL_NAMES`) in every free
    seat of a table waiting for players, which starts it: only its creator may."""
    _require_level(level)

    def decide(table: Table) -> list[AnyEvent]:
        _require_waiting(table, actor)
        # Only now: a refused request creates no account. The bots' accounts outlive
        # a command that then fails; they are the site's, made once.
        bots = user_ensure_bot_players(names=BOT_NAMES)
        seated = {seat.user_id for seat in table.seats if seat is not None}
        taken = {seat.alias for seat in table.seats if seat is not None}
        free = [number for number, seat in enumerate(table.seats) if seat is None]
        events: list[AnyEvent] = []
        # Enough bots for every seat of the largest table, even one with no person.
        for seat, bot in zip(free, (bot for bot in bots if bot.pk not in seated), strict=False):
            alias = fitting_alias(bot.display.split()[0], taken)
            events += _fold_all(
                table, [SeatAutomated(seat, level), PlayerSeated(seat, bot.pk, alias)]
            )
        return events + _start(game_id, table)

    return _seating(
        partial(
            _execute,
            game_id=game_id,
            actor=actor,
            expected_version=None,
            idempotency_key=idempotency_key,
            command={"fill_with_bots": level},
            decide=decide,
        )
    )


def game_play_now(
    *,
    user: User,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    player_count: int = 4,
    level: str = DEFAULT_LEVEL,
) -> Game:
    """A table of Romanian Whist for ``user`` alone: opened under ``preset`` (and
    ``options``), ``user`` seated, a bot of ``level`` in every other seat; it starts
    at once. All of it, or nothing."""
    _require_level(level)
    with transaction.atomic():
        game = game_create(creator=user, player_count=player_count, preset=preset, options=options)
        game_join(game_id=game.id, user=user, alias=fitting_alias(user.display, set()))
        game_fill_with_bots(game_id=game.id, actor=user, level=level)
    return Game.objects.get(pk=game.id)


def game_cancel(
    *, game_id: uuid.UUID, actor: User, idempotency_key: str | None = None
) -> CommandResult:
    """Call off a table before it starts: only its creator may. Nobody may sit at it
    or play it from then on; it leaves the lobby's lists."""

    def decide(table: Table) -> list[AnyEvent]:
        _require_waiting(table, actor)
        return _fold_all(table, [TableCancelled()])

    return _execute(
        game_id=game_id,
        actor=actor,
        expected_version=None,
        idempotency_key=idempotency_key,
        command={"cancel": True},
        decide=decide,
    )


def game_leave(
    *, game_id: uuid.UUID, actor: User, idempotency_key: str | None = None
) -> CommandResult:
    """Get up from one's seat before the game starts: the seat is free again."""

    def decide(table: Table) -> list[AnyEvent]:
        seat = table.seat_of(actor.pk)
        if seat is None:
            raise NotSeated()
        if table.status != "open":
            raise GameAlreadyStarted()
        return _fold_all(table, [PlayerLeft(seat)])

    return _execute(
        game_id=game_id,
        actor=actor,
        expected_version=None,
        idempotency_key=idempotency_key,
        command={"leave": True},
        decide=decide,
    )


def _require_level(level: str) -> None:
    if level not in LEVEL_NAMES:
        raise InvalidInput(
            f"there is no bot level {level!r}; choose one of {', '.join(LEVEL_NAMES)}"
        )


def _require_waiting(table: Table, actor: User) -> None:
    """Only the creator changes a table waiting for players, and only while it waits."""
    if actor.pk != table.creator_id:
        raise NotTheCreator("only the table's creator may do that")
    if table.status != "open":
        raise GameAlreadyStarted()


def game_rematch(*, game_id: uuid.UUID, actor: User) -> Game:
    """A new table for the players of the finished game ``game_id``: same game, rules,
    table size and turn timer, with ``actor`` seated and its bots' seats taken by the
    same bots, playing as well as they did; the other players join it when they ask.

    A game has one rematch: whoever asks after the first gets that table, seated at
    it. An event's table has none (its organizer seats the rounds). The finished
    game's log is not touched."""
    old = load_table(game_id)
    seat = old.seat_of(actor.pk)
    if seat is None:
        raise NotAPlayer()
    if old.status != "finished":
        raise GameNotFinished()
    if table_home(game_id) is not None:
        raise EventGameNoRematch()
    alias = old.seats[seat].alias  # type: ignore[union-attr]
    existing = rematch_game(game_id)
    if existing is None:
        try:
            with transaction.atomic():
                return _open_rematch(game_id, old, actor, alias)
        except IntegrityError:
            # Another player's request opened it first (one rematch per game).
            existing = rematch_game(game_id)
            if existing is None:
                raise
    if not any(taken["user_id"] == actor.pk for taken in existing.seats):
        game_join(game_id=existing.id, user=actor, alias=alias)
    return Game.objects.get(pk=existing.id)


def _open_rematch(game_id: uuid.UUID, old: Table, actor: User, alias: str) -> Game:
    game = game_create(
        creator=actor,
        player_count=old.player_count,
        preset=old.preset or None,
        options=old.options.to_dict(),
        turn_seconds=old.turn_seconds,
        spectator_delay=old.spectator_delay,
        kind=old.kind,
        rematch_of=game_id,
    )
    game_join(game_id=game.id, user=actor, alias=alias)
    players = User.objects.in_bulk(seat.user_id for seat in old.seats if seat is not None)
    seat = 1
    for number, taken in enumerate(old.seats):
        if taken is None or not players[taken.user_id].is_bot:
            continue
        bot = old.bots[number] or DEFAULT_LEVEL
        game_set_seat_bot(game_id=game.id, actor=actor, seat=seat, bot=bot)
        game_join(game_id=game.id, user=players[taken.user_id], alias=taken.alias)
        seat += 1
    return Game.objects.get(pk=game.id)


def game_place_bid(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    bid: int,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> CommandResult:
    return _rules_command(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"bid": bid},
        make=lambda s, _: rules.PlaceBid(s, bid),
    )


def game_play_card(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    card: str | None,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> CommandResult:
    """Play ``card``; ``None`` plays the last card held, which a player on the
    forehead cannot name."""
    if card is not None and not isinstance(card, str):
        raise InvalidInput("a card is written rank then suit, like AS, 10H or 7D")
    parsed = None if card is None else rules.parse_card(card)

    def make(acting: int, table: Table) -> rules.Command:
        if parsed is not None:
            return rules.PlayCard(acting, parsed)
        held = table.game.holdings[acting] if table.game.holdings else ()
        if len(held) != 1:
            raise InvalidInput("name the card to play; only a last card may go unnamed")
        return rules.PlayCard(acting, held[0])

    return _rules_command(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"card": None if parsed is None else str(parsed)},
        make=make,
    )


def game_announce_zero_play(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> CommandResult:
    return _rules_command(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"zero_play": True},
        make=lambda s, _: rules.AnnounceZeroPlay(s),
    )


def game_choose_one_card_mode(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    mode: str,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> CommandResult:
    try:
        visibility = Visibility(mode)
    except ValueError:
        raise InvalidOneCardMode(mode) from None
    return _rules_command(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"one_card_mode": visibility.value},
        make=lambda s, _: rules.ChooseOneCardMode(s, visibility),
    )


def game_open_demo_table(
    *, organizer: User, players: list[User], kind: str = ROMANIAN
) -> tuple[Game, bool]:
    """A table of bots for the demo (Championship rules, or a British rubber of
    classic Whist), unless these bots already play one of that game for the
    organizer; returns it and whether it is new."""
    with user_demo_lock(organizer):
        for playing in Game.objects.filter(
            creator_id=organizer.pk, status=Game.Status.PLAYING, kind=kind
        ):
            # The organizer's championship tables are not the demo table: its bots are.
            if _seated(playing) == sorted(player.pk for player in players):
                return playing, False
        preset = "british" if kind == CLASSIC else "championship"
        game = game_create(creator=organizer, player_count=len(players), preset=preset, kind=kind)
        for seat, player in enumerate(players):
            game_set_seat_bot(game_id=game.id, actor=organizer, seat=seat, bot=DEMO_BOT)
            game_join(game_id=game.id, user=player, alias=player.display_name.split()[0])
    return Game.objects.get(pk=game.id), True


def game_follow_demo_table(*, game_id: uuid.UUID) -> tuple[Game, bool] | None:
    """The demo table that follows ``game_id``, a demo table that finished: opened
    unless one of its game is in play already (this run's twin opened it), and
    whether it is new. None for any other game."""
    finished = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    organizer = None if finished is None else user_demo_organizer(finished.creator_id)
    if finished is None or organizer is None:
        return None
    players = user_ensure_bot_players()
    if _seated(finished) != sorted(player.pk for player in players):
        return None
    return game_open_demo_table(organizer=organizer, players=players, kind=finished.kind)


def _seated(game: Game) -> list[int]:
    return sorted(seat["user_id"] for seat in game.seats)


def game_set_seat_bot(
    *,
    game_id: uuid.UUID,
    actor: User,
    seat: int,
    bot: str | None,
    idempotency_key: str | None = None,
) -> CommandResult:
    """Let a bot play ``seat`` (``bot`` names it), or hand the seat back (None).

    The game's creator may do it for any seat, a player for their own."""
    if bot is not None and (not isinstance(bot, str) or bot not in BOTS):
        raise UnknownBot(bot, BOTS)

    def decide(table: Table) -> list[AnyEvent]:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise InvalidInput(f"there is no seat {seat} at this table")
        if actor.pk != table.creator_id and table.seat_of(actor.pk) != seat:
            raise NotYourSeat("only the game's creator or the seat's player may do that")
        if table.bots[seat] == bot:
            return []
        return _fold_all(table, [SeatAutomated(seat, bot)])

    return _execute(
        game_id=game_id,
        actor=actor,
        expected_version=None,
        idempotency_key=idempotency_key,
        command={"seat": seat, "bot": bot},
        decide=decide,
    )


def game_pause(*, game_id: uuid.UUID, actor: User, reason: str = "") -> CommandResult:
    """Stop the game: no move is taken, no bot or turn timer acts, until it is resumed.
    Only the game's creator (a championship's organizer) may."""
    return _set_paused(game_id, actor, GamePaused((reason or "").strip()[:200]))


def game_resume(*, game_id: uuid.UUID, actor: User) -> CommandResult:
    """Let the game go on; the seat to act gets its whole turn again."""
    return _set_paused(game_id, actor, GameResumed())


def _set_paused(game_id: uuid.UUID, actor: User, event: GamePaused | GameResumed) -> CommandResult:
    def decide(table: Table) -> list[AnyEvent]:
        if actor.pk != table.creator_id:
            raise NotYourSeat("only the game's creator may pause or resume it")
        if table.status != "playing":
            raise InvalidInput("only a game in play can be paused or resumed")
        if table.paused == isinstance(event, GamePaused):
            return []
        return _fold_all(table, [event])

    return _execute(
        game_id=game_id,
        actor=actor,
        expected_version=None,
        idempotency_key=None,
        command={"paused": isinstance(event, GamePaused)},
        decide=decide,
    )


def game_play_automatically(*, game_id: uuid.UUID, expected_version: int) -> CommandResult | None:
    """The bot's move for the seat to act, if the game is still at ``expected_version``:
    None when it moved on (the seat acted in time, or this move was already made)."""

    def decide(table: Table) -> list[AnyEvent]:
        game = table.game
        seat = game.turn
        bot = automatic_bot(table, seat)
        rng = random.Random(f"{game_id}:{table.version}")
        command: rules.Command
        if isinstance(game, classic.ClassicState):
            command = choose_classic_command(game, seat, rng, bot=bot, played=table.played)
        else:
            command = choose_command(game, seat, rng, bot=bot, played=table.played)
        return _decide(table, command) + _server_moves(game_id, table)

    table = load_table(game_id)
    if table.version != expected_version or automatic_move_delay(table) is None:
        return None
    try:
        return _execute(
            game_id=game_id,
            actor=None,
            expected_version=expected_version,
            idempotency_key=None,
            command={},
            decide=decide,
        )
    except VersionConflict:
        return None


def _rules_command(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    seat: int | None,
    expected_version: int | None,
    idempotency_key: str | None,
    command: dict[str, Any],
    make: Callable[[int, Table], rules.Command],
) -> CommandResult:
    def decide(table: Table) -> list[AnyEvent]:
        acting = _acting_seat(table, actor, seat)
        if table.paused:
            raise GamePausedError()
        return _decide(table, make(acting, table)) + _server_moves(game_id, table)

    return _execute(
        game_id=game_id,
        actor=actor,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command=command,
        decide=decide,
    )


def _decide(table: Table, command: rules.Command | classic.Command) -> list[AnyEvent]:
    """The events of ``command`` under the rules of the table's game, folded into it."""
    events: list[AnyEvent]
    if isinstance(table.game, classic.ClassicState):
        events = list(classic.decide(table.game, command))  # type: ignore[arg-type]
    else:
        events = list(rules.decide(table.game, command))  # type: ignore[arg-type]
    return _fold_all(table, events)


def _acting_seat(table: Table, actor: User | None, seat: int | None) -> int:
    """The seat a command acts for: the actor's own; the server (None) names it."""
    if actor is None:
        if seat is None:
            raise InvalidInput("the server must name the seat it acts for")
        return seat
    own = table.seat_of(actor.pk)
    if own is None:
        raise NotYourSeat("you have no seat at this table")
    if seat is not None and seat != own:
        raise NotYourSeat(f"seat {seat} is not yours; you sit in seat {own}")
    return own


def _start(game_id: uuid.UUID, table: Table) -> list[AnyEvent]:
    """Commit to every hand's secret, draw the first dealer, record the zero plays
    announced on joining, deal the first hand."""
    if isinstance(table.options, classic.ClassicOptions):
        # A game to points has no set number of hands: commit to as many as it can take.
        hands = classic.max_hands(table.options)
    else:
        hands = len(build_schedule(table.options, table.player_count))
    vault = _vault(_vault_stream(game_id, table), hands)
    if table.deal_set:
        # The tables of a set draw the same first dealer; the seed follows from a
        # secret kept until the set is over, so nobody can foresee it.
        seed = hashlib.sha256(b"atu-first-dealer:" + vault[0]).digest()[:16]
    else:
        seed = secrets.token_bytes(16)
    committed = DealsCommitted(seed.hex(), tuple(commitment(secret) for secret in vault))
    events = _fold_all(table, [committed])
    if isinstance(table.options, classic.ClassicOptions):
        return (
            events
            + _decide(table, classic.StartMatch(table.options, seed))
            + _server_moves(game_id, table)
        )
    events += _decide(table, rules.StartGame(table.player_count, table.options, seed))
    for number, seat in enumerate(table.seats):
        if seat is not None and seat.zero_play:
            events += _decide(table, rules.AnnounceZeroPlay(number))
    return events + _server_moves(game_id, table)


def _vault_stream(game_id: uuid.UUID, table: Table) -> str:
    return f"deals:{table.deal_set}" if table.deal_set else stream_of(game_id)


def _vault(stream: str, hands: int) -> list[bytes]:
    """Every hand's secret under ``stream``, drawn the first time it is asked for.

    Two commands may draw at once: joins racing for a table's last seat, or two
    tables of a deal set starting together. The first draw written is the one kept:
    the other's INSERT waits for it to commit and then skips those hands (ON CONFLICT
    DO NOTHING), and both read back what the vault holds, so a commitment is always
    to the stored secret. The vault is only ever inserted into, never updated."""

    def stored() -> dict[int, bytes]:
        rows = DealSecret.objects.filter(stream=stream).values_list("hand", "secret")
        return {hand: bytes(secret) for hand, secret in rows}

    kept = stored()
    missing = [hand for hand in range(hands) if hand not in kept]
    if missing:
        DealSecret.objects.bulk_create(
            (
                DealSecret(stream=stream, hand=hand, secret=secrets.token_bytes(32))
                for hand in missing
            ),
            ignore_conflicts=True,
        )
        kept = stored()
    return [kept[hand] for hand in range(hands)]


def _may_reveal(game_id: uuid.UUID, table: Table) -> bool:
    """A hand's secret is revealed once it is over; at a table of a deal set, only
    once every table of the set is over, since it would tell the others their cards."""
    if not table.deal_set:
        return True
    return table.status == "finished" and deal_set_over(table.deal_set, finishing=game_id)


def _server_moves(game_id: uuid.UUID, table: Table) -> list[AnyEvent]:
    """What the server does by itself once a command lands: reveal the secret of a
    finished hand, then deal the next one (unless its dealer must choose first)."""
    events: list[AnyEvent] = []
    while True:
        game = table.game
        if len(table.revealed) < len(game.results) and _may_reveal(game_id, table):
            hand = len(table.revealed)
            events += _fold_all(table, [DealRevealed(hand, _secret(game_id, table, hand).hex())])
        elif game.phase.value == "dealing":
            events += _decide(table, rules.DealHand(_secret(game_id, table, game.hand)))
        else:
            return events


# The vaults of games this process has dealt from, by stream: a secret never changes
# once drawn, so each game's vault is read once rather than once per hand and reveal.
# A vault is kept only once the transaction that read it committed (one that drew it
# and was rolled back leaves nothing), and only a game's own: a deal set's vault is
# shared by tables this process may not see, and read each time.
VAULTS_KEPT = 4096
_VAULTS: LRUCache[str, dict[int, bytes]] = LRUCache(maxsize=VAULTS_KEPT)
_VAULTS_LOCK = threading.Lock()


def _secret(game_id: uuid.UUID, table: Table, hand: int) -> bytes:
    stream = _vault_stream(game_id, table)
    with _VAULTS_LOCK:
        kept = _VAULTS.get(stream, {}).get(hand)
    if kept is not None:
        return kept
    if table.deal_set:
        return bytes(DealSecret.objects.get(stream=stream, hand=hand).secret)
    rows = DealSecret.objects.filter(stream=stream).values_list("hand", "secret")
    vault = {number: bytes(secret) for number, secret in rows}
    if hand not in vault:
        raise DealSecret.DoesNotExist(f"{stream} has no secret for hand {hand}")
    transaction.on_commit(partial(_keep_vault, stream, vault))
    return vault[hand]


def _keep_vault(stream: str, vault: dict[int, bytes]) -> None:
    with _VAULTS_LOCK:
        _VAULTS[stream] = vault


def _reveal_deal_set(deal_set: str, finished: uuid.UUID) -> None:
    """The last table of a deal set is over: every other table of it reveals its
    secrets now, through the one write path."""
    others = (
        Game.objects.filter(deal_set=deal_set).exclude(pk=finished).values_list("id", flat=True)
    )
    for other in others:
        _execute(
            game_id=other,
            actor=None,
            expected_version=None,
            idempotency_key=None,
            command={},
            decide=partial(_server_moves, other),
        )


def _fold_all(table: Table, events: list[AnyEvent]) -> list[AnyEvent]:
    fold(table, events)
    return events


class _Stale(Exception):
    """A command decided on this process's cached table, not on the log itself, met
    something the log may explain: it is decided again on the log."""


def _execute(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    expected_version: int | None,
    idempotency_key: str | None,
    command: dict[str, Any],
    decide: Callable[[Table], list[AnyEvent]],
    table: Table | None = None,
) -> CommandResult:
    """The write path: decide on the table, append at its version, project, and
    publish after the commit.

    A command of its own transaction is first decided on the table this process
    last knew to be committed (its own last write, or the last broadcast its
    sockets had), without reading the log. That table may lag behind the log, never
    run ahead of it (events are never changed), so appending after it either lands
    right after the log's last event or hits the unique (stream, sequence) pair.
    Whatever may come of a lag (that conflict, an error, a version other than
    expected, nothing to write) sends the command through again, decided on the
    log as read now: only a command that succeeds is ever answered from the cache.
    """
    run = partial(
        _execute_once,
        game_id=game_id,
        actor=actor,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command=command,
        decide=decide,
    )
    if table is None and not transaction.get_connection().in_atomic_block:
        cached = cached_table(game_id)
        if cached is not None:
            try:
                return run(table=cached, trusted=True)
            except _Stale:
                pass
    return run(table=table, trusted=False)


def _execute_once(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    expected_version: int | None,
    idempotency_key: str | None,
    command: dict[str, Any],
    decide: Callable[[Table], list[AnyEvent]],
    table: Table | None,
    trusted: bool,
) -> CommandResult:
    stream = stream_of(game_id)
    actor_id = actor.pk if actor is not None else None
    # A move's events and the read model written as one statement in autocommit (see
    # store.append_with), when nothing else is written with them: no receipt, no
    # deal set to reveal. Only from a trusted table (never inside a transaction, see
    # _execute): whatever goes wrong is retried on the log, in a transaction.
    single = (
        trusted
        and table is not None
        and not idempotency_key
        and not table.deal_set
        and transaction.get_connection().vendor == "postgresql"
    )
    with nullcontext() if single else transaction.atomic():
        if idempotency_key:
            receipt = CommandReceipt.objects.filter(stream=stream, key=idempotency_key).first()
            if receipt is not None:
                if receipt.command != command or receipt.actor_id != actor_id:
                    raise IdempotencyKeyReused(idempotency_key)
                return CommandResult(
                    game_id,
                    receipt.first_sequence,
                    receipt.last_sequence,
                    store.version(stream),
                    replayed=True,
                )
        if table is None:
            table = load_table(game_id)
        base = table.version
        if expected_version is not None and expected_version != base:
            if trusted:
                raise _Stale()
            raise VersionConflict(expected_version, base)
        before = projected(table)
        start = table.clone()
        try:
            if actor is not None and table.status == "finished":
                # No account's command changes a published record; only the server
                # still writes to it, revealing a deal set's secrets once the set is over.
                raise GameIsOver()
            if table.cancelled:
                raise TableCancelledError()
            events = decide(table)
        except (DomainError, RuleError) as error:
            if trusted:
                raise _Stale() from error
            raise
        if not events:
            if trusted:
                raise _Stale()
            # Nothing to change (a seat given to the bot it already had): no write.
            return CommandResult(game_id, base + 1, base, base)
        try:
            if single:
                recorded = _append_projected(game_id, stream, base, events, actor, table, before)
            else:
                # No savepoint: a conflict ends this transaction anyway.
                recorded = store.append(stream, base, events, actor, savepoint=False)
        except VersionConflict as error:
            if trusted:
                raise _Stale() from error
            raise
        if idempotency_key:
            CommandReceipt.objects.create(
                stream=stream,
                key=idempotency_key,
                actor=actor,
                command=command,
                first_sequence=base + 1,
                last_sequence=table.version,
            )
        if not single:
            project_game(game_id, table, updated_at=recorded[-1].recorded_at, since=before)
        table.moved_at = recorded[-1].recorded_at
        # The table is not changed from here on: the cache may keep it as it is.
        remember_table(game_id, table, recorded[-1], copy=False)
        finished = any(
            isinstance(event, rules.GameFinished | classic.MatchFinished) for event in events
        )
        if table.deal_set and finished and len(table.revealed) == len(table.game.results):
            _reveal_deal_set(table.deal_set, game_id)
        transaction.on_commit(partial(_committed, game_id, table.version, recorded), robust=True)
        transaction.on_commit(partial(schedule_automatic_move, game_id, table), robust=True)
        transaction.on_commit(
            partial(
                game_recorded.send,
                sender=Game,
                game_id=game_id,
                version=table.version,
                types=[record.type for record in recorded],
            ),
            robust=True,
        )
    return CommandResult(
        game_id,
        base + 1,
        table.version,
        table.version,
        records=tuple(recorded),
        before=start,
        table=table,
    )


def _committed(game_id: uuid.UUID, version: int, recorded: list[store.Recorded]) -> None:
    """The command's transaction committed: the table it cached stands for the log
    from now on, and the game's watchers are told."""
    trust_table(game_id, recorded[-1])
    publish(game_id, version, recorded)


def projected(table: Table) -> dict[str, Any]:
    """The read model's columns for ``table`` (``options`` as the options object)."""
    game = table.game
    if isinstance(game, classic.ClassicState):
        # Each player scores the points of their side; a match to points has no set
        # number of hands.
        scores, places = list(game.seat_points), list(game.places)
        hands_total = game.options.deals or 0
    else:
        scores, places, hands_total = list(game.scores), list(game.places), len(game.schedule)
    return {
        "code": table.code,
        "kind": table.kind,
        "status": table.status,
        "player_count": table.player_count,
        "preset": table.preset,
        "options": table.options,
        "creator_id": table.creator_id,
        "seats": [
            {"seat": number, "alias": seat.alias, "user_id": seat.user_id}
            for number, seat in enumerate(table.seats)
            if seat is not None
        ],
        "hand": game.hand,
        "hands_total": hands_total,
        "scores": scores,
        "places": places,
        "version": table.version,
        "deal_set": table.deal_set or "",
        "paused": table.paused,
        "rematch_of": uuid.UUID(table.rematch_of) if table.rematch_of else None,
    }


def project_game(
    game_id: uuid.UUID,
    table: Table,
    *,
    updated_at: datetime,
    created_at: datetime | None = None,
    since: dict[str, Any] | None = None,
) -> None:
    """Bring the game's read model to ``table``, whose last event was recorded at
    ``updated_at`` (and first at ``created_at``, when the row is new).

    ``since``: :func:`projected` of the version the row holds now (the write path
    projects every version it appends, in the same transaction): only the columns
    that changed since are written."""
    statement, params = _update_game(game_id, table, updated_at, since)
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(statement, params)
        updated = cursor.rowcount
    # One UPDATE per command; the row exists from the game's first event on, and a
    # rebuild creates it again.
    if not updated:
        values = {**projected(table), "options": table.options.to_dict()}
        Game.objects.create(
            pk=game_id, created_at=created_at or updated_at, updated_at=updated_at, **values
        )


def _append_projected(
    game_id: uuid.UUID,
    stream: str,
    base: int,
    events: list[AnyEvent],
    actor: User | None,
    table: Table,
    before: dict[str, Any],
) -> list[store.Recorded]:
    """Append ``events`` and bring the read model to ``table`` in one statement."""
    recorded, updated = store.append_with(
        stream,
        base,
        events,
        actor,
        lambda records: _update_game(game_id, table, records[-1].recorded_at, before),
    )
    if not updated:
        # A rebuild replaced the row while the statement waited for it: the events are
        # in, so the whole row is written again, as the UPDATE found it now.
        project_game(game_id, table, updated_at=recorded[-1].recorded_at)
    return recorded


def _update_game(
    game_id: uuid.UUID, table: Table, updated_at: datetime, since: dict[str, Any] | None
) -> tuple[str, list[Any]]:
    """The UPDATE of the game's row to ``table`` (the columns changed ``since``), in
    plain SQL (the ORM compiles the statement anew every time), and its parameters."""
    values = projected(table)
    changed = values if since is None else {k: v for k, v in values.items() if since[k] != v}
    if "options" in changed:
        changed["options"] = table.options.to_dict()
    changed["updated_at"] = updated_at
    connection = transaction.get_connection()
    meta = Game._meta
    params = [
        meta.get_field(name).get_db_prep_save(value, connection) for name, value in changed.items()
    ]
    params.append(meta.pk.get_db_prep_value(game_id, connection))
    return _update_game_sql(tuple(changed)), params


@lru_cache(maxsize=256)
def _update_game_sql(names: tuple[str, ...]) -> str:
    quote = transaction.get_connection().ops.quote_name
    meta = Game._meta
    columns = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in names)
    return f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"


def publish(game_id: uuid.UUID, version: int, records: Sequence[store.Recorded] = ()) -> None:
    """Tell the game's watchers that its log grew to ``version``, with the new
    ``records``: a socket that has sent everything before them folds them as they
    come instead of reading the log; any other reads what it missed from the log."""
    layer = get_channel_layer()
    if layer is not None:
        message: dict[str, Any] = {"type": "game.events", "version": version}
        if records:
            message["records"] = [store.record_to_message(r) for r in records]
        run_on_server_loop(partial(layer.group_send, group_name(game_id), message))


def new_code(model: type[Game] | type[Any] = Game) -> str:
    """A share code no row of ``model`` (games, or championship events) has yet."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not model.objects.filter(code=code).exists():
            return code
