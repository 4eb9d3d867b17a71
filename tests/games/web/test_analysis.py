"""A finished game's analysis, through the API and its page: pending while computed,
then the review the viewer may see; the refusals with their codes."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game, GameAnalysis
from games.read.analysis import analyse
from tests.games.drivers import SHORT_GAME, play_to_end, seated_game
from tests.tournaments.drivers import wait_until


def a_finished_game() -> tuple[uuid.UUID, str]:
    game_id, users = seated_game(3, "romanian-standard", SHORT_GAME)
    play_to_end(game_id, users, seed=5)
    return game_id, Game.objects.get(pk=game_id).code


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded, an analysis is computed when first asked for; production's analyst "
    "computes it as the game ends (tests/games/test_tasks.py)",
)
def test_the_api_answers_pending_then_the_review_once_computed(client: Client) -> None:
    # Given a finished game not analysed yet
    game_id, code = a_finished_game()

    # When it is asked for, then it is being computed
    first = client.get(f"/api/games/{code}/analysis/")
    assert first.status_code == 200
    assert first.json() == {"status": "pending", "seats": [0, 1, 2], "review": None}

    # and once computed, the API answers it whole
    wait_until(lambda: GameAnalysis.objects.filter(game_id=game_id).exists(), 300, "analysis")
    answer = client.get(f"/api/games/{code}/analysis/")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ready",
        "seats": [0, 1, 2],
        "review": GameAnalysis.objects.get(game_id=game_id).review,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "place", "code"),
    [
        ("romanian", "online", "game_not_finished"),
        ("classic", "online", "analysis_not_kept"),
        ("romanian", "room", "analysis_not_kept"),
    ],
)
def test_the_api_refuses_a_game_it_does_not_analyse_or_not_yet(
    client: Client, kind: str, place: str, code: str
) -> None:
    game_id, _ = seated_game(
        4, None if kind == "classic" else "championship", kind=kind, place=place
    )

    answer = client.get(f"/api/games/{game_id}/analysis/")

    assert answer.status_code == 409
    assert answer.json()["code"] == code
    assert client.get(f"/games/{game_id}/analysis/").status_code == 409


@pytest.mark.django_db
def test_an_unknown_game_has_no_analysis(client: Client) -> None:
    assert client.get("/api/games/NOSUCH/analysis/").json()["code"] == "game_not_found"
    assert client.get("/games/NOSUCH/analysis/").status_code == 404


@pytest.mark.django_db
def test_the_page_names_each_player_and_each_flagged_decision_with_its_moment(
    client: Client,
) -> None:
    # Given a finished game's analysis
    game_id, code = a_finished_game()
    review = analyse(game_id).review
    flagged_plays = [
        (hand["hand"], play)
        for hand in review["hands"]
        for play in hand["plays"]
        if play["flagged"]
    ]
    assert flagged_plays, "random play makes mistakes"

    # When the page is read
    page = client.get(f"/games/{code}/analysis/").content.decode()

    # Then each player has a line, and each flagged card its sentence and replay link
    for seat in range(3):
        assert f'<tr data-seat="{seat}">' in page
        assert f'<th scope="row">Player {seat + 1}</th>' in page
    hand, play = flagged_plays[0]
    assert f"/games/{code}/?replay&amp;deal={hand + 1}&amp;trick={play['trick'] + 1}" in page
    assert page.count('data-kind="play"') == len(flagged_plays)
    assert page.count('data-kind="bid"') == sum(
        bid["flagged"] for hand in review["hands"] for bid in hand["bids"]
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded, an analysis is computed when first asked for; production's analyst "
    "computes it as the game ends (tests/games/test_tasks.py)",
)
def test_the_page_says_the_analysis_is_being_computed_and_looks_again(client: Client) -> None:
    game_id, code = a_finished_game()

    page = client.get(f"/games/{code}/analysis/").content.decode()

    assert 'id="analysis-pending"' in page
    assert '<meta http-equiv="refresh" content="10">' in page
    wait_until(lambda: GameAnalysis.objects.filter(game_id=game_id).exists(), 300, "analysis")
