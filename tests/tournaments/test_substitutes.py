"""Absent players and substitutes: a bot standing in after the event's time, the
director's reserves and bots, withdrawal and disqualification mid-round, and how the
standings share a seat's points among those who played it (decision 3406)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from django.test import override_settings

from accounts.models import User
from eventlog import store
from games import tasks
from games.commands import actions
from games.rules import Phase, legal_bids
from games.table import SeatAutomated, SeatTaken, Table, stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games
from tests.tournaments.test_services import refused
from tests.tournaments.test_views import VALID_EVENT, manage_url, signed_in, text
from tournaments import points, selectors, services
from tournaments.championship import (
    EventCreated,
    PlayerDisqualified,
    PlayerWithdrew,
    SeatSubstituted,
    championship_stream,
    decode,
    encode,
)
from tournaments.models import Event, Standing, TableResult
from tournaments.projections.rebuild import rebuild_standings
from tournaments.services import load_championship
from tournaments.tasks import update_standings

# The short rules' nine deals: 1, 3, 5, 7, 8, 7, 5, 3, 1 cards.
DEALS = 9


def table_of_four(
    *, reserves: int = 0, **options: Any
) -> tuple[Event, User, list[User], list[User], uuid.UUID]:
    """A one-round event of four people at one table, ``reserves`` more entered but not
    checked in; its round started. The event, its director, the players by seat, the
    reserves and the table's game."""
    director = organizer()
    event = services.event_create(
        organizer=director, name="Cupa", rounds=1, options=SHORT_RULES, **options
    )
    people: list[User] = UserFactory.create_batch(4 + reserves)
    for number, person in enumerate(people):
        services.event_register(event_id=event.id, actor=person)
        if number < 4:
            services.event_check_in(event_id=event.id, actor=person)
    services.event_start_round(event_id=event.id, actor=director)
    game_id = round_games(event.id, 1)[0].id
    by_id = {person.pk: person for person in people}
    seated = [by_id[player] for player in load_championship(event.id).rounds[0].tables[0]]
    return Event.objects.get(pk=event.id), director, seated, people[4:], game_id


def play_on(game_id: uuid.UUID, users: Sequence[User], deals: int = DEALS) -> None:
    """Play until ``deals`` deals are scored (or the game is over): people move at
    random, a seat a bot plays is played by its bot (as its timer would)."""
    rng = random.Random(7)
    while True:
        table = load_table(game_id)
        if table.status == "finished" or len(table.romanian_game.results) >= deals:
            return
        if table.bots[table.game.turn] is not None:
            actions.game_play_automatically(game_id=game_id, expected_version=table.version)
        else:
            next_move(game_id, users, rng)


def bidding(table: Table) -> bool:
    return table.game.phase is Phase.BIDDING


def lines(event: Event) -> dict[int, tuple[float, int, int]]:
    """Each player's standing: points, exact bids, games."""
    return {
        row.player_id: (row.points, row.exact_bids, row.games)
        for row in Standing.objects.filter(event_id=event.id)
    }


def agrees_with_rebuild(event: Event) -> dict[int, tuple[float, int, int]]:
    update_standings(str(event.id))
    live = lines(event)
    rebuild_standings()
    assert lines(event) == live
    return live


def seat_points(game_id: uuid.UUID) -> list[Fraction]:
    row = TableResult.objects.get(game_id=game_id)
    return points.relative_points(row.scores)


# --- A bot standing in for an absent player -------------------------------------------


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are driven here
def test_a_bot_stands_in_once_the_absent_players_time_is_up_and_the_task_run_twice_moves_once() -> (
    None
):
    # Given an event whose director chose a stand-in after 20 s of a turn
    _, _, seated, _, game_id = table_of_four(absent_seconds=20)
    table = load_table(game_id)
    seat, version = table.game.turn, table.version
    assert table.stand_in_seconds == 20

    # When the automatic move's task runs for the seat to act, twice
    first = tasks.play_automatic_move(str(game_id), version)
    second = tasks.play_automatic_move(str(game_id), version)

    # Then a bot plays that seat from then on, and its first move was made once
    after = load_table(game_id)
    assert (first, second) == (version + 2, None)
    assert after.bots[seat] == actions.DEFAULT_LEVEL
    records = store.read(stream_of(game_id), after=version)
    assert records[0].event == SeatAutomated(seat, actions.DEFAULT_LEVEL)
    assert [record.type for record in records] == ["SeatAutomated", "BidPlaced"]
    held = after.seats[seat]
    assert held is not None and held.user_id == seated[seat].pk


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_an_absent_player_who_moves_again_takes_the_seat_back_in_the_same_write() -> None:
    # Given a seat a bot stands in for
    _, _, seated, _, game_id = table_of_four(absent_seconds=20)
    table = load_table(game_id)
    seat = table.game.turn
    tasks.play_automatic_move(str(game_id), table.version)
    rng = random.Random(1)
    while not ((table := load_table(game_id)).game.turn == seat and bidding(table)):
        if table.bots[table.game.turn] is not None:
            actions.game_play_automatically(game_id=game_id, expected_version=table.version)
        else:
            next_move(game_id, seated, rng)

    # When its player bids themself
    actions.game_place_bid(
        game_id=game_id,
        actor=seated[seat],
        bid=legal_bids(table.romanian_game)[0],
        expected_version=table.version,
    )

    # Then the bot stopped first, and the bid is theirs
    records = store.read(stream_of(game_id), after=table.version)
    assert [record.type for record in records][:2] == ["SeatAutomated", "BidPlaced"]
    assert records[0].event == SeatAutomated(seat, None)
    assert load_table(game_id).bots[seat] is None


@pytest.mark.django_db
def test_an_event_without_a_stand_in_time_leaves_its_tables_as_before() -> None:
    event, _, _, _, game_id = table_of_four()
    assert load_championship(event.id).settings.absent_seconds == 0
    assert load_table(game_id).stand_in_seconds is None


@pytest.mark.django_db
@pytest.mark.parametrize("seconds", [4, 601, "30", True])
def test_a_stand_in_time_outside_5_to_600_seconds_is_refused(seconds: object) -> None:
    refused(
        "invalid_input",
        services.event_create,
        organizer=organizer(),
        name="Cupa",
        absent_seconds=seconds,
    )


def test_an_event_recorded_before_the_stand_in_time_decodes_as_never() -> None:
    created = EventCreated(
        "Cupa",
        "ABCDEF",
        1,
        None,
        "championship",
        {},
        4,
        1,
        "raw",
        (),
        True,
        0,
        False,
        "random",
        "seed",
    )
    name, payload = encode(created)
    del payload["absent_seconds"]
    assert decode(name, payload) == created
    assert decode(name, payload).absent_seconds == 0  # type: ignore[union-attr]


# --- Standings: every deal to whoever played it --------------------------------------


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_deals_a_bot_stood_in_for_count_for_nobody_and_the_rest_for_the_player() -> None:
    # Given a bot standing in for the first player to act through the first deal
    event, _, seated, _, game_id = table_of_four(absent_seconds=20)
    table = load_table(game_id)
    seat = table.game.turn
    tasks.play_automatic_move(str(game_id), table.version)
    play_on(game_id, seated, deals=1)

    # When the player comes back ("Take my seat back") and the table plays to the end
    actions.game_set_seat_bot(game_id=game_id, actor=seated[seat], seat=seat, bot=None)
    play_on(game_id, seated)

    # Then the table says who played the seat's deals
    row = TableResult.objects.get(game_id=game_id)
    update_standings(str(event.id))
    row.refresh_from_db()
    bot_share, own_share = row.played[seat]
    assert (bot_share[:2], own_share[:2]) == ([None, 1], [seated[seat].pk, DEALS - 1])
    assert bot_share[2] + own_share[2] == row.exact_bids[seat]
    assert [shares for number, shares in enumerate(row.played) if number != seat] == [[]] * 3

    # And the player has 8/9 of the seat's points and their own exact bids; the others
    # theirs whole; and a rebuild from the log agrees
    earned = seat_points(game_id)
    standing = agrees_with_rebuild(event)
    assert standing[seated[seat].pk] == (
        points.displayed(earned[seat] * Fraction(DEALS - 1, DEALS)),
        own_share[2],
        1,
    )
    for number, player in enumerate(seated):
        if number != seat:
            assert standing[player.pk] == (
                points.displayed(earned[number]),
                row.exact_bids[number],
                1,
            )


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_reserve_seated_after_the_first_deal_has_the_rest_and_the_absent_player_the_first() -> (
    None
):
    # Given a table that played its first deal, and a reserve entered but not playing
    event, director, seated, (reserve,), game_id = table_of_four(reserves=1)
    play_on(game_id, seated, deals=1)

    # When the director seats the reserve in seat 2
    services.event_seat_substitute(
        event_id=event.id, actor=director, table=1, seat=2, player_id=reserve.pk
    )
    play_on(game_id, [*seated, reserve])

    # Then the championship and the table's log record it
    assert store.read(championship_stream(event.id))[-1].event == SeatSubstituted(
        1, 0, 2, reserve.pk
    )
    taken = [r.event for r in store.read(stream_of(game_id)) if r.type == "SeatTaken"]
    assert taken == [SeatTaken(2, reserve.pk, taken[0].alias)]  # type: ignore[union-attr]

    # And seat 2's points are shared 1/9 and 8/9, each with their own exact bids
    row = TableResult.objects.get(game_id=game_id)
    update_standings(str(event.id))
    row.refresh_from_db()
    (absent, first), (substitute, rest) = [(s[0], s[2]) for s in row.played[2]]
    assert (absent, substitute) == (seated[2].pk, reserve.pk)
    earned = seat_points(game_id)[2]
    standing = agrees_with_rebuild(event)
    assert standing[seated[2].pk] == (points.displayed(earned / DEALS), first, 1)
    assert standing[reserve.pk] == (points.displayed(earned * Fraction(8, DEALS)), rest, 1)


def test_a_seat_played_by_a_bot_throughout_leaves_its_player_a_line_of_nothing() -> None:
    # Given a table whose seat 0 a bot played from the first deal
    result = points.TableResult(
        (1, 2, 3), (30, 20, 10), (4, 3, 2), played=(((None, 9, 4),), (), ())
    )

    # When the standings are totalled by placement
    ranked = points.standings(
        [(result, points.table_points(result, points.PointsMethod.PLACEMENT))]
    )

    # Then player 1 has 0 points, no exact bids and no game (and ranks below player
    # 3's 0 points on exact bids); the others have theirs
    assert [(s.player, s.points, s.exact_bids, s.games, s.best_game) for s in ranked] == [
        (2, Fraction(30), 3, 1, 20),
        (3, Fraction(0), 2, 1, 10),
        (1, Fraction(0), 0, 0, 0),
    ]


def test_a_matchpoint_percentage_is_shared_by_deals_like_any_other_points() -> None:
    # Given a duplicate round of two tables of three; at the second, seat 0's player (4)
    # played 3 deals of 9 and a reserve (7) the other 6
    first = points.TableResult((1, 2, 3), (30, 20, 10), (0, 0, 0))
    second = points.TableResult(
        (4, 5, 6), (40, 10, 0), (1, 1, 1), played=(((4, 3, 1), (7, 6, 0)), (), ())
    )

    # When the round is scored by matchpoints
    ranked = points.standings(points.round_points([first, second], points.PointsMethod.MATCHPOINTS))

    # Then seat 0 of the second table (100%) is shared 1/3 and 2/3
    by_player = {line.player: (line.points, line.exact_bids, line.games) for line in ranked}
    assert by_player[4] == (Fraction(100, 3), 1, 1)
    assert by_player[7] == (Fraction(200, 3), 0, 1)
    assert by_player[1] == (Fraction(0), 0, 1)


def test_head_to_head_compares_only_seats_played_whole() -> None:
    # Given two tables: at the first, player 1 shared their seat with a reserve (9)
    shared = points.TableResult(
        (1, 2, 3), (50, 10, 0), (0, 0, 0), played=(((1, 4, 0), (9, 5, 0)), (), ())
    )
    whole = points.TableResult((1, 2, 4), (0, 10, 20), (0, 0, 0))

    # Then player 1 and 2 met whole only at the second table, where 2 finished ahead
    assert points._head_to_head([shared, whole], 1, [1, 2]) == -1
    assert points._head_to_head([shared, whole], 2, [1, 2]) == 1


# --- The director's seats: refusals ---------------------------------------------------


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_director_seats_a_bot_or_any_account_by_username_who_is_then_entered() -> None:
    event, director, seated, _, game_id = table_of_four()
    guest = UserFactory.create(username="rezerva", display_name="Rezerva Ana")

    services.event_seat_substitute(event_id=event.id, actor=director, table=1, seat=0)
    services.event_seat_substitute(
        event_id=event.id, actor=director, table=1, seat=1, username="REZERVA"
    )

    table = load_table(game_id)
    assert table.bots[0] == "medium"
    assert table.seats[1] is not None
    assert (table.seats[1].user_id, table.seats[1].alias) == (guest.pk, "Rezerva Ana")
    championship = load_championship(event.id)
    assert championship.entries[guest.pk].name == "Rezerva Ana"
    assert not championship.entries[guest.pk].checked_in
    assert championship.holders(1) == [[None, guest.pk, seated[2].pk, seated[3].pk]]

    # And seating the seat's own player back stops the bot
    services.event_seat_substitute(
        event_id=event.id, actor=director, table=1, seat=0, player_id=seated[0].pk
    )
    assert load_table(game_id).bots[0] is None
    assert load_championship(event.id).holders(1)[0][0] == seated[0].pk


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_seats_not_at_the_event_players_seated_elsewhere_and_finished_tables_are_refused() -> None:
    event, director, seated, (reserve,), game_id = table_of_four(reserves=1)
    call = services.event_seat_substitute
    common = {"event_id": event.id, "actor": director}

    assert refused("seat_not_found", call, table=2, seat=0, **common).status == 404
    assert refused("seat_not_found", call, table=1, seat=4, **common).status == 404
    error = refused("reserve_seated", call, table=1, seat=0, player_id=seated[3].pk, **common)
    assert error.message == f"player {seated[3].pk} already holds a seat at table 1 this round"
    refused("no_such_account", call, table=1, seat=0, username="nobody-here", **common)
    refused("not_organizer", call, event_id=event.id, actor=reserve, table=1, seat=0)

    play_on(game_id, seated)
    refused("table_over", call, table=1, seat=0, player_id=reserve.pk, **common)
    assert [r.type for r in store.read(championship_stream(event.id))][-1] == "RoundStarted"


# --- Withdrawal and disqualification mid-round --------------------------------------


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_player_withdrawn_mid_round_leaves_a_bot_in_their_seat_and_the_table_goes_on() -> None:
    event, director, seated, _, game_id = table_of_four()
    play_on(game_id, seated, deals=3)

    services.event_withdraw(event_id=event.id, actor=director, player_id=seated[1].pk)

    recorded = [r.event for r in store.read(championship_stream(event.id))][-1]
    assert recorded == PlayerWithdrew(seated[1].pk)
    assert load_table(game_id).bots[1] == "medium"
    play_on(game_id, seated)
    row = TableResult.objects.get(game_id=game_id)
    standing = agrees_with_rebuild(event)
    row.refresh_from_db()
    assert [share[:2] for share in row.played[1]] == [[seated[1].pk, 3], [None, 6]]
    assert standing[seated[1].pk][0] == points.displayed(seat_points(game_id)[1] * Fraction(3, 9))


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_disqualification_states_its_reason_and_is_recorded_once() -> None:
    event, director, seated, _, game_id = table_of_four()
    call = services.event_disqualify

    refused(
        "invalid_input", call, event_id=event.id, actor=director, player_id=seated[0].pk, reason=" "
    )
    refused(
        "not_entered", call, event_id=event.id, actor=director, player_id=999999, reason="cheating"
    )
    call(event_id=event.id, actor=director, player_id=seated[0].pk, reason="signalled cards")
    call(event_id=event.id, actor=director, player_id=seated[0].pk, reason="signalled cards")

    recorded = [r.type for r in store.read(championship_stream(event.id))]
    assert recorded[-2:] == ["RoundStarted", "PlayerDisqualified"]
    assert store.read(championship_stream(event.id))[-1].event == PlayerDisqualified(
        seated[0].pk, "signalled cards"
    )
    # A bot plays their seat, so the table goes on
    assert load_table(game_id).bots[0] == "medium"
    entry = load_championship(event.id).entries[seated[0].pk]
    assert (entry.withdrawn, entry.disqualified) == (True, "signalled cards")
    refused("disqualified", services.event_check_in, event_id=event.id, actor=seated[0])
    refused(
        "disqualified",
        services.event_seat_substitute,
        event_id=event.id,
        actor=director,
        table=1,
        seat=0,
        player_id=seated[0].pk,
    )


# --- Through the manage page ----------------------------------------------------------


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_manage_page_offers_every_seat_and_seats_a_reserve_then_a_bot() -> None:
    event, director, seated, (reserve,), game_id = table_of_four(reserves=1)
    owner = signed_in(director)
    page = text(owner.get(manage_url(event)))
    assert page.count('class="inline substitute"') == 4
    assert f'action="/events/{event.code}/manage/seats/"' in page

    given = owner.post(
        manage_url(event, "seats/"), {"table": "1", "seat": "3", "player": str(reserve.pk)}
    )
    bot = owner.post(manage_url(event, "seats/"), {"table": "1", "seat": "0", "player": ""})

    assert (given.status_code, bot.status_code) == (302, 302)
    assert load_championship(event.id).holders(1) == [
        [None, seated[1].pk, seated[2].pk, reserve.pk]
    ]
    page = text(owner.get(manage_url(event)))
    name = load_championship(event.id).entries[reserve.pk].name
    assert f"{name} (for {load_championship(event.id).entries[seated[3].pk].name})" in page
    assert "Seated a bot in table 1 seat 1 of round 1" in page
    assert load_table(game_id).bots[0] == "medium"
    # And the live table names who plays each seat now
    live = selectors.event_live(event.id, director.pk)["tables"][0]["players"]
    assert [player["name"] for player in live][3] == name


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_refused_seat_shows_the_page_again_with_the_reason_and_its_status() -> None:
    event, director, seated, _, _ = table_of_four()
    owner = signed_in(director)

    elsewhere = owner.post(
        manage_url(event, "seats/"), {"table": "1", "seat": "0", "player": str(seated[2].pk)}
    )
    nobody = owner.post(
        manage_url(event, "seats/"), {"table": "1", "seat": "0", "username": "nobody-here"}
    )
    stranger = signed_in(seated[0]).post(manage_url(event, "seats/"), {"table": "1", "seat": "0"})

    assert elsewhere.status_code == 409
    assert "That player already holds a seat in this round." in text(elsewhere)
    assert nobody.status_code == 404
    assert "There is no account with that username or e-mail address." in text(nobody)
    assert stranger.status_code == 403
    assert [r.type for r in store.read(championship_stream(event.id))][-1] == "RoundStarted"


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_director_disqualifies_from_the_page_and_the_audit_trail_says_why() -> None:
    event, director, seated, _, _ = table_of_four()
    owner = signed_in(director)

    response = owner.post(
        manage_url(event, "disqualifications/"),
        {"player": str(seated[1].pk), "reason": "used a phone"},
    )

    assert response.status_code == 302
    page = text(owner.get(manage_url(event)))
    name = load_championship(event.id).entries[seated[1].pk].name
    assert f"Disqualified {name}" in page
    assert "used a phone" in page


@pytest.mark.django_db
def test_the_create_form_takes_the_stand_in_time() -> None:
    response = signed_in(organizer()).post("/events/new/", {**VALID_EVENT, "absent_seconds": "45"})
    too_short = signed_in(organizer()).post("/events/new/", {**VALID_EVENT, "absent_seconds": "2"})

    assert response.status_code == 302
    assert load_championship(Event.objects.get().id).settings.absent_seconds == 45
    assert too_short.status_code == 400


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_results_page_states_the_rule_and_lists_substitutions_and_disqualifications() -> None:
    # Given a reserve seated for seat 3 and seat 1's player disqualified
    event, director, seated, (reserve,), game_id = table_of_four(reserves=1)
    play_on(game_id, seated, deals=1)
    services.event_seat_substitute(
        event_id=event.id, actor=director, table=1, seat=3, player_id=reserve.pk
    )
    services.event_disqualify(
        event_id=event.id, actor=director, player_id=seated[1].pk, reason="used a phone"
    )
    update_standings(str(event.id))
    names = {p: e.name for p, e in load_championship(event.id).entries.items()}

    # When anyone opens the results
    page = text(signed_in(seated[0]).get(f"/events/{event.code}/results/"))

    # Then the rule is stated, and who was seated and disqualified is listed
    assert "Each deal counts for whoever held the seat when it was scored" in page
    assert f"Seated {names[reserve.pk]} in table 1 seat 4 of round 1" in page
    assert f"Disqualified {names[seated[1].pk]}" in page
    assert "disqualified: used a phone" in page


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_csv_lists_substitutions_and_disqualifications_after_the_standings() -> None:
    event, director, seated, (reserve,), _ = table_of_four(reserves=1)
    services.event_seat_substitute(
        event_id=event.id, actor=director, table=1, seat=0, player_id=reserve.pk
    )
    services.event_disqualify(
        event_id=event.id, actor=director, player_id=seated[2].pk, reason="used a phone"
    )
    names = {p: e.name for p, e in load_championship(event.id).entries.items()}

    csv = text(signed_in(director).get(f"/events/{event.code}/standings.csv"))

    tail = csv.split("Substitutions and disqualifications\n", 1)[1].splitlines()
    assert tail[0] == "What,Reason,Recorded at"
    assert tail[1].startswith(f"Seated {names[reserve.pk]} in table 1 seat 1 of round 1,,")
    assert tail[2].startswith(f"Disqualified {names[seated[2].pk]},used a phone,")


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_a_deputy_seats_a_reserve_and_the_log_records_the_deputy_as_its_actor() -> None:
    event, director, _, (reserve,), game_id = table_of_four(reserves=1)
    deputy = UserFactory.create(username="adjunct")
    services.event_name_deputy(event_id=event.id, actor=director, who="adjunct")

    services.event_seat_substitute(
        event_id=event.id, actor=deputy, table=1, seat=1, player_id=reserve.pk
    )

    last = store.read(championship_stream(event.id))[-1]
    assert (last.event, last.actor_id) == (SeatSubstituted(1, 0, 1, reserve.pk), deputy.pk)
    taken = store.read(stream_of(game_id))[-1]
    assert (taken.type, taken.actor_id) == ("SeatTaken", deputy.pk)
