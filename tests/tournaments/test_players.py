"""The player page: its reads (tournaments.players) counted by the database with exact
values, and the page through Django's test client: who has one, what a viewer may see
of it, what its address may ask, and names linked to it from the season and results
pages; and the same through the API."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end, seated_game
from tests.test_accessibility import finished_event
from tests.tournaments.drivers import SHORT_RULES, private_event_round, round_games, wait_until
from tournaments import players
from tournaments.models import Event, PlayerGame, RatingChange, Season

# Before the site's clock (the pages read at its now): every row is finished by then.
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def game_rows(player_id: int, places: list[int], **fields: Any) -> list[PlayerGame]:
    """Rows of ``player_id``'s finished games with ``places``, one a minute, the
    first an hour before ``NOW``."""
    start = NOW - timedelta(hours=1)
    rows = [
        PlayerGame(
            game_id=uuid.uuid4(),
            seat=0,
            player_id=player_id,
            code=f"G{number:05d}",
            kind="romanian",
            preset=fields.get("preset", "championship"),
            player_count=fields.get("player_count", 4),
            place=place,
            points=10 * (5 - place),
            deals=fields.get("deals", 10),
            exact=fields.get("exact", 4),
            best_run=fields.get("best_run", 2),
            bonuses=fields.get("bonuses", 0),
            finished_at=start + timedelta(minutes=number),
            shown_at=fields.get("shown_at", start + timedelta(minutes=number)),
        )
        for number, place in enumerate(places)
    ]
    return PlayerGame.objects.bulk_create(rows)


def longest_win_run(places: list[int]) -> int:
    return max(
        (len(list(run)) for won, run in itertools.groupby(p == 1 for p in places) if won), default=0
    )


def season_event() -> tuple[Event, Season, list[User]]:
    """A season's public one-round event of four people, played and finished: the
    event, the season and its entrants, once what the tasks derive is written."""
    event, _, entrants = finished_event("Sezonul 2026")

    def derived() -> bool:
        finished = Event.objects.get(pk=event.id).status == Event.Status.FINISHED
        rated = RatingChange.objects.filter(season_id=event.season_id).count() == 4
        return finished and rated and games_recorded(*round_game_ids(event.id))

    wait_until(derived, 60, "the event finished, its season rated, its players' rows")
    return Event.objects.get(pk=event.id), Season.objects.get(pk=event.season_id), entrants


def round_game_ids(event_id: uuid.UUID) -> list[uuid.UUID]:
    return [game.id for game in round_games(event_id, 1)]


def games_recorded(*game_ids: uuid.UUID) -> bool:
    """Whether the finished games' players' rows are written (by the task each finish
    sends: in place when embedded, by the worker in production)."""
    seats = Game.objects.filter(pk__in=game_ids).values_list("player_count", flat=True)
    return PlayerGame.objects.filter(game_id__in=game_ids).count() == sum(seats)


# --- The reads -------------------------------------------------------------------------


@pytest.mark.django_db
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(places=st.lists(st.integers(min_value=1, max_value=4), max_size=40))
def test_the_figures_count_games_wins_and_the_most_won_in_a_row(places: list[int]) -> None:
    # Given a player's finished games with these places, in this order
    PlayerGame.objects.all().delete()
    game_rows(1, places)

    # When their figures are counted
    figures = players.figures(players.shown_games(1, None, NOW))

    # Then the games, the wins, and the longest run of wins in a row are the list's
    assert (figures.games, figures.wins, figures.win_streak) == (
        len(places),
        places.count(1),
        longest_win_run(places),
    )
    assert (figures.deals, figures.exact) == (10 * len(places), 4 * len(places))


@pytest.mark.django_db
def test_the_exact_bid_rate_best_run_and_bonuses_add_up_over_the_games() -> None:
    # Given games of 10 deals with 4 exact, and one of 8 with 7 exact and a run of 6
    game_rows(1, [2, 3], bonuses=1)
    game_rows(1, [1], deals=8, exact=7, best_run=6, bonuses=2)

    # When the figures are counted
    figures = players.figures(players.shown_games(1, None, NOW))

    # Then 15 of 28 deals were bid exactly: 53.6 %; the best run is 6; 4 bonuses
    assert (figures.deals, figures.exact, figures.exact_rate) == (28, 15, 53.6)
    assert (figures.best_run, figures.bonuses, figures.win_streak) == (6, 4, 1)


@pytest.mark.django_db
def test_no_deal_bid_is_no_exact_bid_rate() -> None:
    game_rows(1, [1], deals=0, exact=0)

    assert players.figures(players.shown_games(1, None, NOW)).exact_rate is None


@pytest.mark.django_db
def test_results_are_grouped_by_rules_and_table_size() -> None:
    # Given games under two presets and two table sizes
    game_rows(1, [1, 2, 4])
    game_rows(1, [1, 1], player_count=3)
    game_rows(1, [3], preset="online-room")

    # When the results are grouped
    lines = players.results_by_preset(players.shown_games(1, None, NOW))

    # Then each group counts its games, wins and average place
    assert [
        (line.preset, line.player_count, line.games, line.wins, line.average_place)
        for line in lines
    ] == [
        ("championship", 3, 2, 2, 1.0),
        ("championship", 4, 3, 1, 2.33),
        ("online-room", 4, 1, 0, 3.0),
    ]


@pytest.mark.django_db
def test_a_game_is_shown_once_its_spectator_delay_is_over() -> None:
    # Given a game finished, held back from its spectators for ten minutes more
    game_rows(1, [1, 2])
    game_rows(1, [1], shown_at=NOW + timedelta(minutes=10))

    # When the figures are counted now, and once the delay is over
    now = players.figures(players.shown_games(1, None, NOW))
    later = players.figures(players.shown_games(1, None, NOW + timedelta(minutes=10)))

    # Then the held game counts only then
    assert (now.games, now.wins) == (2, 1)
    assert (later.games, later.wins) == (3, 2)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_a_private_events_table_is_shown_only_to_who_may_see_the_event() -> None:
    # Given a private event's table played to its end
    _, creator, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)
    wait_until(lambda: games_recorded(game.id), 60, "the players' rows")
    outsider: User = UserFactory.create()
    later = NOW + timedelta(days=3650)

    # When its first player's games are counted for each viewer
    def seen_by(viewer: User | None) -> int:
        viewer_id = None if viewer is None else viewer.pk
        return players.shown_games(entrants[0].pk, viewer_id, later).count()

    # Then its entrants and organizer see it; an outsider and an anonymous visitor do not
    assert [seen_by(viewer) for viewer in (entrants[1], creator, outsider, None)] == [1, 1, 0, 0]


@pytest.mark.django_db
def test_head_to_head_counts_the_games_together_and_who_placed_ahead() -> None:
    # Given Ana and Bogdan at five games: Ana ahead in two, Bogdan in two, level in one
    ana, bogdan, carmen = UserFactory.create_batch(3)
    games = game_rows(ana.pk, [1, 2, 1, 3, 2])
    for row, place in zip(games, [2, 1, 3, 1, 2], strict=True):
        PlayerGame.objects.create(
            **{**_fields(row), "seat": 1, "player_id": bogdan.pk, "place": place}
        )
    # And Ana at a game of Carmen's only
    (alone,) = game_rows(ana.pk, [4])
    PlayerGame.objects.create(**{**_fields(alone), "seat": 1, "player_id": carmen.pk, "place": 1})

    # When their record is counted, and Ana's most frequent opponents listed
    versus = players.head_to_head(ana.pk, bogdan, None, NOW)
    met = players.frequent_opponents(ana.pk, None, NOW)

    # Then
    assert (versus.games, versus.ahead, versus.behind, versus.level) == (5, 2, 2, 1)
    assert [(opponent.player_id, games) for opponent, games in met] == [
        (bogdan.pk, 5),
        (carmen.pk, 1),
    ]


def _fields(row: PlayerGame) -> dict[str, Any]:
    return {
        field.name: getattr(row, field.name)
        for field in PlayerGame._meta.fields
        if field.name != "id"
    }


# --- The page --------------------------------------------------------------------------


def text(response: Any) -> str:
    return str(response.content.decode())


@pytest.mark.django_db
def test_a_guest_a_bot_and_nobody_have_no_page(client: Client) -> None:
    guest: User = UserFactory.create(is_guest=True)
    bot: User = UserFactory.create(is_bot=True)

    answers = [
        client.get(f"/players/{pk}/").status_code for pk in (guest.pk, bot.pk, 999_999, 2**70)
    ]

    assert answers == [404, 404, 404, 404]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_the_page_shows_a_players_finished_games_and_figures(client: Client) -> None:
    # Given a game of four people played to its end
    game_id, users = seated_game(4, preset="romanian-standard", options=SHORT_RULES)
    play_to_end(game_id, users)
    wait_until(lambda: games_recorded(game_id), 60, "the players' rows")
    game = Game.objects.get(pk=game_id)
    row = PlayerGame.objects.get(game_id=game_id, seat=0)

    # When anyone opens its first player's page
    content = text(client.get(f"/players/{users[0].pk}/"))

    # Then it shows the game with its place, score, exact bids, opponents linked to
    # their pages, and a replay link; and the player's figures
    assert f"<h1>{users[0].display}</h1>" in content
    assert f'<tr data-game="{game.code}">' in content
    assert (
        f"<td>{game.places[0]} of 4</td><td>{game.scores[0]}</td><td>{row.exact}/9</td>" in content
    )
    assert f'<a href="/players/{users[1].pk}/">Player 2</a>' in content
    assert f'<a href="/games/{game.code}/?replay">Replay</a>' in content
    assert '<dd id="games-played">1</dd>' in content
    assert f'<dd id="games-won">{int(game.places[0] == 1)}</dd>' in content


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_the_page_shows_events_placings_and_the_season_rating_chart(client: Client) -> None:
    # Given a season's event of four people, played and finished
    event, season, entrants = season_event()
    assert event.status == Event.Status.FINISHED

    # When one of them's page is opened
    content = text(client.get(f"/players/{entrants[0].pk}/"))

    # Then it places them in the event, ranks them in the season, and charts their rating
    # with its table alternative
    assert f'<tr data-code="{event.code}">' in content
    assert f'<tr data-season="{season.id}">' in content
    assert content.count("<polyline") == 1
    assert 'aria-labelledby="rating-chart-caption"' in content
    assert "over 1 table" in content
    assert '<details id="rating-table">' in content


@pytest.mark.django_db
def test_the_games_come_a_page_at_a_time_and_a_page_past_the_last_is_404(client: Client) -> None:
    # Given a player of 45 games
    player: User = UserFactory.create()
    game_rows(player.pk, [1] * 45)

    # When the pages are asked for
    first = text(client.get(f"/players/{player.pk}/"))
    last = text(client.get(f"/players/{player.pk}/?page=3"))
    past = client.get(f"/players/{player.pk}/?page=4")

    # Then each shows its games, newest first, and links the next
    assert first.count('<tr data-game="') == 20
    assert first.index('data-game="G00044"') < first.index('data-game="G00043"')
    assert "Page 1 of 3" in first and 'href="?page=2#games"' in first
    assert last.count('<tr data-game="') == 5
    assert past.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    ["?page=0", "?page=x", "?season=nope", f"?season={uuid.UUID(int=1)}", "?vs=-1", "?vs=999999"],
)
def test_an_address_asking_what_the_page_cannot_show_is_400(client: Client, query: str) -> None:
    player: User = UserFactory.create()
    game_rows(player.pk, [1])

    response = client.get(f"/players/{player.pk}/{query}")

    assert response.status_code == 400
    assert 'id="asked-wrong"' in text(response)


@pytest.mark.django_db
def test_comparing_a_player_with_themself_is_400(client: Client) -> None:
    player: User = UserFactory.create()

    assert client.get(f"/players/{player.pk}/?vs={player.pk}").status_code == 400


@pytest.mark.django_db
def test_the_head_to_head_form_shows_who_placed_ahead(client: Client) -> None:
    # Given Ana ahead of Bogdan at one game of two, Bogdan at the other
    ana = UserFactory.create(display_name="Ana")
    bogdan = UserFactory.create(display_name="Bogdan")
    for row, place in zip(game_rows(ana.pk, [1, 2]), [2, 1], strict=True):
        PlayerGame.objects.create(
            **{**_fields(row), "seat": 1, "player_id": bogdan.pk, "place": place}
        )

    # When Ana's page compares her with Bogdan
    content = text(client.get(f"/players/{ana.pk}/?vs={bogdan.pk}"))

    # Then
    assert f'<option value="{bogdan.pk}" selected>Bogdan (2 games together)</option>' in content
    assert "Ana and Bogdan finished 2 games together." in content
    assert "Ana placed ahead 1 times, Bogdan 1 times; level 0 times." in content


@pytest.mark.django_db
def test_the_page_reads_as_few_queries_for_many_games_as_for_few(client: Client) -> None:
    # Given two players, of 3 games and of 300
    few: User = UserFactory.create()
    many: User = UserFactory.create()
    game_rows(few.pk, [1, 2, 3])
    game_rows(many.pk, [1, 2, 3] * 100)

    # When each one's page is opened
    counted = []
    for player in (few, many):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/players/{player.pk}/").status_code == 200
        counted.append(len(queries))

    # Then both cost the same queries
    assert counted[0] == counted[1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_the_season_and_results_pages_link_names_to_player_pages(client: Client) -> None:
    # Given a season's finished event of four people
    event, season, entrants = season_event()

    # When the season's and the event's results pages are opened
    pages = [
        text(client.get(f"/seasons/{season.id}/")),
        text(client.get(f"/events/{event.code}/results/")),
    ]

    # Then each entrant's name links to their page
    for content in pages:
        for entrant in entrants:
            assert f'<a href="/players/{entrant.pk}/">{entrant.display}</a>' in content


# --- The API ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_the_api_answers_what_the_page_shows() -> None:
    # Given a season's event of four people, played and finished
    event, season, entrants = season_event()
    first, second = entrants[0], entrants[1]
    row = PlayerGame.objects.get(player_id=first.pk)

    # When anyone asks for the first one's page, compared with the second
    answer = APIClient().get(f"/api/players/{first.pk}/?vs={second.pk}").json()

    # Then it holds their figures, game, event, season, rating and head-to-head
    assert (answer["id"], answer["name"]) == (first.pk, first.display)
    assert answer["figures"]["games"] == 1
    assert answer["figures"]["deals"] == row.deals == 9
    assert answer["figures"]["exact"] == row.exact
    assert answer["games"]["page"] == answer["games"]["pages"] == 1
    assert [game["code"] for game in answer["games"]["results"]] == [row.code]
    assert [line["code"] for line in answer["events"]] == [event.code]
    assert [line["id"] for line in answer["seasons"]] == [str(season.id)]
    assert answer["rating"]["season"] == str(season.id)
    assert len(answer["rating"]["ratings"]) == answer["rating"]["total"] == 1
    second_row = PlayerGame.objects.get(player_id=second.pk)
    assert answer["versus"] == {
        "player": {"id": second.pk, "name": second.display},
        "games": 1,
        "ahead": int(row.place < second_row.place),
        "behind": int(row.place > second_row.place),
        "level": int(row.place == second_row.place),
    }


@pytest.mark.django_db
def test_the_api_refuses_what_it_cannot_show_with_its_code() -> None:
    player: User = UserFactory.create()
    guest: User = UserFactory.create(is_guest=True)
    game_rows(player.pk, [1])
    client = APIClient()

    def code(url: str) -> tuple[int, str]:
        response = client.get(url)
        return response.status_code, response.json()["code"]

    assert code(f"/api/players/{guest.pk}/") == (404, "player_not_found")
    assert code(f"/api/players/{2**70}/") == (404, "player_not_found")
    assert code(f"/api/players/{player.pk}/?page=2") == (404, "page_not_found")
    assert code(f"/api/players/{player.pk}/?page=x") == (400, "invalid_input")
    assert code(f"/api/players/{player.pk}/?vs={player.pk}") == (400, "invalid_input")
    assert code(f"/api/players/{player.pk}/?season={uuid.uuid4()}") == (400, "invalid_input")
