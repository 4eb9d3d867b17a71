"""Many clients racing for the same turn, on PostgreSQL, with real concurrent
transactions: exactly one command lands per turn; the others get a conflict."""

import random
import threading
from collections import Counter
from collections.abc import Callable
from functools import partial

import pytest
from django.db import connection, connections
from django.test import override_settings

from accounts.services import user_ensure_bot_players, user_ensure_demo_organizer
from eventlog.models import StoredEvent
from games.commands import actions
from games.errors import VersionConflict
from games.models import Game
from games.rules import Phase, legal_bids, legal_plays
from games.table import stream_of
from games.write.tables import load_table
from tests.games.drivers import play_to_end, seated_game, user_to_act
from tournaments.models import Event, TableResult
from tournaments.services import event_open_demo

CLIENTS = 8
TURNS = 12

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the race is between PostgreSQL transactions (production mode); "
        "embedded SQLite serializes every writer",
    ),
]


def race(targets: list[Callable[[], object]]) -> list[BaseException | None]:
    """Run each target in its own thread and database connection, all released at once."""
    barrier = threading.Barrier(len(targets))
    outcomes: list[BaseException | None] = [None] * len(targets)

    def run(index: int) -> None:
        try:
            barrier.wait()
            targets[index]()
        except BaseException as error:
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(targets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_of_clients_racing_for_one_turn_exactly_one_lands_and_the_rest_get_409() -> None:
    game_id, users = seated_game(players=4, preset="championship")
    rng = random.Random(7)
    landed_per_turn = []

    for _ in range(TURNS):
        table = load_table(game_id)
        actor = user_to_act(table, users)
        version = table.version
        if table.game.phase is Phase.BIDDING:
            choices = [
                (actions.game_place_bid, {"bid": rng.choice(legal_bids(table.game))})
                for _ in range(CLIENTS)
            ]
        else:
            choices = [
                (actions.game_play_card, {"card": str(rng.choice(legal_plays(table.game)))})
                for _ in range(CLIENTS)
            ]

        outcomes = race(
            [
                partial(act, game_id=game_id, actor=actor, expected_version=version, **extra)
                for act, extra in choices
            ]
        )

        kinds = Counter(type(outcome).__name__ for outcome in outcomes)
        assert kinds == Counter({"NoneType": 1, "VersionConflict": CLIENTS - 1}), outcomes
        assert all(
            outcome.status == 409 for outcome in outcomes if isinstance(outcome, VersionConflict)
        )
        landed_per_turn.append(kinds["NoneType"])

    sequences = list(
        StoredEvent.objects.filter(stream=stream_of(game_id))
        .order_by("sequence")
        .values_list("sequence", flat=True)
    )
    assert landed_per_turn == [1] * TURNS
    assert sequences == list(range(1, len(sequences) + 1))


def test_clients_racing_without_a_version_still_never_duplicate_or_skip_a_sequence() -> None:
    game_id, users = seated_game(players=4, preset="championship")
    table = load_table(game_id)
    actor = user_to_act(table, users)
    bid = legal_bids(table.game)[0]

    outcomes = race(
        [
            lambda: actions.game_place_bid(game_id=game_id, actor=actor, bid=bid)
            for _ in range(CLIENTS)
        ]
    )

    landed = [outcome for outcome in outcomes if outcome is None]
    assert len(landed) == 1
    # The others lost the race (409) or, reloading after it, found it was no
    # longer their turn: never a second bid for the same turn.
    assert all(
        outcome is None or outcome.code in ("version_conflict", "not_your_turn")
        for outcome in outcomes
    )
    sequences = list(
        StoredEvent.objects.filter(stream=stream_of(game_id))
        .order_by("sequence")
        .values_list("sequence", flat=True)
    )
    assert sequences == list(range(1, table.version + 2))


def test_players_asking_for_a_rematch_at_once_all_sit_at_one_new_table() -> None:
    # Given a finished game of four
    game_id, users = seated_game(
        players=4,
        preset="classic-app",
        options={"schedule": "1-8-1", "step": 2, "repeat_one_card_deals": False},
    )
    play_to_end(game_id, users)

    # When its four players ask for a rematch at the same moment
    outcomes = race([partial(actions.game_rematch, game_id=game_id, actor=user) for user in users])

    # Then one table was opened, and each of them sits at it
    assert outcomes == [None] * 4
    [rematch] = Game.objects.filter(rematch_of=game_id)
    assert sorted(seat["user_id"] for seat in rematch.seats) == sorted(user.pk for user in users)
    assert rematch.status == "playing"


@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are not this test's
def test_demo_openers_racing_open_one_demo_table_and_one_demo_championship() -> None:
    # Given the demo's organizer and bots, and nothing of the demo open
    organizer, _ = user_ensure_demo_organizer()
    players = user_ensure_bot_players()
    open_table = partial(actions.game_open_demo_table, organizer=organizer, players=players)
    open_event = partial(event_open_demo, organizer=organizer)

    # When four openers of each race (tasks handed out more than once)
    outcomes = race([open_table, open_event] * 4)

    # Then each found the one the first opened
    assert outcomes == [None] * 8
    event_tables = TableResult.objects.values_list("game_id", flat=True)
    assert Game.objects.exclude(pk__in=event_tables).filter(status="playing").count() == 1
    assert Event.objects.filter(status="running").count() == 1
