"""The reads of championship events and seasons: finding an event and who may see
it, which event a table is in, the live picture of an event, and the season chart."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import (
    bot_event,
    event_round,
    play_round,
    private_event_round,
    stopped_clock,
    wait_until,
)
from tournaments import services
from tournaments.errors import EventNotFound, NotOrganizer
from tournaments.models import Entry, Event, RatingChange, SeasonStanding
from tournaments.selectors import (
    AuditLine,
    event_audit,
    event_corrections,
    event_live,
    event_of_game,
    events_list,
    find_event,
    hidden_tables,
    managed_event,
    may_view_table,
    points_text,
    rating_chart,
    results_provisional_until,
    table_home,
    viewable_event,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "text"),
    [(12.0, "12"), (12.5, "12.5"), (-3.25, "-3.25"), (-0.001, "0"), (0.004, "0"), (2.10, "2.1")],
)
def test_tournament_points_are_written_as_people_read_them(value: float, text: str) -> None:
    assert points_text(value) == text


def test_an_event_is_found_by_its_code_in_any_case_and_nothing_else_is_an_event() -> None:
    # Given an event
    event, _, _, _ = event_round(4, public=True)

    # Then its code finds it in either case, and what cannot be a code finds nothing
    assert find_event(event.code.lower()) == event
    for code in ["", "no-such", "X" * 9, "ZZZZZZZZ"]:
        with pytest.raises(EventNotFound):
            find_event(code)


def test_a_private_event_is_seen_by_its_organizer_and_entrants_and_does_not_exist_for_others() -> (
    None
):
    # Given a private event, one of its entrants and a stranger
    event, organizer, entrants, _ = private_event_round(4)
    stranger = UserFactory.create()

    # Then its organizer and entrants see it; to a stranger or a visitor it does not exist
    assert viewable_event(event.code, organizer.pk) == event
    assert viewable_event(event.code, entrants[0].pk) == event
    for outsider in [stranger.pk, None]:
        with pytest.raises(EventNotFound):
            viewable_event(event.code, outsider)

    # And the event list shows it to the first two only
    assert list(events_list(entrants[0].pk)) == [event]
    assert list(events_list(stranger.pk)) == []


def test_only_the_organizer_manages_an_event_and_an_outsider_is_told_it_does_not_exist() -> None:
    # Given a private event
    event, organizer, entrants, _ = private_event_round(4)

    # Then its organizer manages it, an entrant may not, and a stranger finds none
    assert managed_event(event.code, organizer.pk) == event
    with pytest.raises(NotOrganizer):
        managed_event(event.code, entrants[0].pk)
    with pytest.raises(EventNotFound):
        managed_event(event.code, UserFactory.create().pk)


def test_a_private_events_tables_are_hidden_from_outsiders_only() -> None:
    # Given a private event's table
    _, organizer, entrants, (game,) = private_event_round(4)
    stranger = UserFactory.create()

    # Then the table is hidden from a stranger and a visitor, not from those who see it
    assert list(hidden_tables(stranger.pk)) == [game.id]
    assert list(hidden_tables(None)) == [game.id]
    assert list(hidden_tables(entrants[0].pk)) == []
    assert list(hidden_tables(organizer.pk)) == []
    assert may_view_table(game.id, stranger.pk) is False
    assert may_view_table(game.id, entrants[1].pk) is True
    # And a game of no event is seen by anyone
    assert may_view_table(uuid.uuid4(), stranger.pk) is True


def test_an_event_table_is_at_home_in_its_event_round_and_table_and_other_games_nowhere() -> None:
    # Given an event's first round of two tables
    event, _, _, games = event_round(8, public=True)

    # Then each of its games is in the event, at its table of round one
    assert [event_of_game(game.id) for game in games] == [event.id, event.id]
    homes = [table_home(game.id) for game in games]
    assert [(home.event, home.round, home.table) for home in homes if home] == [
        ("Cupa", 1, 1),
        ("Cupa", 1, 2),
    ]
    assert homes[1] is not None
    assert homes[1].url == f"/events/{event.code}/#table-{games[1].code}"

    # And a game of no event is in none
    assert event_of_game(uuid.uuid4()) is None
    assert table_home(uuid.uuid4()) is None


def test_a_player_sees_their_seat_in_the_live_event_and_only_the_organizer_whose_turn_it_is() -> (
    None
):
    # Given a public event's round in play at one table
    event, organizer, entrants, (game,) = event_round(4, public=True)
    table = load_table(game.id)
    seat = table.seat_of(entrants[0].pk)
    assert seat is not None and table.to_act is not None

    # When an entrant and the organizer look at the event
    seen_by_entrant = event_live(event.id, entrants[0].pk)
    seen_by_organizer = event_live(event.id, organizer.pk)

    # Then the entrant is shown their seat and tablemates, and no one's turn
    me = seen_by_entrant["me"]
    assert me["entered"] and me["checked_in"] and not me["withdrawn"]
    assert me["seat"] == {
        "round": 1,
        "table": 1,
        "seat": seat + 1,
        "game_code": game.code,
        "status": Game.Status.PLAYING,
        "tablemates": [
            player["name"]
            for player in seen_by_entrant["tables"][0]["players"]
            if player["player_id"] != entrants[0].pk
        ],
    }
    assert len(me["seat"]["tablemates"]) == 3
    assert seen_by_entrant["tables"][0]["turn"] is None

    # And the organizer is shown whose turn it is at the table
    turn = seen_by_organizer["tables"][0]["turn"]
    assert turn["seat"] == table.to_act
    assert turn["name"] == seen_by_organizer["tables"][0]["players"][table.to_act]["name"]
    assert seen_by_organizer["me"]["entered"] is False
    assert (seen_by_organizer["round"], seen_by_organizer["round_playing"]) == (1, True)


def standing(player: int, name: str) -> SeasonStanding:
    return SeasonStanding(
        season_id=uuid.uuid4(),
        player_id=player,
        name=name,
        rank=player,
        points=0,
        rating=0,
        events=1,
    )


def change(player: int, before: float, after: float) -> RatingChange:
    return RatingChange(
        season_id=uuid.uuid4(),
        player_id=player,
        event_id=uuid.uuid4(),
        round=1,
        order=0,
        before=before,
        after=after,
    )


def test_the_season_chart_draws_each_top_players_rating_table_by_table() -> None:
    # Given two players' rating history over two tables
    leaders = [standing(1, "Ana"), standing(2, "Bogdan")]
    changes = [change(1, 1500, 1510), change(2, 1500, 1490), change(1, 1510, 1520)]

    # When the chart is drawn 100 by 50
    chart = rating_chart(leaders, changes, width=100, height=50)

    # Then each line runs from the first rating to the last, scaled to the chart
    assert chart is not None
    assert (chart.low, chart.high, chart.games, chart.width, chart.height) == (
        1490,
        1520,
        2,
        100,
        50,
    )
    assert [(line.name, line.points, line.last_rating) for line in chart.lines] == [
        ("Ana", "8.0,30.7 50.0,19.3 92.0,8.0", 1520),
        ("Bogdan", "8.0,30.7 50.0,42.0", 1490),
    ]


def test_a_season_with_no_rating_history_has_no_chart() -> None:
    assert rating_chart([standing(1, "Ana")], []) is None


# --- The audit trail -------------------------------------------------------------------

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def test_the_audit_trail_lists_the_directors_actions_with_who_when_and_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round started at noon by its director
    clock = stopped_clock(monkeypatch, NOON)
    event, director, entrants, _ = event_round(4, public=True)
    names = dict(Entry.objects.filter(event_id=event.id).values_list("player_id", "name"))
    first, second, third = (names[entrant.pk] for entrant in entrants[:3])

    # When, a minute apart, a player withdraws themself, the director withdraws another,
    # corrects a third's round with a reason, announces and withdraws the announcement
    for minute, act in enumerate(
        [
            lambda: services.event_withdraw(event_id=event.id, actor=entrants[0]),
            lambda: services.event_withdraw(
                event_id=event.id, actor=director, player_id=entrants[1].pk
            ),
            lambda: services.event_correct_result(
                event_id=event.id,
                actor=director,
                round_number=1,
                player_id=entrants[2].pk,
                points=-2.5,
                reason="slow play",
            ),
            lambda: services.event_announce(event_id=event.id, actor=director, text="Tea at 5."),
            lambda: services.event_withdraw_announcement(
                event_id=event.id, actor=director, number=1
            ),
        ],
        start=1,
    ):
        clock.now = NOON + timedelta(minutes=minute)
        act()

    # Then the trail lists the director's actions, oldest first, with who, when and why;
    # the player's own withdrawal is no director's action
    at = [NOON + timedelta(minutes=minute) for minute in range(6)]
    who = director.display
    assert [(line.at, line.actor, line.action, line.reason) for line in event_audit(event.id)] == [
        (at[0], who, "Started round 1", ""),
        (at[2], who, f"Withdrew {second}", ""),
        (at[3], who, f"Corrected {third}'s round 1 by -2.5 points", "slow play"),
        (at[4], who, "Announced: Tea at 5.", ""),
        (at[5], who, "Withdrew announcement 1", ""),
    ]
    assert first not in " ".join(line.action for line in event_audit(event.id))
    # And the results' list of corrections is the correction alone, its parts apart
    assert event_corrections(event.id) == [
        AuditLine(
            at=at[3],
            actor=who,
            action=f"Corrected {third}'s round 1 by -2.5 points",
            reason="slow play",
            kind="ResultCorrected",
            round=1,
            player=third,
            points="-2.5",
        )
    ]


def test_a_published_results_window_is_open_until_its_end_and_only_once_published() -> None:
    event, _, _, _ = event_round(4, public=True)
    end = NOON + timedelta(minutes=30)
    event.results_final_at = end

    assert results_provisional_until(event, NOON) is None  # not published yet
    event.status = Event.Status.PUBLISHED
    assert results_provisional_until(event, NOON) == end
    assert results_provisional_until(event, end) is None


def test_the_audit_trail_lists_a_call_to_the_director_and_what_was_decided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round in play, and a player at its table
    clock = stopped_clock(monkeypatch, NOON)
    event, director, entrants, [game] = event_round(4, public=True)
    caller = entrants[3]
    name = Entry.objects.get(event_id=event.id, player_id=caller.pk).name

    # When the player calls the director over the score, and the director closes the call
    clock.now = NOON + timedelta(minutes=1)
    services.event_call_director(
        event_id=event.id, actor=caller, game_id=game.id, reason="score", text="6 or 7?"
    )
    clock.now = NOON + timedelta(minutes=4)
    services.event_close_call(event_id=event.id, actor=director, number=1, note="7 stands.")

    # Then the trail has the call, with its reason, and its close, with the decision
    lines = [(line.at, line.actor, line.action, line.reason) for line in event_audit(event.id)]
    assert lines[1:] == [
        (
            NOON + timedelta(minutes=1),
            caller.display,
            f"{name} called the director to table 1",
            "The score is disputed: 6 or 7?",
        ),
        (NOON + timedelta(minutes=4), director.display, "Closed call 1", "7 stands."),
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run", "bots_play")
def test_the_live_leaderboard_links_the_names_of_people_with_a_page_not_of_bots() -> None:
    # Given a round played by four people, and another by four bots
    people, _, entrants, (game,) = event_round(4, public=True)
    play_to_end(game.id, entrants)
    bots, organizer = bot_event(players=4, rounds=1)
    play_round(bots.id, organizer)
    for event in (people, bots):
        wait_until(lambda event=event: len(event_live(event.id)["leaderboard"]) == 4)

    # Then the people's names lead to their pages, the bots' to none
    lines = event_live(people.id)["leaderboard"]
    assert {line["player_id"]: line["linked"] for line in lines} == {
        entrant.pk: True for entrant in entrants
    }
    assert [line["linked"] for line in event_live(bots.id)["leaderboard"]] == [False] * 4
