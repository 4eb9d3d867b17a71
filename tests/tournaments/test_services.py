"""The championship write path: who may do what, what is refused and why, and what
the log then holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import override_settings

from accounts.models import User
from accounts.services import user_register
from eventlog import store
from games.commands import actions as games_services
from games.commands.aliases import clean_alias, require_free
from games.models import Game
from games.read.selectors import table_home
from games.write.tables import load_table
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end
from tests.games.write.test_concurrency import race
from tests.tournaments.drivers import (
    SHORT_RULES,
    bot_event,
    finished_events,
    organizer,
    play_round,
    played_event,
    private_event_round,
    round_games,
    stopped_clock,
    wait_until,
)
from tournaments import services
from tournaments.championship import (
    Championship,
    ResultCorrected,
    ResultsPublished,
    championship_stream,
    decode,
    fold,
)
from tournaments.models import Entry, Event, Standing, TableResult
from tournaments.projections.rebuild import rebuild_standings
from tournaments.projections.standings import event_standings
from tournaments.services import load_championship
from tournaments.tasks import update_standings


def refused(code: str, call: object, **kwargs: object) -> DomainError:
    with pytest.raises(DomainError) as raised:
        call(**kwargs)  # type: ignore[operator]
    assert raised.value.code == code, raised.value.message
    return raised.value


@pytest.mark.django_db
def test_an_event_is_created_with_its_options_and_opens_for_entries() -> None:
    creator = organizer()

    event = services.event_create(
        organizer=creator, name="  Cupa Brașov ", rounds=4, table_size=5, points="placement"
    )

    assert (event.name, event.status, event.rounds_total, event.table_size) == (
        "Cupa Brașov",
        "registration",
        4,
        5,
    )
    assert event.points == "placement"
    assert [r.type for r in store.read(championship_stream(event.id))] == ["EventCreated"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": " "}, "a name is 1 to 120 characters"),
        ({"table_size": 7}, "the table size is a whole number from 3 to 6"),
        ({"rounds": 0}, "the number of rounds is a whole number from 1 to 20"),
        (
            {"points": "goals"},
            "points are one of raw, placement, relative, matchpoints, not 'goals'",
        ),
        ({"duplicate": True}, "duplicate deals are scored by matchpoints, and only they are"),
        ({"points": "matchpoints"}, "duplicate deals are scored by matchpoints, and only they are"),
        ({"preset_name": "poker"}, "unknown preset 'poker'"),
        ({"tie_breaks": ("coin",)}, "tie-breaks are some of exact_bids, head_to_head, best_game"),
    ],
)
def test_an_event_with_bad_options_is_refused_and_nothing_is_written(
    changes: dict[str, object], message: str
) -> None:
    error = refused(
        "invalid_input",
        services.event_create,
        **{"organizer": organizer(), "name": "Cupa", **changes},
    )

    assert message in error.message
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_guest_enters_no_event_nor_is_entered_by_its_organizer() -> None:
    # Given an event taking entries, and a guest
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa")
    guest = UserFactory.create(is_guest=True)

    # Then the guest cannot enter, and the organizer cannot enter them (an entry is a
    # line of standings a guest signing in to their account could not take along)
    refused("guest_entry", services.event_register, event_id=event.id, actor=guest)
    refused("guest_entry", services.event_register, event_id=event.id, actor=creator, player=guest)
    assert not Entry.objects.filter(event_id=event.id).exists()


@pytest.mark.django_db
def test_only_organizer_accounts_create_events_and_only_the_organizer_runs_one() -> None:
    player = UserFactory.create()
    refused("may_not_organize", services.event_create, organizer=player, name="Cupa")
    # A guest never organizes, whatever its flags say.
    guest = UserFactory.create(is_guest=True, can_organize=True)
    refused("may_not_organize", services.event_create, organizer=guest, name="Cupa")
    event, _ = bot_event(players=3, rounds=1)

    refused("not_organizer", services.event_start_round, event_id=event.id, actor=player)
    refused("not_organizer", services.event_add_bots, event_id=event.id, actor=player, count=1)
    refused(
        "not_organizer",
        services.event_check_in,
        event_id=event.id,
        actor=player,
        player_id=Entry.objects.first().player_id,  # type: ignore[union-attr]
    )


@pytest.mark.django_db
def test_players_enter_and_check_in_themselves_and_a_second_entry_is_refused() -> None:
    event = services.event_create(organizer=organizer(), name="Cupa")
    player = UserFactory.create(display_name="Ioana Pop")

    services.event_register(event_id=event.id, actor=player)
    services.event_check_in(event_id=event.id, actor=player)
    refused("already_entered", services.event_register, event_id=event.id, actor=player)

    entry = Entry.objects.get(event_id=event.id)
    assert (entry.player_id, entry.name, entry.checked_in) == (player.pk, "Ioana Pop", True)


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are not this test's
def test_bots_play_the_seats_of_bot_accounts_and_never_a_persons_named_like_a_bot() -> None:
    # Given two bots and a person who registered as bot-ana, all checked in
    event, creator = bot_event(players=2, rounds=1)
    person = user_register(username="bot-ana", password="walnut-orbit-harbor")
    services.event_register(event_id=event.id, actor=person)
    services.event_check_in(event_id=event.id, actor=person)

    # When the round seats them at one table
    services.event_start_round(event_id=event.id, actor=creator)

    # Then a bot plays each bot's seat, and the person plays their own
    table = load_table(TableResult.objects.get(event_id=event.id).game_id)
    played_by = {seat.user_id: table.bots[number] for number, seat in enumerate(table.seats)}
    bots = User.objects.filter(is_bot=True).values_list("pk", flat=True)
    assert played_by == {person.pk: None} | {bot: "medium" for bot in bots}
    assert len(played_by) == 3


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are not this test's
def test_a_bot_sits_at_its_table_under_its_name_alone_and_its_entry_keeps_the_mark() -> None:
    # Given an event of three bots
    event, creator = bot_event(players=3, rounds=1)

    # When the round seats them
    services.event_start_round(event_id=event.id, actor=creator)

    # Then each sits under its bare name (the table page marks a bot's seat once), and
    # its entry, listed where no badge says it, keeps "(bot)"
    table = load_table(TableResult.objects.get(event_id=event.id).game_id)
    assert sorted(seat.alias for seat in table.seats if seat) == ["Bot001", "Bot002", "Bot003"]
    assert sorted(Entry.objects.filter(event_id=event.id).values_list("name", flat=True)) == [
        "Bot001 (bot)",
        "Bot002 (bot)",
        "Bot003 (bot)",
    ]


@pytest.mark.django_db
def test_a_round_needs_three_players_present_and_waits_for_the_last_round() -> None:
    event, creator = bot_event(players=2, rounds=2)
    refused("not_enough_players", services.event_start_round, event_id=event.id, actor=creator)

    services.event_add_bots(event_id=event.id, actor=creator, count=2)
    services.event_start_round(event_id=event.id, actor=creator)
    error = refused(
        "round_in_progress", services.event_start_round, event_id=event.id, actor=creator
    )
    assert error.message == "round 1 is still being played at 1 table(s)"


@pytest.mark.django_db
def test_a_correction_needs_a_reason_and_a_player_of_that_round() -> None:
    event, creator = bot_event(players=4, rounds=1)
    services.event_start_round(event_id=event.id, actor=creator)
    player = TableResult.objects.get().players[0]

    refused(
        "invalid_input",
        services.event_correct_result,
        event_id=event.id,
        actor=creator,
        round_number=1,
        player_id=player,
        points=5,
        reason=" ",
    )
    services.event_correct_result(
        event_id=event.id,
        actor=creator,
        round_number=1,
        player_id=player,
        points=-5,
        reason="slow play warning",
    )

    last = store.read(championship_stream(event.id))[-1]
    assert (last.type, last.payload) == (
        "ResultCorrected",
        {"round": 1, "player_id": player, "points": -5.0, "reason": "slow play warning"},
    )


@pytest.mark.django_db
def test_entrants_whose_names_look_alike_or_hide_characters_get_aliases_told_apart() -> None:
    # Given four entrants named Ana: plainly, with a zero-width space, with a Cyrillic A,
    # and in lower case
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa Ana", options=SHORT_RULES)
    for name in ["Ana", "Ana\u200b", "\u0410na", "ana"]:
        player = UserFactory.create(display_name=name)
        services.event_register(event_id=event.id, actor=player)
        services.event_check_in(event_id=event.id, actor=player)

    # When the round starts
    services.event_start_round(event_id=event.id, actor=creator)

    # Then each sits under an alias of their name that no other may be mistaken for
    [table] = TableResult.objects.filter(event_id=event.id)
    aliases = [seat["alias"] for seat in Game.objects.get(pk=table.game_id).seats]
    assert len(aliases) == 4
    assert all(clean_alias(alias) == alias and alias[:3].casefold() == "ana" for alias in aliases)
    for number, alias in enumerate(aliases):
        require_free(alias, aliases[:number] + aliases[number + 1 :])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("bots_play")
def test_late_entries_play_the_next_round_and_withdrawn_players_do_not() -> None:
    # Given 8 bots after round 1
    event, creator = bot_event(players=8, rounds=2)
    play_round(event.id, creator)
    first = set(Entry.objects.filter(event_id=event.id).values_list("player_id", flat=True))
    gone = sorted(first)[0]

    # When one withdraws and a latecomer (a bot, entered by the organizer) checks in
    services.event_withdraw(event_id=event.id, actor=creator, player_id=gone)
    services.event_add_bots(event_id=event.id, actor=creator, count=1)
    latecomer = Entry.objects.exclude(player_id__in=first).get(event_id=event.id).player_id
    play_round(event.id, creator)

    # Then round 2 seats the latecomer and not the player who withdrew
    seated = {p for row in TableResult.objects.filter(round=2) for p in row.players}
    assert seated == (first - {gone}) | {latecomer}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("bots_play")
def test_an_event_that_advances_by_itself_starts_each_round_when_the_last_is_over() -> None:
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Cupa", rounds=2, options=SHORT_RULES, auto_advance=True
    )
    services.event_add_bots(event_id=event.id, actor=creator, count=6)

    services.event_start_round(event_id=event.id, actor=creator)

    wait_until(
        lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
        240,
        "both rounds played",
    )
    assert Event.objects.get(pk=event.id).rounds_started == 2
    refused("event_over", services.event_start_round, event_id=event.id, actor=creator)


@pytest.mark.django_db
def test_an_event_table_offers_no_rematch_and_knows_its_event_round_and_table() -> None:
    # Given a finished table of a private event's first round
    event, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)

    # When one of its players asks for a rematch
    with pytest.raises(DomainError) as refused:
        games_services.game_rematch(game_id=game.id, actor=entrants[0])

    # Then it is refused (the organizer seats the rounds), and the table leads back to the event
    assert (refused.value.code, refused.value.status) == ("event_game", 409)
    assert not Game.objects.filter(rematch_of=game.id).exists()
    home = table_home(game.id)
    assert home is not None
    assert (home.event, home.round, home.table, home.url) == (
        "Cupa privată",
        1,
        1,
        f"/events/{event.code}/#table-{game.code}",
    )


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are not this test's
def test_bot_entrants_play_the_level_the_organizer_chose_and_medium_by_default() -> None:
    # Given an event whose organizer chose strong bots, and one that chose none
    strong, creator = bot_event(players=3, rounds=1, bot_level="strong")
    default, other = bot_event(players=3, rounds=1)

    # When their first rounds start
    services.event_start_round(event_id=strong.id, actor=creator)
    services.event_start_round(event_id=default.id, actor=other)

    # Then every bot seat is played by the level chosen, or medium
    (strong_table,) = round_games(strong.id, 1)
    (default_table,) = round_games(default.id, 1)
    assert load_table(strong_table.id).bots == ("strong",) * 3
    assert load_table(default_table.id).bots == ("medium",) * 3
    assert services.load_championship(strong.id).settings.bot_level == "strong"


@pytest.mark.django_db
def test_an_event_recorded_before_bot_levels_keeps_the_bot_it_began_with() -> None:
    event, _ = bot_event(players=3, rounds=1)
    (created,) = store.read(championship_stream(event.id))[:1]
    payload = {name: value for name, value in created.payload.items() if name != "bot_level"}

    assert decode(created.type, payload).bot_level == "heuristic"


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["grandmaster", "heuristic", "", None, 3])
def test_an_event_whose_bots_play_no_known_level_is_refused_with_unknown_bot(level: object) -> None:
    error = refused(
        "unknown_bot",
        services.event_create,
        organizer=organizer(),
        name="Cupa Atu",
        bot_level=level,
    )

    assert error.status == 400
    assert error.message == f"there is no bot {level!r}; choose one of easy, medium, strong"
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_an_event_still_in_play_is_not_finished() -> None:
    # Given a one-round event whose only table has not finished
    event, _, _, _ = private_event_round(4)

    # When it is asked to finish
    finished = services.event_finish(event_id=event.id)

    # Then nothing is recorded and it runs on
    assert finished is False
    assert finished_events(event) == 0
    assert Event.objects.get(pk=event.id).status == Event.Status.RUNNING


@pytest.mark.django_db
def test_the_last_table_finishing_records_one_event_finished_and_the_status_follows() -> None:
    # Given a one-round event whose only table finishes
    event, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)

    # When the standings task runs, and runs again
    update_standings(str(event.id))
    update_standings(str(event.id))

    # Then its stream holds exactly one EventFinished, and the projection says finished
    assert finished_events(event) == 1
    assert Event.objects.get(pk=event.id).status == Event.Status.FINISHED


@pytest.mark.django_db
def test_finishing_an_event_twice_records_it_once() -> None:
    # Given a one-round event whose only table finished
    event, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)

    # When it is asked to finish twice
    services.event_finish(event_id=event.id)
    again = services.event_finish(event_id=event.id)

    # Then the second records nothing: one EventFinished in the stream
    assert again is False
    assert finished_events(event) == 1
    assert services.load_championship(event.id).finished is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the race is between PostgreSQL transactions (production mode); "
    "embedded SQLite serializes every writer",
)
def test_of_callers_racing_to_finish_an_event_one_records_it_and_none_fails() -> None:
    # Given a one-round event whose only table finished
    event, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)

    # When four callers ask to finish it at once
    recorded: list[bool] = []
    outcomes = race([lambda: recorded.append(services.event_finish(event_id=event.id))] * 4)

    # Then none fails, and one of them recorded the stream's one EventFinished
    assert outcomes == [None] * 4
    assert sorted(recorded) == [False, False, False, True]
    assert finished_events(event) == 1
    assert Event.objects.get(pk=event.id).status == Event.Status.FINISHED


# --- Corrections, and the results' protest window --------------------------------------

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def correct(event: Event, director: User, player: User, points: float, reason: str) -> None:
    services.event_correct_result(
        event_id=event.id,
        actor=director,
        round_number=1,
        player_id=player.pk,
        points=points,
        reason=reason,
    )


def read_models(event: Event) -> tuple[object, ...]:
    row = Event.objects.get(pk=event.id)
    lines = Standing.objects.filter(event_id=event.id).values_list("player_id", "rank", "points")
    return row.status, row.results_final_at, sorted(lines)


@pytest.mark.django_db
def test_published_results_stay_provisional_for_the_events_window_then_refuse_corrections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a played event whose results stay provisional for 30 minutes after publishing
    event, creator, entrants = played_event(protest_minutes=30)
    clock = stopped_clock(monkeypatch, NOON)

    # When the organizer publishes them at noon
    services.event_publish_results(event_id=event.id, actor=creator)

    # Then the log holds when they become final, and so does the read model
    last = store.read(championship_stream(event.id))[-1]
    final_at = "2026-05-01T12:30:00+00:00"
    assert (last.type, last.payload) == ("ResultsPublished", {"final_at": final_at})
    row = Event.objects.get(pk=event.id)
    assert (row.status, row.results_final_at) == ("published", NOON + timedelta(minutes=30))

    # And a correction a minute before the end is recorded; one at the end is refused
    clock.now = NOON + timedelta(minutes=29)
    correct(event, creator, entrants[0], -5, "revoke in deal 4")
    clock.now = NOON + timedelta(minutes=30)
    error = refused(
        "results_final",
        services.event_correct_result,
        event_id=event.id,
        actor=creator,
        round_number=1,
        player_id=entrants[1].pk,
        points=2,
        reason="late protest",
    )
    assert error.message == "the results are final: their protest window is over"
    assert load_championship(event.id).corrections == [
        ResultCorrected(1, entrants[0].pk, -5.0, "revoke in deal 4")
    ]

    # And the standings count the correction, as a rebuild from the log does
    update_standings(str(event.id))
    before = read_models(event)
    assert dict((player, points) for player, _, points in before[2])[entrants[0].pk] == (
        load_figures_points(event, entrants[0]) - 5
    )
    rebuild_standings()
    assert read_models(event) == before


def load_figures_points(event: Event, player: User) -> float:
    """A player's tournament points without the corrections."""
    championship = load_championship(event.id)
    championship.corrections = []
    lines = event_standings(event.id, championship)
    return float(next(line.points for line in lines if line.player == player.pk))


@pytest.mark.django_db
def test_a_publication_chooses_its_own_window_and_a_window_of_0_is_final_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a played event whose window is 30 minutes
    event, creator, entrants = played_event(protest_minutes=30)
    stopped_clock(monkeypatch, NOON)

    # When the organizer publishes with no window
    services.event_publish_results(event_id=event.id, actor=creator, protest_minutes=0)

    # Then the results are final at once: no deadline, and corrections are refused
    last = store.read(championship_stream(event.id))[-1]
    assert (last.type, last.payload) == ("ResultsPublished", {"final_at": None})
    assert Event.objects.get(pk=event.id).results_final_at is None
    refused(
        "results_final",
        services.event_correct_result,
        event_id=event.id,
        actor=creator,
        round_number=1,
        player_id=entrants[0].pk,
        points=1,
        reason="too late",
    )


@pytest.mark.django_db
@override_settings(ATU_PROTEST_MINUTE_SECONDS=1)
def test_a_protest_window_lasts_its_minutes_as_the_setting_counts_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event, creator, _ = played_event()
    stopped_clock(monkeypatch, NOON)

    services.event_publish_results(event_id=event.id, actor=creator, protest_minutes=5)

    assert Event.objects.get(pk=event.id).results_final_at == NOON + timedelta(seconds=5)


@pytest.mark.django_db
@pytest.mark.parametrize("minutes", [-1, 10081, 2.5, True])
def test_a_protest_window_outside_0_to_a_week_is_refused(minutes: object) -> None:
    error = refused(
        "invalid_input",
        services.event_create,
        organizer=organizer(),
        name="Cupa",
        protest_minutes=minutes,
    )

    assert error.message == "the protest window is a whole number from 0 to 10080"


def test_events_recorded_before_the_protest_window_decode_as_final_once_published() -> None:
    # Given an EventCreated and a ResultsPublished as they were stored before the window
    created = {
        "name": "Cupa",
        "code": "ABC123",
        "organizer_id": 1,
        "season_id": None,
        "preset": "championship",
        "options": {},
        "table_size": 4,
        "rounds": 1,
        "points": "relative",
        "tie_breaks": [],
        "public": True,
        "spectator_delay": 0,
        "duplicate": False,
        "first_round": "random",
        "seed": "s",
    }

    # When they are read and folded
    events = [decode("EventCreated", created), decode("ResultsPublished", {})]
    championship = fold(Championship(), events)

    # Then the event had no window, and its published results are final at any time
    assert championship.settings.protest_minutes == 0
    assert events[1] == ResultsPublished(final_at=None)
    assert championship.results_final(NOON) is True
