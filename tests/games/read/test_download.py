import hashlib
import json
import struct
import uuid
from collections import Counter
from dataclasses import replace

import pytest
from django.db import transaction

from accounts.models import User
from eventlog.store import append, read
from games.commands import actions
from games.errors import GameNotFound, RecordNotReady
from games.models import Game
from games.read.download import dump_record, game_record, record_filename
from games.rules import parse_card
from games.table import GameCreated, stream_of
from games.write.projection import rebuild_game_projections
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end, seated_game
from tests.games.rules.classic.test_engine import documented_deal as documented_classic_deal
from tests.tournaments.drivers import played_drive_table

pytestmark = pytest.mark.django_db

# 1, 3, 5, 7, 8, 7, 5, 3, 1 cards: a whole game in nine deals.
SHORT = {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False}


def payloads(game_id: uuid.UUID, kind: str) -> list[dict]:
    return [record.payload for record in read(stream_of(game_id)) if record.type == kind]


@pytest.fixture
def finished() -> uuid.UUID:
    options = {
        **SHORT,
        "one_card_mode": "dealer-choice",
        "special_hands": ["zero-bid"],
        "zero_play": "ten-before-end",
    }
    game_id, users = seated_game(4, "romanian-standard", options)
    actions.game_announce_zero_play(game_id=game_id, actor=users[2])
    play_to_end(game_id, users, seed=11)
    return game_id


def test_the_record_names_the_game_its_rules_players_seed_and_first_dealer(finished) -> None:
    [created] = payloads(finished, "GameCreated")
    [committed] = payloads(finished, "DealsCommitted")
    [started] = payloads(finished, "GameStarted")
    records = read(stream_of(finished))

    record = game_record(finished)

    assert record["format"] == "atu-game-record/1"
    assert record["id"] == str(finished)
    assert record["code"] == created["code"]
    assert record["kind"] == "romanian"
    assert record["preset"] == "romanian-standard"
    assert record["options"] == created["options"]
    assert record["options"]["one_card_mode"] == "dealer-choice"
    assert record["player_count"] == 4
    assert record["players"] == [{"seat": seat, "alias": f"Player {seat + 1}"} for seat in range(4)]
    assert record["seed"] == committed["seed"]
    assert record["first_dealer"] == started["first_dealer"]
    assert record["commitments"] == committed["commitments"]
    assert record["version"] == len(records)
    assert record["created_at"] == records[0].recorded_at.isoformat()
    assert record["finished_at"] == records[-1].recorded_at.isoformat()


def test_each_deal_of_the_record_is_the_deal_of_the_log(finished) -> None:
    dealt = payloads(finished, "HandDealt")
    [committed] = payloads(finished, "DealsCommitted")
    revealed = payloads(finished, "DealRevealed")
    chosen = {choice["hand"]: choice["seat"] for choice in payloads(finished, "OneCardModeChosen")}

    deals = game_record(finished)["deals"]

    assert [deal["hand"] for deal in deals] == list(range(10))
    assert [deal["cards"] for deal in deals] == [1, 3, 5, 7, 8, 7, 5, 3, 1, 8]
    assert [deal["special"] for deal in deals] == [None] * 9 + ["zero-bid"]
    for deal, event in zip(deals, dealt, strict=True):
        assert deal["dealer"] == event["dealer"]
        assert deal["hands"] == event["hands"]
        assert deal["trump_card"] == event["trump_card"]
        assert deal["visibility"] == event["visibility"]
        assert deal["visibility_chosen_by"] == chosen.get(deal["hand"])
    assert sorted(chosen) == [0, 8]
    assert [deal["commitment"] for deal in deals] == committed["commitments"]
    assert [deal["secret"] for deal in deals] == [event["secret"] for event in revealed]


def test_the_record_lists_every_bid_in_order_with_the_forced_ones(finished) -> None:
    bids = payloads(finished, "BidPlaced")

    deals = game_record(finished)["deals"]

    assert [(deal["hand"], bid) for deal in deals for bid in deal["bids"]] == [
        (bid["hand"], {"seat": bid["seat"], "bid": bid["bid"], "forced": bid["forced"]})
        for bid in bids
    ]
    assert deals[-1]["bids"] == [
        {"seat": (deals[-1]["dealer"] + 1 + i) % 4, "bid": 0, "forced": True} for i in range(4)
    ]


def test_every_card_of_each_hand_is_played_exactly_once_in_its_tricks(finished) -> None:
    deals = game_record(finished)["deals"]

    for deal in deals:
        played = Counter(
            (play["seat"], play["card"]) for trick in deal["tricks"] for play in trick["cards"]
        )
        dealt = Counter((seat, card) for seat, cards in enumerate(deal["hands"]) for card in cards)
        assert played == dealt
        assert [trick["trick"] for trick in deal["tricks"]] == list(range(deal["cards"]))
        for trick in deal["tricks"]:
            assert trick["cards"][0]["seat"] == trick["leader"]
        leaders = [trick["leader"] for trick in deal["tricks"]]
        winners = [trick["winner"] for trick in deal["tricks"]]
        assert leaders == [(deal["dealer"] + 1) % 4, *winners[:-1]]
        assert deal["tricks_taken"] == [winners.count(seat) for seat in range(4)]


def test_the_record_carries_each_tricks_cards_in_play_order(finished) -> None:
    taken = payloads(finished, "TrickTaken")

    deals = game_record(finished)["deals"]

    assert [
        (
            deal["hand"],
            trick["trick"],
            trick["leader"],
            [p["card"] for p in trick["cards"]],
            trick["winner"],
        )
        for deal in deals
        for trick in deal["tricks"]
    ] == [
        (event["hand"], event["trick"], event["leader"], event["cards"], event["winner"])
        for event in taken
    ]


def test_the_records_points_streaks_and_totals_are_those_of_the_scored_hands(finished) -> None:
    scored = payloads(finished, "HandScored")

    deals = game_record(finished)["deals"]

    assert [
        (deal["tricks_taken"], deal["points"], deal["streak_points"], deal["totals"])
        for deal in deals
    ] == [
        (event["tricks"], event["points"], event["streak_points"], event["totals"])
        for event in scored
    ]


def test_the_record_ends_with_the_final_scores_places_zero_play_and_winners(finished) -> None:
    [final] = payloads(finished, "GameFinished")

    record = game_record(finished)

    assert record["scores"] == final["scores"] == record["deals"][-1]["totals"]
    assert record["places"] == final["places"]
    assert record["zero_play"] == [{"seat": 2, "hands_dealt": 0}]
    assert record["zero_play_winners"] == final["zero_play_winners"]
    assert record["winners"] == [seat for seat, place in enumerate(final["places"]) if place == 1]
    assert record["winners"]


def test_every_card_of_the_record_is_in_the_compact_notation(finished) -> None:
    deals = game_record(finished)["deals"]

    cards = [card for deal in deals for hand in deal["hands"] for card in hand]
    cards += [deal["trump_card"] for deal in deals if deal["trump_card"] is not None]
    assert cards
    assert all(str(parse_card(card)) == card for card in cards)
    assert any(card.startswith("10") for card in cards)


def _documented_deal(secret: bytes, players: int, dealer: int, cards: int):
    """The README's "Checking a deal", written out from its text alone."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    kept = ranks[len(ranks) - 2 * players :]
    deck = [rank + suit for suit in "CDHS" for rank in kept]
    numbers: list[int] = []
    counter = 0

    def below(m: int) -> int:
        nonlocal counter
        while True:
            if not numbers:
                block = hashlib.sha256(secret + counter.to_bytes(8, "big")).digest()
                numbers.extend(struct.unpack(">8I", block))
                counter += 1
            x = numbers.pop(0)
            if x < 2**32 - (2**32 % m):
                return x % m

    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * cards):
        hands[(dealer + 1 + i) % players].append(deck[i])
    trump = deck[players * cards] if players * cards < len(deck) else None
    return hands, trump


def test_a_player_can_check_every_deal_of_the_record_from_its_secret_alone(finished) -> None:
    record = json.loads(dump_record(game_record(finished)))

    for deal in record["deals"]:
        secret = bytes.fromhex(deal["secret"])
        hands, trump = _documented_deal(secret, 4, deal["dealer"], deal["cards"])
        assert hashlib.sha256(secret).hexdigest() == deal["commitment"]
        assert [sorted(hand) for hand in hands] == [sorted(hand) for hand in deal["hands"]]
        assert trump == deal["trump_card"]


def test_the_record_is_built_from_the_log_even_without_the_read_model(finished) -> None:
    before = game_record(finished)
    Game.objects.filter(pk=finished).delete()

    assert game_record(finished) == before


def test_a_game_in_play_has_no_record_yet() -> None:
    game_id, _ = seated_game(3, "romanian-standard", SHORT)

    with pytest.raises(RecordNotReady):
        game_record(game_id)


def test_an_open_table_has_no_record_yet(user) -> None:
    game = actions.game_create(creator=user, player_count=3, preset="championship")

    with pytest.raises(RecordNotReady):
        game_record(game.id)


def test_an_unknown_game_has_no_record() -> None:
    with pytest.raises(GameNotFound):
        game_record(uuid.uuid4())


def test_the_record_file_is_named_after_the_share_code() -> None:
    assert record_filename("K7QX2M") == "atu-game-K7QX2M.json"


def test_the_dumped_record_is_indented_json_that_reads_back_as_the_record(finished) -> None:
    record = game_record(finished)

    text = dump_record(record)

    assert json.loads(text) == record
    assert text.startswith('{\n  "format": "atu-game-record/1",\n  "id": ')
    assert text.endswith("}\n")


def test_the_record_names_only_the_players_who_kept_their_seats() -> None:
    creator, leaver = UserFactory.create_batch(2)
    game = actions.game_create(
        creator=creator, player_count=3, preset="romanian-standard", options=SHORT
    )
    actions.game_join(game_id=game.id, user=creator, alias="Ana")
    actions.game_join(game_id=game.id, user=leaver, alias="Ion")
    actions.game_leave(game_id=game.id, actor=leaver)
    actions.game_fill_with_bots(game_id=game.id, actor=creator, level="easy")
    seated = [seat["user_id"] for seat in Game.objects.get(pk=game.id).seats]
    play_to_end(game.id, list(User.objects.filter(pk__in=seated)), seed=5)

    assert game_record(game.id)["players"] == [
        {"seat": 0, "alias": "Ana"},
        {"seat": 1, "alias": "Ana 2"},
        {"seat": 2, "alias": "Bogdan"},
    ]


# --- Classic Whist ---------------------------------------------------------------------


@pytest.fixture
def rubber() -> uuid.UUID:
    """A British rubber (best of three games to 5, honours, the dealer's last card
    turned for trump) played to its end."""
    game_id, users = seated_game(kind="classic", preset="british")
    play_to_end(game_id, users, seed=1)
    return game_id


def classic_payloads(game_id: uuid.UUID, kind: str) -> list[dict]:
    return payloads(game_id, f"classic.{kind}")


def test_a_classic_record_names_the_game_its_rules_players_seed_and_first_dealer(rubber) -> None:
    [created] = payloads(rubber, "GameCreated")
    [committed] = payloads(rubber, "DealsCommitted")
    [started] = classic_payloads(rubber, "MatchStarted")
    records = read(stream_of(rubber))

    record = game_record(rubber)

    assert record["format"] == "atu-classic-record/1"
    assert (record["id"], record["code"], record["kind"]) == (
        str(rubber),
        created["code"],
        "classic",
    )
    assert record["preset"] == "british"
    assert (
        record["options"]
        == created["options"]
        == {
            "trumps": "turned",
            "no_trump_every_fifth": False,
            "honours": True,
            "target": 5,
            "rubber": True,
            "deals": None,
        }
    )
    assert record["player_count"] == 4
    assert record["players"] == [{"seat": seat, "alias": f"Player {seat + 1}"} for seat in range(4)]
    assert record["seed"] == committed["seed"]
    assert record["first_dealer"] == started["first_dealer"]
    # A rubber to 5 commits to as many deals as it could take: three games of nine.
    assert record["commitments"] == committed["commitments"]
    assert len(record["commitments"]) == 27
    assert record["version"] == len(records)
    assert record["finished_at"] == records[-1].recorded_at.isoformat()


def test_each_deal_of_a_classic_record_is_the_deal_of_the_log_with_its_tricks_and_scores(
    rubber,
) -> None:
    dealt = classic_payloads(rubber, "HandDealt")
    taken = payloads(rubber, "TrickTaken")
    scored = classic_payloads(rubber, "HandScored")
    revealed = payloads(rubber, "DealRevealed")
    [committed] = payloads(rubber, "DealsCommitted")

    deals = game_record(rubber)["deals"]

    assert [deal["hand"] for deal in deals] == list(range(len(dealt)))
    assert len(deals) >= 2
    for deal, event in zip(deals, dealt, strict=True):
        assert (deal["dealer"], deal["hands"]) == (event["dealer"], event["hands"])
        assert (deal["trump"], deal["trump_card"]) == (event["trump"], event["trump_card"])
        assert deal["trump_card"][-1] == deal["trump"]
        assert deal["trump_card"] in deal["hands"][deal["dealer"]]
    assert [
        (deal["hand"], t["trick"], t["leader"], [p["card"] for p in t["cards"]], t["winner"])
        for deal in deals
        for t in deal["tricks"]
    ] == [(e["hand"], e["trick"], e["leader"], e["cards"], e["winner"]) for e in taken]
    assert [
        [
            deal[key]
            for key in ("tricks_taken", "trick_points", "honours", "honour_points", "totals")
        ]
        for deal in deals
    ] == [
        [event[key] for key in ("tricks", "trick_points", "honours", "honour_points", "totals")]
        for event in scored
    ]
    assert [deal["commitment"] for deal in deals] == committed["commitments"][: len(deals)]
    assert [deal["secret"] for deal in deals] == [event["secret"] for event in revealed]


def test_every_card_of_a_classic_deal_is_played_once_by_its_holder_in_turn(rubber) -> None:
    for deal in game_record(rubber)["deals"]:
        played = Counter(
            (play["seat"], play["card"]) for trick in deal["tricks"] for play in trick["cards"]
        )
        held = Counter((seat, card) for seat, cards in enumerate(deal["hands"]) for card in cards)
        assert played == held
        assert len(held) == 52
        winners = [trick["winner"] for trick in deal["tricks"]]
        assert [trick["leader"] for trick in deal["tricks"]] == [
            (deal["dealer"] + 1) % 4,
            *winners[:-1],
        ]
        assert deal["tricks_taken"] == [sum(w % 2 == side for w in winners) for side in (0, 1)]


def test_a_classic_record_ends_with_each_game_won_the_winning_side_and_seats_points(
    rubber,
) -> None:
    won = classic_payloads(rubber, "GameWon")
    [final] = classic_payloads(rubber, "MatchFinished")
    # Each deal is played in the game of the rubber that the games won before it make.
    games_before, games = [], 0
    for logged in read(stream_of(rubber)):
        if logged.type == "classic.GameWon":
            games += 1
        elif logged.type == "classic.HandDealt":
            games_before.append(games)

    record = game_record(rubber)

    assert record["games"] == [
        {"game": e["game"], "side": e["side"], "scores": e["scores"], "games_won": e["games"]}
        for e in won
    ]
    assert [deal["game"] for deal in record["deals"]] == games_before
    assert games_before[-1] == len(won) - 1 >= 1
    assert (record["winner"], record["games_won"], record["points"]) == (
        final["winner"],
        final["games"],
        final["points"],
    )
    winner = record["winner"]
    assert record["games_won"][winner] == 2
    a, b = final["points"]
    assert record["scores"] == [a, b, a, b]
    assert record["places"] == [1 if seat % 2 == winner else 2 for seat in range(4)]
    assert record["winners"] == [winner, winner + 2]


def test_a_player_can_check_every_classic_deal_of_the_record_from_its_secret_alone(
    rubber,
) -> None:
    record = json.loads(dump_record(game_record(rubber)))

    for deal in record["deals"]:
        secret = bytes.fromhex(deal["secret"])
        hands, turned = documented_classic_deal(secret, deal["dealer"])
        assert hashlib.sha256(secret).hexdigest() == deal["commitment"]
        assert [sorted(hand) for hand in hands] == [sorted(hand) for hand in deal["hands"]]
        assert turned == deal["trump_card"]


def test_a_whist_drive_tables_record_has_its_fixed_deals_and_rotating_trumps() -> None:
    # Given a whist drive's table of five deals played to its end
    game_id = played_drive_table(deals=5)

    record = game_record(game_id)

    # Then its record is classic Whist's: five deals, trumps rotating hearts, diamonds,
    # spades, clubs and none, no card turned, each deal checkable from its secret
    assert (record["kind"], record["preset"], record["options"]["deals"]) == (
        "classic",
        "whist-drive",
        5,
    )
    assert [deal["trump"] for deal in record["deals"]] == ["H", "D", "S", "C", None]
    assert [deal["trump_card"] for deal in record["deals"]] == [None] * 5
    assert len(record["commitments"]) == 5
    for deal in record["deals"]:
        hands, _ = documented_classic_deal(bytes.fromhex(deal["secret"]), deal["dealer"])
        assert [sorted(hand) for hand in hands] == [sorted(hand) for hand in deal["hands"]]
    assert record["games"] == []
    assert record["scores"] == [record["points"][seat % 2] for seat in range(4)]


def uncommitted_copy(game_id: uuid.UUID) -> uuid.UUID:
    """A new game holding ``game_id``'s log without its commitments and secrets, as a
    game logged before its deals were committed to would be."""
    copy = uuid.uuid4()
    created, *events = [
        record.event
        for record in read(stream_of(game_id))
        if record.type not in ("DealsCommitted", "DealRevealed")
    ]
    assert isinstance(created, GameCreated)
    # Under a code of its own (a code names one game), one no table is given: no O.
    events = [replace(created, code="OLDLOG"), *events]
    with transaction.atomic():
        append(stream_of(copy), 0, events, None)
    return copy


def test_a_classic_game_logged_without_commitments_loads_and_its_record_says_it_has_none(
    rubber,
) -> None:
    # Given a finished classic game whose log commits to no deal and reveals no secret
    old = uncommitted_copy(rubber)

    # When it is replayed, listed and its record read
    table = load_table(old)
    rebuild_game_projections()
    record = game_record(old)

    # Then it stands as the game it was, and its record names no seed, commitment or
    # secret rather than failing, its play whole
    assert (table.status, table.game.hand) == ("finished", len(record["deals"]))
    assert Game.objects.get(pk=old).status == Game.Status.FINISHED
    assert record["seed"] is None
    assert record["commitments"] == []
    assert {(deal["commitment"], deal["secret"]) for deal in record["deals"]} == {(None, None)}
    played = game_record(rubber)
    assert [deal["hands"] for deal in record["deals"]] == [
        deal["hands"] for deal in played["deals"]
    ]
    assert record["scores"] == played["scores"]
