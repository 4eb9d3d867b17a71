import html
import json
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.http import HttpResponse
from django.test import Client, override_settings

from accounts.models import User
from accounts.services import user_ensure_bot_players
from games.commands.actions import game_create, game_join, game_play_now, game_set_seat_bot
from games.models import Game
from games.rules import classic
from games.web.forms import CLASSIC_PRESET_LABELS
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end, seated_game
from tests.tournaments.drivers import event_round, private_event_round


def test_rules_page_shows_each_preset_with_its_deal_sequence(client: Client) -> None:
    response = client.get("/rules/")

    assert response.status_code == 200
    content = response.content.decode()
    for title in ("Romanian standard", "Championship", "Online room", "Classic app"):
        assert f"<h2>{title}</h2>" in content
    championship = content[content.index('id="championship"') : content.index('id="online-room"')]
    assert "1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 (32 deals)" in (
        championship
    )
    assert "+10 for 5 exact bids in a row" in content
    assert "-10 for 5 missed bids in a row (one-card deals not counted)" in content


@pytest.mark.django_db
def test_home_page_links_the_rule_presets(client: Client) -> None:
    assert 'href="/rules/"' in client.get("/").content.decode()


# --- The lobby -----------------------------------------------------------------------------


@pytest.fixture
def player(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def table_config(response: HttpResponse) -> dict[str, Any]:
    content = response.content.decode()
    start = content.index('<script id="atu-table" type="application/json">') + len(
        '<script id="atu-table" type="application/json">'
    )
    config: dict[str, Any] = json.loads(content[start : content.index("</script>", start)])
    return config


@pytest.mark.django_db
def test_the_lobby_lists_tables_waiting_for_players_and_tables_in_play(client: Client) -> None:
    # Given a table with a free seat and one in play
    waiting = game_create(creator=UserFactory.create(), player_count=4, preset="championship")
    game_join(game_id=waiting.id, user=UserFactory.create(), alias="Ana")
    playing_id, _ = seated_game(3)
    playing = Game.objects.get(pk=playing_id)

    # When anyone opens the lobby
    content = client.get("/").content.decode()

    # Then each is listed in its own section, with its seats and a link to it
    open_section = content[content.index('id="open-games"') : content.index('id="live-games"')]
    live_section = content[content.index('id="live-games"') :]
    assert f'data-code="{waiting.code}"' in open_section
    assert "Ana (1/4)" in open_section
    assert f'href="/games/{waiting.code}/">Join<' in open_section
    assert f'href="/games/{playing.code}/">Watch<' in live_section
    assert f'data-code="{playing.code}"' not in open_section


@pytest.mark.django_db
def test_a_private_events_tables_are_not_in_the_lobby_nor_open_to_an_outsider(
    client: Client,
) -> None:
    # Given a private event's table in play, and a public one
    _, _, entrants, (table, _) = private_event_round(8)
    public = Game.objects.get(pk=seated_game(3)[0])
    outsider = Client()
    outsider.force_login(UserFactory.create())
    player = Client()
    player.force_login(next(u for u in entrants if u.pk == table.seats[0]["user_id"]))

    # When an anonymous visitor and a signed-in outsider open the lobby and the table
    for visitor in (client, outsider):
        lobby = visitor.get("/").content.decode()
        page = visitor.get(f"/games/{table.code}/")

        # Then only the public table is listed, and the private one is not found
        assert f'data-code="{public.code}"' in lobby
        assert f'data-code="{table.code}"' not in lobby
        assert page.status_code == 404
    # Nor can the outsider find it by its code to join it
    joined = outsider.post("/games/join/", {"reference": table.code, "alias": "Intrus"})
    assert joined.status_code == 404
    assert "there is no table with that code or id." in joined.content.decode().lower()
    # While its player finds it listed and sits at it
    assert f'data-code="{table.code}"' in player.get("/").content.decode()
    assert table_config(player.get(f"/games/{table.code}/"))["code"] == table.code


@pytest.mark.django_db
def test_opening_a_table_applies_the_chosen_rules_and_seats_its_creator(
    player: Client, user: User
) -> None:
    # When a signed-in player opens a table with rules changed from the preset
    response = player.post(
        "/games/new/",
        {
            "preset": "classic-app",
            "player_count": "3",
            "alias": "Ana",
            "turn_seconds": "30",
            "schedule": "8-1-8",
            "step": "2",
            "repeat_one_card_deals": "no",
            "must_trump": "yes",
        },
    )

    # Then the game exists with those rules, they sit in seat 0, and they are sent to it
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.code}/"
    assert game.preset == "classic-app"
    assert game.player_count == 3
    assert game.seats == [{"seat": 0, "alias": "Ana", "user_id": user.pk}]
    assert game.options["schedule"] == "8-1-8"
    assert game.options["step"] == 2
    assert game.options["repeat_one_card_deals"] is False
    assert game.options["must_trump"] is True
    assert game.options["scoring"] == "1+bid"  # Left as the preset has it.
    assert load_table(game.id).turn_seconds == 30


@pytest.mark.django_db
def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in_before_opening_a_table(
    client: Client,
) -> None:
    response = client.post("/games/new/", {"preset": "championship", "player_count": "4"})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/games/new/"
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"alias": ""}, "This field is required."),
        ({"turn_seconds": "2"}, "Ensure this value is greater than or equal to 5."),
        ({"player_count": "7"}, "Select a valid choice. 7 is not one of the available choices."),
        ({"step": "3"}, "Select a valid choice. 3 is not one of the available choices."),
    ],
)
def test_a_table_with_bad_settings_is_refused_with_the_reason_and_nothing_is_written(
    player: Client, changes: dict[str, str], message: str
) -> None:
    response = player.post(
        "/games/new/", {"preset": "championship", "player_count": "4", "alias": "Ana", **changes}
    )

    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_player_already_at_the_table_is_told_so_and_not_seated_twice(
    player: Client, user: User
) -> None:
    game = game_create(creator=user, player_count=3, preset="championship")
    game_join(game_id=game.id, user=user, alias="Ana")

    response = player.post("/games/join/", {"reference": game.code, "alias": "Ana2"})

    assert response.status_code == 409
    assert "You already sit at this table." in response.content.decode()
    game.refresh_from_db()
    assert len(game.seats) == 1


@pytest.mark.django_db
def test_a_player_joins_a_table_by_its_code_in_any_case_and_is_sent_to_it(
    player: Client, user: User
) -> None:
    game = game_create(creator=UserFactory.create(), player_count=3, preset="championship")

    response = player.post("/games/join/", {"reference": game.code.lower(), "alias": "Bogdan"})

    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.code}/"
    game.refresh_from_db()
    assert game.seats == [{"seat": 0, "alias": "Bogdan", "user_id": user.pk}]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("reference", "status", "message"),
    [
        ("NOSUCH", 404, "there is no table with that code or id."),
        ("full", 409, "every seat at this table is taken."),
        ("taken", 400, "a player at this table has this alias, or one that looks like it."),
    ],
)
def test_joining_a_missing_or_full_table_or_with_a_taken_alias_says_why(
    player: Client, reference: str, status: int, message: str
) -> None:
    full_id, _ = seated_game(3)
    taken = game_create(creator=UserFactory.create(), player_count=3, preset="championship")
    game_join(game_id=taken.id, user=UserFactory.create(), alias="Ana")
    code = {
        "full": Game.objects.get(pk=full_id).code,
        "taken": taken.code,
    }.get(reference, reference)

    response = player.post("/games/join/", {"reference": code, "alias": "Ana"})

    assert response.status_code == status
    assert message in response.content.decode().lower()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("alias", "message"),
    [
        (
            "Ana\u200b",
            "Un alias are între 1 și 24 de caractere ale aceluiași alfabet, fără caractere "
            "invizibile sau de control.",
        ),
        (
            "\u0410na",
            "Un alias are între 1 și 24 de caractere ale aceluiași alfabet, fără caractere "
            "invizibile sau de control.",
        ),
        ("ANA", "Un jucător de la această masă are deja acest alias sau unul care seamănă cu el."),
    ],
)
def test_a_refused_alias_is_explained_in_romanian_and_seats_nobody(
    player: Client, alias: str, message: str
) -> None:
    game = game_create(creator=UserFactory.create(), player_count=3, preset="championship")
    game_join(game_id=game.id, user=UserFactory.create(), alias="Ana")

    response = player.post(
        "/games/join/", {"reference": game.code, "alias": alias}, HTTP_ACCEPT_LANGUAGE="ro"
    )

    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    game.refresh_from_db()
    assert [seat["alias"] for seat in game.seats] == ["Ana"]


# --- Classic Whist in the lobby ----------------------------------------------------------------


def classic_table(**changes: str) -> dict[str, str]:
    """What the lobby's classic Whist form sends, with ``changes``."""
    return {"kind": "classic", "preset": "british", "alias": "Ana", **changes}


@pytest.mark.django_db
def test_opening_a_classic_table_seats_its_creator_under_the_chosen_options(
    player: Client, user: User
) -> None:
    # When a signed-in player opens a classic Whist table with options changed from its preset
    response = player.post(
        "/games/new/",
        classic_table(
            preset="american",
            turn_seconds="45",
            target="9",
            honours="yes",
            trumps="rotation",
            no_trump_every_fifth="yes",
        ),
    )

    # Then the table plays classic Whist for four under those options, with its creator in seat 0
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.code}/"
    assert game.kind == "classic"
    assert game.preset == "american"
    assert game.player_count == 4
    assert game.seats == [{"seat": 0, "alias": "Ana", "user_id": user.pk}]
    assert game.options == {
        "trumps": "rotation",
        "no_trump_every_fifth": True,
        "honours": True,
        "target": 9,
        "rubber": False,  # Left as the preset has it.
        "deals": None,
    }
    table = load_table(game.id)
    assert table.kind == "classic"
    assert table.turn_seconds == 45


@pytest.mark.django_db
def test_a_classic_tournament_table_plays_the_chosen_number_of_deals(player: Client) -> None:
    response = player.post(
        "/games/new/", classic_table(preset="american", deals="1", trumps="turned")
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert game.options["deals"] == 1
    assert game.options["trumps"] == "turned"
    assert game.options["target"] == 7


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # Combinations the rules library refuses, in its words.
        (
            {"preset": "american", "rubber": "yes", "deals": "3"},
            "a tournament plays a fixed number of deals, not a rubber",
        ),
        (
            {"preset": "american", "no_trump_every_fifth": "yes", "trumps": "turned"},
            "no-trump every fifth hand needs the fixed rotation of trumps, not the turned card",
        ),
        ({"deals": "10"}, "a tournament plays a fixed number of deals, not a rubber"),
        # What the form itself refuses.
        ({"deals": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"target": "6"}, "Select a valid choice. 6 is not one of the available choices."),
        ({"preset": "bridge"}, "Select a valid choice. bridge is not one of the available"),
    ],
)
def test_a_classic_table_with_rules_that_do_not_go_together_is_refused_on_the_form(
    player: Client, changes: dict[str, str], message: str
) -> None:
    response = player.post("/games/new/", classic_table(**changes))

    assert response.status_code == 400
    content = html.unescape(response.content.decode())
    assert message in content
    # The classic form comes back as it was sent, open at the rules.
    classic_panel = content[
        content.index('id="new-classic-game"') : content.index('id="join-game"')
    ]
    assert message in classic_panel
    assert "<details open>" in classic_panel
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_rules_refusal_is_introduced_in_romanian(player: Client) -> None:
    response = player.post(
        "/games/new/",
        classic_table(preset="american", rubber="yes", deals="3"),
        HTTP_ACCEPT_LANGUAGE="ro",
    )

    assert response.status_code == 400
    assert (
        "Aceste reguli nu merg împreună: a tournament plays a fixed number of deals, not a rubber"
    ) in html.unescape(response.content.decode())


@pytest.mark.django_db
def test_the_lobby_offers_both_games_in_romanian(player: Client) -> None:
    content = player.get("/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    assert "<h2>Deschide o masă</h2>" in content
    assert "<h2>Masă nouă de whist clasic</h2>" in content
    assert "Britanic (5 puncte, robber, onoruri)" in content
    assert "Număr de împărțiri (forma de turneu)" in content
    assert 'id="id_classic_alias"' in content
    assert "New classic Whist table" not in content


@pytest.mark.django_db
def test_a_classic_table_page_gives_its_script_the_partnership_words_in_romanian(
    client: Client,
) -> None:
    game = game_create(creator=UserFactory.create(), player_count=4, kind="classic")

    response = client.get(f"/games/{game.code}/", HTTP_ACCEPT_LANGUAGE="ro")

    text = table_config(response)["text"]["classic"]
    assert text["your_side"] == "Echipa ta"
    assert text["opponents"] == "Adversarii"
    assert text["side_seats"] == "Locurile %(first)s și %(second)s"
    assert text["suits"] == {"C": "treflă", "D": "caro", "H": "cupă", "S": "pică"}
    assert text["odd_tricks"] == "Levate peste șase"


@pytest.mark.django_db
def test_a_finished_classic_tables_end_links_the_download_of_its_record(client: Client) -> None:
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 1})
    play_to_end(game_id, users)
    code = Game.objects.get(pk=game_id).code

    content = client.get(f"/games/{code}/").content.decode()

    assert (
        f'id="end-record" class="button" href="/api/games/{code}/record.json" download' in content
    )


def test_the_classic_presets_are_labelled_with_the_rules_library_titles() -> None:
    assert {name: str(label) for name, label in CLASSIC_PRESET_LABELS.items()} == (
        classic.PRESET_TITLES
    )


@pytest.mark.django_db
def test_the_lobby_lists_say_which_game_each_table_plays(client: Client) -> None:
    romanian = game_create(creator=UserFactory.create(), player_count=4, preset="championship")
    whist = game_create(
        creator=UserFactory.create(), player_count=4, kind="classic", preset="long-whist"
    )

    content = client.get("/").content.decode()
    romanian_row = content[content.index(f'data-code="{romanian.code}"') :]
    whist_row = content[content.index(f'data-code="{whist.code}"') :]

    assert romanian_row.index("Romanian Whist") < romanian_row.index("</tr>")
    assert romanian_row.index("Championship") < romanian_row.index("</tr>")
    assert whist_row.index("Classic Whist") < whist_row.index("</tr>")
    assert whist_row.index("Long Whist (9 points, honours)") < whist_row.index("</tr>")
    ro = client.get("/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    whist_row = ro[ro.index(f'data-code="{whist.code}"') :]
    assert whist_row.index("Whist clasic") < whist_row.index("</tr>")


# --- The table page --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_table_page_gives_its_script_the_socket_and_offers_a_free_seat(
    player: Client,
) -> None:
    game = game_create(creator=UserFactory.create(), player_count=4, preset="championship")

    response = player.get(f"/games/{game.code.lower()}/")

    assert response.status_code == 200
    config = table_config(response)
    assert config["game"] == str(game.id)
    assert config["code"] == game.code
    assert config["socket"] == f"/ws/games/{game.id}/"
    assert config["creator"] is False
    assert config["level"] == "medium"  # the level its Bot buttons hand a seat to
    assert config["text"]["errors"]["must_follow_suit"] == "You must follow suit."
    assert 'id="sit-down"' in response.content.decode()


@pytest.mark.django_db
def test_a_seated_player_and_a_finished_table_offer_no_seat(player: Client, user: User) -> None:
    game_id, _ = seated_game(3, users=[user, *UserFactory.create_batch(2)])
    game = Game.objects.get(pk=game_id)

    response = player.get(f"/games/{game.code}/")

    assert 'id="sit-down"' not in response.content.decode()
    assert table_config(response)["creator"] is True


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_the_table_page_names_the_seats_bots_accounts_hold_and_words_counts_by_plural(
    player: Client, user: User
) -> None:
    # Given a Play-now table of four, a person in seat 0 and bots in the others, a bot
    # playing for the person too
    game = game_play_now(user=user, preset="romanian-standard", player_count=4)
    game_set_seat_bot(game_id=game.id, actor=user, seat=0, bot="easy")

    # When its player opens it
    config = table_config(player.get(f"/games/{game.code}/"))

    # Then the page knows the bots' own seats, not the person's a bot plays for them
    assert config["bot_seats"] == [1, 2, 3]
    text = config["text"]
    assert text["bot_name"] == "%(alias)s (bot)"
    # and has the plural forms of its counted words, by the browser's plural categories
    assert text["points_count"] == {
        "one": "%(points)s point",
        "few": "%(points)s points",
        "other": "%(points)s points",
    }
    assert text["counted_errors"]["dealer_bid_forbidden"]["one"] == (
        "The dealer may not bid %(bid)s: the bids would add up to the %(cards)s card dealt."
    )
    assert text["bids_total"]["other"] == "Bids: %(bids)s for %(cards)s cards"


@pytest.mark.django_db
def test_a_table_that_does_not_exist_is_a_404_page(client: Client) -> None:
    response = client.get("/games/NOSUCH/")

    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/games/new/", "/games/join/"])
def test_reloading_a_refused_forms_address_returns_to_the_lobby(player: Client, path: str) -> None:
    # Switching the language on a refused form's page reloads its address with GET.
    response = player.get(path)

    assert (response.status_code, response["Location"]) == (302, "/")


# --- The end of a game, the rematch and the table's rules -------------------------------

SHORT = {
    "schedule": "1-8-1",
    "step": 2,
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
}


def finished_game(user: User) -> Game:
    game_id, users = seated_game(
        3, "classic-app", options=SHORT, users=[user, *UserFactory.create_batch(2)]
    )
    play_to_end(game_id, users)
    return Game.objects.get(pk=game_id)


@pytest.mark.django_db
def test_a_finished_table_shows_its_player_the_end_with_rematch_replay_and_record(
    player: Client, user: User
) -> None:
    game = finished_game(user)

    content = player.get(f"/games/{game.code}/").content.decode()

    end = content[
        content.index('<section id="game-end"') : content.index(
            "</section>", content.index('<section id="game-end"')
        )
    ]
    assert " hidden" not in end.split(">")[0]
    assert f'action="/games/{game.code}/rematch/"' in end
    assert 'id="rematch"' in end
    assert 'id="new-table" class="button" href="/#new-game"' in end
    assert f'id="end-replay" class="button" href="/games/{game.code}/?replay"' in end
    assert f'href="/api/games/{game.code}/record.json" download' in end
    # Its script asks the game list for the rematch (a page of none until it opens)
    assert (
        table_config(player.get(f"/games/{game.code}/"))["rematch"]
        == f"/api/games/?rematch_of={game.id}"
    )


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are driven here
def test_a_finished_table_against_bots_alone_has_its_page_ask_for_no_rematch(
    player: Client, user: User
) -> None:
    # Given a Play-now table played to its end: nobody but its player could open a rematch
    game = game_play_now(user=user, preset="classic-app", player_count=3, options=SHORT)
    seated = User.objects.in_bulk([seat["user_id"] for seat in Game.objects.get(pk=game.id).seats])
    play_to_end(game.id, [seated[seat["user_id"]] for seat in game.seats])

    # When its player opens it
    response = player.get(f"/games/{game.code}/")

    # Then the end offers the rematch, but the page polls for none another player opened
    assert 'id="rematch"' in response.content.decode()
    assert table_config(response)["rematch"] is None


@pytest.mark.django_db
def test_a_spectator_of_a_finished_table_gets_no_rematch_but_may_watch_the_one_played(
    client: Client, user: User
) -> None:
    # Given a finished table, then its rematch
    game = finished_game(user)
    before = client.get(f"/games/{game.code}/").content.decode()
    Client().force_login(user)
    player = Client()
    player.force_login(user)
    rematch_page = player.post(f"/games/{game.code}/rematch/")
    rematch = Game.objects.get(rematch_of=game.id)

    after = client.get(f"/games/{game.code}/").content.decode()

    assert 'id="rematch"' not in before and 'id="rematch-link"' not in before
    assert table_config(client.get(f"/games/{game.code}/"))["rematch"] is None
    assert f'id="rematch-link" class="button" href="/games/{rematch.code}/"' in after
    assert 'id="rematch"' not in after
    # And the player who asked was sent to the new table, where the end screen leads back
    assert (rematch_page.status_code, rematch_page["Location"]) == (302, f"/games/{rematch.code}/")
    mine = player.get(f"/games/{game.code}/").content.decode()
    assert f'id="rematch-link" class="button primary" href="/games/{rematch.code}/"' in mine


@pytest.mark.django_db
def test_a_rematch_asked_of_a_game_in_play_is_refused_in_the_readers_language(
    player: Client, user: User
) -> None:
    game_id, _ = seated_game(3, users=[user, *UserFactory.create_batch(2)])
    code = Game.objects.get(pk=game_id).code

    response = player.post(f"/games/{code}/rematch/", HTTP_ACCEPT_LANGUAGE="ro", follow=True)

    assert response.redirect_chain == [(f"/games/{code}/", 302)]
    assert "Revanșa se joacă după ce jocul s-a terminat." in html.unescape(
        response.content.decode()
    )
    assert not Game.objects.filter(rematch_of=game_id).exists()


@pytest.mark.django_db
def test_an_event_table_links_back_to_its_event_in_play_and_at_the_end_without_rematch() -> None:
    # Given a table of an event's first round, in play
    event, _, entrants, (game,) = private_event_round(4)
    player = Client()
    player.force_login(entrants[0])
    link = f'href="/events/{event.code}/#table-{game.code}"'

    playing = player.get(f"/games/{game.code}/").content.decode()
    play_to_end(game.id, entrants)
    over = player.get(f"/games/{game.code}/").content.decode()

    assert f'<a id="event-link" {link}>Cupa privată: round 1, table 1</a>' in playing
    assert f'id="end-event" class="button primary" {link}' in over
    assert 'id="rematch"' not in over and 'id="new-table"' not in over
    assert table_config(player.get(f"/games/{game.code}/"))["rematch"] is None


@pytest.mark.django_db
def test_the_table_page_sums_up_its_rules_with_the_deal_sequence_and_timer(client: Client) -> None:
    game = game_create(
        creator=UserFactory.create(),
        player_count=3,
        preset="online-room",
        options=SHORT,
        turn_seconds=30,
    )

    content = html.unescape(client.get(f"/games/{game.code}/").content.decode())
    ro = html.unescape(
        client.get(f"/games/{game.code}/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    )

    summary = content[
        content.index('<details id="rules-summary"') : content.index(
            "</details>", content.index('<details id="rules-summary"')
        )
    ]
    # Its options are not the preset's own: the title says so
    assert '<p class="rules-title">Online room, customised</p>' in summary
    assert "<dt>Deals</dt><dd>1 to 8 and back to 1, increment 2</dd>" in summary
    assert "<dt>Cards dealt, hand by hand</dt><dd>1 3 5 7 8 7 5 3 1 (9 deals)</dd>" in summary
    assert "<dt>One-card deals</dt><dd>played normally</dd>" in summary
    assert "<dt>When void</dt><dd>must trump</dd>" in summary
    assert "<dt>Scoring</dt><dd>5 + bid</dd>" in summary
    assert "<dt>Streak bonus</dt><dd>+10 for 5 exact bids in a row</dd>" in summary
    assert (
        "<dt>Streak penalty</dt>"
        "<dd>-10 for 5 missed bids in a row (one-card deals not counted)</dd>" in summary
    )
    assert "<dt>Turn timer</dt><dd>30 s a move; then a bot plays it</dd>" in summary
    assert "<dt>Cronometru</dt><dd>30 s pe mutare; apoi joacă un bot</dd>" in ro
    assert '<p class="rules-title">Sală online, modificat</p>' in ro


@pytest.mark.django_db
def test_a_classic_table_sums_up_its_match_and_trumps(client: Client) -> None:
    game = game_create(
        creator=UserFactory.create(), player_count=4, preset="british", kind="classic"
    )

    content = html.unescape(client.get(f"/games/{game.code}/").content.decode())

    assert "<dt>Match</dt><dd>A rubber: the best of three games to 5 points</dd>" in content
    assert "<dt>Trumps</dt><dd>the dealer's last card, turned</dd>" in content
    assert "<dt>Honours scored (A K Q J of trumps)</dt><dd>yes</dd>" in content
    assert "<dt>Turn timer</dt><dd>no timer</dd>" in content


@pytest.mark.django_db
def test_a_finished_table_of_bots_asks_for_no_rematch_nobody_else_can_open(
    player: Client, user: User
) -> None:
    # Given a player who played a table of bots to its end
    game_id, users = seated_game(3, "classic-app", options=SHORT, users=[user, *bots(2)])
    play_to_end(game_id, users)
    code = Game.objects.get(pk=game_id).code

    # Then its page gives its script nothing to ask
    assert table_config(player.get(f"/games/{code}/"))["rematch"] is None


def bots(count: int) -> list[User]:
    return user_ensure_bot_players()[:count]


# --- Play now, and the waiting room ------------------------------------------------------


@pytest.mark.django_db
def test_a_visitor_without_an_account_plays_now_as_a_guest_against_bots(client: Client) -> None:
    # Given a visitor who is not signed in
    # When they press "Play now" with a preset, three players and strong bots
    response = client.post(
        "/games/play-now/",
        {"preset": "romanian-standard", "player_count": "3", "level": "strong", "step": "2"},
    )

    # Then a guest account is made and signed in, and seated at a table that has started
    guest = User.objects.get(is_guest=True)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.code}/"
    assert int(client.session[SESSION_KEY]) == guest.pk
    assert guest.display_name.startswith("Guest ")
    assert not guest.has_usable_password()
    assert game.status == "playing"
    assert game.seats[0]["user_id"] == guest.pk
    table = load_table(game.id)
    assert table.bots == (None, "strong", "strong")
    assert table.options.step == 2
    # and the lobby lists it as customised, not as its preset
    assert "Romanian standard, customised" in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_signed_in_player_plays_now_under_their_own_account(player: Client, user: User) -> None:
    player.post("/games/play-now/", {"preset": "championship", "player_count": "4"})

    game = Game.objects.get()
    assert game.creator_id == user.pk
    assert load_table(game.id).bots == (None, "medium", "medium", "medium")
    assert not User.objects.filter(is_guest=True).exists()


@pytest.mark.django_db
def test_play_now_with_an_unknown_level_is_refused_on_the_lobby_and_makes_no_guest(
    client: Client,
) -> None:
    response = client.post(
        "/games/play-now/", {"preset": "championship", "player_count": "4", "level": "god"}
    )

    assert response.status_code == 400
    assert 'id="play-now"' in response.content.decode()
    assert not User.objects.exists()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_lobby_offers_play_now_to_everyone_in_both_languages(client: Client) -> None:
    content = client.get("/").content.decode()
    ro = client.get("/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    assert 'action="/games/play-now/"' in content
    assert "No account needed: you play as a guest" in content
    assert '<option value="medium" selected>medium</option>' in content
    assert "Joacă acum" in ro
    assert '<option value="strong">puternic</option>' in ro


@pytest.mark.django_db
def test_the_waiting_room_shows_the_share_link_the_rules_and_the_creators_controls(
    player: Client, user: User
) -> None:
    short = {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False}
    game = game_create(creator=user, player_count=3, preset="romanian-standard", options=short)
    game_join(game_id=game.id, user=user, alias="Ana")

    content = player.get(f"/games/{game.code}/").content.decode()

    assert f'value="http://testserver/games/{game.code}/"' in content
    assert 'id="copy-link"' in content
    assert f'action="/games/{game.code}/fill-with-bots/"' in content
    assert f'action="/games/{game.code}/cancel/"' in content
    assert f'action="/games/{game.code}/leave/"' in content
    assert "Romanian standard, customised" in content
    assert "1 3 5 7 8 7 5 3 1 (9 deals)" in content


@pytest.mark.django_db
def test_the_creator_fills_the_table_with_bots_from_its_page(player: Client, user: User) -> None:
    game = game_create(creator=user, player_count=4, preset="championship")
    game_join(game_id=game.id, user=user, alias="Ana")

    response = player.post(f"/games/{game.code}/fill-with-bots/", {"level": "easy"})

    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.code}/"
    assert load_table(game.id).bots == (None, "easy", "easy", "easy")
    assert Game.objects.get(pk=game.id).status == "playing"


@pytest.mark.django_db
def test_the_creator_cancels_the_table_and_the_lobby_no_longer_lists_it(
    player: Client, user: User
) -> None:
    game = game_create(creator=user, player_count=4, preset="championship")

    player.post(f"/games/{game.code}/cancel/")

    assert Game.objects.get(pk=game.id).status == "cancelled"
    assert f'data-code="{game.code}"' not in player.get("/").content.decode()
    page = player.get(f"/games/{game.code}/").content.decode()
    assert 'id="waiting-room"' not in page
    assert 'id="sit-down"' not in page


@pytest.mark.django_db
def test_a_player_leaves_the_table_and_its_seat_is_free_again(player: Client, user: User) -> None:
    game = game_create(creator=UserFactory.create(), player_count=4, preset="championship")
    game_join(game_id=game.id, user=user, alias="Ana")

    response = player.post(f"/games/{game.code}/leave/")

    assert response.status_code == 302
    assert Game.objects.get(pk=game.id).seats == []
    assert 'id="sit-down"' in player.get(f"/games/{game.code}/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "status", "said"),
    [
        ("cancel", 403, "Only the table&#x27;s creator may do that."),
        ("fill-with-bots", 403, "Only the table&#x27;s creator may do that."),
        ("leave", 409, "You have no seat at this table."),
    ],
)
def test_a_waiting_room_action_refused_is_said_on_the_table_page(
    player: Client, path: str, status: int, said: str
) -> None:
    game = game_create(creator=UserFactory.create(), player_count=4, preset="championship")

    response = player.post(f"/games/{game.code}/{path}/")

    assert response.status_code == status
    assert said in response.content.decode()
    assert Game.objects.get(pk=game.id).status == "open"


@pytest.mark.django_db
def test_a_started_game_cannot_be_cancelled_from_its_page_said_in_romanian(
    player: Client, user: User
) -> None:
    game_id, _ = seated_game(3, users=[user, *UserFactory.create_batch(2)])
    code = Game.objects.get(pk=game_id).code

    response = player.post(f"/games/{code}/cancel/", HTTP_ACCEPT_LANGUAGE="ro")

    assert response.status_code == 409
    assert "Jocul a început" in response.content.decode()
    assert Game.objects.get(pk=game_id).status == "playing"


# --- Words at the table --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_table_page_offers_the_talk_its_table_allows_to_its_players() -> None:
    # Given a casual table, a championship's quiet one, and one allowing the phrases
    casual_id, casual_players = seated_game(3)
    casual = Game.objects.get(pk=casual_id)
    *_, (quiet,) = event_round(4, public=True)
    *_, (phrases,) = event_round(4, public=True, table_chat="phrases")

    def page(game: Game, user: User | None, query: str = "") -> tuple[str, Any]:
        client = Client()
        if user is not None:
            client.force_login(user)
        response = client.get(f"/games/{game.code}/{query}")
        return response.content.decode(), table_config(response).get("chat")

    player, player_chat = page(casual, casual_players[1])
    watcher, watcher_chat = page(casual, None)
    quiet_page, quiet_chat = page(quiet, User.objects.get(pk=quiet.seats[0]["user_id"]))
    phrases_page, phrases_chat = page(phrases, User.objects.get(pk=phrases.seats[2]["user_id"]))
    replay, replay_chat = page(casual, casual_players[1], "?replay")

    # Then a casual table's player has the phrases and a line of text, its spectator
    # reads only; a quiet table has no talk at all; the phrases-only table no text
    assert player_chat == {
        "mode": "free",
        "api": f"/api/games/{casual.code}/chat/",
        "seat": 1,
        "signed_in": True,
    }
    assert player.count("data-phrase=") == 5
    assert 'id="chat-text"' in player
    assert watcher_chat == {
        "mode": "free",
        "api": f"/api/games/{casual.code}/chat/",
        "seat": None,
        "signed_in": False,
    }
    assert 'id="chat-words"' in watcher
    assert "data-phrase=" not in watcher
    assert (quiet_chat, 'id="chat"' in quiet_page) == (None, False)
    assert phrases_chat is not None and phrases_chat["mode"] == "phrases"
    assert phrases_page.count("data-phrase=") == 5
    assert 'id="chat-text"' not in phrases_page
    assert (replay_chat, 'id="chat"' in replay) == (None, False)


# --- The replay ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_replay_of_a_duplicate_table_opens_only_once_its_whole_deal_set_has_finished(
    client: Client,
) -> None:
    # Given two tables dealt the same deals, the first played to its end, the second in play
    first_id, first_players = seated_game(3, "romanian-standard", options=SHORT, deal_set="d1")
    second_id, second_players = seated_game(3, "romanian-standard", options=SHORT, deal_set="d1")
    play_to_end(first_id, first_players)
    first = Game.objects.get(pk=first_id)

    # When a visitor opens the first table's replay
    refused = client.get(f"/games/{first.code}/?replay")

    # Then the page says why there is none, its script is given no replay, and no state
    # of it at a version is given either
    assert refused.status_code == 409
    assert (
        '<p id="refusal" class="notice" role="alert">Other tables still play the same deals: '
        "this table&#x27;s record is published once they have all finished.</p>"
    ) in refused.content.decode()
    assert table_config(refused)["replay"] is False
    # nor is a replay offered at its end
    assert 'id="end-replay"' not in refused.content.decode()
    assert table_config(refused)["replayable"] is False
    at = client.get(f"/api/games/{first.code}/?at=8")
    assert (at.status_code, at.json()["code"]) == (409, "deal_set_in_play")

    # When the second table finishes too
    play_to_end(second_id, second_players)

    # Then the replay opens
    opened = client.get(f"/games/{first.code}/?replay")
    assert opened.status_code == 200
    assert 'id="refusal"' not in opened.content.decode()
    assert table_config(opened)["replay"] is True
    assert 'id="end-replay"' in opened.content.decode()
    assert client.get(f"/api/games/{first.code}/?at=8").status_code == 200


@pytest.mark.django_db
def test_a_replay_of_a_game_in_play_is_refused_in_the_readers_language(client: Client) -> None:
    game_id, _ = seated_game(3, "romanian-standard", options=SHORT)
    code = Game.objects.get(pk=game_id).code

    response = client.get(f"/games/{code}/?replay", HTTP_ACCEPT_LANGUAGE="ro")

    assert response.status_code == 409
    assert table_config(response)["replay"] is False
    assert '<p id="refusal" class="notice" role="alert">' in response.content.decode()
    assert (
        "Înregistrarea completă a unui joc se publică după ce jocul s-a terminat."
        in response.content.decode()
    )
