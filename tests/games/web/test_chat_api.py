"""Words at a table through the REST API (decision 3506): read as the viewer may, said
by the players alone and as the table allows, within each player's budget, reported to
the site's staff; bad input answered with its code, and nothing of the game changed."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from rest_framework.test import APIClient

from accounts.models import User
from eventlog import store
from games.commands import actions
from games.commands.chat import game_say
from games.models import Game, MessageReport, TableMessage
from games.table import stream_of
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game
from tests.games.web.test_api import assert_documented, strict, token_client
from tests.tournaments.drivers import event_round

pytestmark = pytest.mark.django_db


def words_budget(settings: Any, rate: str) -> None:
    """Each player's budget of words (``table-chat``) for one test."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "table-chat": rate,
        },
    }


def chat_url(game_id: uuid.UUID) -> str:
    return f"/api/games/{Game.objects.get(pk=game_id).code}/chat/"


def say(user: User, game_id: uuid.UUID, body: dict[str, Any]) -> Any:
    return token_client(user).post(chat_url(game_id), body, format="json")


def words(client: APIClient, game_id: uuid.UUID, query: str = "") -> Any:
    return client.get(chat_url(game_id) + query).json()


def said(answer: Any) -> list[tuple[str, str | None, str | None]]:
    return [(word["name"], word["phrase"], word["text"]) for word in answer["words"]]


def test_a_player_says_a_phrase_and_every_viewer_reads_it_as_its_key() -> None:
    game_id, users = seated_game(3)
    version = store.version(stream_of(game_id))

    answer = say(users[1], game_id, {"phrase": "good_luck"})

    assert answer.status_code == 201
    body = answer.json()
    assert (body["seat"], body["name"], body["phrase"], body["text"]) == (
        1,
        "Player 2",
        "good_luck",
        None,
    )
    read = words(APIClient(), game_id)
    assert read["mode"] == "free"
    assert said(read) == [("Player 2", "good_luck", None)]
    # A word is no event of the game: its log and version stay as they were.
    assert store.version(stream_of(game_id)) == version
    assert Game.objects.get(pk=game_id).version == version


def test_free_text_at_a_casual_table_is_read_in_order_and_after_a_message_id() -> None:
    game_id, users = seated_game(3)
    first = say(users[0], game_id, {"text": "  Bună seara!  "}).json()
    say(users[2], game_id, {"text": "Noroc 🍀"})

    read = words(token_client(users[1]), game_id)
    later = words(token_client(users[1]), game_id, f"?after={first['id']}")

    assert said(read) == [("Player 1", None, "Bună seara!"), ("Player 3", None, "Noroc 🍀")]
    assert said(later) == [("Player 3", None, "Noroc 🍀")]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),
        ({"phrase": "good_luck", "text": "hi"}, "non_field_errors"),
        ({"phrase": "bravo"}, "phrase"),
        ({"text": ""}, "text"),
        ({"text": "   "}, "text"),
        ({"text": "x" * 201}, "text"),
        ({"text": "two\nlines"}, "text"),
        ({"text": "right\u202eto left"}, "text"),
        ({"phrase": None}, "phrase"),
    ],
)
def test_bad_words_are_400_invalid_input_and_nothing_is_said(
    body: dict[str, Any], field: str
) -> None:
    game_id, users = seated_game(3)

    answer = say(users[0], game_id, body)

    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_input"
    assert list(answer.json()["fields"]) == [field]
    assert TableMessage.objects.count() == 0


def test_a_spectator_and_an_anonymous_visitor_may_read_but_not_talk() -> None:
    game_id, _ = seated_game(3)
    onlooker = UserFactory.create()

    spectator = say(onlooker, game_id, {"phrase": "thanks"})
    anonymous = APIClient().post(chat_url(game_id), {"phrase": "thanks"}, format="json")

    assert (spectator.status_code, spectator.json()["code"]) == (403, "players_only")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")
    assert TableMessage.objects.count() == 0


def test_words_past_a_players_budget_are_429_with_retry_after_at_every_table(
    settings: Any,
) -> None:
    words_budget(settings, "3/min")
    game_id, users = seated_game(3)
    other_id, _ = seated_game(3, users=[users[0], *UserFactory.create_batch(2)])

    answers = [say(users[0], game_id, {"phrase": "oops"}).status_code for _ in range(3)]
    elsewhere = say(users[0], other_id, {"phrase": "sorry"})
    another = say(users[1], game_id, {"phrase": "sorry"})

    assert answers == [201, 201, 201]
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (429, "chat_too_fast")
    assert 1 <= int(elsewhere["Retry-After"]) <= 60
    assert another.status_code == 201
    assert TableMessage.objects.filter(author=users[0]).count() == 3


def test_a_championship_table_is_quiet_unless_its_organizer_allows_the_phrases() -> None:
    *_, (quiet,) = event_round(4, public=True)
    *_, (phrases,) = event_round(4, public=True, table_chat="phrases")
    quiet_player = User.objects.get(pk=quiet.seats[0]["user_id"])
    player = User.objects.get(pk=phrases.seats[0]["user_id"])

    off = say(quiet_player, quiet.id, {"phrase": "good_luck"})
    phrase = say(player, phrases.id, {"phrase": "good_luck"})
    text = say(player, phrases.id, {"text": "my cards are all hearts"})

    assert (off.status_code, off.json()["code"]) == (403, "chat_off")
    assert phrase.status_code == 201
    assert (text.status_code, text.json()["code"]) == (403, "phrases_only")
    assert words(APIClient(), quiet.id)["mode"] == "off"
    assert words(APIClient(), phrases.id)["mode"] == "phrases"
    assert said(words(APIClient(), phrases.id)) == [(phrase.json()["name"], "good_luck", None)]


def test_a_delayed_tables_spectator_reads_a_word_only_once_the_delay_passed() -> None:
    game_id, users = seated_game(3, spectator_delay=60)
    early = game_say(game_id=game_id, actor=users[0], phrase="good_luck")
    late = game_say(game_id=game_id, actor=users[1], phrase="sorry")
    TableMessage.objects.filter(pk=early.pk).update(said_at=timezone.now() - timedelta(seconds=61))
    onlooker = token_client(UserFactory.create())

    spectator = said(words(onlooker, game_id))
    player = said(words(token_client(users[2]), game_id))
    report = onlooker.post(f"{chat_url(game_id)}{late.pk}/report/")

    assert spectator == [("Player 1", "good_luck", None)]
    assert player == [("Player 1", "good_luck", None), ("Player 2", "sorry", None)]
    # Nor may they report what they may not read yet.
    assert (report.status_code, report.json()["code"]) == (404, "message_not_found")


def test_a_report_is_recorded_once_for_the_staff_to_read_in_the_admin() -> None:
    game_id, users = seated_game(3)
    message = game_say(game_id=game_id, actor=users[0], text="you all play like bots")
    onlooker = UserFactory.create()
    url = f"{chat_url(game_id)}{message.pk}/report/"

    first = token_client(users[1]).post(url)
    again = token_client(users[1]).post(url)
    spectator = token_client(onlooker).post(url)
    anonymous = APIClient().post(url)
    elsewhere = token_client(users[1]).post(f"{chat_url(seated_game(3)[0])}{message.pk}/report/")
    too_large = token_client(users[1]).post(f"{chat_url(game_id)}{2**63}/report/")

    assert (first.status_code, first.json()) == (201, {"message": message.pk})
    assert (again.status_code, again.json()) == (201, {"message": message.pk})
    assert spectator.status_code == 201
    assert anonymous.status_code == 401
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (404, "message_not_found")
    assert (too_large.status_code, too_large.json()["code"]) == (400, "invalid_input")
    reporters = MessageReport.objects.filter(message=message).values_list("reporter", flat=True)
    assert sorted(reporters) == sorted([users[1].pk, onlooker.pk])
    staff = Client()
    staff.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    listed = staff.get("/admin/games/messagereport/").content.decode()
    assert "you all play like bots" in listed


def test_a_cancelled_table_takes_no_word() -> None:
    creator, player = UserFactory.create_batch(2)
    game = actions.game_create(creator=creator, player_count=3, preset="championship")
    actions.game_join(game_id=game.id, user=player, alias="Ana")
    waiting = say(player, game.id, {"phrase": "good_luck"})
    actions.game_cancel(game_id=game.id, actor=creator)

    cancelled = say(player, game.id, {"phrase": "oops"})

    assert waiting.status_code == 201
    assert (cancelled.status_code, cancelled.json()["code"]) == (409, "table_cancelled")


def test_a_private_events_table_and_its_words_are_not_found_by_an_outsider() -> None:
    *_, (table,) = event_round(4, public=False)
    outsider = token_client(UserFactory.create())

    read = outsider.get(chat_url(table.id))

    assert (read.status_code, read.json()["code"]) == (404, "game_not_found")


def test_the_words_answers_fit_the_schema_as_documented(settings: Any) -> None:
    words_budget(settings, "1/min")
    generated = SchemaGenerator().get_schema(request=None, public=True)
    openapi = strict(json.loads(OpenApiJsonRenderer().render(generated)))
    game_id, users = seated_game(3)
    chat, report = "/api/games/{ref}/chat/", "/api/games/{ref}/chat/{message}/report/"
    said = say(users[0], game_id, {"phrase": "good_luck"})
    url = chat_url(game_id)

    answers = [
        (chat, "post", said),
        (chat, "post", say(users[0], game_id, {"phrase": "oops"})),
        (chat, "post", say(users[1], game_id, {"phrase": "hello"})),
        (chat, "post", say(UserFactory.create(), game_id, {"phrase": "thanks"})),
        (chat, "get", APIClient().get(url)),
        (chat, "get", APIClient().get(f"{url}?after=-1")),
        (report, "post", token_client(users[1]).post(f"{url}{said.json()['id']}/report/")),
        (report, "post", token_client(users[1]).post(f"{url}999/report/")),
    ]

    statuses = [answer.status_code for _, _, answer in answers]
    assert statuses == [201, 429, 400, 403, 200, 400, 201, 404]
    for path, method, answer in answers:
        assert_documented(openapi, path, method, answer)


def test_a_word_sent_again_with_its_idempotency_key_is_said_once(settings: Any) -> None:
    # Given a player with a budget of two words
    words_budget(settings, "2/min")
    game_id, users = seated_game(3, "romanian-standard")
    body = {"phrase": "good_luck", "idempotency_key": "word-1"}

    # When the same word is sent three times with its key (the answers lost), once in
    # the header instead of the body
    first = say(users[0], game_id, body)
    again = say(users[0], game_id, body)
    by_header = token_client(users[0]).post(
        chat_url(game_id),
        {"phrase": "good_luck"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="word-1",
    )

    # Then each is answered with the one word said, and the budget is spent once
    assert first.status_code == again.status_code == by_header.status_code == 201
    assert first.json() == again.json() == by_header.json()
    assert TableMessage.objects.filter(game_id=game_id).count() == 1
    assert say(users[0], game_id, {"phrase": "well_played"}).status_code == 201


def test_an_idempotency_key_used_for_another_word_is_refused() -> None:
    game_id, users = seated_game(3, "romanian-standard")
    assert (
        say(users[0], game_id, {"phrase": "good_luck", "idempotency_key": "k"}).status_code == 201
    )

    reused = say(users[0], game_id, {"phrase": "well_played", "idempotency_key": "k"})
    differs = token_client(users[0]).post(
        chat_url(game_id),
        {"phrase": "well_played", "idempotency_key": "a"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="b",
    )

    assert (reused.status_code, reused.json()["code"]) == (409, "idempotency_key_reused")
    assert (differs.status_code, differs.json()["code"]) == (400, "invalid_input")
    assert TableMessage.objects.filter(game_id=game_id).count() == 1
    # Another player's key is theirs alone
    assert (
        say(users[1], game_id, {"phrase": "well_played", "idempotency_key": "k"}).status_code == 201
    )
