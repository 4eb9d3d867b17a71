"""Co-directors: the organizer names deputies, who run the event and its tables as the
organizer does, each command recorded as theirs, but may not name or remove deputies;
who directs is decided in one place, on the log (Championship.directed_by) and on the
read model (selectors.directs_event) alike."""

from __future__ import annotations

import pytest

from accounts.models import User
from eventlog import store
from games.commands import actions as games
from games.models import Game
from games.read.selectors import scorer_of
from games.visibility import directs_game, sees_live
from games.write.tables import load_table
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import bot_event, organizer, private_event_round, round_games
from tournaments import selectors, services
from tournaments.championship import DeputyNamed, championship_stream, decode
from tournaments.models import Deputy, Event
from tournaments.projections.rebuild import rebuild_standings
from tournaments.services import load_championship


def refused(code: str, call: object, **kwargs: object) -> DomainError:
    with pytest.raises(DomainError) as raised:
        call(**kwargs)  # type: ignore[operator]
    assert raised.value.code == code, raised.value.message
    return raised.value


def named(event: Event, creator: User, **fields: object) -> User:
    """A new account, named a deputy of ``event`` by its username."""
    deputy: User = UserFactory.create(**fields)
    services.event_name_deputy(event_id=event.id, actor=creator, who=deputy.username)
    return deputy


def actors(event: Event) -> list[tuple[str, int | None]]:
    return [(record.type, record.actor_id) for record in store.read(championship_stream(event.id))]


@pytest.mark.django_db
def test_the_organizer_names_deputies_by_username_or_e_mail_and_removes_them() -> None:
    # Given an event and two accounts
    event, creator = bot_event(players=3, rounds=1)
    anna = UserFactory.create(username="anna", email="anna@example.org", display_name="Anna")
    ion = UserFactory.create(username="ion", display_name="Ion")

    # When the organizer names one by her e-mail address, the other by his username
    # (in other letters' case), then removes the first
    services.event_name_deputy(event_id=event.id, actor=creator, who=" ANNA@example.org ")
    services.event_name_deputy(event_id=event.id, actor=creator, who="Ion")
    services.event_remove_deputy(event_id=event.id, actor=creator, user_id=anna.pk)

    # Then the log says so, and the read model lists the one left
    assert actors(event)[-3:] == [
        ("DeputyNamed", creator.pk),
        ("DeputyNamed", creator.pk),
        ("DeputyRemoved", creator.pk),
    ]
    assert load_championship(event.id).deputies == {ion.pk: "Ion"}
    assert selectors.event_audit(event.id)[-1].action == "Removed Anna as a deputy"
    assert [(d.user_id, d.name) for d in selectors.deputies(event)] == [(ion.pk, "Ion")]
    assert selectors.directs_event(event, ion.pk)
    assert not selectors.directs_event(event, anna.pk)


@pytest.mark.django_db
def test_a_deputy_starts_a_round_announces_and_corrects_and_each_record_is_theirs() -> None:
    # Given an event of three bots and a deputy
    event, creator = bot_event(players=3, rounds=2)
    deputy = named(event, creator)
    player = load_championship(event.id).present[0]

    # When the deputy starts round 1, announces, corrects a result and withdraws the
    # announcement
    services.event_start_round(event_id=event.id, actor=deputy)
    services.event_announce(event_id=event.id, actor=deputy, text="Round 2 at 15:00")
    services.event_correct_result(
        event_id=event.id, actor=deputy, round_number=1, player_id=player, points=-5, reason="Late"
    )
    services.event_withdraw_announcement(event_id=event.id, actor=deputy, number=1)

    # Then each is recorded with the deputy as its actor, not the organizer
    assert actors(event)[-4:] == [
        ("RoundStarted", deputy.pk),
        ("Announced", deputy.pk),
        ("ResultCorrected", deputy.pk),
        ("AnnouncementWithdrawn", deputy.pk),
    ]
    # And the round's tables are the event's organizer's, whoever opened them
    assert {game.creator_id for game in round_games(event.id, 1)} == {creator.pk}
    # And the audit trail says who did what
    trail = [(line.actor, line.action) for line in selectors.event_audit(event.id)]
    assert trail == [
        (creator.display, f"Named {deputy.display} a deputy"),
        (deputy.display, "Started round 1"),
        (deputy.display, "Announced: Round 2 at 15:00"),
        (
            deputy.display,
            f"Corrected {load_championship(event.id).entries[player].name}'s round 1 by -5 points",
        ),
        (deputy.display, "Withdrew announcement 1"),
    ]


@pytest.mark.django_db
def test_a_deputy_may_not_name_or_remove_deputies_and_a_stranger_may_do_nothing() -> None:
    event, creator = bot_event(players=3, rounds=1)
    deputy = named(event, creator)
    other = named(event, creator)
    stranger = UserFactory.create()

    error = refused(
        "organizer_only",
        services.event_name_deputy,
        event_id=event.id,
        actor=deputy,
        who=stranger.username,
    )
    assert error.text == "Only the event's organizer may do that, not a deputy."
    refused(
        "organizer_only",
        services.event_remove_deputy,
        event_id=event.id,
        actor=deputy,
        user_id=other.pk,
    )
    error = refused("not_organizer", services.event_start_round, event_id=event.id, actor=stranger)
    assert error.text == "Only the event's organizer or their deputies may do that."
    refused(
        "not_organizer",
        services.event_name_deputy,
        event_id=event.id,
        actor=stranger,
        who=stranger.username,
    )
    assert load_championship(event.id).deputies.keys() == {deputy.pk, other.pk}


@pytest.mark.django_db
def test_naming_refusals_are_coded_and_write_nothing() -> None:
    event, creator = bot_event(players=3, rounds=1)
    deputy = named(event, creator)
    bot = User.objects.filter(is_bot=True).first()
    twins = UserFactory.create_batch(2, email="same@example.org")
    version = load_championship(event.id).version

    refused(
        "no_such_account",
        services.event_name_deputy,
        event_id=event.id,
        actor=creator,
        who="nobody",
    )
    refused(
        "no_such_account",
        services.event_name_deputy,
        event_id=event.id,
        actor=creator,
        who=bot.username,
    )  # type: ignore[union-attr]
    refused(
        "no_such_account",
        services.event_name_deputy,
        event_id=event.id,
        actor=creator,
        who=twins[0].email,
    )
    refused(
        "already_deputy",
        services.event_name_deputy,
        event_id=event.id,
        actor=creator,
        who=deputy.username,
    )
    refused(
        "already_deputy",
        services.event_name_deputy,
        event_id=event.id,
        actor=creator,
        who=creator.username,
    )
    refused(
        "not_deputy",
        services.event_remove_deputy,
        event_id=event.id,
        actor=creator,
        user_id=creator.pk,
    )

    assert load_championship(event.id).version == version


@pytest.mark.django_db
def test_a_removed_deputy_directs_the_event_no_more() -> None:
    event, creator = bot_event(players=3, rounds=1)
    deputy = named(event, creator)

    services.event_remove_deputy(event_id=event.id, actor=creator, user_id=deputy.pk)

    refused("not_organizer", services.event_start_round, event_id=event.id, actor=deputy)
    assert not selectors.directs_event(Event.objects.get(pk=event.id), deputy.pk)


@pytest.mark.django_db
def test_a_deputy_has_the_organizers_rights_at_the_events_tables_until_removed() -> None:
    # Given a private event's first round, of people who have not moved yet, and a deputy
    event, creator, entrants, tables = private_event_round(4)
    deputy = named(event, creator)
    game = tables[0]

    # Then the deputy directs its table: sees it live, pauses it, writes its deals down
    # as its director; a player at another seat does not direct it
    assert directs_game(game.id, game.creator_id, deputy.pk)
    assert sees_live(game.id, deputy.pk)
    assert scorer_of(game, user_id=deputy.pk, session=None).director
    games.game_pause(game_id=game.id, actor=deputy, reason="A call")
    assert Game.objects.get(pk=game.id).paused
    games.game_resume(game_id=game.id, actor=deputy)
    assert not directs_game(game.id, game.creator_id, entrants[0].pk)
    # And sees the organizer's live picture: whose turn it is at each table
    to_act = load_table(game.id).to_act
    assert selectors.event_live(event.id, deputy.pk)["tables"][0]["turn"]["seat"] == to_act
    assert selectors.event_live(event.id, entrants[0].pk)["tables"][0]["turn"] is None
    # And sees the private event, listed
    assert selectors.may_view(event, deputy.pk)
    assert event in selectors.events_list(deputy.pk)
    assert game.id not in set(selectors.hidden_tables(deputy.pk))

    # When the organizer removes the deputy, the table refuses them
    services.event_remove_deputy(event_id=event.id, actor=creator, user_id=deputy.pk)
    refused("not_your_seat", games.game_pause, game_id=game.id, actor=deputy)
    assert not selectors.may_view(Event.objects.get(pk=event.id), deputy.pk)


@pytest.mark.django_db
def test_a_deputy_named_before_names_were_recorded_decodes_with_no_name() -> None:
    assert decode("DeputyNamed", {"user_id": 7}) == DeputyNamed(7, "")


@pytest.mark.django_db
def test_a_rebuild_derives_the_deputies_again_from_the_log() -> None:
    event, creator = bot_event(players=3, rounds=1)
    kept = named(event, creator, display_name="Maria")
    gone = named(event, creator)
    services.event_remove_deputy(event_id=event.id, actor=creator, user_id=gone.pk)

    rebuild_standings()

    assert list(Deputy.objects.values_list("event_id", "user_id", "name")) == [
        (event.id, kept.pk, "Maria")
    ]


@pytest.mark.django_db
def test_the_next_round_is_offered_to_who_directs_by_the_rule_its_service_decides_by() -> None:
    # Given an event of two bots (too few) and a deputy
    event, creator = bot_event(players=2, rounds=2)
    deputy = named(event, creator)

    def next_round(viewer: int | None) -> object:
        return selectors.event_live(event.id, viewer)["next_round"]

    # Then only who directs it is told of the next round, and why it may not start
    assert next_round(deputy.pk) == {"number": 1, "refusal": "not_enough_players"}
    assert next_round(None) is None
    refused("not_enough_players", services.event_start_round, event_id=event.id, actor=deputy)

    # When a third checks in, it may; once it started, round 2 waits for its tables
    services.event_add_bots(event_id=event.id, actor=deputy, count=1)
    assert next_round(creator.pk) == {"number": 1, "refusal": None}
    services.event_start_round(event_id=event.id, actor=deputy)
    assert next_round(creator.pk) == {"number": 2, "refusal": "round_in_progress"}
    refused("round_in_progress", services.event_start_round, event_id=event.id, actor=creator)


@pytest.mark.django_db
def test_nobody_checks_in_or_withdraws_once_the_event_is_over() -> None:
    # Given an event whose last table has finished
    event, creator, entrants, tables = private_event_round(4)
    Game.objects.filter(pk__in=[game.id for game in tables]).update(status=Game.Status.FINISHED)
    assert services.event_finish(event_id=event.id)

    # Then a withdrawal or a check-in, for rounds there are none of, is refused
    refused("event_over", services.event_withdraw, event_id=event.id, actor=entrants[0])
    refused(
        "event_over",
        services.event_check_in,
        event_id=event.id,
        actor=creator,
        player_id=entrants[1].pk,
    )


@pytest.mark.django_db
def test_an_organizer_with_no_deputy_is_alone_to_direct() -> None:
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa")

    assert selectors.directs_event(event, creator.pk)
    assert not selectors.directs_event(event, None)
    assert selectors.deputies(event) == []
