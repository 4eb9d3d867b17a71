"""My games (``/me/games/``): a player's or a guest's games and championships, those in
play first with the way back to the table, then those over with their result and
replay, a page at a time; read from the read models (decision 3501)."""

from __future__ import annotations

import html
import uuid

import pytest
from django.test import Client

from accounts.models import User
from games.commands import actions
from games.models import Game
from games.read.selectors import player_games, player_seats
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end, seated_game
from tests.tournaments.drivers import SHORT_RULES, event_round, played_event
from tournaments import services
from tournaments.models import Standing
from tournaments.projections.standings import update_event_standings

pytestmark = pytest.mark.django_db


def finished_game(user: User, players: int = 3) -> Game:
    game_id, users = seated_game(
        players,
        preset="romanian-standard",
        options=SHORT_RULES,
        users=[user, *UserFactory.create_batch(players - 1)],
    )
    play_to_end(game_id, users)
    return Game.objects.get(pk=game_id)


def section(content: str, name: str) -> str:
    start = content.index(f'id="{name}"')
    return content[start : content.index("</section>", start)]


def test_a_visitor_without_an_account_is_sent_to_sign_in_and_back(client: Client) -> None:
    response = client.get("/me/games/")

    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/?next=/me/games/",
    )


def test_my_games_lists_the_games_in_play_first_with_the_way_back_then_the_finished(
    client: Client, user: User
) -> None:
    # Given a player at a table waiting for players, at a game in play, at a finished
    # game and at a cancelled table; and a game they have no seat at
    waiting = actions.game_create(creator=user, player_count=4, preset="championship")
    actions.game_join(game_id=waiting.id, user=user, alias="Ana")
    playing_id, _ = seated_game(3, users=[*UserFactory.create_batch(2), user])
    playing = Game.objects.get(pk=playing_id)
    finished = finished_game(user)
    cancelled = actions.game_create(creator=user, player_count=4, preset="championship")
    actions.game_join(game_id=cancelled.id, user=user, alias="Ana")
    actions.game_cancel(game_id=cancelled.id, actor=user)
    stranger_id, _ = seated_game(3)
    stranger = Game.objects.get(pk=stranger_id)
    client.force_login(user)

    # When they open My games
    response = client.get("/me/games/")

    # Then the tables in play lead back to them, the last played first
    assert response.status_code == 200
    content = html.unescape(response.content.decode())
    in_play = section(content, "in-play")
    assert in_play.index(f'data-code="{playing.code}"') < in_play.index(
        f'data-code="{waiting.code}"'
    )
    assert (
        f'<a class="back-to-table" href="/games/{playing.code}/">Back to the table</a>' in in_play
    )
    assert "Waiting for players: 1 of 4" in in_play
    assert f"In play: deal 1 of {playing.hands_total}" in in_play
    # and the finished game says where they placed, with its replay
    done = section(content, "finished-games")
    [mine] = player_seats([finished], [user.pk])
    assert f"Place {mine.place} of 3, {finished.scores[mine.seat]} points" in done
    assert f'<a class="replay" href="/games/{finished.code}/?replay">Replay</a>' in done
    # and no cancelled table, nor anyone else's game
    for game in (cancelled, stranger):
        assert f'data-code="{game.code}"' not in content
    assert f'data-code="{finished.code}"' not in in_play


def test_the_finished_games_come_twenty_a_page_and_a_bad_page_is_the_nearest(
    client: Client, user: User
) -> None:
    # Given a player with 21 finished games (the read model's rows, as a rebuild writes)
    games = [finished_game(user)]
    template = games[0]
    for number in range(20):
        copy = Game.objects.get(pk=template.pk)
        copy.pk, copy.code = uuid.uuid4(), f"F{number:05d}"
        copy.save(force_insert=True)
    client.force_login(user)

    # When they page through their finished games
    first = client.get("/me/games/").content.decode()
    second = client.get("/me/games/?page=2").content.decode()
    beyond = client.get("/me/games/?page=99")
    nonsense = client.get("/me/games/?page=x%00")

    # Then twenty are on the first page and one on the second, with the way between
    assert section(first, "finished-games").count("data-code=") == 20
    assert section(second, "finished-games").count("data-code=") == 1
    assert 'rel="next" href="?page=2"' in first
    assert 'rel="prev" href="?page=1"' in second
    assert "Page 2 of 2" in second
    assert beyond.status_code == nonsense.status_code == 200
    assert "Page 2 of 2" in beyond.content.decode()
    assert "Page 1 of 2" in nonsense.content.decode()


def test_a_guest_finds_their_game_under_my_games_and_is_told_to_register(client: Client) -> None:
    client.post("/games/play-now/", {"preset": "championship", "player_count": "3"})
    game = Game.objects.get()

    content = client.get("/me/games/").content.decode()

    assert 'id="guest-games"' in content
    assert f'<a class="back-to-table" href="/games/{game.code}/">Back to the table</a>' in content


def test_my_games_lists_an_event_in_play_with_the_way_to_the_table_and_a_finished_one_placed(
    client: Client,
) -> None:
    # Given a player entered in a running event and in a finished one
    running, _, running_players, _ = event_round(4, public=True)
    finished, _, finished_players = played_event(4)
    # What the standings task does once the last table is over (after the commit)
    services.event_finish(event_id=finished.id)
    update_event_standings(finished.id)
    player = finished_players[0]
    place = Standing.objects.get(event_id=finished.id, player_id=player.pk).rank
    client.force_login(running_players[0])

    # When each opens My games
    running_page = client.get("/me/games/").content.decode()
    client.force_login(player)
    finished_page = client.get("/me/games/").content.decode()

    # Then the running event leads to the player's table, the finished one says their place
    in_play = section(running_page, "in-play")
    assert f'data-event="{running.code}"' in in_play
    assert f'href="/events/{running.code}/my-table/">Back to the table</a>' in in_play
    events = section(finished_page, "finished-events")
    assert f'data-event="{finished.code}"' in events
    assert f"Place {place} of 4" in events
    assert f'href="/events/{finished.code}/">To the event</a>' in events


def test_player_games_finds_a_seat_in_any_place_of_the_read_models_seats() -> None:
    # Given players in each seat of a six-player game
    game_id, users = seated_game(6, preset="romanian-standard")

    # When each asks for their games in play
    found = [list(player_games([user.pk], finished=False)) for user in users]

    # Then each finds it, at their own seat
    assert [[game.pk for game in games] for games in found] == [[game_id]] * 6
    seats = [
        player_seats(games, [user.pk])[0].seat for games, user in zip(found, users, strict=True)
    ]
    assert seats == [0, 1, 2, 3, 4, 5]
