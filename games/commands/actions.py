"""Business actions on games: the commands.

Each checks its input and hands the write path (:func:`games.write.path.execute`) a
decider: a function of the table, which folds the events it decides into it. The
table-level deciders they share are in :mod:`games.table.deciders`. Views, consumers and
tasks call these functions; nothing writes events another way.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Callable, Mapping
from contextlib import suppress
from functools import partial, update_wrapper
from typing import Any, ParamSpec

from django.db import IntegrityError, transaction

from accounts.guests import SEATED_THERE, Kept
from accounts.models import User
from accounts.services import (
    BOT_NAMES,
    user_bot_name,
    user_create_guest,
    user_demo_lock,
    user_demo_organizer,
    user_ensure_bot_players,
)
from games import rules
from games.bots import BOTS, choose_command

# The levels of bot to offer, weakest first, and the one a seat gets unless another is
# chosen: named here too for the championships, which use the games through their services.
from games.bots import DEFAULT_LEVEL as DEFAULT_LEVEL
from games.bots import LEVEL_NAMES as LEVEL_NAMES
from games.bots.classic import choose_classic_command
from games.commands.aliases import clean_alias, fitting_alias, require_free
from games.errors import (
    AlreadySeated,
    EventGameNoRematch,
    GameAlreadyStarted,
    GameIsOver,
    GameNotFinished,
    GamePausedError,
    InvalidInput,
    NoBotsInTheRoom,
    NotAPlayer,
    NotSeated,
    NotTheCreator,
    NotYourSeat,
    SeatOfABot,
    TableBegun,
    TableCancelledError,
    TableFull,
    UnknownBot,
    VersionConflict,
)
from games.models import Game
from games.read.selectors import player_games, rematch_game, table_home
from games.rules import (
    RuleOptions,
    Visibility,
    build_schedule,
    classic,
    options_from_dict,
)
from games.rules.errors import InvalidOneCardMode, ZeroPlayNotAllowed
from games.table import (
    CLASSIC,
    GAME_KINDS,
    ONLINE,
    PLACES,
    ROMANIAN,
    ROOM,
    AnyEvent,
    GameCreated,
    GamePaused,
    GameResumed,
    PlayerLeft,
    PlayerSeated,
    SeatAutomated,
    SeatHandedOver,
    SeatTaken,
    Table,
    TableCancelled,
)
from games.table.deciders import acting_seat, fold_all, ruled, start
from games.visibility import MAX_SPECTATOR_DELAY as MAX_SPECTATOR_DELAY
from games.visibility import directs_game, table_seat
from games.write.automatic import automatic_bot, automatic_move_delay, stands_in
from games.write.path import CommandResult, Move, execute, server_moves_of
from games.write.tables import load_table
from games.write.vault import Vault

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 600
# The demo table's bots: the strongest, as the table a visitor watches first. One
# table deciding once a bot delay costs little CPU at that level (decision 0801); a
# championship's several tables at once play the default level.
DEMO_BOT = "strong"
# How often a join is decided again after losing the race for a seat: once for each
# seat of the largest table, and once more to hear that it is full.
JOIN_ATTEMPTS = 7
# A Play-now table's turn: a player away this long has a bot stand in for them until
# they take their seat back, so the bots never wait for good (decision 3505).
PLAY_NOW_TURN_SECONDS = 60

P = ParamSpec("P")


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
    place: str = ONLINE,
    stand_in_seconds: int | None = None,
) -> Game:
    """Open a table of ``player_count`` seats under a preset and/or explicit options;
    with ``turn_seconds``, a seat that has not acted by then is played by a bot; with
    ``stand_in_seconds``, a bot stands in for a player that long into their turn, and
    plays their seat until they come back (they move, or take it back).

    ``kind``: the game the table plays, Romanian Whist (the default) or classic
    partnership Whist (four seats, presets and options of :mod:`games.rules.classic`).

    ``spectator_delay``: seconds spectators lag behind the play. ``deal_set``: every
    table of the set plays the same deals, seat by seat (a duplicate round); their
    secrets are revealed once every table of the set has finished. ``rematch_of``: the
    finished game whose players play again here (see :func:`game_rematch`).

    ``place``: ONLINE, played here, or ROOM, a Romanian Whist table played with real
    cards whose deals are recorded here (no turn timer: nobody waits on a browser)."""
    if kind not in GAME_KINDS:
        raise InvalidInput(f"there is no game {kind!r}; choose one of {', '.join(GAME_KINDS)}")
    if place not in PLACES:
        raise InvalidInput(f"a table is played {' or '.join(PLACES)}, not {place!r}")
    if place == ROOM and kind != ROMANIAN:
        raise InvalidInput("only Romanian Whist tables are recorded from the room")
    if place == ROOM:
        turn_seconds = stand_in_seconds = None
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
    _check_turn_seconds(turn_seconds, "a turn timer")
    _check_turn_seconds(stand_in_seconds, "a stand-in time")
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
        place,
        stand_in_seconds,
    )
    execute(
        Move(
            game_id=game_id,
            actor=creator,
            expected_version=0,
            idempotency_key=None,
            command={},
            decide=lambda table: fold_all(table, [created]),
        ),
        table=Table(),
    )
    return Game.objects.get(pk=game_id)


def _check_turn_seconds(seconds: object, what: str) -> None:
    """A time into a person's turn is whole seconds within the bounds, or None."""
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS
    ):
        raise InvalidInput(f"{what} is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds, or none")


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
        if zero_play and (table.is_classic or table.romanian_options.zero_play is None):
            raise ZeroPlayNotAllowed("zero play is not played at this table")
        free = table.seats.index(None)
        events = fold_all(table, [PlayerSeated(free, user.pk, alias, zero_play)])
        if table.is_full:
            events += start(table, Vault.of(game_id, table))
        return events

    return _seating(
        partial(
            execute,
            Move(
                game_id=game_id,
                actor=user,
                expected_version=None,
                idempotency_key=idempotency_key,
                command={"join": alias, "zero_play": zero_play},
                decide=decide,
            ),
        )
    )


def game_join_as_guest(*, game_id: uuid.UUID, alias: str = "") -> User:
    """Seat a visitor without an account at the table ``game_id``, waiting for its
    players, under ``alias`` (empty: their guest name), as a guest account made now
    as Play now makes one, named by the alias; returns the guest, to sign in.

    All of it or nothing: a table that has started (``game_started``), is full
    (``table_full``), or refuses the alias (``alias_invalid``, ``alias_taken``) leaves no
    guest behind. The seat is the guest's user id in the log: registering makes the
    same account a full one (:func:`accounts.services.user_register`)."""
    chosen = clean_alias(alias) if alias.strip() else ""
    if load_table(game_id).status == "playing":
        raise GameAlreadyStarted()
    with transaction.atomic():
        guest = user_create_guest(display_name=chosen)
        game_join(game_id=game_id, user=guest, alias=chosen or fitting_alias(guest.display, set()))
    return guest


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
        if table.in_room:
            raise NoBotsInTheRoom()
        # Only now: a refused request creates no account. The bots' accounts outlive
        # a command that then fails; they are the site's, made once.
        bots = user_ensure_bot_players(names=BOT_NAMES)
        seated = {seat.user_id for seat in table.seats if seat is not None}
        taken = {seat.alias for seat in table.seats if seat is not None}
        free = [number for number, seat in enumerate(table.seats) if seat is None]
        events: list[AnyEvent] = []
        # Enough bots for every seat of the largest table, even one with no person.
        for seat, bot in zip(free, (bot for bot in bots if bot.pk not in seated), strict=False):
            alias = fitting_alias(user_bot_name(bot), taken)
            events += fold_all(
                table, [SeatAutomated(seat, level), PlayerSeated(seat, bot.pk, alias)]
            )
        return events + start(table, Vault.of(game_id, table))

    return _seating(
        partial(
            execute,
            Move(
                game_id=game_id,
                actor=actor,
                expected_version=None,
                idempotency_key=idempotency_key,
                command={"fill_with_bots": level},
                decide=decide,
            ),
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
    at once. All of it, or nothing. Its turn timer is :data:`PLAY_NOW_TURN_SECONDS`,
    after which a bot stands in for the player until they take their seat back."""
    _require_level(level)
    with transaction.atomic():
        game = game_create(
            creator=user,
            player_count=player_count,
            preset=preset,
            options=options,
            turn_seconds=PLAY_NOW_TURN_SECONDS,
            stand_in_seconds=PLAY_NOW_TURN_SECONDS,
        )
        game_join(game_id=game.id, user=user, alias=fitting_alias(user.display, set()))
        game_fill_with_bots(game_id=game.id, actor=user, level=level)
    return Game.objects.get(pk=game.id)


def game_cancel(
    *, game_id: uuid.UUID, actor: User, idempotency_key: str | None = None
) -> CommandResult:
    """Call off a table before it starts: only its creator may. Nobody may sit at it
    or play it from then on; it leaves the lobby's lists."""
    return _called_off(
        game_id,
        actor,
        idempotency_key,
        {"cancel": True},
        lambda table: _require_waiting(table, actor),
    )


def game_call_off(
    *, game_id: uuid.UUID, actor: User, idempotency_key: str | None = None
) -> CommandResult:
    """Call off a table that started but where nobody has bid, played or written a deal
    down yet: only its creator may (a championship moving the table between the room
    and online opens it again there). Nobody plays it from then on."""

    def require_unbegun(table: Table) -> None:
        if not directs_game(game_id, table.creator_id, actor.pk):
            raise NotTheCreator("only the table's creator may do that")
        if table.begun:
            raise TableBegun()

    return _called_off(game_id, actor, idempotency_key, {"call_off": True}, require_unbegun)


def _called_off(
    game_id: uuid.UUID,
    actor: User,
    idempotency_key: str | None,
    command: dict[str, Any],
    require: Callable[[Table], None],
) -> CommandResult:
    def decide(table: Table) -> list[AnyEvent]:
        require(table)
        return fold_all(table, [TableCancelled()])

    return execute(
        Move(
            game_id=game_id,
            actor=actor,
            expected_version=None,
            idempotency_key=idempotency_key,
            command=command,
            decide=decide,
        )
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
        return fold_all(table, [PlayerLeft(seat)])

    return execute(
        Move(
            game_id=game_id,
            actor=actor,
            expected_version=None,
            idempotency_key=idempotency_key,
            command={"leave": True},
            decide=decide,
        )
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
    seat = table_seat(old, actor.pk)
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
        stand_in_seconds=old.stand_in_seconds,
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


def executed(move: Callable[P, Move]) -> Callable[P, CommandResult]:
    """The command ``move`` builds, run through the write path in this thread: what the
    REST API, the tasks and other apps call. The socket hands the move itself to the
    write path on its event loop (:func:`games.write.path.execute_on_loop`)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> CommandResult:
        return execute(move(*args, **kwargs))

    return update_wrapper(run, move)


def move_place_bid(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    bid: int,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
    """Bid ``bid`` tricks for the seat to act (``seat``: the actor's own, named)."""
    return _rules_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"bid": bid},
        make=lambda s, _: rules.PlaceBid(s, bid),
    )


def move_play_card(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    card: str | None,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
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

    return _rules_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"card": None if parsed is None else str(parsed)},
        make=make,
    )


def move_announce_zero_play(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
    return _rules_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"zero_play": True},
        make=lambda s, _: rules.AnnounceZeroPlay(s),
    )


def move_choose_one_card_mode(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    mode: str,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
    try:
        visibility = Visibility(mode)
    except ValueError:
        raise InvalidOneCardMode(mode) from None
    return _rules_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"one_card_mode": visibility.value},
        make=lambda s, _: rules.ChooseOneCardMode(s, visibility),
    )


def move_record_deal(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    hand: int,
    bids: list[int],
    tricks: list[int],
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
    """Write down deal ``hand`` of a table in the room: each seat's bid and tricks made,
    by seat. ``actor``: a player at the table (for their seat), the table's organizer
    (the director, for nobody's seat), or None: a scorer who gave the table's PIN,
    for ``seat`` (:mod:`games.web.room` checks the PIN before calling)."""
    return _recording_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"record_deal": {"hand": hand, "bids": bids, "tricks": tricks}},
        make=lambda by: rules.RecordDeal(hand, tuple(bids), tuple(tricks), by),
    )


def move_correct_deal(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    hand: int,
    bids: list[int],
    tricks: list[int],
    reason: str = "",
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
    """Write recorded deal ``hand`` anew (a confirmed one only with a ``reason``); the
    deals after it are scored again."""
    return _recording_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"correct_deal": {"hand": hand, "bids": bids, "tricks": tricks, "reason": reason}},
        make=lambda by: rules.CorrectDeal(hand, tuple(bids), tuple(tricks), reason, by),
    )


def move_confirm_deal(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    hand: int,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Move:
    """Agree with recorded deal ``hand``: another seat than the one that wrote it, or
    the director."""
    return _recording_move(
        game_id=game_id,
        actor=actor,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        command={"confirm_deal": {"hand": hand}},
        make=lambda by: rules.ConfirmDeal(hand, by),
    )


game_place_bid = executed(move_place_bid)
game_play_card = executed(move_play_card)
game_announce_zero_play = executed(move_announce_zero_play)
game_choose_one_card_mode = executed(move_choose_one_card_mode)
game_record_deal = executed(move_record_deal)
game_correct_deal = executed(move_correct_deal)
game_confirm_deal = executed(move_confirm_deal)


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

    The game's creator may do it for any seat, a player for their own. A seat whose
    player is a bot's account is never handed back: nobody would play it, and the
    table would wait for good (:class:`SeatOfABot`)."""
    if bot is not None and (not isinstance(bot, str) or bot not in BOTS):
        raise UnknownBot(bot, BOTS)

    def decide(table: Table) -> list[AnyEvent]:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise InvalidInput(f"there is no seat {seat} at this table")
        if table.seat_of(actor.pk) != seat and not directs_game(
            game_id, table.creator_id, actor.pk
        ):
            raise NotYourSeat("only the game's creator or the seat's player may do that")
        if table.bots[seat] == bot:
            return []
        if bot is not None and table.in_room:
            raise NoBotsInTheRoom()
        held = table.seats[seat]
        if bot is None and held is not None and _is_bot(held.user_id):
            raise SeatOfABot(seat)
        return fold_all(table, [SeatAutomated(seat, bot)])

    return execute(
        Move(
            game_id=game_id,
            actor=actor,
            expected_version=None,
            idempotency_key=idempotency_key,
            command={"seat": seat, "bot": bot},
            decide=decide,
        )
    )


def _is_bot(user_id: int) -> bool:
    return User.objects.filter(pk=user_id, is_bot=True).exists()


def game_substitute(
    *, game_id: uuid.UUID, actor: User, seat: int, user: User, alias: str
) -> CommandResult:
    """Hand a seat in play to ``user`` (a reserve, or its player back): only whoever
    directs the game (its creator, a championship's deputies) may. They play and see
    the seat from then on, and a bot playing it stops."""
    alias = clean_alias(alias)

    def decide(table: Table) -> list[AnyEvent]:
        if not directs_game(game_id, table.creator_id, actor.pk):
            raise NotYourSeat("only the game's director may hand a seat to a substitute")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise InvalidInput(f"there is no seat {seat} at this table")
        if table.status != "playing":
            raise InvalidInput("only a seat of a game in play can be handed over")
        taken = table.seat_of(user.pk)
        if taken is not None and taken != seat:
            raise AlreadySeated(taken)
        events: list[AnyEvent] = []
        if taken is None:
            others = (s for number, s in enumerate(table.seats) if s is not None and number != seat)
            require_free(alias, (other.alias for other in others))
            events.append(SeatTaken(seat, user.pk, alias))
        if table.bots[seat] is not None:
            events.append(SeatAutomated(seat, None))
        return fold_all(table, events)

    return execute(
        Move(
            game_id=game_id,
            actor=actor,
            expected_version=None,
            idempotency_key=None,
            command={"seat": seat, "substitute": user.pk},
            decide=decide,
        )
    )


def game_hand_over_seat(*, game_id: uuid.UUID, guest_id: int, account: User) -> CommandResult:
    """Hand the seat the guest ``guest_id`` holds at a table waiting or in play to the
    account they signed in to (decision 3507): the same person plays on as
    ``account``, under the same alias. Nothing to write if the guest holds no seat
    there (handed over already); refused if the account sits at the table already
    (:class:`AlreadySeated`: two seats for one person), or the game is over."""

    def decide(table: Table) -> list[AnyEvent]:
        seat = table.seat_of(guest_id)
        if seat is None:
            return []
        taken = table.seat_of(account.pk)
        if taken is not None:
            raise AlreadySeated(taken)
        return fold_all(table, [SeatHandedOver(seat, guest_id, account.pk)])

    return _seating(
        partial(
            execute,
            Move(
                game_id=game_id,
                actor=account,
                expected_version=None,
                idempotency_key=None,
                command={"hand_over_from": guest_id},
                decide=decide,
            ),
        )
    )


def game_hand_over_seats(guest_id: int, account_id: int) -> list[Kept]:
    """Every seat the guest ``guest_id`` holds at a table waiting or in play, handed to
    the account ``account_id`` they signed in to, one table at a time; the tables where
    the account sits already stay the guest's, and are returned. A game that finished
    meanwhile is the account's as the finished ones are (through the guest's record
    beside the log); a table cancelled meanwhile is nobody's."""
    account = User.objects.get(pk=account_id)
    kept = []
    for game in player_games([guest_id], finished=False):
        try:
            # A savepoint: a refusal leaves the sign-in's transaction as it was.
            with transaction.atomic():
                game_hand_over_seat(game_id=game.id, guest_id=guest_id, account=account)
        except AlreadySeated:
            kept.append(Kept(game.code, SEATED_THERE))
        except (GameIsOver, TableCancelledError):
            continue
    return kept


def game_pause(*, game_id: uuid.UUID, actor: User, reason: str = "") -> CommandResult:
    """Stop the game: no move is taken, no bot or turn timer acts, until it is resumed.
    Only the game's creator (a championship's organizer) may."""
    return _set_paused(game_id, actor, GamePaused((reason or "").strip()[:200]))


def game_resume(*, game_id: uuid.UUID, actor: User) -> CommandResult:
    """Let the game go on; the seat to act gets its whole turn again."""
    return _set_paused(game_id, actor, GameResumed())


def _set_paused(game_id: uuid.UUID, actor: User, event: GamePaused | GameResumed) -> CommandResult:
    def decide(table: Table) -> list[AnyEvent]:
        if not directs_game(game_id, table.creator_id, actor.pk):
            raise NotYourSeat("only the game's creator may pause or resume it")
        if table.status != "playing":
            raise InvalidInput("only a game in play can be paused or resumed")
        if table.paused == isinstance(event, GamePaused):
            return []
        return fold_all(table, [event])

    return execute(
        Move(
            game_id=game_id,
            actor=actor,
            expected_version=None,
            idempotency_key=None,
            command={"paused": isinstance(event, GamePaused)},
            decide=decide,
        )
    )


def game_play_automatically(*, game_id: uuid.UUID, expected_version: int) -> CommandResult | None:
    """The bot's move for the seat to act, if the game is still at ``expected_version``:
    None when it moved on (the seat acted in time, or this move was already made)."""

    def decide(table: Table) -> list[AnyEvent]:
        game = table.game
        seat = game.turn
        # The player stayed away their stand-in time: a bot plays the seat until
        # they come back.
        absent = fold_all(table, [SeatAutomated(seat, DEFAULT_LEVEL)]) if stands_in(table) else []
        bot = automatic_bot(table, seat)
        rng = random.Random(f"{game_id}:{table.version}")
        command: rules.Command
        if isinstance(game, classic.ClassicState):
            command = choose_classic_command(game, seat, rng, bot=bot, played=table.played)
        else:
            command = choose_command(game, seat, rng, bot=bot, played=table.played)
        return absent + ruled(table, command) + server_moves_of(game_id, table)

    table = load_table(game_id)
    if table.version != expected_version or automatic_move_delay(table) is None:
        return None
    try:
        return execute(
            Move(
                game_id=game_id,
                actor=None,
                expected_version=expected_version,
                idempotency_key=None,
                command={},
                decide=decide,
            )
        )
    except VersionConflict:
        return None


def game_call_time(*, game_id: uuid.UUID) -> CommandResult | None:
    """The round's clock ran out (a championship's rule): the deal in progress is
    finished and none follows it (games.rules.CallTime). Nobody's command but the
    clock's; None when there is nothing to do: the game is over, time was called
    already, or it is classic Whist, which has no such rule. Run twice, the second
    finds time called."""

    def decide(table: Table) -> list[AnyEvent]:
        game = table.game
        if not isinstance(game, rules.GameState) or game.time_called is not None:
            return []
        if game.phase in (rules.Phase.NOT_STARTED, rules.Phase.FINISHED):
            return []
        return ruled(table, rules.CallTime()) + server_moves_of(game_id, table)

    table = load_table(game_id)
    if table.status != "playing":
        return None
    result = execute(
        Move(
            game_id=game_id,
            actor=None,
            expected_version=None,
            idempotency_key=None,
            command={"call_time": True},
            decide=decide,
        )
    )
    return result if result.records else None


def _rules_move(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    seat: int | None,
    expected_version: int | None,
    idempotency_key: str | None,
    command: dict[str, Any],
    make: Callable[[int, Table], rules.Command],
) -> Move:
    actor_id = None if actor is None else actor.pk

    def decide(table: Table) -> list[AnyEvent]:
        acting = acting_seat(table, actor_id, seat)
        if table.paused:
            raise GamePausedError()
        # A person's own move takes their seat back from the bot playing it (a bot
        # account's seat stays its bot's).
        back = (
            fold_all(table, [SeatAutomated(acting, None)])
            if actor is not None and not actor.is_bot and table.bots[acting] is not None
            else []
        )
        return back + ruled(table, make(acting, table)) + server_moves_of(game_id, table)

    return Move(game_id, actor, expected_version, idempotency_key, command, decide)


def _recording_move(
    *,
    game_id: uuid.UUID,
    actor: User | None,
    seat: int | None,
    expected_version: int | None,
    idempotency_key: str | None,
    command: dict[str, Any],
    make: Callable[[int | None], rules.Command],
) -> Move:
    def decide(table: Table) -> list[AnyEvent]:
        # At a table played here the rules refuse it (PlayedTable).
        return ruled(table, make(recorder(game_id, table, actor, seat)))

    return Move(
        game_id, actor, expected_version, idempotency_key, command, decide, after_the_end=True
    )


def recorder(game_id: uuid.UUID, table: Table, actor: User | None, seat: int | None) -> int | None:
    """The seat a deal is written or confirmed for, None for the director: a player's
    own seat, the word of who directs the table (its creator, or an event's deputy;
    unless they sit at the table and name no other seat), or the seat a scorer who
    gave the PIN (``actor`` None) chose."""
    if actor is None:
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < table.player_count
        ):
            raise InvalidInput("a scorer names the seat they sit in")
        return seat
    own = table.seat_of(actor.pk)
    if own is not None and seat in (None, own):
        return own
    if directs_game(game_id, table.creator_id, actor.pk):
        return None
    return acting_seat(table, actor.pk, seat)


def new_code(model: type[Game] | type[Any] = Game) -> str:
    """A share code no row of ``model`` (games, or championship events) has yet."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not model.objects.filter(code=code).exists():
            return code
