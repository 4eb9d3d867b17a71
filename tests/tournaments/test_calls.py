"""Calls to the director: made by a player seated at one of the event's tables,
answered and closed by who directs the event, through the championship's write path
as events of its stream; what is refused and why; what the read model, a rebuild of
it, the director's picture and a table's desk then hold, and what they keep from
everyone else."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from accounts.models import User
from eventlog import store
from games.models import Game
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import event_round
from tournaments import selectors, services
from tournaments.championship import (
    CallAnswered,
    CallClosed,
    DirectorCalled,
    championship_stream,
    decode,
)
from tournaments.models import Entry, Event
from tournaments.projections.rebuild import rebuild_standings

pytestmark = pytest.mark.django_db

CALL_TYPES = ("DirectorCalled", "CallAnswered", "CallClosed")


def logged(event: Event) -> list[Any]:
    """The calls' events of the event's stream, in order."""
    return [
        record.event
        for record in store.read(championship_stream(event.id))
        if record.type in CALL_TYPES
    ]


def refused(code: str, status: int, call: Any, **kwargs: Any) -> DomainError:
    with pytest.raises(DomainError) as raised:
        call(**kwargs)
    assert (raised.value.code, raised.value.status) == (code, status), raised.value.message
    return raised.value


def seated(event: Event, game: Game, seat: int) -> User:
    """The entrant in ``seat`` of the table ``game``."""
    championship = services.load_championship(event.id)
    played = championship.rounds[0]
    return User.objects.get(pk=played.tables[played.games.index(str(game.id))][seat])


def test_a_player_calls_the_director_who_answers_and_closes_it_as_events_of_the_stream() -> None:
    # Given a round of two tables, and the player in seat 2 of table 2
    event, director, _, games = event_round(8, public=True)
    player = seated(event, games[1], 2)

    # When they call the director, who answers and closes the call with a note
    made = services.event_call_director(
        event_id=event.id, actor=player, game_id=games[1].id, reason="score", text=" 3 not 2 "
    )
    services.event_answer_call(event_id=event.id, actor=director, number=1)
    closed = services.event_close_call(
        event_id=event.id, actor=director, number=1, note=" Score corrected. "
    )

    # Then the stream holds the call (where, who, why; trimmed), the answer and the close
    assert logged(event) == [
        DirectorCalled(1, 1, str(games[1].id), 2, player.pk, "score", "3 not 2"),
        CallAnswered(1),
        CallClosed(1, "Score corrected."),
    ]
    assert made.number == 1
    championship = services.load_championship(event.id)
    assert closed.version == championship.version == made.version + 2
    [call] = championship.calls
    assert (call.number, call.state, call.note, call.open) == (
        1,
        "closed",
        "Score corrected.",
        False,
    )
    records = store.read(championship_stream(event.id))[-3:]
    assert (call.at, call.answered_at, call.closed_at) == tuple(r.recorded_at for r in records)
    # And each was recorded with its actor, for the audit trail
    assert [record.actor_id for record in records] == [player.pk, director.pk, director.pk]


def test_one_call_at_a_time_from_a_seat_and_another_once_the_director_closed_it() -> None:
    # Given a player who called the director
    event, director, _, games = event_round(4, public=True)
    player, neighbour = seated(event, games[0], 0), seated(event, games[0], 1)
    services.event_call_director(
        event_id=event.id, actor=player, game_id=games[0].id, reason="technical"
    )

    # Then a second call from the seat is refused while the first is open, even answered
    refused(
        "call_open",
        409,
        services.event_call_director,
        event_id=event.id,
        actor=player,
        game_id=games[0].id,
        reason="other",
    )
    services.event_answer_call(event_id=event.id, actor=director, number=1)
    error = refused(
        "call_open",
        409,
        services.event_call_director,
        event_id=event.id,
        actor=player,
        game_id=games[0].id,
        reason="other",
    )
    assert error.message == "call 1 from this seat is still open"

    # But another seat of the table may call meanwhile, and the player again once closed
    second = services.event_call_director(
        event_id=event.id, actor=neighbour, game_id=games[0].id, reason="conduct"
    )
    services.event_close_call(event_id=event.id, actor=director, number=1)
    third = services.event_call_director(
        event_id=event.id, actor=player, game_id=games[0].id, reason="other"
    )
    assert (second.number, third.number) == (2, 3)
    assert [call.state for call in services.load_championship(event.id).calls] == [
        "closed",
        "waiting",
        "waiting",
    ]


@pytest.mark.parametrize(
    ("reason", "text", "message"),
    [
        ("coffee", "", "a call's reason is one of irregularity, score, technical, conduct, other"),
        (None, "", "a call's reason is one of irregularity, score, technical, conduct, other"),
        ("other", "x" * 201, "a call says at most 200 characters"),
    ],
)
def test_a_call_of_an_unknown_reason_or_over_200_characters_is_refused(
    reason: Any, text: str, message: str
) -> None:
    event, _, _, games = event_round(4, public=True)

    error = refused(
        "invalid_input",
        400,
        services.event_call_director,
        event_id=event.id,
        actor=seated(event, games[0], 0),
        game_id=games[0].id,
        reason=reason,
        text=text,
    )

    assert error.message == message
    assert logged(event) == []


def test_only_a_player_seated_at_the_table_calls_from_it() -> None:
    # Given a round of two tables
    event, director, _, games = event_round(8, public=True)

    # Then a player of the other table, the director and a stranger may not call from
    # table 1, and no call is made from a game of no table of the event
    for actor in (seated(event, games[1], 0), director, UserFactory.create()):
        refused(
            "not_at_table",
            403,
            services.event_call_director,
            event_id=event.id,
            actor=actor,
            game_id=games[0].id,
            reason="other",
        )
    refused(
        "game_not_found",
        404,
        services.event_call_director,
        event_id=event.id,
        actor=seated(event, games[0], 0),
        game_id=uuid.uuid4(),
        reason="other",
    )
    assert logged(event) == []


def test_only_who_directs_the_event_answers_or_closes_a_call() -> None:
    event, _, _, games = event_round(4, public=True)
    player = seated(event, games[0], 0)
    services.event_call_director(
        event_id=event.id, actor=player, game_id=games[0].id, reason="other"
    )

    for act in (services.event_answer_call, services.event_close_call):
        refused("not_organizer", 403, act, event_id=event.id, actor=player, number=1)
    assert logged(event) == [DirectorCalled(1, 0, str(games[0].id), 0, player.pk, "other", "")]


def test_an_unknown_or_closed_call_is_refused_and_answering_twice_changes_nothing() -> None:
    # Given a call answered twice, then closed
    event, director, _, games = event_round(4, public=True)
    player = seated(event, games[0], 3)
    services.event_call_director(
        event_id=event.id, actor=player, game_id=games[0].id, reason="other"
    )
    first = services.event_answer_call(event_id=event.id, actor=director, number=1)
    again = services.event_answer_call(event_id=event.id, actor=director, number=1)
    services.event_close_call(event_id=event.id, actor=director, number=1, note="Done.")

    # Then the second answer appended nothing
    assert again.version == first.version
    assert logged(event)[1:] == [CallAnswered(1), CallClosed(1, "Done.")]

    # And a closed call is neither answered nor closed again; call 2 does not exist
    for act in (services.event_answer_call, services.event_close_call):
        refused("call_closed", 409, act, event_id=event.id, actor=director, number=1)
        refused("call_not_found", 404, act, event_id=event.id, actor=director, number=2)
        refused("call_not_found", 404, act, event_id=event.id, actor=director, number=0)
    # And a note over 500 characters is refused
    services.event_call_director(
        event_id=event.id, actor=player, game_id=games[0].id, reason="other"
    )
    error = refused(
        "invalid_input",
        400,
        services.event_close_call,
        event_id=event.id,
        actor=director,
        number=2,
        note="x" * 501,
    )
    assert error.message == "a call's note is at most 500 characters"


def test_no_call_is_taken_once_the_results_are_published() -> None:
    # Given an event whose one round is over and published
    event, director, _, games = event_round(4, public=True)
    Game.objects.filter(pk=games[0].id).update(status=Game.Status.FINISHED)
    services.event_publish_results(event_id=event.id, actor=director)

    # Then a player of it may not call the director
    error = refused(
        "event_over",
        409,
        services.event_call_director,
        event_id=event.id,
        actor=seated(event, games[0], 0),
        game_id=games[0].id,
        reason="score",
    )
    assert error.message == "the results are published: the director takes no more calls"


def test_the_director_sees_open_calls_and_their_waiting_time_and_nobody_else_any() -> None:
    # Given two calls from table 1, the second answered, and a third closed
    event, director, _, games = event_round(4, public=True)
    game = games[0]
    first, second, third = (seated(event, game, seat) for seat in (1, 2, 3))
    for player, reason in ((first, "score"), (second, "technical"), (third, "other")):
        services.event_call_director(
            event_id=event.id, actor=player, game_id=game.id, reason=reason, text="Help"
        )
    services.event_answer_call(event_id=event.id, actor=director, number=2)
    services.event_close_call(event_id=event.id, actor=director, number=3, note="Sorted.")

    # Then the director's picture lists the two open ones, oldest first, where and who
    calls = selectors.event_live(event.id, director.pk)["calls"]
    names = {entry.player_id: entry.name for entry in event_entries(event)}
    assert [
        {key: call[key] for key in call if key not in ("at", "waited_seconds")} for call in calls
    ] == [
        {
            "number": 1,
            "round": 1,
            "table": 1,
            "seat": 1,
            "player_id": first.pk,
            "reason": "score",
            "text": "Help",
            "state": "waiting",
            "name": names[first.pk],
            "game_code": game.code,
            "place": "online",
        },
        {
            "number": 2,
            "round": 1,
            "table": 1,
            "seat": 2,
            "player_id": second.pk,
            "reason": "technical",
            "text": "Help",
            "state": "answered",
            "name": names[second.pk],
            "game_code": game.code,
            "place": "online",
        },
    ]
    assert all(0 <= call["waited_seconds"] < 60 for call in calls)

    # And no other viewer's picture holds any call: not a player's, not a spectator's
    assert "calls" not in selectors.event_live(event.id, first.pk)
    assert "calls" not in selectors.event_live(event.id)


def event_entries(event: Event) -> list[Any]:
    return list(Entry.objects.filter(event_id=event.id))


def test_a_tables_desk_tells_a_seated_player_their_own_call_and_the_announcements_only() -> None:
    # Given an announcement, and a call from seat 0 of table 1, closed with a note
    event, director, _, games = event_round(8, public=True)
    game = games[0]
    caller, tablemate = seated(event, game, 0), seated(event, game, 1)
    services.event_announce(event_id=event.id, actor=director, text="Lunch at 13:00.")
    services.event_call_director(
        event_id=event.id, actor=caller, game_id=game.id, reason="score", text="Why?"
    )
    services.event_close_call(event_id=event.id, actor=director, number=1, note="It stands.")
    source = selectors.desk_source(event.id)
    _, players = selectors.table_players(Event.objects.get(pk=event.id), game.code)
    announcements = Event.objects.get(pk=event.id).announcements

    # Then the caller's desk holds the announcements and their closed call with its note
    record = store.read(championship_stream(event.id))[-2]
    assert selectors.desk_seen_by(source, game.id, players, caller.pk) == {
        "type": "desk",
        "announcements": announcements,
        "may_call": True,
        "call": {
            "number": 1,
            "reason": "score",
            "text": "Why?",
            "state": "closed",
            "note": "It stands.",
            "at": record.recorded_at.isoformat(),
        },
        "ends_at": None,
        "time_called": False,
    }
    # And a tablemate, a spectator and the director see the announcements, no call
    for viewer in (tablemate.pk, None, director.pk):
        seen = selectors.desk_seen_by(source, game.id, players, viewer)
        assert (seen["announcements"], seen["call"]) == (announcements, None)
        assert seen["may_call"] is (viewer == tablemate.pk)


def test_the_read_model_keeps_open_calls_and_the_last_of_each_seat_and_a_rebuild_agrees() -> None:
    # Given a seat that called twice (the first closed) and another that called once
    event, director, _, games = event_round(4, public=True)
    game = games[0]
    player, other = seated(event, game, 0), seated(event, game, 1)
    services.event_call_director(event_id=event.id, actor=player, game_id=game.id, reason="other")
    services.event_close_call(event_id=event.id, actor=director, number=1)
    services.event_call_director(event_id=event.id, actor=player, game_id=game.id, reason="score")
    services.event_call_director(event_id=event.id, actor=other, game_id=game.id, reason="other")
    services.event_close_call(event_id=event.id, actor=director, number=3, note="Fine.")

    # Then the read model holds the seat's last call and the other's closed one, not call 1
    calls = Event.objects.get(pk=event.id).calls
    assert [(call["number"], call["state"], call["note"]) for call in calls] == [
        (2, "waiting", ""),
        (3, "closed", "Fine."),
    ]

    # And a rebuild of the read models derives them again, the same
    rebuild_standings()
    assert Event.objects.get(pk=event.id).calls == calls


def test_a_call_stored_before_a_field_was_added_decodes_with_its_default() -> None:
    assert decode(
        "DirectorCalled",
        {"round": 1, "table": 0, "game": "g", "seat": 2, "player_id": 7, "reason": "other"},
    ) == DirectorCalled(1, 0, "g", 2, 7, "other", "")
    assert decode("CallClosed", {"number": 4}) == CallClosed(4, "")
