import pytest

from games.domain import DealRevealed, DealsCommitted, stream_of
from games.eventstore import read
from games.models import Game
from games.rules import GameFinished, HandDealt, Phase
from games.rules.shuffle import commitment
from games.selectors import forget_tables, load_table, replay_table
from tests.games.drivers import play_to_end, seated_game

pytestmark = pytest.mark.django_db


def test_a_full_table_starts_commits_every_deal_and_deals_the_first_hand() -> None:
    game_id, _ = seated_game(players=4, preset="championship")

    table = load_table(game_id)
    events = [record.event for record in read(stream_of(game_id))]
    committed = next(e for e in events if isinstance(e, DealsCommitted))
    assert table.game.phase is Phase.BIDDING
    assert len(committed.commitments) == 32
    assert [type(e).__name__ for e in events[:7]] == [
        "GameCreated",
        "PlayerSeated",
        "PlayerSeated",
        "PlayerSeated",
        "PlayerSeated",
        "DealsCommitted",
        "GameStarted",
    ]
    assert isinstance(events[7], HandDealt)
    assert Game.objects.get(pk=game_id).status == "playing"


def test_a_whole_game_through_the_services_reveals_every_secret_it_committed() -> None:
    game_id, users = seated_game(players=3, preset="classic-app")

    play_to_end(game_id, users, seed=1)

    events = [record.event for record in read(stream_of(game_id))]
    committed = next(e for e in events if isinstance(e, DealsCommitted))
    revealed = [e for e in events if isinstance(e, DealRevealed)]
    assert isinstance(events[-1], DealRevealed)
    assert any(isinstance(e, GameFinished) for e in events)
    assert [commitment(bytes.fromhex(e.secret)) for e in revealed] == list(committed.commitments)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    assert game.scores == list(load_table(game_id).game.scores)


def test_the_cached_table_equals_a_full_replay_of_the_log() -> None:
    game_id, users = seated_game(players=4)
    play_to_end(game_id, users, seed=2)

    cached = load_table(game_id)
    forget_tables()
    replayed, _ = replay_table(game_id)

    assert cached == replayed == load_table(game_id)
