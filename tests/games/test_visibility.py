"""What a viewer sees of a classic Whist table (the Romanian game's leaks are
checked end to end in test_api_leaks.py and test_consumers.py), who may see a game
at all (a private championship's tables), and what no viewer sees of the log."""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from eventlog.store import read
from games.commands.actions import game_create, game_hand_over_seat, game_join, game_pause
from games.errors import GameNotFound
from games.models import Game
from games.read.selectors import find_game, games_list
from games.rules import classic
from games.table import Table, fold, stream_of
from games.visibility import (
    Viewer,
    event_views,
    event_views_from,
    hand_parts,
    may_see_game,
    released_table,
    shared_state_view,
    state_view,
    viewer_of,
    viewer_state_view,
    word_due,
    words_cutoff,
)
from games.write.tables import forget_tables, load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move, play_to_end, seated_game
from tests.tournaments.drivers import SHORT_RULES, organizer, private_event_round, round_games
from tournaments import services as tournaments
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_each_classic_player_sees_their_own_hand_and_everyone_the_turned_trump_until_the_dealer_plays() -> (  # noqa: E501
    None
):
    # Given a classic table whose dealer has turned the trump card
    game_id, users = seated_game(kind="classic", preset="american")
    table = load_table(game_id)
    game = table.game
    assert isinstance(game, classic.ClassicState)
    dealer, turned = game.dealer, str(game.trump_card)

    # Then each player sees their 13 cards and the dealer's turned card, nothing else
    for seat in range(4):
        hand = state_view(game_id, table, Viewer(seat))["hand"]
        expected = [[] for _ in range(4)]
        expected[dealer] = [turned]
        expected[seat] = [str(c) for c in game.holdings[seat]]
        assert hand["holdings"] == expected
        assert (hand["turned_up"], hand["trump_card"]) == (turned, turned)
    spectator = state_view(game_id, table, Viewer(None))
    assert spectator["hand"]["holdings"] == [[turned] if s == dealer else [] for s in range(4)]
    assert spectator["legal"] == {"cards": []}
    to_act = state_view(game_id, table, Viewer(table.to_act))
    assert to_act["legal"]["cards"] == [str(c) for c in classic.legal_plays(game)]

    # And the spectator's HandDealt event names the turned card only
    dealt = next(
        view
        for view in event_views(read(stream_of(game_id)), Viewer(None))
        if view["type"] == "classic.HandDealt"
    )
    assert dealt["payload"]["hands"] == spectator["hand"]["holdings"]

    # When the first trick is played: led from the dealer's left, so the dealer plays last
    rng = random.Random(5)
    for _ in range(4):
        next_move(game_id, users, rng)

    # Then the turned card lies face up no longer: the spectator sees no hand at all
    after = state_view(game_id, load_table(game_id), Viewer(None))["hand"]
    assert after["turned_up"] is None
    assert after["holdings"] == [[], [], [], []]
    assert after["trump_card"] == turned


def test_each_classic_result_names_its_hands_trump_and_the_game_of_the_rubber() -> None:
    # Given a whist-drive table of two deals played out: trumps rotate hearts, diamonds
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 2})
    play_to_end(game_id, users, seed=8)

    # Then each scored hand says its trump, in the spectator's view too
    view = state_view(game_id, load_table(game_id), Viewer(None))
    assert [(r["hand"], r["trump"], r["game"]) for r in view["results"]] == [
        (0, "H", 0),
        (1, "D", 0),
    ]


# --- Who may see a game at all -------------------------------------------------------


def test_a_private_events_table_is_seen_by_its_players_organizer_and_entrants_only() -> None:
    # Given a private event's round of two tables, and a public table elsewhere
    _, organizer, entrants, (table, other_table) = private_event_round(8)
    public_id, _ = seated_game(3)
    seated_ids = {seat["user_id"] for seat in table.seats}
    player = next(user for user in entrants if user.pk in seated_ids)
    entrant_elsewhere = next(user for user in entrants if user.pk not in seated_ids)
    outsider = UserFactory.create()

    # Then its players, the organizer and the other table's entrants see it
    for viewer in (player, organizer, entrant_elsewhere):
        assert may_see_game(table, viewer.pk) is True
        assert set(games_list(viewer_id=viewer.pk).values_list("id", flat=True)) == {
            table.id,
            other_table.id,
            public_id,
        }
    # And for anyone else it does not exist: not listed, not found by id or code
    for viewer_id in (outsider.pk, None):
        assert may_see_game(table, viewer_id) is False
        assert list(games_list(viewer_id=viewer_id).values_list("id", flat=True)) == [public_id]
        for reference in (str(table.id), table.code):
            with pytest.raises(GameNotFound):
                find_game(reference, viewer_id=viewer_id)
    assert find_game(table.code.lower(), viewer_id=player.pk) == table


def test_a_public_events_table_is_seen_by_anyone() -> None:
    event, _, _, (table, _) = private_event_round(8)
    Event.objects.filter(pk=event.id).update(public=True)

    assert may_see_game(table, None) is True
    assert may_see_game(table, UserFactory.create().pk) is True
    assert table.id in set(games_list(viewer_id=None).values_list("id", flat=True))


def test_no_viewer_sees_the_creators_account_in_game_created() -> None:
    # Given a game whose log keeps its creator
    game_id, _ = seated_game(3)
    records = read(stream_of(game_id))
    assert records[0].payload["creator_id"] is not None

    # Then no viewer, seated or not, is shown the creator's account
    for viewer in (Viewer(0), Viewer(None), Viewer(None, replay=True)):
        created = event_views(records, viewer)[0]
        assert created["type"] == "GameCreated"
        assert "creator_id" not in created["payload"]
        assert created["payload"]["code"] == records[0].payload["code"]


def test_no_viewer_sees_the_accounts_of_a_seat_a_guest_handed_over() -> None:
    # Given a guest's seat handed to the account they signed in to (decision 3507)
    game_id, users = seated_game(3)
    game_hand_over_seat(game_id=game_id, guest_id=users[0].pk, account=UserFactory.create())
    records = read(stream_of(game_id))

    # Then no viewer is shown either account: the seat keeps its alias
    for viewer in (Viewer(0), Viewer(1), Viewer(None), Viewer(None, replay=True)):
        handed = event_views(records, viewer)[-1]
        assert (handed["type"], handed["payload"]) == ("SeatHandedOver", {"seat": 0})


def timed_game(seconds: int | None) -> tuple[uuid.UUID, list[User]]:
    """A started table of three whose turns last ``seconds`` (None: no timer)."""
    users = list(UserFactory.create_batch(3))
    game = game_create(
        creator=users[0], player_count=3, preset="romanian-standard", turn_seconds=seconds
    )
    for number, user in enumerate(users):
        game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    return game.id, users


def deadline_after_last_event(game_id: uuid.UUID, seconds: int) -> str:
    return (read(stream_of(game_id))[-1].recorded_at + timedelta(seconds=seconds)).isoformat()


def test_the_turn_deadline_counts_from_the_event_that_began_the_turn_however_it_is_read() -> None:
    # Given a table whose turns last ten minutes, its first bid awaited
    game_id, users = timed_game(600)
    began = deadline_after_last_event(game_id, 600)

    # Then every viewer's state gives the deadline: from the table the write cached,
    # from the log, and from the events a socket folds
    assert state_view(game_id, load_table(game_id), Viewer(0))["turn_deadline"] == began
    forget_tables()
    assert state_view(game_id, load_table(game_id), Viewer(None))["turn_deadline"] == began
    folded = Table()
    event_views_from(folded, read(stream_of(game_id)), Viewer(None))
    assert state_view(game_id, folded, Viewer(None))["turn_deadline"] == began

    # When the seat to act bids
    next_move(game_id, users, random.Random(1))

    # Then the next seat's deadline counts from that bid
    moved = deadline_after_last_event(game_id, 600)
    assert moved != began
    assert state_view(game_id, load_table(game_id), Viewer(None))["turn_deadline"] == moved


def test_the_turn_deadline_runs_to_a_stand_in_when_it_comes_before_the_turn_timer() -> None:
    # Given a table whose bot stands in for an absent player after 20 s, its turns 60 s
    users = UserFactory.create_batch(3)
    game = game_create(
        creator=users[0],
        player_count=3,
        preset="romanian-standard",
        turn_seconds=60,
        stand_in_seconds=20,
    )
    for number, user in enumerate(users):
        game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")

    # Then the seat to act has 20 s
    deadline = deadline_after_last_event(game.id, 20)
    assert state_view(game.id, load_table(game.id), Viewer(None))["turn_deadline"] == deadline


def test_there_is_no_turn_deadline_without_a_timer_or_while_paused() -> None:
    untimed, _ = timed_game(None)
    timed, users = timed_game(600)

    game_pause(game_id=timed, actor=users[0])

    assert state_view(untimed, load_table(untimed), Viewer(None))["turn_deadline"] is None
    assert state_view(timed, load_table(timed), Viewer(None))["turn_deadline"] is None


@pytest.mark.parametrize("kind", ["romanian", "classic"])
def test_a_shared_view_built_since_the_table_before_is_the_one_built_afresh_at_every_event(
    kind: str,
) -> None:
    # Given a whole game's log
    game_id, users = seated_game(4 if kind == "classic" else 3, preset=None, kind=kind)
    play_to_end(game_id, users, seed=5)
    records = read(stream_of(game_id))

    # When each event's shared view is built from the one before it
    before = Table()
    before_view = shared_state_view(game_id, before)
    lent_results = 0
    for record in records:
        table = fold(before.clone(), [record.event])
        table.version = record.sequence
        view = shared_state_view(game_id, table, (before, before_view))

        # Then it is, to the byte, the view built from nothing
        assert orjson.dumps(view) == orjson.dumps(shared_state_view(game_id, table))
        # and the seats, which no move changes, nor (in Romanian Whist) the results,
        # which only a hand's end changes, are built again
        if table.seats is before.seats:
            assert view["seats"] is before_view["seats"]
        if kind == "romanian":
            game, was = table.romanian_game, before.romanian_game
            if game.results and game.results is was.results and game.schedule is was.schedule:
                assert view["results"] is before_view["results"]
                lent_results += 1
        before, before_view = table, view
    if kind == "romanian":
        assert lent_results > len(records) // 2


@pytest.mark.parametrize("one_card_mode", ["normal", "forehead", "blind"])
def test_a_viewers_state_built_from_the_hand_parts_every_viewer_shares_is_the_one_built_alone(
    one_card_mode: str,
) -> None:
    # Given a whole Romanian game's log, its one-card hands on the forehead or blind
    game_id, users = seated_game(3, options={"one_card_mode": one_card_mode})
    play_to_end(game_id, users, seed=3)
    viewers = [
        *(Viewer(seat) for seat in range(3)),
        Viewer(None),
        Viewer(None, screened=True),
        Viewer(None, replay=True),
    ]

    # When each event's viewer states are built from the parts shared by all viewers
    table, compared = Table(), 0
    for record in read(stream_of(game_id)):
        fold(table, [record.event])
        parts = hand_parts(table)
        for viewer in viewers:
            # Then each is, to the byte, the state built for that viewer alone
            alone = orjson.dumps(viewer_state_view(table, viewer))
            assert orjson.dumps(viewer_state_view(table, viewer, parts)) == alone
            compared += 1
    assert compared > 6 * 100


# --- How far behind the play each viewer sees a delayed table ------------------------


def delayed_event_round(delay: int) -> tuple[Event, User, list[User], list[Game]]:
    """A public event whose spectators lag ``delay`` seconds, its round of two tables
    of four started: the event, its organizer, its entrants, its games."""
    creator = organizer()
    event = tournaments.event_create(
        organizer=creator, name="Cupa", rounds=1, options=SHORT_RULES, spectator_delay=delay
    )
    entrants: list[User] = UserFactory.create_batch(8)
    for entrant in entrants:
        tournaments.event_register(event_id=event.id, actor=entrant)
        tournaments.event_check_in(event_id=event.id, actor=entrant)
    tournaments.event_start_round(event_id=event.id, actor=creator)
    return event, creator, entrants, round_games(event.id, 1)


def test_a_delayed_table_holds_back_everyone_but_its_players_and_who_directs_its_event() -> None:
    # Given a round of an event whose spectators lag 300 s
    _, creator, _, (game, elsewhere) = delayed_event_round(300)
    table = load_table(game.id)
    staff = UserFactory.create(is_staff=True, is_superuser=True)
    viewers = {
        "anonymous": None,
        "spectator": UserFactory.create().pk,
        "elsewhere": elsewhere.seats[0]["user_id"],
        "player": game.seats[0]["user_id"],
        "organizer": creator.pk,
        "staff": staff.pk,
    }

    # When each is seen as a viewer of one of its tables
    lags = {name: viewer_of(game.id, table, user).lag for name, user in viewers.items()}

    # Then its players and the organizer see it live, everyone else (site staff too)
    # the delay behind
    assert lags == {
        "anonymous": 300,
        "spectator": 300,
        "elsewhere": 300,
        "player": 0,
        "organizer": 0,
        "staff": 300,
    }


def test_a_table_without_a_delay_holds_back_nobody() -> None:
    game_id, _ = seated_game(players=3)
    table = load_table(game_id)

    assert viewer_of(game_id, table, None).lag == 0


def test_a_released_table_is_folded_on_from_the_one_kept_reading_only_the_records_after_it() -> (
    None
):
    # Given a table whose spectators lag 300 s, three moves into its first hand, and
    # what the delay released of it when it started (its setting up)
    users = UserFactory.create_batch(3)
    delayed = game_create(
        creator=users[0], player_count=3, preset="championship", spectator_delay=300
    )
    for number, user in enumerate(users):
        game_join(game_id=delayed.id, user=user, alias=f"P{number}")
    started, started_due = released_table(delayed.id, 300, timezone.now())
    rng = random.Random(3)
    for _ in range(3):
        next_move(delayed.id, users, rng)
    records = read(stream_of(delayed.id))

    # When a held-back viewer reads it now, and again once the delay has passed on
    # every move
    with CaptureQueriesContext(connection) as early:
        held, held_due = released_table(delayed.id, 300, timezone.now())
    later = timezone.now() + timedelta(seconds=301)
    with CaptureQueriesContext(connection) as queries:
        table, due = released_table(delayed.id, 300, later)

    # Then the first read reads nothing: no move has come out since
    assert (held.version, held_due) == (started.version, started_due)
    assert [query for query in early if "games_storedevent" in query["sql"]] == []
    # And the second is the whole log folded, read from the last record it had released on
    whole = fold(Table(), [record.event for record in records])
    assert (table.version, table.game, due) == (whole.version, whole.game, None)
    reads = [query["sql"] for query in queries if "games_storedevent" in query["sql"]]
    assert len(reads) == 1
    assert f'"sequence" > {started.version - 1}' in reads[0]
    # And what it had released at first was the table set up and started, no move
    assert (started.status, started.game.phase.value) == ("playing", "dealing")


def test_a_word_said_at_a_table_is_readable_by_a_held_back_viewer_once_the_delay_passed() -> None:
    now = timezone.now()
    said_at = now - timedelta(seconds=30)

    # A viewer who sees the play live reads every word at once; one 60 s behind reads
    # the words said a minute ago or more, each 60 s after it was said.
    assert (words_cutoff(0, now), word_due(said_at, 0)) == (None, None)
    assert words_cutoff(60, now) == now - timedelta(seconds=60)
    assert word_due(said_at, 60) == now + timedelta(seconds=30)
