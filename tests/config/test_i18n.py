"""The pages in Romanian: chosen from the browser's languages or the EN/RO switch."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from django.utils import translation

from accounts.models import User
from games.commands import actions
from runtime.api_errors import server_error
from runtime.error_text import error_texts


def _table_text(content: str) -> dict[str, object]:
    script = re.search(r'<script id="atu-table" type="application/json">(.*?)</script>', content)
    assert script is not None
    text: dict[str, object] = json.loads(script.group(1))["text"]
    return text


@pytest.mark.django_db
def test_lobby_is_in_romanian_when_the_browser_asks_for_it(client: Client) -> None:
    # given a browser that prefers Romanian
    # when it opens the lobby
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ro")

    # then the page is in Romanian and says so
    content = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Language"] == "ro"
    assert '<html lang="ro">' in content
    assert "<h1>Atu — campionate de whist românesc</h1>" in content
    assert "<h2>Deschide o masă</h2>" in content
    assert ">Intră în cont</a>" in content
    assert "Open a table" not in content


@pytest.mark.django_db
def test_lobby_is_in_english_when_the_browser_asks_for_no_romanian(client: Client) -> None:
    # given a browser that prefers English
    # when it opens the lobby
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")

    # then the page is in English
    content = response.content.decode()
    assert response["Content-Language"] == "en"
    assert '<html lang="en">' in content
    assert "<h2>Open a table</h2>" in content
    assert "Deschide o masă" not in content


@pytest.mark.django_db
def test_lobby_is_in_english_when_the_browser_names_no_language(client: Client) -> None:
    # given a browser that sends no Accept-Language
    # when it opens the lobby
    content = client.get("/").content.decode()

    # then the page is in English, the default
    assert '<html lang="en">' in content
    assert "<h2>Open a table</h2>" in content


@pytest.mark.django_db
def test_the_language_switch_serves_later_pages_in_romanian(client: Client) -> None:
    # given a visitor whose browser prefers English
    # when they choose RO on the switch
    response = client.post(
        "/i18n/setlang/", {"language": "ro", "next": "/"}, HTTP_ACCEPT_LANGUAGE="en"
    )

    # then they go back to the lobby, remembered in a cookie, and it is in Romanian
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.cookies["django_language"].value == "ro"
    content = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="ro">' in content
    assert "<h2>Deschide o masă</h2>" in content


@pytest.mark.django_db
def test_the_language_switch_marks_the_current_language(client: Client) -> None:
    # given a visitor reading in Romanian
    client.post("/i18n/setlang/", {"language": "ro", "next": "/"})

    # when they open the lobby
    content = client.get("/").content.decode()

    # then the RO button is the current one and EN is offered
    assert 'class="link current" type="submit" name="language" value="ro"' in content
    assert 'class="link" type="submit" name="language" value="en"' in content


@pytest.mark.django_db
def test_register_page_is_in_romanian(client: Client) -> None:
    # given a browser that prefers Romanian
    # when it opens the register page
    content = client.get("/accounts/register/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    # then the heading, the fields, the button and the link are in Romanian
    assert "<title>Înregistrează-te — Atu</title>" in content
    assert "<h1>Înregistrează-te</h1>" in content
    assert "Nume de utilizator:" in content
    assert "Confirmă parola:" in content
    assert '<button type="submit">Creează contul</button>' in content
    assert "Ai deja un cont?" in content
    assert "Create account" not in content


@pytest.mark.django_db
def test_register_page_reports_differing_passwords_in_romanian(client: Client) -> None:
    # given a browser that prefers Romanian
    # when a visitor registers with two different passwords
    response = client.post(
        "/accounts/register/",
        {
            "username": "ioana",
            "password": "correct-horse-battery",
            "password_again": "correct-horse-staple",
        },
        HTTP_ACCEPT_LANGUAGE="ro",
    )

    # then the form says so in Romanian
    assert response.status_code == 200
    assert "Cele două parole diferă." in response.content.decode()


@pytest.mark.django_db
def test_login_page_is_in_romanian(client: Client) -> None:
    # given a browser that prefers Romanian
    # when it opens the login page
    content = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    # then the heading, the button and the link to register are in Romanian
    assert "<title>Intră în cont — Atu</title>" in content
    assert "<h1>Intră în cont</h1>" in content
    assert '<button type="submit">Intră în cont</button>' in content
    assert "Nu ai încă un cont?" in content
    assert "No account yet?" not in content


@pytest.mark.django_db
def test_login_page_is_in_english_by_default(client: Client) -> None:
    # given a browser that names no language
    # when it opens the login page
    content = client.get("/accounts/login/").content.decode()

    # then it is in English
    assert "<h1>Sign in</h1>" in content
    assert "No account yet?" in content


@pytest.mark.django_db
def test_table_page_gives_its_script_romanian_words(client: Client, user: User) -> None:
    # given a table, and a browser that prefers Romanian
    game = actions.game_create(creator=user, player_count=4, preset="championship")

    # when it opens the table page
    response = client.get(f"/games/{game.code}/", HTTP_ACCEPT_LANGUAGE="ro")

    # then the page and the words its script shows are in Romanian
    content = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="ro">' in content
    assert f"<title>Masa {game.code} — Atu</title>" in content
    assert 'aria-label="Sunet și vibrație când e rândul tău"' in content
    text = _table_text(content)
    assert text["trump"] == "Atu"
    assert text["no_trump"] == "Fără atu"
    assert text["hand_of"] == "Împărțirea %(hand)s din %(total)s"
    assert text["tricks"] == "levate"
    assert text["modes"] == {"open": "la vedere", "forehead": "pe frunte", "blind": "pe orb"}
    assert text["title_turn"] == "● Rândul tău — Atu"
    assert text["bids_total"] == {
        "one": "Licitații: %(bids)s la %(cards)s carte",
        "few": "Licitații: %(bids)s la %(cards)s cărți",
        "other": "Licitații: %(bids)s la %(cards)s de cărți",
    }
    assert text["points_count"] == {
        "one": "%(points)s punct",
        "few": "%(points)s puncte",
        "other": "%(points)s de puncte",
    }
    assert text["trick_taken"] == "%(alias)s ia levata."
    assert text["bid_label"] == "Licitează %(bid)s"
    errors = text["errors"]
    assert isinstance(errors, dict)
    assert {
        code: errors[code]
        for code in ("must_follow_suit", "dealer_bid_forbidden", "not_authenticated", "table_full")
    } == {
        "must_follow_suit": "Trebuie să răspunzi la culoare.",
        "dealer_bid_forbidden": (
            "Cel care împarte nu poate face ca totalul licitațiilor să fie egal cu numărul "
            "de cărți împărțite."
        ),
        "not_authenticated": "Intră în cont ca să joci.",
        "table_full": "Toate locurile de la această masă sunt ocupate.",
    }
    # and the refusal the page words with the cards dealt, by their number
    assert text["counted_errors"]["dealer_bid_forbidden"]["one"] == (  # type: ignore[index]
        "Cel care împarte nu poate licita %(bid)s: licitațiile ar face împreună %(cards)s, "
        "cât cartea împărțită."
    )
    # and so has every error code (runtime.error_text), none left in English
    assert set(error_texts()) <= set(errors)


@pytest.mark.django_db
def test_table_page_gives_its_script_english_words_by_default(client: Client, user: User) -> None:
    # given a table, and a browser that names no language
    game = actions.game_create(creator=user, player_count=4, preset="championship")

    # when it opens the table page
    content = client.get(f"/games/{game.code}/").content.decode()

    # then the script's words are English
    text = _table_text(content)
    assert '<html lang="en">' in content
    assert text["trump"] == "Trump"
    assert text["errors"]["must_follow_suit"] == "You must follow suit."  # type: ignore[index]


def test_rules_page_is_in_romanian(client: Client) -> None:
    # given a browser that prefers Romanian
    # when it opens the rule presets
    content = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()

    # then the presets, their options and their deal counts are in Romanian
    assert '<html lang="ro">' in content
    assert "<h1>Variante de reguli</h1>" in content
    assert "<h2>Campionat</h2>" in content
    assert "<dd>fiecare jucător împarte o dată fiecare număr de cărți</dd>" in content
    assert "+10 pentru 5 licitații exacte la rând" in content
    assert "-10 pentru 5 licitații ratate la rând (împărțirile cu o carte nu se numără)" in content
    assert "1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 (32 de împărțiri)" in (
        content
    )
    assert "1 2 3 4 5 6 7 8 8 8 8 7 6 5 4 3 2 1 (18 împărțiri)" in content


@pytest.mark.django_db
def test_a_missing_page_is_told_in_romanian(client: Client) -> None:
    # given a browser that prefers Romanian
    # when it asks for an address that leads nowhere
    response = client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE="ro")

    # then the site's page says so in Romanian
    content = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="ro">' in content
    assert "<h1>Pagina nu există</h1>" in content
    assert "Înapoi la lobby" in content


def test_a_server_error_is_told_in_romanian_without_the_database() -> None:
    # given a Romanian reader's request that failed (no database access is allowed here)
    request = RequestFactory().get("/rules/")

    # when the server-error page is made for it
    with translation.override("ro"):
        response = server_error(request)

    # then it is the site's page, in Romanian, and has no form needing a session
    content = response.content.decode()
    assert response.status_code == 500
    assert '<html lang="ro">' in content
    assert "<h1>Ceva nu a mers bine</h1>" in content
    assert 'action="/i18n/setlang/"' not in content


def _messages_in(tree: Path) -> Path:
    """The Romanian catalogue of ``tree`` (a copy of the project) as makemessages
    leaves it once it has gathered every string the code and templates mark."""
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ro", "--no-obsolete", "--no-location"],
        cwd=tree,
        check=True,
        capture_output=True,
    )
    return tree / "locale" / "ro" / "LC_MESSAGES" / "django.po"


def _entries(po: Path, *flags: str) -> str:
    return subprocess.run(
        ["msgattrib", *flags, str(po)], check=True, capture_output=True, text=True
    ).stdout


def test_every_string_the_site_marks_for_translation_has_its_romanian_text(
    tmp_path: Path,
) -> None:
    # Given a copy of the project's source and its catalogue
    root = Path(__file__).resolve().parents[2]
    tree = tmp_path / "atu"
    tree.mkdir()
    kept = ("manage.py", "accounts", "config", "eventlog", "games", "tournaments", "locale")
    for name in kept:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, tree / name)

    # When every marked string is gathered into it
    po = _messages_in(tree)

    # Then none is left untranslated or only guessed at (fuzzy)
    assert _entries(po, "--untranslated", "--no-obsolete") == ""
    assert _entries(po, "--only-fuzzy", "--no-obsolete") == ""
