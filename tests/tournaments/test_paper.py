"""What the organizer prints for a round played in the room: the seating list, each
table's card (the scorer's QR code and PIN) and its score sheet, drawn for the
table's deals."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from purepix.image import Image
from purepix.qr import decode_text

from accounts.models import User
from games.read.pins import table_pin
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games
from tournaments import services
from tournaments.models import Event
from tournaments.services import load_championship

NAMES = ["Ștefan", "ana", "Bogdan", "Zoe", "Ion", "Maria", "Dan", "Elena"]
SHORT_CARDS = [1, 3, 5, 7, 8, 7, 5, 3, 1]


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    content: bytes = response.content
    return content.decode()


def room_round(
    names: list[str], *, place: str = "room", in_room: int | None = None, **options: Any
) -> tuple[Event, User]:
    """An event whose first round has started, its players named ``names`` and checked
    in (the first ``in_room`` of them in the room, at an event played both ways)."""
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Etapa Bucureşti",
        rounds=1,
        options=options.pop("rules", SHORT_RULES),
        place=place,
        **options,
    )
    for index, name in enumerate(names):
        player: User = UserFactory.create(display_name=name)
        services.event_register(event_id=event.id, actor=player)
        room = in_room is None or index < in_room
        services.event_check_in(event_id=event.id, actor=player, in_room=room)
    services.event_start_round(event_id=event.id, actor=creator)
    return Event.objects.get(pk=event.id), creator


def manage(event: Event, rest: str) -> str:
    return f"/events/{event.code}/manage/{rest}"


def seated(event: Event) -> list[list[str]]:
    """Each table of round 1, its players' names by seat, as the log seated them."""
    names = {entry.player_id: entry.name for entry in load_championship(event.id).entries.values()}
    played = load_championship(event.id).rounds[0]
    return [[names[player] for player in table] for table in played.tables]


def first_dealers(event: Event) -> list[int]:
    return [load_table(game.id).game.first_dealer for game in round_games(event.id, 1)]


def sheet_rows(content: str) -> list[tuple[int, int, str, str]]:
    """Each row of the score sheets: deal, cards, dealer, the bidding's reminder."""
    rows = re.findall(
        r'<tr data-deal="\d+"><td class="deal">(\d+)</td><td class="cards">(\d+)</td>'
        r'<td class="dealer">(.*?)</td><td class="reminder">(.*?)</td>',
        content,
    )
    return [
        (int(deal), int(cards), html.unescape(d), html.unescape(r)) for deal, cards, d, r in rows
    ]


def qr_text(svg: str) -> str:
    """What a QR code drawn by segno as an SVG path holds, read by a QR decoder: the
    path's runs of dark modules drawn into an image, module by module."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    dark: set[tuple[int, int]] = set()
    x = y = 0
    for command, first, second in re.findall(
        r"([Mmh])(-?\d+(?:\.\d+)?)(?: (-?\d+(?:\.\d+)?))?",
        re.search(r'<path stroke="#000" d="([^"]+)"', svg).group(1),  # type: ignore[union-attr]
    ):
        if command == "M":
            x, y = int(first), int(float(second))
        elif command == "m":
            x, y = x + int(first), y + int(float(second))
        else:
            dark.update((x + step, y) for step in range(int(first)))
            x += int(first)
    scale = 4
    image = Image("L", (size * scale, size * scale), bytes([255]) * (size * scale) ** 2)
    for column, row in dark:
        for dy in range(scale):
            start = (row * scale + dy) * size * scale + column * scale
            image.data[start : start + scale] = bytes(scale)
    return decode_text(image)


# --- Who may print --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_printouts_are_for_the_organizer_only(client: Client) -> None:
    # Given a round of an event in the room
    event, creator = room_round(NAMES[:4])
    code = round_games(event.id, 1)[0].code
    urls = [
        manage(event, "rounds/1/seating/"),
        manage(event, "rounds/1/cards/"),
        manage(event, "rounds/1/sheets/"),
        manage(event, f"tables/{code}/print/"),
    ]
    player = User.objects.get(display_name="ana")

    for url in urls:
        # Then its organizer has each; a player is refused, and a stranger is sent to sign in
        assert signed_in(creator).get(url).status_code == 200, url
        assert signed_in(player).get(url).status_code == 403, url
        assert signed_in(UserFactory.create()).get(url).status_code == 403, url
        assert client.get(url).status_code == 302, url


@pytest.mark.django_db
def test_a_private_events_printouts_do_not_exist_for_strangers() -> None:
    event, _ = room_round(NAMES[:4], public=False)

    response = signed_in(UserFactory.create()).get(manage(event, "rounds/1/seating/"))

    assert response.status_code == 404


@pytest.mark.django_db
def test_a_round_not_started_and_a_table_not_in_the_room_are_404() -> None:
    # Given an event played both ways: four in the room, three online
    event, creator = room_round(NAMES[:7], place="both", in_room=4)
    online = next(game for game in round_games(event.id, 1) if game.place == "online")
    organizer_client = signed_in(creator)

    assert organizer_client.get(manage(event, "rounds/2/seating/")).status_code == 404
    assert organizer_client.get(manage(event, "rounds/0/cards/")).status_code == 404
    assert organizer_client.get(manage(event, f"tables/{online.code}/print/")).status_code == 404
    assert organizer_client.get(manage(event, "tables/NOPE/print/")).status_code == 404


# --- The seating list -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_seating_list_lists_every_player_once_by_table_and_by_name() -> None:
    # Given a round of eight players in the room, at two tables
    event, creator = room_round(NAMES)
    tables, dealers = seated(event), first_dealers(event)

    # When its organizer opens the seating list
    content = page(signed_in(creator), manage(event, "rounds/1/seating/"))

    # Then each table lists its seats in order, in the room, with its first dealer
    shown = re.findall(
        r'<section class="seating-table" data-table="(\d+)" data-place="(\w+)">(.*?)</section>',
        content,
        re.S,
    )
    assert [(int(number), place) for number, place, _ in shown] == [(1, "room"), (2, "room")]
    for (_, _, block), names, dealer in zip(shown, tables, dealers, strict=True):
        seats = re.findall(
            r'<li data-seat="(\d+)">.*?<span class="name">(.*?)</span>(.*?)</li>', block, re.S
        )
        assert [(int(seat), html.unescape(name)) for seat, name, _ in seats] == [
            (seat + 1, name) for seat, name in enumerate(names)
        ]
        assert [seat for seat, _, rest in seats if "deals first" in rest] == [str(dealer + 1)]

    # And by name, alphabetically (Ștefan among the S), each with their table and seat
    by_name = re.findall(
        r'<tr data-table="(\d+)" data-seat="(\d+)"><td class="name">(.*?)</td>', content
    )
    where = {
        name: (table + 1, seat + 1)
        for table, names in enumerate(tables)
        for seat, name in enumerate(names)
    }
    expected = ["ana", "Bogdan", "Dan", "Elena", "Ion", "Maria", "Ștefan", "Zoe"]
    assert [(html.unescape(name), int(t), int(s)) for t, s, name in by_name] == [
        (name, *where[name]) for name in expected
    ]


@pytest.mark.django_db
def test_the_seating_list_of_an_event_played_both_ways_says_where_each_table_plays() -> None:
    event, creator = room_round(NAMES[:7], place="both", in_room=4)
    places = {game.place: index + 1 for index, game in enumerate(round_games(event.id, 1))}

    content = page(signed_in(creator), manage(event, "rounds/1/seating/"))

    shown = re.findall(r'data-table="(\d+)" data-place="(\w+)"', content)
    assert sorted((int(number), place) for number, place in shown) == sorted(
        (number, place) for place, number in places.items()
    )
    assert content.count("<td>in the room</td>") == 4
    assert content.count("<td>online</td>") == 3


# --- The table card -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_card_holds_its_pin_and_a_qr_code_of_its_scorer_page() -> None:
    # Given a round of four in the room
    event, creator = room_round(NAMES[:4])
    (game,) = round_games(event.id, 1)
    pin = table_pin(game.id)

    # When its organizer prints the table cards
    content = page(signed_in(creator), manage(event, "rounds/1/cards/"))

    # Then the one card prints the table's PIN, and its QR code opens the scorer with it
    (card,) = re.findall(r'<section class="page table-card".*?</section>', content, re.S)
    assert f'<span class="digits">{pin}</span>' in card
    (svg,) = re.findall(r'<svg viewBox="[^"]*" class="qr">.*?</svg>', card, re.S)
    assert qr_text(svg) == f"http://testserver/games/{game.code}/score/?pin={pin}"
    # And says how to open it without the QR code
    assert (
        f"Without the QR code: open http://testserver/games/{game.code}/score/ "
        f"(table {game.code}) and enter the PIN {pin}."
    ) in card
    names = re.findall(r'<span class="name">(.*?)</span>', card)
    assert [html.unescape(name) for name in names] == seated(event)[0]
    assert "Table 1" in card and "Round 1" in card and "Etapa Bucureşti" in card


@pytest.mark.django_db
def test_only_the_tables_in_the_room_have_cards_and_sheets() -> None:
    # Given an event played both ways: a table in the room and one online
    event, creator = room_round(NAMES[:7], place="both", in_room=4)
    room = next(game for game in round_games(event.id, 1) if game.place == "room")
    client = signed_in(creator)

    cards = page(client, manage(event, "rounds/1/cards/"))
    sheets = page(client, manage(event, "rounds/1/sheets/"))

    assert re.findall(r'<section class="page table-card" data-game="(\w+)"', cards) == [room.code]
    assert re.findall(r'<section class="page score-sheet" data-game="(\w+)"', sheets) == [room.code]
    assert "score-sheet" not in cards and "table-card" not in sheets


@pytest.mark.django_db
def test_a_round_online_has_no_card_to_print_and_says_so() -> None:
    event, creator = room_round(NAMES[:4], place="online")

    content = page(signed_in(creator), manage(event, "rounds/1/cards/"))

    assert "No table of this round is played in the room." in content
    assert "table-card" not in content


# --- The score sheet ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_score_sheet_has_a_row_per_deal_with_its_cards_dealer_and_forbidden_bid() -> None:
    # Given a table of four in the room playing the nine short deals
    event, creator = room_round(NAMES[:4])
    (names,), (first,) = seated(event), first_dealers(event)

    # When its organizer prints the score sheets
    content = page(signed_in(creator), manage(event, "rounds/1/sheets/"))

    # Then the sheet has one row per deal: its cards, its dealer by the rotation from
    # the first dealer, and what the dealer may not bid
    assert sheet_rows(content) == [
        (deal + 1, cards, names[(first + deal) % 4], f"dealer: not {cards} - (sum of bids)")
        for deal, cards in enumerate(SHORT_CARDS)
    ]
    # And four columns to fill in per player, on a portrait page
    assert content.count('<th scope="col" class="bid">Bid</th>') == 4
    assert content.count('<td class="bid"></td>') == 4 * 9
    assert 'class="page score-sheet"' in content
    assert (
        "A bid made exactly scores 5 + the bid; a missed bid loses 1 point per trick of difference."
        in content
    )
    assert "No streak bonus or penalty." in content


@pytest.mark.django_db
def test_forced_bids_blind_deals_and_streaks_are_written_on_the_sheet() -> None:
    # Given a table of five whose one-card deals are blind, closing with a zero-bid and
    # an eight-bid deal, with a streak bonus and penalty
    rules = {
        **SHORT_RULES,
        "one_card_mode": "blind",
        "special_hands": ["zero-bid", "eight-bid"],
        "streak_bonus": {"length": 5, "points": 10},
        "streak_penalty": {"length": 5, "points": -10},
        "streaks_count_one_card_deals": False,
    }
    event, creator = room_round(NAMES[:5], rules=rules)

    content = page(signed_in(creator), manage(event, "rounds/1/sheets/"))

    # Then each deal says how it is bid
    reminders = [reminder for _, _, _, reminder in sheet_rows(content)]
    assert reminders == [
        "blind · dealer: not 1 - (sum of bids)",
        *(f"dealer: not {cards} - (sum of bids)" for cards in SHORT_CARDS[1:-1]),
        "blind · dealer: not 1 - (sum of bids)",
        "all bid 0",
        "all bid 8",
    ]
    # And the streaks in words, on a page across (five players)
    assert "+10 for 5 exact bids in a row" in content
    assert "-10 for 5 missed bids in a row" in content
    assert "(one-card deals not counted)" in content
    assert 'class="page score-sheet wide"' in content


@pytest.mark.django_db
def test_one_tables_printout_is_its_card_and_its_sheet() -> None:
    # Given a round of eight in the room, at two tables
    event, creator = room_round(NAMES)
    second = round_games(event.id, 1)[1]

    content = page(signed_in(creator), manage(event, f"tables/{second.code}/print/"))

    assert re.findall(r'<section class="page [\w -]+" data-game="(\w+)"', content) == [
        second.code,
        second.code,
    ]
    assert f'<span class="digits">{table_pin(second.id)}</span>' in content
    assert len(sheet_rows(content)) == 9


# --- The manage page ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_manage_page_links_the_rounds_printouts_and_each_table_in_the_room() -> None:
    event, creator = room_round(NAMES[:7], place="both", in_room=4)
    room = next(game for game in round_games(event.id, 1) if game.place == "room")

    content = page(signed_in(creator), manage(event, ""))

    (section,) = re.findall(r'<section class="panel" id="print-round">.*?</section>', content, re.S)
    links = re.findall(r'<a href="([^"]+)">', section)
    assert links == [
        manage(event, "rounds/1/seating/"),
        manage(event, "rounds/1/cards/"),
        manage(event, "rounds/1/sheets/"),
        manage(event, f"tables/{room.code}/print/"),
    ]


@pytest.mark.django_db
def test_before_the_first_round_the_manage_page_has_nothing_to_print() -> None:
    creator = organizer()
    event = services.event_create(organizer=creator, name="Etapa", options=SHORT_RULES)

    content = page(signed_in(creator), manage(event, ""))

    assert 'id="print-round"' not in content


@pytest.mark.django_db
def test_the_score_sheet_and_the_card_are_in_romanian_for_a_romanian_reader() -> None:
    event, creator = room_round(NAMES[:4])
    client = signed_in(creator)
    (game,) = round_games(event.id, 1)

    content = client.get(
        manage(event, f"tables/{game.code}/print/"), HTTP_ACCEPT_LANGUAGE="ro"
    ).content.decode()

    assert [reminder for _, _, _, reminder in sheet_rows(content)][:2] == [
        "cel care împarte: nu 1 - (suma licitațiilor)",
        "cel care împarte: nu 3 - (suma licitațiilor)",
    ]
    assert "O licitație făcută exact aduce 5 + licitația" in content
    assert "Fără codul QR: deschide http://testserver/games/" in content
    assert "împarte primul" in content
