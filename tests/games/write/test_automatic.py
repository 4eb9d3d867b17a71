import time
import uuid

import pytest
from django.conf import settings
from django.test import override_settings

from eventlog import store
from games.commands import actions
from games.errors import AlreadySeated, InvalidInput, NotYourSeat, UnknownBot
from games.rules import Phase
from games.table import SeatAutomated, SeatTaken, stream_of
from games.write.automatic import (
    automatic_bot,
    automatic_move_delay,
    resume_automatic_moves,
    stands_in,
)
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game


@pytest.mark.django_db
def test_the_creator_may_give_any_seat_to_a_bot_and_a_player_their_own() -> None:
    game_id, users = seated_game(players=3)

    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=2, bot="random")
    actions.game_set_seat_bot(game_id=game_id, actor=users[1], seat=1, bot="heuristic")
    actions.game_set_seat_bot(game_id=game_id, actor=users[1], seat=1, bot=None)
    version = load_table(game_id).version
    unchanged = actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=2, bot="random")

    assert load_table(game_id).bots == (None, None, "random")
    assert (unchanged.first_sequence, unchanged.last_sequence) == (version + 1, version)
    assert load_table(game_id).version == version
    with pytest.raises(NotYourSeat):
        actions.game_set_seat_bot(game_id=game_id, actor=users[2], seat=0, bot="random")
    with pytest.raises(InvalidInput, match="there is no bot 'genius'"):
        actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=0, bot="genius")
    with pytest.raises(InvalidInput, match="there is no seat 3"):
        actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=3, bot="random")


@pytest.mark.django_db
@pytest.mark.parametrize("bot", ["genius", "", 7, ["medium"]])
def test_a_seat_given_to_no_known_bot_is_refused_with_unknown_bot(bot: object) -> None:
    game_id, users = seated_game(players=3)
    version = load_table(game_id).version

    with pytest.raises(UnknownBot) as refused:
        actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=0, bot=bot)  # type: ignore[arg-type]

    assert (refused.value.code, refused.value.status) == ("unknown_bot", 400)
    assert refused.value.message == (
        f"there is no bot {bot!r}; choose one of heuristic, random, easy, medium, strong"
    )
    assert load_table(game_id).version == version


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the timer's move is made by the test
def test_a_seat_whose_turn_timer_ran_out_is_played_by_the_medium_bot() -> None:
    # Given a game with a 30-second turn timer, and a seat given to the random bot
    users = UserFactory.create_batch(3)
    game = actions.game_create(creator=users[0], player_count=3, turn_seconds=30)
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    table = load_table(game.id)
    seat = table.game.turn
    other = (seat + 1) % 3
    actions.game_set_seat_bot(game_id=game.id, actor=users[0], seat=other, bot="random")
    table = load_table(game.id)

    # When the seat to act lets its timer run out
    made = actions.game_play_automatically(game_id=game.id, expected_version=table.version)

    # Then the medium bot plays it, and the other seat is still the random bot's
    assert automatic_move_delay(table) == 30.0
    assert (automatic_bot(table, seat), automatic_bot(table, other)) == ("medium", "random")
    assert made is not None
    bid = store.read(stream_of(game.id), after=table.version)[0]
    assert (bid.type, bid.payload["seat"], bid.actor_id) == ("BidPlaced", seat, None)


@pytest.mark.django_db
def test_a_turn_timer_is_five_to_six_hundred_seconds() -> None:
    with pytest.raises(InvalidInput, match="a turn timer is 5 to 600 seconds"):
        actions.game_create(creator=UserFactory.create(), player_count=3, turn_seconds=2)


@pytest.mark.django_db
def test_the_seat_to_act_waits_for_its_bot_or_its_timer_and_otherwise_for_its_player() -> None:
    creator = UserFactory.create()
    timed = actions.game_create(creator=creator, player_count=3, turn_seconds=30)
    game_id, users = seated_game(players=3)
    table = load_table(game_id)

    assert automatic_move_delay(load_table(timed.id)) is None  # not started
    assert automatic_move_delay(table) is None  # no timer, no bot
    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=table.game.turn, bot="random")
    assert automatic_move_delay(load_table(game_id)) == settings.ATU_BOT_DELAY_SECONDS


@pytest.mark.django_db
def test_an_automatic_move_plays_the_seat_to_act_once_and_only_at_its_version() -> None:
    game_id, users = seated_game(players=4)
    turn = load_table(game_id).game.turn
    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=turn, bot="heuristic")
    before = load_table(game_id)

    stale = actions.game_play_automatically(game_id=game_id, expected_version=before.version - 1)
    made = actions.game_play_automatically(game_id=game_id, expected_version=before.version)
    again = actions.game_play_automatically(game_id=game_id, expected_version=before.version)

    after = load_table(game_id)
    assert stale is None
    assert made is not None and made.first_sequence == before.version + 1
    assert again is None
    assert after.game.bids[before.game.turn] is not None
    bid = store.read(stream_of(game_id), after=before.version)[0]
    assert (bid.type, bid.payload["seat"], bid.actor_id) == ("BidPlaced", before.game.turn, None)


@pytest.mark.django_db
def test_no_automatic_move_is_made_for_a_seat_without_bot_or_timer() -> None:
    game_id, _ = seated_game(players=3)
    version = load_table(game_id).version

    assert actions.game_play_automatically(game_id=game_id, expected_version=version) is None
    assert load_table(game_id).version == version


def wait_until_finished(game_id: uuid.UUID, seconds: float) -> Phase:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        phase = load_table(game_id).game.phase
        if phase is Phase.FINISHED:
            return phase
        time.sleep(0.1)
    return load_table(game_id).game.phase


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded mode's timer threads; with Redis a Celery worker plays (test_tasks)",
)
@override_settings(ATU_BOT_DELAY_SECONDS=0.01)
def test_bots_in_every_seat_play_a_whole_game_by_themselves() -> None:
    options = {"repeat_one_card_deals": False, "repeat_eight_card_deals": False, "step": 2}
    game_id, users = seated_game(players=3, preset="romanian-standard", options=options)
    for seat in range(3):
        actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="heuristic")

    assert wait_until_finished(game_id, seconds=60) is Phase.FINISHED


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded mode's timer threads; with Redis a Celery worker plays (test_tasks)",
)
def test_resuming_after_a_restart_schedules_every_game_waiting_for_a_bot() -> None:
    waiting, users = seated_game(players=3)
    seat = load_table(waiting).game.turn
    seated_game(players=3)  # waits for a person
    with override_settings(ATU_BOT_DELAY_SECONDS=3600):  # as if the server then stopped
        actions.game_set_seat_bot(game_id=waiting, actor=users[0], seat=seat, bot="random")

    with override_settings(ATU_BOT_DELAY_SECONDS=0.01):
        resumed = resume_automatic_moves()
        wait_until_moved(waiting, seat)

    assert resumed == 1


def wait_until_moved(game_id: uuid.UUID, seat: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and load_table(game_id).game.turn == seat:
        time.sleep(0.05)
    assert load_table(game_id).game.turn != seat


# --- A bot standing in for an absent player (decision 3406) -------------------------


def stand_in_table(turn_seconds: int | None, stand_in_seconds: int | None) -> uuid.UUID:
    users = UserFactory.create_batch(3)
    game = actions.game_create(
        creator=users[0],
        player_count=3,
        preset="championship",
        turn_seconds=turn_seconds,
        stand_in_seconds=stand_in_seconds,
    )
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"P{number}")
    return game.id


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("turn", "stand_in", "delay", "stands"),
    [
        (None, 20, 20.0, True),
        (30, 20, 20.0, True),
        (20, 20, 20.0, True),
        (10, 20, 10.0, False),
        (30, None, 30.0, False),
    ],
)
def test_a_stand_in_is_due_after_its_time_unless_a_shorter_turn_timer_moves_first(
    turn: int | None, stand_in: int | None, delay: float, stands: bool
) -> None:
    table = load_table(stand_in_table(turn, stand_in))

    assert (automatic_move_delay(table), stands_in(table)) == (delay, stands)


@pytest.mark.django_db
@pytest.mark.parametrize("seconds", [4, 601, True, "20"])
def test_a_stand_in_time_outside_5_to_600_seconds_is_refused(seconds: object) -> None:
    with pytest.raises(InvalidInput, match="a stand-in time is 5 to 600 seconds, or none"):
        actions.game_create(
            creator=UserFactory.create(),
            player_count=3,
            stand_in_seconds=seconds,  # type: ignore[arg-type]
        )


@pytest.mark.django_db
def test_the_creator_hands_a_seat_in_play_to_a_substitute_and_a_bot_there_stops() -> None:
    game_id, users = seated_game(players=3)
    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=1, bot="medium")
    substitute = UserFactory.create()
    version = load_table(game_id).version

    actions.game_substitute(
        game_id=game_id, actor=users[0], seat=1, user=substitute, alias="Rezerva"
    )

    records = store.read(stream_of(game_id), after=version)
    assert [record.event for record in records] == [
        SeatTaken(1, substitute.pk, "Rezerva"),
        SeatAutomated(1, None),
    ]
    with pytest.raises(NotYourSeat):
        actions.game_substitute(
            game_id=game_id, actor=users[1], seat=2, user=UserFactory.create(), alias="X"
        )
    with pytest.raises(AlreadySeated):
        actions.game_substitute(game_id=game_id, actor=users[0], seat=2, user=users[0], alias="Y")
    with pytest.raises(InvalidInput, match="the alias 'Player 1' is taken at this table"):
        actions.game_substitute(
            game_id=game_id, actor=users[0], seat=2, user=UserFactory.create(), alias="Player 1"
        )
