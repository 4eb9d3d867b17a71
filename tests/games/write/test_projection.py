import random
import uuid

import pytest
from django.db import transaction

from eventlog.store import append, read
from games.commands import actions
from games.models import Game
from games.table import stream_of
from games.write.projection import game_streams, rebuild_game_projections
from games.write.tables import load_table
from tests.games.drivers import next_move, play_to_end, seated_game

pytestmark = pytest.mark.django_db

SHORT = {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False}


def rows() -> list[dict]:
    return list(Game.objects.order_by("id").values())


@pytest.fixture
def three_games(user) -> list[uuid.UUID]:
    """An open table, a game in its third deal, and a finished game."""
    open_table = actions.game_create(creator=user, player_count=4, preset="online-room")
    actions.game_join(game_id=open_table.id, user=user, alias="Ana")
    playing, players = seated_game(3, "romanian-standard", SHORT)
    rng = random.Random(1)
    while load_table(playing).game.hand < 2:
        next_move(playing, players, rng)
    finished, finishers = seated_game(4, "classic-app")
    play_to_end(finished, finishers, seed=2)
    return [open_table.id, playing, finished]


def test_rebuilding_after_dropping_the_read_model_restores_identical_rows(three_games) -> None:
    before = rows()
    Game.objects.all().delete()

    rebuilt = rebuild_game_projections()

    assert rebuilt == 3
    assert rows() == before
    assert {row["status"] for row in before} == {"open", "playing", "finished"}


def test_rebuilding_drops_rows_the_log_does_not_back_and_repairs_stale_ones(three_games) -> None:
    before = rows()
    Game.objects.filter(pk=three_games[2]).update(scores=[0, 0, 0, 0], status="playing")
    orphan = Game.objects.get(pk=three_games[0])
    orphan.pk, orphan.code = uuid.uuid4(), "ORPHAN"
    orphan.save(force_insert=True)

    rebuilt = rebuild_game_projections()

    assert rebuilt == 3
    assert rows() == before


def test_rebuilding_stamps_each_row_with_its_first_and_last_events_times(three_games) -> None:
    rebuild_game_projections()

    for game_id in three_games:
        records = read(stream_of(game_id))
        game = Game.objects.get(pk=game_id)
        assert (game.created_at, game.updated_at) == (
            records[0].recorded_at,
            records[-1].recorded_at,
        )
        assert game.version == len(records)


def test_streams_that_are_not_games_are_left_out_of_the_rebuild(user) -> None:
    game = actions.game_create(creator=user, player_count=3, preset="championship")
    created = read(stream_of(game.id))[0].event
    with transaction.atomic():
        append(f"test:{uuid.uuid4()}", 0, [created], None)
        append("game:not-a-uuid", 0, [created], None)

    rebuilt = rebuild_game_projections()

    assert rebuilt == 1
    assert game_streams() == [(game.id, stream_of(game.id))]
    assert list(Game.objects.values_list("id", flat=True)) == [game.id]


def test_rebuilding_an_empty_log_leaves_no_games() -> None:
    assert rebuild_game_projections() == 0
    assert Game.objects.count() == 0


def test_classic_games_read_models_rebuild_identically_in_play_and_finished() -> None:
    # Given a classic rubber in its second hand and a finished classic tournament
    playing, players = seated_game(kind="classic", preset="british")
    rng = random.Random(3)
    while load_table(playing).game.hand < 1:
        next_move(playing, players, rng)
    finished, finishers = seated_game(kind="classic", preset="whist-drive", options={"deals": 2})
    play_to_end(finished, finishers, seed=4)
    before = rows()

    # When the read model is dropped and rebuilt from the log
    Game.objects.all().delete()
    rebuilt = rebuild_game_projections()

    # Then the rows come back identical, each player scoring their side's points
    assert rebuilt == 2
    assert rows() == before
    finished_row = Game.objects.get(pk=finished)
    a, b = finished_row.scores[:2]
    assert (finished_row.kind, finished_row.status, finished_row.scores) == (
        "classic",
        "finished",
        [a, b, a, b],
    )
