"""Duplicate events: every table of a size in a round plays the same deals, seat by
seat, and each result is compared with the others who held the same cards."""

from __future__ import annotations

import pytest

from games import eventstore
from games.domain import stream_of
from tests.tournaments.drivers import bot_event, play_round, round_games, wait_until
from tournaments.models import Event, Standing

pytestmark = pytest.mark.django_db(transaction=True)


def deals(game_id: object) -> list[dict[str, object]]:
    return [r.payload for r in eventstore.read(stream_of(game_id)) if r.type == "HandDealt"]


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
