"""Duplicate events: every table of a size in a round plays the same deals, seat by
seat, and each result is compared with the others who held the same cards."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import User
from eventlog import store
from games.table import stream_of
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import (
    SHORT_RULES,
    bot_event,
    organizer,
    play_round,
    round_games,
    wait_until,
)
from tests.tournaments.projections.test_standings import read_models
from tournaments import services
from tournaments.models import Event, Standing, TableResult

pytestmark = pytest.mark.django_db(transaction=True)


def deals(game_id: object) -> list[dict[str, object]]:
    return [r.payload for r in store.read(stream_of(game_id)) if r.type == "HandDealt"]


@pytest.mark.usefixtures("bots_play")
def test_duplicate_tables_play_the_same_deals_and_score_by_matchpoints() -> None:
    # Given a duplicate event of 8 bots: one round, two tables of 4
    event, creator = bot_event(players=8, rounds=1, duplicate=True, points="matchpoints")

    # When the round is played
    play_round(event.id, creator)
    wait_until(lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED)

    # Then both tables were dealt the same cards, seat by seat, by the same dealers
    first, second = round_games(event.id, 1)
    assert deals(first.id) == deals(second.id)
    assert len(deals(first.id)) == 9

    # And each player's points are their matchpoints against the one other player who
    # held their cards: 100 % for the higher score, 50 % for a tie, 0 % for the lower
    expected = {}
    for seat in range(4):
        (a, a_score), (b, b_score) = (
            (game.seats[seat]["user_id"], game.scores[seat]) for game in (first, second)
        )
        expected[a] = 100.0 if a_score > b_score else 50.0 if a_score == b_score else 0.0
        expected[b] = 100.0 - expected[a]
    points = dict(Standing.objects.filter(event_id=event.id).values_list("player_id", "points"))
    assert points == expected


@pytest.mark.usefixtures("bots_play")
def test_a_duplicate_table_that_finished_first_says_its_deal_set_plays_and_rebuilds_alike() -> None:
    # Given a duplicate event of six people at two tables of three, one round
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Cupa Atu",
        rounds=1,
        table_size=3,
        options=SHORT_RULES,
        points="matchpoints",
        duplicate=True,
    )
    people: list[User] = UserFactory.create_batch(6)
    for person in people:
        services.event_register(event_id=event.id, actor=person)
        services.event_check_in(event_id=event.id, actor=person)
    services.event_start_round(event_id=event.id, actor=creator)
    first, second = round_games(event.id, 1)

    # When the first table finishes while the second still plays
    play_to_end(first.id, people)
    wait_until(lambda: TableResult.objects.get(pk=first.id).finished)

    # Then its record is refused for the real reason, and its row knows the deals
    response = APIClient().get(f"/api/games/{first.code}/record/")
    assert (response.status_code, response.json()["code"]) == (409, "deal_set_in_play")
    assert TableResult.objects.get(pk=first.id).hands_total == 9

    # And once the second finishes too, a rebuild gives every column again
    play_to_end(second.id, people)
    wait_until(lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED)
    assert APIClient().get(f"/api/games/{first.code}/record/").status_code == 200
    before = read_models(event.id)
    assert [row["hands_total"] for row in before["tables"]] == [9, 9]
    call_command("rebuild_standings", stdout=StringIO())
    assert read_models(event.id) == before
