"""A share link's guest seat (decision 3501): a visitor without an account sits at a
table waiting for players as a guest made for it, all of it or nothing; and a guest
who registers is the same account, so the log's seats stay theirs."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.services import user_register
from eventlog.store import read
from games.commands import actions
from games.errors import AliasInvalid, AliasTaken, GameAlreadyStarted, TableCancelledError
from games.models import Game
from games.table import PlayerSeated, stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game

pytestmark = pytest.mark.django_db


def waiting_table(players: int = 3) -> Game:
    creator: User = UserFactory.create()
    game = actions.game_create(creator=creator, player_count=players, preset="championship")
    actions.game_join(game_id=game.id, user=creator, alias="Ana")
    return game


def test_a_guest_sits_under_the_alias_given_and_is_named_by_it() -> None:
    game = waiting_table()

    guest = actions.game_join_as_guest(game_id=game.id, alias="  Maria ")

    assert guest.is_guest
    assert guest.display_name == "Maria"
    assert not guest.has_usable_password()
    seats = load_table(game.id).seats
    assert [(seat.user_id, seat.alias) for seat in seats if seat is not None] == [
        (game.creator_id, "Ana"),
        (guest.pk, "Maria"),
    ]


def test_a_guest_who_gives_no_alias_sits_under_their_guest_name() -> None:
    game = waiting_table()

    guest = actions.game_join_as_guest(game_id=game.id, alias="")

    assert guest.display_name.startswith("Guest ")
    assert load_table(game.id).seats[1].alias == guest.display_name  # type: ignore[union-attr]


def test_the_last_guest_seat_starts_the_game() -> None:
    game = waiting_table(players=3)
    actions.game_join_as_guest(game_id=game.id, alias="Ion")

    actions.game_join_as_guest(game_id=game.id, alias="Dana")

    assert load_table(game.id).status == "playing"
    assert User.objects.filter(is_guest=True).count() == 2


@pytest.mark.parametrize(
    ("alias", "refusal"),
    [("Ana", AliasTaken), ("a\u200bb", AliasInvalid), ("x" * 25, AliasInvalid)],
    ids=["taken", "invisible", "too-long"],
)
def test_a_refused_alias_makes_no_guest_and_seats_nobody(alias: str, refusal: type) -> None:
    game = waiting_table()
    version = load_table(game.id).version

    with pytest.raises(refusal):
        actions.game_join_as_guest(game_id=game.id, alias=alias)

    assert not User.objects.filter(is_guest=True).exists()
    assert load_table(game.id).version == version


def test_a_game_that_has_started_refuses_a_guest_with_game_started() -> None:
    game_id, _ = seated_game(3)

    with pytest.raises(GameAlreadyStarted) as refused:
        actions.game_join_as_guest(game_id=game_id, alias="Maria")

    assert (refused.value.code, refused.value.status) == ("game_started", 409)
    assert not User.objects.filter(is_guest=True).exists()


def test_a_cancelled_table_refuses_a_guest_and_leaves_none_behind() -> None:
    game = waiting_table()
    actions.game_cancel(game_id=game.id, actor=User.objects.get(pk=game.creator_id))

    with pytest.raises(TableCancelledError):
        actions.game_join_as_guest(game_id=game.id, alias="Maria")

    assert not User.objects.filter(is_guest=True).exists()


def test_a_guest_who_registers_is_the_same_account_named_in_the_log() -> None:
    # Given a guest seated from a share link at a game that then started
    game = waiting_table(players=3)
    guest = actions.game_join_as_guest(game_id=game.id, alias="Maria")
    actions.game_join(game_id=game.id, user=UserFactory.create(), alias="Ion")

    # When they register
    user = user_register(username="maria", password="a-long-pass-phrase", guest=guest)

    # Then the account is the guest's, now a full one, and the log's seat names it
    assert (user.pk, user.is_guest, user.username) == (guest.pk, False, "maria")
    seated = [r.event for r in read(stream_of(game.id)) if isinstance(r.event, PlayerSeated)]
    assert [(event.user_id, event.alias) for event in seated][1] == (user.pk, "Maria")
    assert load_table(game.id).seat_of(user.pk) == 1
    assert Game.objects.get(pk=game.id).seats[1] == {
        "seat": 1,
        "alias": "Maria",
        "user_id": user.pk,
    }
