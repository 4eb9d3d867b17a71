"""Championships in the room: an event seats its tables online, in the room or both,
as its players check in; a table in the room's deals, written down, score and rank
exactly as played ones."""

from __future__ import annotations

import uuid
from collections import defaultdict
from fractions import Fraction
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from accounts.models import User
from eventlog import store
from games.commands.actions import game_confirm_deal, game_correct_deal, game_record_deal
from games.commands.actions import game_place_bid as place_bid
from games.errors import TableBegun
from games.models import Game
from games.table import stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_bots_to_end, play_to_end, seated_game
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games, wait_until
from tests.tournaments.projections.test_standings import read_models, standing_rows
from tournaments import services
from tournaments.championship import championship_stream
from tournaments.errors import InvalidEventInput, TooFewInPlace
from tournaments.models import Entry, Event, TableResult
from tournaments.projections.standings import read_figures


def entered(event: Event, count: int, *, in_room: bool) -> list[User]:
    players: list[User] = UserFactory.create_batch(count)
    for player in players:
        services.event_register(event_id=event.id, actor=player)
        services.event_check_in(event_id=event.id, actor=player, in_room=in_room)
    return players


def room_event(place: str, **options: Any) -> tuple[Event, User]:
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Etapa X", rounds=1, options=SHORT_RULES, place=place, **options
    )
    return event, creator


def written_deal(game_id: uuid.UUID, hand: int, taker: int = 1) -> dict[str, Any]:
    """Deal ``hand`` where everyone bid 0 and the seat ``taker`` places left of the
    dealer took every trick."""
    game = load_table(game_id).romanian_game
    n = game.player_count
    cards, dealer = game.schedule[hand].cards, (game.first_dealer + hand) % n
    tricks = [0] * n
    tricks[(dealer + taker) % n] = cards
    return {"hand": hand, "bids": [0] * n, "tricks": tricks}


@pytest.mark.django_db
def test_an_event_in_the_room_seats_every_table_in_the_room() -> None:
    # Given an event in the room with eight players checked in
    event, creator = room_event("room")
    entered(event, 8, in_room=False)

    # When its first round starts
    services.event_start_round(event_id=event.id, actor=creator)

    # Then both tables are in the room, and the round's log says so
    assert [game.place for game in round_games(event.id, 1)] == ["room", "room"]
    started = [r for r in store.read(championship_stream(event.id)) if r.type == "RoundStarted"]
    assert started[0].payload["places"] == ["room", "room"]


@pytest.mark.django_db
def test_an_event_played_both_ways_seats_each_player_where_they_checked_in() -> None:
    # Given an event played both ways: four players in the room, five online
    event, creator = room_event("both")
    in_room = entered(event, 4, in_room=True)
    online = entered(event, 5, in_room=False)

    # When its first round starts
    services.event_start_round(event_id=event.id, actor=creator)

    # Then the room's four share a table in the room, the five online one online
    games = {game.place: game for game in round_games(event.id, 1)}
    assert sorted(games) == ["online", "room"]
    assert sorted(seat["user_id"] for seat in games["room"].seats) == sorted(
        user.pk for user in in_room
    )
    assert sorted(seat["user_id"] for seat in games["online"].seats) == sorted(
        user.pk for user in online
    )


@pytest.mark.django_db
def test_two_players_online_cannot_make_a_table_and_the_director_is_told() -> None:
    # Given an event played both ways: four in the room, two online
    event, creator = room_event("both")
    entered(event, 4, in_room=True)
    entered(event, 2, in_room=False)

    # When the round would start, then it is refused by name and no table opens
    with pytest.raises(TooFewInPlace) as refused:
        services.event_start_round(event_id=event.id, actor=creator)
    assert refused.value.message.startswith("2 checked-in player(s) play online")
    assert Event.objects.get(pk=event.id).rounds_started == 0


@pytest.mark.django_db
def test_a_player_checking_in_again_moves_between_the_room_and_online() -> None:
    # Given a player checked in online at an event played both ways
    event, _ = room_event("both")
    (player,) = entered(event, 1, in_room=False)

    # When they check in again, in the room
    services.event_check_in(event_id=event.id, actor=player, in_room=True)

    # Then their entry says so, and a third check-in the same way records nothing
    assert Entry.objects.get(event_id=event.id, player_id=player.pk).in_room is True
    version = Event.objects.get(pk=event.id).version
    services.event_check_in(event_id=event.id, actor=player, in_room=True)
    assert Event.objects.get(pk=event.id).version == version


@pytest.mark.django_db
def test_at_an_event_played_online_being_in_the_room_means_nothing() -> None:
    event, _ = room_event("online")
    (player,) = entered(event, 1, in_room=True)

    assert Entry.objects.get(event_id=event.id, player_id=player.pk).in_room is False


@pytest.mark.django_db
def test_bots_are_not_entered_at_an_event_in_the_room() -> None:
    event, creator = room_event("room")

    with pytest.raises(InvalidEventInput):
        services.event_add_bots(event_id=event.id, actor=creator, count=4)


@pytest.mark.django_db
def test_a_whist_drive_is_not_played_in_the_room() -> None:
    with pytest.raises(InvalidEventInput):
        services.event_create(organizer=organizer(), name="Drive", kind="classic", place="room")


@pytest.mark.django_db
def test_a_table_in_the_room_written_down_scores_as_the_same_deals_played_online() -> None:
    # Given a game played online to its end
    online_id, players = seated_game(4, options=SHORT_RULES)
    play_to_end(online_id, players, seed=7)
    played = load_table(online_id).romanian_game

    # And a table in the room of the same players, rules and first dealer
    while True:
        room_id, _ = seated_game(4, options=SHORT_RULES, users=players, place="room")
        if load_table(room_id).romanian_game.first_dealer == played.first_dealer:
            break

    # When its scorers write down each deal as it was played
    for result in played.results:
        game_record_deal(
            game_id=room_id,
            actor=players[0],
            hand=result.hand,
            bids=list(result.bids),
            tricks=list(result.tricks),
        )

    # Then its every score, its end and what the standings read of it are the same
    room = load_table(room_id).romanian_game
    assert room.results == played.results
    assert (room.scores, room.places) == (played.scores, played.places)
    figures = read_figures([online_id, room_id])
    same = ("scores", "exact_bids", "hands_scored", "finished")
    assert [getattr(figures[room_id], name) for name in same] == [
        getattr(figures[online_id], name) for name in same
    ]


def recomputed_with_corrections(event_id: uuid.UUID) -> dict[int, tuple[float, int]]:
    """Each player's relative points and exact bids from the raw logs, where a deal
    scored again after a correction counts as last scored."""
    totals: dict[int, Fraction] = defaultdict(Fraction)
    exact: dict[int, int] = defaultdict(int)
    for record in store.read(championship_stream(event_id)):
        if record.type != "RoundStarted":
            continue
        for players, game_id in zip(record.payload["tables"], record.payload["games"], strict=True):
            deals: dict[int, dict[str, Any]] = {}
            final: list[int] | None = None
            for event in store.read(stream_of(game_id)):
                if event.type == "HandScored":
                    deals[event.payload["hand"]] = event.payload
                elif event.type == "GameFinished":
                    final = event.payload["scores"]
            assert final is not None, f"game {game_id} did not finish"
            for deal in deals.values():
                for seat, (bid, won) in enumerate(zip(deal["bids"], deal["tricks"], strict=True)):
                    exact[players[seat]] += bid == won
            average = Fraction(sum(final), len(final))
            for player, score in zip(players, final, strict=True):
                totals[player] += score - average
    return {player: (round(float(totals[player]), 2), exact[player]) for player in totals}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_a_mixed_event_ranks_its_tables_in_the_room_and_online_as_the_log_says() -> None:
    # Given an event played both ways: eight bots online and four people in the room
    event, creator = room_event("both")
    services.event_add_bots(event_id=event.id, actor=creator, count=8)
    people = entered(event, 4, in_room=True)

    # When its round is played: the bots online, and in the room the director writes
    # the sheet down, one deal corrected after the next was written
    services.event_start_round(event_id=event.id, actor=creator)
    games = round_games(event.id, 1)
    (room,) = [game for game in games if game.place == "room"]
    hands = load_table(room.id).romanian_game.schedule
    for hand in range(len(hands)):
        game_record_deal(game_id=room.id, actor=people[0], **written_deal(room.id, hand))
        game_confirm_deal(game_id=room.id, actor=people[1], hand=hand)
        if hand == 3:
            game_correct_deal(
                game_id=room.id,
                actor=people[2],
                reason="the last trick was seat 2's",
                **written_deal(room.id, 2, taker=2),
            )
            game_confirm_deal(game_id=room.id, actor=people[3], hand=2)
    for game in games:
        if game.place == "online":
            play_bots_to_end(game.id)
    wait_until(
        lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
        60,
        "the standings caught up with the last table",
    )

    # Then the standings equal a recomputation from the log, the correction counted
    rows = standing_rows(event.id)
    assert {row["player_id"]: (row["points"], row["exact_bids"]) for row in rows} == (
        recomputed_with_corrections(event.id)
    )
    assert len(rows) == 12
    assert Game.objects.get(pk=room.id).status == Game.Status.FINISHED

    # And rebuilding every read model from the log gives them again, identically
    before = read_models(event.id)
    output = StringIO()
    call_command("rebuild_standings", stdout=output)
    assert read_models(event.id) == before


def both_ways_round() -> tuple[Event, User, dict[str, Game]]:
    """An event played both ways, its first round started: four in the room, four
    online."""
    event, creator = room_event("both")
    entered(event, 4, in_room=True)
    entered(event, 4, in_room=False)
    services.event_start_round(event_id=event.id, actor=creator)
    return event, creator, {game.place: game for game in round_games(event.id, 1)}


@pytest.mark.django_db
def test_the_director_moves_a_table_online_to_the_room_before_anyone_bids() -> None:
    # Given a round with a table online where nobody has bid yet
    event, creator, games = both_ways_round()
    online = games["online"]
    number = round_games(event.id, 1).index(online) + 1

    # When the director moves it to the room
    services.event_move_table(event_id=event.id, actor=creator, table=number, place="room")

    # Then its game is called off, its players sit as they did at a new table in the
    # room, the round counts two tables, and the players are in the room from now on
    assert Game.objects.get(pk=online.id).status == Game.Status.CANCELLED
    moved = round_games(event.id, 1)[number - 1]
    assert (moved.place, moved.seats) == ("room", online.seats)
    assert sorted(row.game_id for row in TableResult.objects.filter(event_id=event.id)) == sorted(
        game.id for game in round_games(event.id, 1)
    )
    players = [seat["user_id"] for seat in online.seats]
    assert set(
        Entry.objects.filter(event_id=event.id, player_id__in=players).values_list(
            "in_room", flat=True
        )
    ) == {True}


@pytest.mark.django_db
def test_a_table_where_play_has_begun_stays_where_it_is() -> None:
    # Given a table online where the first bid was made
    event, creator, games = both_ways_round()
    online = games["online"]
    table = load_table(online.id)
    bidder = User.objects.get(pk=table.seats[table.game.turn].user_id)
    place_bid(game_id=online.id, actor=bidder, bid=0)
    number = round_games(event.id, 1).index(online) + 1

    # When the director would move it, then it is refused and nothing changes
    with pytest.raises(TableBegun):
        services.event_move_table(event_id=event.id, actor=creator, table=number, place="room")
    assert round_games(event.id, 1)[number - 1].id == online.id
    assert Game.objects.get(pk=online.id).status == Game.Status.PLAYING


@pytest.mark.django_db
def test_an_event_played_in_one_place_moves_no_table() -> None:
    event, creator = room_event("room")
    entered(event, 4, in_room=False)
    services.event_start_round(event_id=event.id, actor=creator)

    with pytest.raises(InvalidEventInput):
        services.event_move_table(event_id=event.id, actor=creator, table=1, place="online")
