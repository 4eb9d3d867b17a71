import asyncio
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.test import override_settings

from accounts.models import User
from accounts.services import user_ensure_bot_players, user_ensure_demo_organizer
from eventlog import store
from eventlog.models import StoredEvent
from eventlog.store import read
from games.commands import actions
from games.errors import (
    AlreadySeated,
    GameError,
    GameIsOver,
    IdempotencyKeyReused,
    InvalidInput,
    NotYourSeat,
    TableFull,
    VersionConflict,
)
from games.models import DealSecret, Game
from games.read.verification import verify_game
from games.rules import GameFinished, HandDealt, Phase, RuleError, classic
from games.rules.errors import NotYourTurn, ZeroPlayNotAllowed
from games.rules.shuffle import commitment
from games.table import DealRevealed, DealsCommitted, SeatTaken, Table, stream_of
from games.write import path as writepath
from games.write.automatic import automatic_move_delay
from games.write.projection import rebuild_game_projections
from games.write.tables import forget_tables, load_table, replay_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end, seated_game, user_to_act

pytestmark = pytest.mark.django_db


def test_a_full_table_starts_commits_every_deal_and_deals_the_first_hand() -> None:
    game_id, _ = seated_game(players=4, preset="championship")

    table = load_table(game_id)
    events = [record.event for record in read(stream_of(game_id))]
    committed = next(e for e in events if isinstance(e, DealsCommitted))
    assert table.game.phase is Phase.BIDDING
    assert len(committed.commitments) == 32
    assert [type(e).__name__ for e in events[:7]] == [
        "GameCreated",
        "PlayerSeated",
        "PlayerSeated",
        "PlayerSeated",
        "PlayerSeated",
        "DealsCommitted",
        "GameStarted",
    ]
    assert isinstance(events[7], HandDealt)
    assert Game.objects.get(pk=game_id).status == "playing"


def test_a_whole_game_through_the_services_reveals_every_secret_it_committed() -> None:
    game_id, users = seated_game(players=3, preset="classic-app")

    play_to_end(game_id, users, seed=1)

    events = [record.event for record in read(stream_of(game_id))]
    committed = next(e for e in events if isinstance(e, DealsCommitted))
    revealed = [e for e in events if isinstance(e, DealRevealed)]
    assert isinstance(events[-1], DealRevealed)
    assert any(isinstance(e, GameFinished) for e in events)
    assert [commitment(bytes.fromhex(e.secret)) for e in revealed] == list(committed.commitments)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    assert game.scores == list(load_table(game_id).game.scores)


def test_the_cached_table_equals_a_full_replay_of_the_log() -> None:
    game_id, users = seated_game(players=4)
    play_to_end(game_id, users, seed=2)

    cached = load_table(game_id)
    forget_tables()
    replayed, _ = replay_table(game_id)

    assert cached == replayed == load_table(game_id)


def acting(game_id: uuid.UUID, users: list[User]) -> tuple[User, Table]:
    table = load_table(game_id)
    return user_to_act(table, users), table


def test_a_command_at_a_stale_version_is_a_conflict_and_writes_nothing() -> None:
    game_id, users = seated_game(players=3)
    actor, table = acting(game_id, users)

    with pytest.raises(VersionConflict) as error:
        actions.game_place_bid(
            game_id=game_id, actor=actor, bid=0, expected_version=table.version - 1
        )

    assert error.value.status == 409
    assert error.value.message == (
        f"the game is at version {table.version}, not {table.version - 1}: reload and try again"
    )
    assert store.version(stream_of(game_id)) == table.version


def test_a_retried_command_gets_the_original_answer_and_no_second_event() -> None:
    game_id, users = seated_game(players=3)
    actor, table = acting(game_id, users)

    first = actions.game_place_bid(
        game_id=game_id, actor=actor, bid=1, expected_version=table.version, idempotency_key="k1"
    )
    again = actions.game_place_bid(
        game_id=game_id, actor=actor, bid=1, expected_version=table.version, idempotency_key="k1"
    )

    assert (first.first_sequence, first.last_sequence, first.replayed) == (
        table.version + 1,
        table.version + 1,
        False,
    )
    assert (again.first_sequence, again.last_sequence, again.replayed) == (
        first.first_sequence,
        first.last_sequence,
        True,
    )
    assert store.version(stream_of(game_id)) == table.version + 1


def test_an_idempotency_key_cannot_be_reused_for_another_command() -> None:
    game_id, users = seated_game(players=3)
    actor, _ = acting(game_id, users)
    actions.game_place_bid(game_id=game_id, actor=actor, bid=1, idempotency_key="k1")
    actor, _ = acting(game_id, users)

    with pytest.raises(IdempotencyKeyReused):
        actions.game_place_bid(game_id=game_id, actor=actor, bid=0, idempotency_key="k1")


def test_a_player_acts_only_for_their_own_seat() -> None:
    game_id, users = seated_game(players=3)
    actor, table = acting(game_id, users)
    other_seat = (table.game.turn + 1) % 3
    stranger = UserFactory.create()

    with pytest.raises(NotYourSeat, match=f"seat {other_seat} is not yours"):
        actions.game_place_bid(game_id=game_id, actor=actor, bid=0, seat=other_seat)
    with pytest.raises(NotYourSeat, match="you have no seat at this table"):
        actions.game_place_bid(game_id=game_id, actor=stranger, bid=0)
    with pytest.raises(NotYourTurn):
        actions.game_place_bid(game_id=game_id, actor=users[other_seat], bid=0)
    assert store.version(stream_of(game_id)) == table.version


def test_joining_refuses_a_second_seat_a_taken_alias_and_a_full_table() -> None:
    creator, second = UserFactory.create_batch(2)
    game = actions.game_create(creator=creator, player_count=3, preset="romanian-standard")
    actions.game_join(game_id=game.id, user=creator, alias="Ana")

    with pytest.raises(AlreadySeated):
        actions.game_join(game_id=game.id, user=creator, alias="Ana again")
    with pytest.raises(InvalidInput, match="the alias 'ana' is taken"):
        actions.game_join(game_id=game.id, user=second, alias="ana")
    with pytest.raises(InvalidInput, match="an alias is 1 to 24 characters"):
        actions.game_join(game_id=game.id, user=second, alias="   ")
    actions.game_join(game_id=game.id, user=second, alias="Bob")
    actions.game_join(game_id=game.id, user=UserFactory.create(), alias="Cid")
    with pytest.raises(TableFull):
        actions.game_join(game_id=game.id, user=UserFactory.create(), alias="Dan")


def test_a_game_is_created_open_with_a_share_code_and_its_options() -> None:
    creator = UserFactory.create()

    game = actions.game_create(
        creator=creator, player_count=5, preset="online-room", options={"scoring": "triangular"}
    )

    assert game.status == "open"
    assert len(game.code) == 6
    assert game.player_count == 5
    assert game.preset == "online-room"
    assert game.options["scoring"] == "triangular"
    assert game.options["streak_bonus"] == {"length": 5, "points": 10}
    assert game.version == 1
    assert game.creator_id == creator.pk


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"player_count": 2}, "invalid_player_count"),
        ({"player_count": "4"}, "invalid_input"),
        ({"player_count": 4, "preset": "poker"}, "invalid_options"),
        ({"player_count": 4, "options": {"step": 5}}, "invalid_options"),
    ],
)
def test_a_game_with_bad_settings_is_refused_and_nothing_is_written(
    kwargs: dict[str, Any], error: str
) -> None:
    with pytest.raises((GameError, RuleError)) as raised:
        actions.game_create(creator=UserFactory.create(), **kwargs)

    assert raised.value.code == error
    assert not StoredEvent.objects.exists()
    assert not Game.objects.exists()


def test_watchers_are_told_of_new_events_only_after_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game_id, users = seated_game(players=3)
    actor, table = acting(game_id, users)
    layer = get_channel_layer()

    def bid_and_commit() -> int:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            actions.game_place_bid(game_id=game_id, actor=actor, bid=0)
        for callback in callbacks:  # the commit
            callback()
        return len(callbacks)

    async def watch() -> tuple[int, dict[str, Any]]:
        channel = await layer.new_channel()
        await layer.group_add(writepath.group_name(game_id), channel)
        published = await sync_to_async(bid_and_commit)()
        return published, await asyncio.wait_for(layer.receive(channel), timeout=5)

    published, message = async_to_sync(watch)()

    # The broadcast and the check for a bot's turn; no other app acts on a bid, so none
    # is told of it (games.signals.GameRecorded).
    assert published == 2
    assert message["type"] == "game.events"
    assert message["version"] == table.version + 1
    # The new records ride along, so that watchers need not read the log.
    assert [record[:2] for record in message["records"]] == [[table.version + 1, "BidPlaced"]]


def test_zero_play_announced_on_joining_is_recorded_before_the_first_deal() -> None:
    users = UserFactory.create_batch(3)
    game = actions.game_create(creator=users[0], player_count=3, options={"zero_play": "start"})

    actions.game_join(game_id=game.id, user=users[0], alias="Ana")
    actions.game_join(game_id=game.id, user=users[1], alias="Bob", zero_play=True)
    actions.game_join(game_id=game.id, user=users[2], alias="Cid")

    types = [record.type for record in store.read(stream_of(game.id))]
    assert types[5:8] == ["GameStarted", "ZeroPlayAnnounced", "HandDealt"]
    assert load_table(game.id).game.zero_play == (False, True, False)


def test_zero_play_on_joining_is_refused_where_the_table_does_not_play_it() -> None:
    user = UserFactory.create()
    game = actions.game_create(creator=user, player_count=3, preset="championship")

    with pytest.raises(ZeroPlayNotAllowed):
        actions.game_join(game_id=game.id, user=user, alias="Ana", zero_play=True)
    assert store.version(stream_of(game.id)) == 1


def test_the_demo_table_seats_four_bots_once_and_is_not_opened_twice() -> None:
    organizer, _ = user_ensure_demo_organizer()
    players = user_ensure_bot_players()

    game, created = actions.game_open_demo_table(organizer=organizer, players=players)
    again, created_again = actions.game_open_demo_table(organizer=organizer, players=players)

    table = load_table(game.id)
    assert (created, created_again, again.pk) == (True, False, game.pk)
    assert table.bots == ("strong",) * 4
    assert [seat.alias for seat in table.seats if seat] == ["Ana", "Bogdan", "Carmen", "Dorin"]
    assert table.game.phase is Phase.BIDDING
    assert not any(player.has_usable_password() for player in players)


# --- Pausing --------------------------------------------------------------------------


def test_a_paused_game_refuses_every_move_until_its_creator_resumes_it() -> None:
    # Given a game in play, paused by its creator
    game_id, users = seated_game(players=3)
    actor, table = acting(game_id, users)
    actions.game_pause(game_id=game_id, actor=users[0], reason="a player's phone died")

    # When the player to act bids
    with pytest.raises(GameError) as refused:
        actions.game_place_bid(game_id=game_id, actor=actor, bid=0)

    # Then it is refused, nothing is written, and the state says paused
    assert refused.value.code == "game_paused"
    assert refused.value.status == 409
    paused = load_table(game_id)
    assert paused.paused is True
    assert paused.version == table.version + 1
    assert Game.objects.get(pk=game_id).paused is True
    assert [r.type for r in read(stream_of(game_id))][-1] == "GamePaused"
    assert read(stream_of(game_id))[-1].payload == {"reason": "a player's phone died"}

    # And once resumed the same bid lands
    actions.game_resume(game_id=game_id, actor=users[0])
    actions.game_place_bid(game_id=game_id, actor=actor, bid=0)
    assert load_table(game_id).paused is False
    assert load_table(game_id).game.bids[table.game.turn] == 0


def test_only_the_creator_pauses_and_pausing_twice_writes_once() -> None:
    game_id, users = seated_game(players=3)

    with pytest.raises(NotYourSeat):
        actions.game_pause(game_id=game_id, actor=users[1])
    first = actions.game_pause(game_id=game_id, actor=users[0])
    second = actions.game_pause(game_id=game_id, actor=users[0])

    assert second.version == first.version
    assert [r.type for r in read(stream_of(game_id))].count("GamePaused") == 1


@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_paused_game_waits_for_no_bot_and_no_timer() -> None:
    game_id, users = seated_game(players=3)
    seat = load_table(game_id).game.turn
    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="heuristic")
    before = load_table(game_id).version
    assert automatic_move_delay(load_table(game_id)) is not None

    actions.game_pause(game_id=game_id, actor=users[0])

    assert automatic_move_delay(load_table(game_id)) is None
    assert actions.game_play_automatically(game_id=game_id, expected_version=before + 1) is None


# --- Duplicate deal sets ------------------------------------------------------------------


def duplicate_tables(count: int, deal_set: str) -> list[tuple[uuid.UUID, list[User]]]:
    creator = UserFactory.create()
    tables = []
    for _ in range(count):
        game = actions.game_create(
            creator=creator,
            player_count=3,
            preset="romanian-standard",
            options={"repeat_one_card_deals": False, "repeat_eight_card_deals": False, "step": 2},
            deal_set=deal_set,
        )
        users = UserFactory.create_batch(3)
        for number, user in enumerate(users):
            actions.game_join(game_id=game.id, user=user, alias=f"P{number}")
        tables.append((game.id, users))
    return tables


def test_tables_of_a_deal_set_are_dealt_the_same_cards_seat_by_seat_and_the_same_dealer() -> None:
    (first, first_users), (second, second_users) = duplicate_tables(2, "cup:1:3")
    play_to_end(first, first_users, seed=1)
    play_to_end(second, second_users, seed=2)

    def deals(game_id: uuid.UUID) -> list[dict[str, Any]]:
        return [r.payload for r in read(stream_of(game_id)) if r.type == "HandDealt"]

    assert deals(first) == deals(second)
    assert len(deals(first)) == len(load_table(first).game.schedule)
    committed = [
        [r.payload for r in read(stream_of(game_id)) if r.type == "DealsCommitted"]
        for game_id in (first, second)
    ]
    assert committed[0] == committed[1]


def test_a_deal_set_reveals_its_secrets_only_once_every_table_is_over() -> None:
    # Given two tables of a set, the first finished
    (first, first_users), (second, second_users) = duplicate_tables(2, "cup:2:3")
    play_to_end(first, first_users, seed=1)

    # Then the first has revealed nothing: its deals are still being played next door
    def revealed(game_id: uuid.UUID) -> list[int]:
        return [r.payload["hand"] for r in read(stream_of(game_id)) if r.type == "DealRevealed"]

    assert load_table(first).status == "finished"
    assert revealed(first) == []

    # When the second finishes, both reveal every secret, each checking its commitment
    play_to_end(second, second_users, seed=2)
    hands = list(range(len(load_table(first).game.schedule)))
    assert revealed(first) == hands
    assert revealed(second) == hands
    table = load_table(first)
    assert [commitment(bytes.fromhex(s)) for s in table.revealed] == list(table.commitments)


# --- A finished game --------------------------------------------------------------------

FINISHED_GAME_COMMANDS: dict[str, Any] = {
    "seat_bot_by_the_creator": lambda game, users, _: actions.game_set_seat_bot(
        game_id=game, actor=users[0], seat=1, bot="heuristic"
    ),
    "seat_bot_by_its_player": lambda game, users, _: actions.game_set_seat_bot(
        game_id=game, actor=users[2], seat=2, bot="random"
    ),
    "bid": lambda game, users, _: actions.game_place_bid(game_id=game, actor=users[1], bid=0),
    "play": lambda game, users, _: actions.game_play_card(game_id=game, actor=users[1], card="AS"),
    "zero_play": lambda game, users, _: actions.game_announce_zero_play(
        game_id=game, actor=users[1]
    ),
    "one_card_mode": lambda game, users, _: actions.game_choose_one_card_mode(
        game_id=game, actor=users[1], mode="open"
    ),
    "join": lambda game, _, stranger: actions.game_join(game_id=game, user=stranger, alias="Late"),
    "pause": lambda game, users, _: actions.game_pause(game_id=game, actor=users[0]),
    "resume": lambda game, users, _: actions.game_resume(game_id=game, actor=users[0]),
}


@pytest.mark.parametrize("command", sorted(FINISHED_GAME_COMMANDS))
def test_every_command_on_a_finished_game_is_refused_as_game_over_and_writes_nothing(
    command: str,
) -> None:
    # Given a finished game
    game_id, users = seated_game(players=3, preset="classic-app")
    play_to_end(game_id, users, seed=1)
    version = store.version(stream_of(game_id))

    # When an account sends a command to it
    with pytest.raises(GameIsOver) as refused:
        FINISHED_GAME_COMMANDS[command](game_id, users, UserFactory.create())

    # Then it is refused with the code of a finished game, and its log does not move
    assert (refused.value.code, refused.value.status) == ("game_over", 400)
    assert refused.value.message == "the game is over: its record is final"
    assert store.version(stream_of(game_id)) == version


# --- Substitutes --------------------------------------------------------------------------


def test_a_log_holding_a_seat_taken_by_a_substitute_still_reads_and_the_substitute_plays() -> None:
    # Given a game in play whose log holds a SeatTaken, as the command that handed a
    # seat over wrote it before it was removed (no view or API ever called it)
    game_id, users = seated_game(players=3)
    actor, table = acting(game_id, users)
    seat = table.game.turn
    substitute = UserFactory.create()
    with transaction.atomic():
        store.append(
            stream_of(game_id), table.version, [SeatTaken(seat, substitute.pk, "Sub")], users[0]
        )

    # Then the substitute holds the seat and plays it; the player who left may not
    after = load_table(game_id)
    assert after.seats[seat] is not None
    assert (after.seats[seat].user_id, after.seats[seat].alias) == (substitute.pk, "Sub")
    with pytest.raises(NotYourSeat):
        actions.game_place_bid(game_id=game_id, actor=actor, bid=0)
    actions.game_place_bid(game_id=game_id, actor=substitute, bid=0)
    assert load_table(game_id).game.bids[seat] == 0
    taken = [r.payload for r in read(stream_of(game_id)) if r.type == "SeatTaken"]
    assert taken == [{"seat": seat, "user_id": substitute.pk, "alias": "Sub"}]


# --- classic partnership Whist on the same tables -----------------------------------


def test_a_full_classic_table_commits_to_every_hand_a_match_can_take_and_deals_thirteen_each() -> (
    None
):
    # Given four players at a classic table playing one game to 5
    game_id, _ = seated_game(kind="classic", preset=None, options={"target": 5})

    # Then the game started, committed to the 9 hands a game to 5 can take at most,
    # and dealt the first hand
    records = read(stream_of(game_id))
    assert [r.type for r in records[5:]] == [
        "DealsCommitted",
        "classic.MatchStarted",
        "classic.HandDealt",
    ]
    committed = records[5].event
    assert isinstance(committed, DealsCommitted)
    assert len(committed.commitments) == 9
    table = load_table(game_id)
    assert isinstance(table.game, classic.ClassicState)
    assert [len(cards) for cards in table.game.holdings] == [13, 13, 13, 13]
    assert table.to_act == (table.game.dealer + 1) % 4
    game = Game.objects.get(pk=game_id)
    assert (game.kind, game.status, game.hands_total) == ("classic", "playing", 0)


def test_a_classic_tournament_match_projects_each_players_side_points_and_reveals_its_deals() -> (
    None
):
    # Given a classic table playing the tournament form of two deals
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 2})

    # When it is played to the end through the services
    play_to_end(game_id, users, seed=3)

    # Then each player scores their side's odd tricks, and both secrets are revealed
    table = load_table(game_id)
    state = table.game
    assert isinstance(state, classic.ClassicState)
    a, b = state.points
    assert a + b == sum(max(r.tricks) - 6 for r in state.results)
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.hands_total, game.scores) == ("finished", 2, [a, b, a, b])
    assert game.places == list(state.places)
    revealed = [r.event for r in read(stream_of(game_id)) if r.type == "DealRevealed"]
    committed = next(r.event for r in read(stream_of(game_id)) if r.type == "DealsCommitted")
    assert isinstance(committed, DealsCommitted)
    assert [commitment(bytes.fromhex(e.secret)) for e in revealed] == list(committed.commitments)


def test_a_bid_or_a_zero_play_at_a_classic_table_is_refused_as_not_in_this_game() -> None:
    game_id, users = seated_game(kind="classic", preset="american")
    actor = next(
        u for u in users if load_table(game_id).seat_of(u.pk) == load_table(game_id).to_act
    )
    version = load_table(game_id).version

    with pytest.raises(RuleError) as refused:
        actions.game_place_bid(game_id=game_id, actor=actor, bid=3)

    assert refused.value.code == "not_in_this_game"
    assert refused.value.message == "classic whist has no PlaceBid: players only play cards"
    with pytest.raises(ZeroPlayNotAllowed):
        actions.game_join(
            game_id=actions.game_create(creator=users[0], player_count=4, kind="classic").id,
            user=users[1],
            alias="Ana",
            zero_play=True,
        )
    assert load_table(game_id).version == version


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"player_count": 3}, InvalidInput, "classic whist is played by four, in two partnerships"),
        ({"preset": "championship"}, RuleError, "unknown preset 'championship'"),
        ({"options": {"rubber": True, "deals": 8}}, RuleError, "not a rubber"),
        ({"kind": "bridge"}, InvalidInput, "there is no game 'bridge'"),
    ],
)
def test_a_classic_table_is_for_four_with_its_own_presets_and_options(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    creator = UserFactory.create()
    given = {"player_count": 4, "kind": "classic", **arguments}

    with pytest.raises(error, match=message):
        actions.game_create(creator=creator, **given)

    assert not Game.objects.exists()


def test_a_bot_plays_a_classic_seat_through_the_automatic_move() -> None:
    # Given a classic table where the seat to play has handed its seat to a bot
    game_id, users = seated_game(kind="classic", preset="british")
    table = load_table(game_id)
    seat = table.to_act
    assert seat is not None
    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="heuristic")
    table = load_table(game_id)
    assert automatic_move_delay(table) is not None

    # When the automatic move comes due
    result = actions.game_play_automatically(game_id=game_id, expected_version=table.version)

    # Then the bot played one of the seat's legal cards, and a second run does nothing
    assert result is not None
    played = read(stream_of(game_id), after=table.version)[0].event
    assert isinstance(played, classic.CardPlayed)
    assert played.seat == seat
    assert isinstance(table.game, classic.ClassicState)
    assert played.card in classic.legal_plays(table.game)
    assert actions.game_play_automatically(game_id=game_id, expected_version=table.version) is None


# --- The write path's own shortcuts ------------------------------------------------------


def game_rows() -> list[dict[str, Any]]:
    return list(Game.objects.order_by("id").values())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("kind", "preset", "options"),
    [("romanian", "championship", None), ("classic", "whist-drive", {"deals": 2})],
)
def test_the_read_model_written_column_by_column_equals_a_projection_of_the_whole_log(
    kind: str, preset: str, options: dict[str, Any] | None
) -> None:
    # Given games played move by move, each move writing only the columns it changed
    # (and deciding on the table the last move left in this process's cache)
    players = 4 if kind == "classic" else 3
    game_id, users = seated_game(players=players, preset=preset, options=options, kind=kind)
    play_to_end(game_id, users, seed=4)
    paused_id, others = seated_game(players=players, preset=preset, options=options, kind=kind)
    actions.game_pause(game_id=paused_id, actor=others[0], reason="lunch")
    live = game_rows()

    # When the read model is rebuilt from the log, every column projected at once
    rebuild_game_projections()

    # Then it is the same, row for row
    assert game_rows() == live
    assert {row["status"] for row in live} == {"finished", "playing"}
    assert [row["paused"] for row in live if row["id"] == paused_id] == [True]


@pytest.mark.django_db(transaction=True)
def test_a_start_that_was_rolled_back_leaves_no_secret_behind() -> None:
    # Given a table whose start (drawing every hand's secret and dealing the first
    # hand) is rolled back with the transaction around it
    users = UserFactory.create_batch(3)
    game = actions.game_create(creator=users[0], player_count=3, preset="championship")
    for number, user in enumerate(users[:2]):
        actions.game_join(game_id=game.id, user=user, alias=f"P{number}")
    with pytest.raises(RuntimeError), transaction.atomic():
        actions.game_join(game_id=game.id, user=users[2], alias="P2")
        raise RuntimeError("rolled back")
    assert not DealSecret.objects.filter(stream=stream_of(game.id)).exists()

    # When it starts for good and plays on
    actions.game_join(game_id=game.id, user=users[2], alias="P2")
    play_to_end(game.id, users, seed=6)

    # Then every hand was dealt from the secrets drawn then, as each reveal proves
    events = [record.event for record in read(stream_of(game.id))]
    committed = next(e for e in events if isinstance(e, DealsCommitted))
    revealed = [e for e in events if isinstance(e, DealRevealed)]
    assert [commitment(bytes.fromhex(e.secret)) for e in revealed] == list(committed.commitments)
    assert verify_game(game.id).ok


# --- The waiting room: bots to fill it, cancelling, leaving, and Play now -------------


def waiting_table(players: int = 4, seated: int = 1) -> tuple[Game, list[User]]:
    """An open table whose first ``seated`` seats are taken, the first by its creator."""
    users = UserFactory.create_batch(seated)
    game = actions.game_create(creator=users[0], player_count=players, preset="championship")
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    return game, users


def test_the_creator_fills_every_free_seat_with_a_bot_of_the_level_chosen_and_the_game_starts() -> (
    None
):
    game, (creator, _) = waiting_table(players=5, seated=2)

    actions.game_fill_with_bots(game_id=game.id, actor=creator, level="strong")

    table = load_table(game.id)
    bot_users = User.objects.in_bulk([seat.user_id for seat in table.seats[2:] if seat])
    assert table.status == "playing"
    assert table.bots == (None, None, "strong", "strong", "strong")
    assert [seat.alias for seat in table.seats if seat] == [
        "Player 1",
        "Player 2",
        "Ana",
        "Bogdan",
        "Carmen",
    ]
    assert [user.is_bot for user in bot_users.values()] == [True, True, True]
    assert Game.objects.get(pk=game.id).status == "playing"


def test_bots_fill_a_table_whose_creator_took_no_seat_and_their_aliases_stay_apart() -> None:
    creator = UserFactory()
    game = actions.game_create(creator=creator, player_count=6, preset="championship")
    actions.game_join(game_id=game.id, user=UserFactory(), alias="ana")

    actions.game_fill_with_bots(game_id=game.id, actor=creator, level="easy")

    table = load_table(game.id)
    assert [seat.alias for seat in table.seats if seat] == [
        "ana",
        "Ana 2",
        "Bogdan",
        "Carmen",
        "Dorin",
        "Elena",
    ]
    assert table.bots == (None, "easy", "easy", "easy", "easy", "easy")


@pytest.mark.parametrize(
    ("who", "level", "error"),
    [("player", "medium", "not_the_creator"), ("creator", "grandmaster", "invalid_input")],
)
def test_only_the_creator_fills_a_table_and_only_with_a_level_there_is(
    who: str, level: str, error: str
) -> None:
    game, (creator, player) = waiting_table(seated=2)

    with pytest.raises(GameError) as refused:
        actions.game_fill_with_bots(
            game_id=game.id, actor=creator if who == "creator" else player, level=level
        )

    assert refused.value.code == error
    assert load_table(game.id).status == "open"


def test_a_started_table_is_not_filled_cancelled_or_left() -> None:
    game_id, users = seated_game(players=3)

    for command in (
        lambda: actions.game_fill_with_bots(game_id=game_id, actor=users[0]),
        lambda: actions.game_cancel(game_id=game_id, actor=users[0]),
        lambda: actions.game_leave(game_id=game_id, actor=users[1]),
    ):
        with pytest.raises(GameError) as refused:
            command()
        assert (refused.value.code, refused.value.status) == ("game_started", 409)
    assert load_table(game_id).status == "playing"


def test_play_now_seats_the_player_and_bots_of_the_level_and_starts_at_once() -> None:
    user = UserFactory(display_name="Maria Popescu")

    game = actions.game_play_now(
        user=user, preset="romanian-standard", player_count=3, level="easy", options={"step": 2}
    )

    table = load_table(game.id)
    assert game.status == "playing"
    assert game.creator_id == user.pk
    assert table.seat_of(user.pk) == 0
    assert [seat.alias for seat in table.seats if seat] == ["Maria Popescu", "Ana", "Bogdan"]
    assert table.bots == (None, "easy", "easy")
    assert table.options.step == 2


@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are driven here
def test_play_now_times_the_players_turn_and_a_bot_stands_in_when_it_runs_out() -> None:
    # Given a Play-now table, the bots played up to the player's turn
    user = UserFactory()
    game = actions.game_play_now(user=user, preset="romanian-standard", player_count=3)
    while (table := load_table(game.id)).game.turn != 0:
        actions.game_play_automatically(game_id=game.id, expected_version=table.version)

    # Then the player's turn is timed, as the table's rules say
    assert (table.turn_seconds, table.stand_in_seconds) == (60, 60)
    assert automatic_move_delay(table) == 60.0

    # When their minute runs out
    actions.game_play_automatically(game_id=game.id, expected_version=table.version)

    # Then a bot stands in for them, its first move written with it, until they come back
    after = load_table(game.id)
    assert after.bots == ("medium", "medium", "medium")
    records = read(stream_of(game.id), after=table.version)
    assert records[0].type == "SeatAutomated"
    assert records[1].payload["seat"] == 0
    actions.game_set_seat_bot(game_id=game.id, actor=user, seat=0, bot=None)
    assert load_table(game.id).bots == (None, "medium", "medium")


@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_seat_a_bots_account_holds_is_never_handed_back_to_nobody() -> None:
    # Given a Play-now table: its creator in seat 0, bots' accounts in the others
    user = UserFactory()
    game = actions.game_play_now(user=user, preset="romanian-standard", player_count=3)
    version = load_table(game.id).version

    # When its creator takes the bot off a bot's own seat
    with pytest.raises(GameError) as refused:
        actions.game_set_seat_bot(game_id=game.id, actor=user, seat=1, bot=None)

    # Then it is refused, and nothing is written: the table would wait for nobody
    assert (refused.value.code, refused.value.status) == ("seat_of_a_bot", 409)
    assert load_table(game.id).version == version
    # while the bot's level may change, and a person's seat goes back to them
    actions.game_set_seat_bot(game_id=game.id, actor=user, seat=1, bot="strong")
    actions.game_set_seat_bot(game_id=game.id, actor=user, seat=0, bot="easy")
    actions.game_set_seat_bot(game_id=game.id, actor=user, seat=0, bot=None)
    assert load_table(game.id).bots == (None, "strong", "medium")


def test_play_now_refused_leaves_no_table_behind() -> None:
    user = UserFactory()

    with pytest.raises(InvalidInput):
        actions.game_play_now(user=user, preset="championship", player_count=3, level="godlike")
    with pytest.raises(RuleError):
        actions.game_play_now(user=user, preset="nonesuch", player_count=3)

    assert Game.objects.count() == 0


def test_the_creator_cancels_an_open_table_which_then_takes_no_one() -> None:
    game, (creator,) = waiting_table()

    actions.game_cancel(game_id=game.id, actor=creator)

    assert load_table(game.id).status == "cancelled"
    assert Game.objects.get(pk=game.id).status == "cancelled"
    assert list(Game.objects.filter(status="open")) == []
    with pytest.raises(GameError) as refused:
        actions.game_join(game_id=game.id, user=UserFactory(), alias="Late")
    assert (refused.value.code, refused.value.status) == ("table_cancelled", 409)
    assert verify_game(game.id).ok


def test_only_the_creator_cancels_a_table() -> None:
    game, (_, player) = waiting_table(seated=2)

    with pytest.raises(GameError) as refused:
        actions.game_cancel(game_id=game.id, actor=player)

    assert (refused.value.code, refused.value.status) == ("not_the_creator", 403)
    assert load_table(game.id).status == "open"


def test_a_player_who_leaves_frees_the_seat_for_the_next_to_sit_down() -> None:
    game, (creator, leaver) = waiting_table(seated=2)
    actions.game_set_seat_bot(game_id=game.id, actor=creator, seat=1, bot="easy")

    actions.game_leave(game_id=game.id, actor=leaver)

    table = load_table(game.id)
    assert table.seats[1] is None
    assert table.bots[1] is None
    assert Game.objects.get(pk=game.id).seats == [
        {"seat": 0, "alias": "Player 1", "user_id": creator.pk}
    ]
    newcomer = UserFactory()
    actions.game_join(game_id=game.id, user=newcomer, alias="Player 2")
    assert load_table(game.id).seat_of(newcomer.pk) == 1
    assert verify_game(game.id).ok


def test_who_has_no_seat_cannot_leave_one() -> None:
    game, _ = waiting_table()

    with pytest.raises(GameError) as refused:
        actions.game_leave(game_id=game.id, actor=UserFactory())

    assert (refused.value.code, refused.value.status) == ("not_seated", 409)


@pytest.mark.django_db(transaction=True)
def test_a_move_on_a_game_this_process_knows_is_one_write_and_no_read(
    django_assert_num_queries: Any,
) -> None:
    # Given a game in play whose last command this process made
    game_id, users = seated_game(players=3, preset="romanian-standard")
    table = load_table(game_id)
    actions.game_place_bid(
        game_id=game_id, actor=user_to_act(table, users), bid=0, expected_version=table.version
    )
    table = load_table(game_id)

    # When the next player bids, then the command reads nothing and writes once: one
    # statement on PostgreSQL, the event's INSERT and the read model's UPDATE in one
    # transaction on SQLite
    writes = 1 if connection.vendor == "postgresql" else 4
    with django_assert_num_queries(writes) as captured:
        result = actions.game_place_bid(
            game_id=game_id, actor=user_to_act(table, users), bid=0, expected_version=table.version
        )

    assert result.version == table.version + 1
    assert [record.type for record in result.records] == ["BidPlaced"]
    assert not any(q["sql"].startswith("SELECT") for q in captured.captured_queries)


# --- Rematch ------------------------------------------------------------------------------

# Nine short deals: a whole game in a moment.
SHORT_RULES = {
    "schedule": "1-8-1",
    "step": 2,
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
}


def finished_game_with_bots() -> tuple[uuid.UUID, User, list[User]]:
    """A finished three-seat game with a 60 s turn timer: a person in seat 0, the bot
    players Ana (random) and Bogdan (heuristic) in seats 1 and 2."""
    person = UserFactory.create()
    bots = user_ensure_bot_players(names=("Ana", "Bogdan"))
    game = actions.game_create(
        creator=person, player_count=3, preset="classic-app", options=SHORT_RULES, turn_seconds=60
    )
    actions.game_join(game_id=game.id, user=person, alias="Ioana")
    for seat, (bot, level) in enumerate(zip(bots, ("random", "heuristic"), strict=True), start=1):
        actions.game_set_seat_bot(game_id=game.id, actor=person, seat=seat, bot=level)
        actions.game_join(game_id=game.id, user=bot, alias=bot.display_name.split()[0])
    play_to_end(game.id, [person, *bots])
    return game.id, person, bots


def test_a_rematch_seats_the_asker_and_the_same_bots_at_a_new_table_under_the_same_rules() -> None:
    # Given a finished game of a person against two bots
    game_id, person, bots = finished_game_with_bots()
    old = Game.objects.get(pk=game_id)

    # When its player asks for a rematch
    rematch = actions.game_rematch(game_id=game_id, actor=person)

    # Then a new table of the same rules starts at once, the bots in their seats at their levels
    table = load_table(rematch.id)
    assert rematch.id != game_id
    assert rematch.rematch_of == game_id
    assert (rematch.kind, rematch.preset, rematch.player_count) == ("romanian", "classic-app", 3)
    assert rematch.options == old.options
    assert table.turn_seconds == 60
    assert rematch.creator_id == person.pk
    assert [(s["alias"], s["user_id"]) for s in rematch.seats] == [
        ("Ioana", person.pk),
        ("Ana", bots[0].pk),
        ("Bogdan", bots[1].pk),
    ]
    assert table.bots == (None, "random", "heuristic")
    assert rematch.status == "playing"


def test_asking_again_for_a_rematch_returns_the_same_table_and_leaves_the_finished_log_alone() -> (
    None
):
    # Given a finished game and its rematch
    game_id, person, _ = finished_game_with_bots()
    version = store.version(stream_of(game_id))
    first = actions.game_rematch(game_id=game_id, actor=person)

    # When the player asks again
    second = actions.game_rematch(game_id=game_id, actor=person)

    # Then it is the same table, the only one, and the finished game's log did not move
    assert second.id == first.id
    assert Game.objects.filter(rematch_of=game_id).count() == 1
    assert store.version(stream_of(game_id)) == version
    assert load_table(game_id).status == "finished"


def test_the_other_players_join_the_rematch_the_first_one_opened_and_the_last_starts_it() -> None:
    # Given a finished game of three people
    game_id, users = seated_game(3, "classic-app", options=SHORT_RULES)
    play_to_end(game_id, users)

    # When each asks for a rematch in turn
    first = actions.game_rematch(game_id=game_id, actor=users[1])
    waiting = Game.objects.get(pk=first.id).status
    actions.game_rematch(game_id=game_id, actor=users[2])
    last = actions.game_rematch(game_id=game_id, actor=users[0])

    # Then all three sit at the one table the first opened, which starts with the last
    assert waiting == "open"
    assert last.id == first.id
    assert [s["alias"] for s in last.seats] == ["Player 2", "Player 3", "Player 1"]
    assert last.status == "playing"


def test_only_a_player_of_a_finished_game_may_ask_for_a_rematch() -> None:
    # Given a game in play
    game_id, users = seated_game(3, "classic-app", options=SHORT_RULES)

    # When a player asks for a rematch before the end, or a stranger after it
    with pytest.raises(GameError) as early:
        actions.game_rematch(game_id=game_id, actor=users[0])
    play_to_end(game_id, users)
    with pytest.raises(GameError) as stranger:
        actions.game_rematch(game_id=game_id, actor=UserFactory.create())

    # Then both are refused with their codes, and no table was opened
    assert (early.value.code, early.value.status) == ("game_not_finished", 409)
    assert (stranger.value.code, stranger.value.status) == ("not_a_player", 403)
    assert not Game.objects.filter(rematch_of=game_id).exists()


def test_a_classic_whist_rematch_plays_the_same_match_again() -> None:
    # Given a finished classic Whist tournament-form match of four
    game_id, users = seated_game(4, "whist-drive", options={"deals": 2}, kind="classic")
    play_to_end(game_id, users)

    # When two of its players ask for a rematch
    actions.game_rematch(game_id=game_id, actor=users[3])
    rematch = actions.game_rematch(game_id=game_id, actor=users[0])

    # Then the new table plays the same game under the same options, waiting for the others
    assert (rematch.kind, rematch.preset, rematch.player_count) == ("classic", "whist-drive", 4)
    assert rematch.options == Game.objects.get(pk=game_id).options
    assert [seat["alias"] for seat in rematch.seats] == ["Player 4", "Player 1"]
    assert rematch.status == "open"
