from __future__ import annotations

import pytest
from pytest_django import DjangoAssertNumQueries

from games.live.cursor import Watch
from tests.tournaments.drivers import event_round
from tournaments.selectors import event_of_game

pytestmark = pytest.mark.django_db


def test_a_players_watch_of_an_event_table_reads_its_event_before_any_hand_is_scored(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    # Given a public event's round started, one table of four, and a process that has
    # not asked which event its games are in
    event, _, entrants, games = event_round(4, public=True)
    event_of_game.cache_clear()

    # When a player of the table opens a watch of its game
    Watch.open(str(games[0].id), entrants[0].pk)

    # Then the standings' receiver finds the game's event without a query, as it will
    # when a hand is scored
    with django_assert_num_queries(0):
        assert event_of_game(games[0].id) == event.id
