import hashlib
import json
import random
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from django.db import transaction

from eventlog.store import Recorded, append, read
from games import rules
from games.commands import actions
from games.errors import GameNotFound
from games.read.verification import Problem, verify_game, verify_records, verify_stream
from games.rules import (
    BidPlaced,
    CardPlayed,
    DealConfirmed,
    DealCorrected,
    DealRecorded,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    Phase,
    TimeCalled,
    TrickTaken,
    Visibility,
    classic,
    to_payload,
)
from games.rules.bidding import allowed_bids, forbidden_bid
from games.rules.errors import (
    BidOutOfRange,
    ConfirmedByAnother,
    DealerBidForbidden,
    InvalidCard,
    NotYourTurn,
    RecordedTable,
    RuleError,
    TimeAlreadyCalled,
    TricksDoNotAddUp,
)
from games.rules.shuffle import commitment
from games.table import (
    AnyEvent,
    DealRevealed,
    DealsCommitted,
    SeatHandedOver,
    stream_of,
)
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move, play_to_end, seated_game
from tests.games.read.test_download import uncommitted_copy
from tests.tournaments.drivers import played_drive_table

pytestmark = pytest.mark.django_db

# 1, 3, 5, 7, 8, 7, 5, 3, 1 cards: a whole game in nine deals.
SHORT = {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False}


def finished_game(players: int = 3, preset: str = "romanian-standard", options=SHORT):
    game_id, users = seated_game(players, preset, options)
    play_to_end(game_id, users, seed=7)
    return game_id, read(stream_of(game_id))


def tampered_copy(
    records: list[Recorded], change: Callable[[Recorded, AnyEvent], AnyEvent]
) -> tuple[str, list[Recorded]]:
    """A new stream holding every event of ``records``, each passed through ``change``
    (the log itself refuses to be altered)."""
    stream = f"test:tampered-{uuid.uuid4()}"
    with transaction.atomic():
        append(stream, 0, [change(record, record.event) for record in records], None)
    return stream, read(stream)


def sequence_of(records: list[Recorded], kind: type, **fields: object) -> int:
    """The sequence of the first event of ``kind`` with these field values."""
    return next(
        record.sequence
        for record in records
        if isinstance(event := record.event, kind)
        and all(getattr(event, name) == value for name, value in fields.items())
    )


def where(report) -> list[tuple[str, int | None, int | None]]:
    return [(problem.check, problem.sequence, problem.hand) for problem in report.problems]


def counts_from(records: list[Recorded]) -> dict[str, int]:
    """What a whole sound log's report counts: each event the rules decide, of either
    game (classic Whist's own stored under their prefix)."""
    types = Counter(record.type.removeprefix("classic.") for record in records)
    counts = {
        "events": len(records),
        "secrets": types["DealRevealed"],
        "first dealer": types["GameStarted"] + types["MatchStarted"],
        "one-card mode choices": types["OneCardModeChosen"],
        "deals": types["HandDealt"],
        "bids": types["BidPlaced"],
        "card plays": types["CardPlayed"],
        "tricks": types["TrickTaken"],
        "hand scores": types["HandScored"],
        "zero-play announcements": types["ZeroPlayAnnounced"],
        "recorded deals": types["DealRecorded"],
        "corrections": types["DealCorrected"],
        "confirmations": types["DealConfirmed"],
        "time call": types["TimeCalled"],
        "games won": types["GameWon"],
        "final ranking": types["GameFinished"] + types["MatchFinished"],
    }
    return {label: count for label, count in counts.items() if count}


def listed(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


@pytest.mark.parametrize(
    ("players", "preset", "options"),
    [
        (4, "championship", None),
        (3, "classic-app", None),
        (4, "online-room", None),
        (
            5,
            "romanian-standard",
            {
                "one_card_mode": "dealer-choice",
                "special_hands": ["blind-bid", "zero-bid", "eight-bid"],
                "zero_play": "ten-before-end",
            },
        ),
    ],
)
def test_verify_game_passes_a_whole_game_and_counts_every_check(players, preset, options) -> None:
    game_id, users = seated_game(players, preset, options)
    if options and options.get("zero_play"):
        actions.game_announce_zero_play(game_id=game_id, actor=users[1])
    play_to_end(game_id, users, seed=players)
    records = read(stream_of(game_id))

    report = verify_game(game_id)

    assert report.problems == []
    assert report.ok
    assert report.pending == []
    assert report.status == "finished"
    assert report.version == len(records)
    assert report.checked == counts_from(records)
    assert report.lines()[-1] == "OK: every check passed"


def test_the_dealer_choice_game_checks_each_mode_choice_and_the_forced_bids() -> None:
    options = {"one_card_mode": "dealer-choice", "special_hands": ["zero-bid", "eight-bid"]}
    game_id, users = seated_game(3, "romanian-standard", {**SHORT, **options})
    play_to_end(game_id, users, seed=3)
    records = read(stream_of(game_id))

    report = verify_game(game_id)

    assert report.ok
    assert report.checked["one-card mode choices"] == 2
    assert sum(record.type == "BidPlaced" and record.payload["forced"] for record in records) == 6
    assert report.checked["bids"] == sum(record.type == "BidPlaced" for record in records)


def test_zero_play_announced_on_joining_is_checked_like_any_announcement() -> None:
    users = UserFactory.create_batch(3)
    game = actions.game_create(
        creator=users[0],
        player_count=3,
        preset="romanian-standard",
        options={**SHORT, "zero_play": "start"},
    )
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"P{number}", zero_play=number == 2)
    play_to_end(game.id, users, seed=5)

    report = verify_game(game.id)

    assert report.ok
    assert report.checked["zero-play announcements"] == 1


def test_a_game_in_play_is_verified_up_to_its_last_revealed_deal() -> None:
    game_id, users = seated_game(3, "romanian-standard", SHORT)
    rng = random.Random(5)
    while load_table(game_id).game.hand < 2:
        next_move(game_id, users, rng)

    report = verify_game(game_id)

    assert report.ok
    assert report.status == "playing"
    assert load_table(game_id).game.phase is Phase.BIDDING
    assert report.pending == [2]
    assert report.checked["secrets"] == 2
    assert report.checked["deals"] == 2
    assert "pending: hand 2 (secret not revealed yet)" in report.lines()


def test_an_unknown_game_cannot_be_verified() -> None:
    with pytest.raises(GameNotFound):
        verify_game(uuid.uuid4())


def test_an_untouched_copy_of_a_game_verifies_like_the_game() -> None:
    _, records = finished_game()

    stream, _ = tampered_copy(records, lambda record, event: event)

    report = verify_stream(stream)
    assert report.ok
    assert report.checked == counts_from(records)


def test_a_changed_card_in_a_deal_fails_against_the_deal_from_its_secret() -> None:
    _, records = finished_game()
    dealt = next(r.event for r in records if isinstance(r.event, HandDealt))
    first, second, *rest = dealt.hands
    swapped = replace(dealt, hands=(second, first, *rest))

    stream, copy = tampered_copy(records, lambda r, e: swapped if e == dealt else e)

    report = verify_stream(stream)
    played = next(
        r.sequence
        for r in copy
        if r.type == "CardPlayed" and r.payload["hand"] == 0 and r.payload["seat"] in (0, 1)
    )
    assert where(report) == [
        ("deal", sequence_of(copy, HandDealt, hand=0), 0),
        ("play", played, 0),
        ("replay", played, None),
    ]
    assert report.problems[0].message == (
        f"HandDealt hands: the log has {listed(to_payload(swapped)['hands'])}, "
        f"the rules give {listed(to_payload(dealt)['hands'])}"
    )


def test_a_wrong_winner_of_a_hands_last_trick_is_the_one_problem_found() -> None:
    _, records = finished_game()
    last_trick = next(r.event for r in records if isinstance(r.event, TrickTaken))
    wrong = (last_trick.winner + 1) % 3
    forged = replace(last_trick, winner=wrong)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == last_trick else e)

    report = verify_stream(stream)
    assert report.problems == [
        Problem(
            "trick",
            f"TrickTaken winner: the log has {wrong}, the rules give {last_trick.winner}",
            sequence_of(copy, TrickTaken, hand=0),
            0,
        )
    ]


def test_a_wrong_trick_winner_mid_hand_fails_the_winner_the_next_lead_and_the_score() -> None:
    _, records = finished_game()
    trick = next(r.event for r in records if isinstance(r.event, TrickTaken) and r.event.hand == 1)
    forged = replace(trick, winner=(trick.winner + 1) % 3)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == trick else e)

    report = verify_stream(stream)
    next_lead = sequence_of(copy, TrickTaken, hand=1, trick=0) + 1
    assert where(report) == [
        ("trick", sequence_of(copy, TrickTaken, hand=1, trick=0), 1),
        ("play", next_lead, 1),
        ("trick", sequence_of(copy, TrickTaken, hand=1, trick=1), 1),
        ("score", sequence_of(copy, HandScored, hand=1), 1),
    ]
    turn = NotYourTurn(trick.winner, forged.winner).message
    assert report.problems[1].message == f"the rules refuse this: {turn}"


def test_a_wrong_running_total_fails_that_hand_and_the_next_one_built_on_it() -> None:
    _, records = finished_game()
    scored = next(r.event for r in records if isinstance(r.event, HandScored) and r.event.hand == 1)
    totals = (scored.totals[0] + 5, *scored.totals[1:])
    forged = replace(scored, totals=totals)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == scored else e)

    report = verify_stream(stream)
    assert where(report) == [
        ("score", sequence_of(copy, HandScored, hand=1), 1),
        ("score", sequence_of(copy, HandScored, hand=2), 2),
    ]
    assert report.problems[0].message == (
        f"HandScored totals: the log has {listed(list(totals))}, "
        f"the rules give {listed(list(scored.totals))}"
    )


def test_a_revealed_secret_that_does_not_match_its_commitment_fails_both_checks() -> None:
    _, records = finished_game()
    revealed = next(
        r.event for r in records if isinstance(r.event, DealRevealed) and r.event.hand == 3
    )
    committed = next(r.event for r in records if isinstance(r.event, DealsCommitted))
    forged_secret = hashlib.sha256(b"a secret of our own").digest()
    forged = replace(revealed, secret=forged_secret.hex())

    stream, copy = tampered_copy(records, lambda r, e: forged if e == revealed else e)

    report = verify_stream(stream)
    assert where(report) == [
        ("deal", sequence_of(copy, HandDealt, hand=3), 3),
        ("secret", sequence_of(copy, DealRevealed, hand=3), 3),
    ]
    assert report.problems[1].message == (
        f"SHA-256 of the revealed secret is {commitment(forged_secret)}, "
        f"the commitment was {committed.commitments[3]}"
    )


def test_a_commitment_changed_after_the_fact_fails_when_its_secret_is_revealed() -> None:
    _, records = finished_game()
    committed = next(r.event for r in records if isinstance(r.event, DealsCommitted))
    commitments = list(committed.commitments)
    commitments[4] = commitment(b"another secret")
    forged = replace(committed, commitments=tuple(commitments))

    stream, copy = tampered_copy(records, lambda r, e: forged if e == committed else e)

    report = verify_stream(stream)
    assert where(report) == [("secret", sequence_of(copy, DealRevealed, hand=4), 4)]


def test_a_dealer_bid_that_makes_the_bids_add_up_fails_the_bid_and_the_score() -> None:
    _, records = finished_game()
    hand, dealer_bid, forbidden = _dealer_bid_to_break(records)
    forged = replace(dealer_bid, bid=forbidden)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == dealer_bid else e)

    report = verify_stream(stream)
    cards = next(
        r.event.cards for r in records if isinstance(r.event, HandDealt) and r.event.hand == hand
    )
    assert where(report) == [
        ("bid", sequence_of(copy, BidPlaced, hand=hand, seat=dealer_bid.seat), hand),
        ("score", sequence_of(copy, HandScored, hand=hand), hand),
    ]
    assert report.problems[0].message == (
        f"the rules refuse this: {DealerBidForbidden(forbidden, cards).message}"
    )


def _dealer_bid_to_break(records: list[Recorded]) -> tuple[int, BidPlaced, int]:
    """A hand (not the last) whose dealer could have made the bids add up, the
    dealer's bid, and the bid that would have."""
    deals = {r.event.hand: r.event for r in records if isinstance(r.event, HandDealt)}
    bids = [r.event for r in records if isinstance(r.event, BidPlaced)]
    for hand, dealt in list(deals.items())[:-1]:
        before = sum(b.bid for b in bids if b.hand == hand and b.seat != dealt.dealer)
        if before <= dealt.cards:
            dealer_bid = next(b for b in bids if b.hand == hand and b.seat == dealt.dealer)
            return hand, dealer_bid, dealt.cards - before
    raise AssertionError("no hand left its dealer a forbidden bid")


def test_a_first_dealer_not_drawn_from_the_committed_seed_fails() -> None:
    _, records = finished_game()
    started = next(r.event for r in records if isinstance(r.event, GameStarted))
    wrong = (started.first_dealer + 1) % 3
    forged = replace(started, first_dealer=wrong)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == started else e)

    report = verify_stream(stream)
    assert report.problems[0] == Problem(
        "first-dealer",
        f"GameStarted first_dealer: the log has {wrong}, the rules give {started.first_dealer}",
        sequence_of(copy, GameStarted),
        None,
    )
    assert not report.ok


def test_commitments_recorded_after_the_first_deal_fail_the_order_checks() -> None:
    _, records = finished_game()
    committed = next(r for r in records if r.type == "DealsCommitted")
    first_deal = next(r for r in records if r.type == "HandDealt")
    reordered = [r for r in records if r is not committed]
    reordered.insert(reordered.index(first_deal) + 1, committed)

    stream, copy = tampered_copy(reordered, lambda r, e: e)

    report = verify_stream(stream)
    assert where(report) == [
        ("order", sequence_of(copy, GameStarted), None),
        ("order", sequence_of(copy, HandDealt, hand=0), 0),
        ("order", sequence_of(copy, DealsCommitted), None),
    ]
    assert [problem.message for problem in report.problems] == [
        "the game starts before its deals are committed",
        "the hand is dealt before its secret is committed",
        "the deals are committed after the game started",
    ]


def test_a_seat_a_guest_handed_over_mid_game_verifies_and_one_a_stranger_hands_is_reported() -> (
    None
):
    # Given a game whose first seat's guest signed in to their account mid-game, which
    # played it to the end (decision 3507)
    game_id, users = seated_game(3, "romanian-standard", SHORT)
    rng = random.Random(1)
    for _ in range(5):
        next_move(game_id, users, rng)
    account = UserFactory.create()
    actions.game_hand_over_seat(game_id=game_id, guest_id=users[0].pk, account=account)
    play_to_end(game_id, [account, *users[1:]], seed=2)
    records = read(stream_of(game_id))

    # Then it verifies as any game
    assert verify_game(game_id).problems == []

    # And a copy where someone who held no seat hands one over is reported, there
    stream, forged = tampered_copy(
        records,
        lambda _, event: (
            SeatHandedOver(event.seat, account.pk, users[0].pk)
            if isinstance(event, SeatHandedOver)
            else event
        ),
    )
    report = verify_stream(stream)
    handed = sequence_of(forged, SeatHandedOver)
    assert report.problems == [
        Problem("table", f"seat 0 is not user {account.pk}'s to hand over", handed, None)
    ]


def test_an_event_that_no_move_explains_is_reported() -> None:
    _, records = finished_game()
    finished = next(r.event for r in records if isinstance(r.event, GameFinished))
    stream = f"test:tampered-{uuid.uuid4()}"
    with transaction.atomic():
        append(stream, 0, [r.event for r in records] + [finished], None)

    report = verify_stream(stream)

    assert report.problems == [
        Problem("move", "GameFinished is not the outcome of any move", len(records) + 1, None)
    ]


def test_a_gap_in_the_sequence_numbers_is_reported() -> None:
    _, records = finished_game()
    gapped = records[:10] + [replace(r, sequence=r.sequence + 1) for r in records[10:]]

    report = verify_records(gapped, stream="gapped")

    assert report.problems == [Problem("sequence", "expected event 11 next, the log has 12", 12)]


def test_an_event_that_cannot_be_read_ends_the_replay_of_the_rules_there() -> None:
    _, records = finished_game()
    index = next(i for i, record in enumerate(records) if record.type == "CardPlayed")
    damaged = replace(records[index], payload={**records[index].payload, "card": "1X"})

    report = verify_records([*records[:index], damaged, *records[index + 1 :]], stream="damaged")

    reason = f"{InvalidCard('1X')!r}; the rules cannot replay the log past it"
    assert report.problems == [
        Problem("replay", f"cannot read CardPlayed: {reason}", records[index].sequence)
    ]
    assert report.checked["secrets"] == 9
    assert "card plays" not in report.checked


# --- Classic Whist ---------------------------------------------------------------------


def finished_classic(preset: str = "british", options=None) -> tuple[uuid.UUID, list[Recorded]]:
    game_id, users = seated_game(kind="classic", preset=preset, options=options)
    play_to_end(game_id, users, seed=2)
    return game_id, read(stream_of(game_id))


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("british", None),
        ("american", {"target": 5}),
        ("whist-drive", {"deals": 6}),
    ],
    ids=["rubber-honours-turned", "game-to-5", "rotating-no-trump-fifth"],
)
def test_verify_game_passes_a_whole_classic_match_and_counts_every_check(preset, options) -> None:
    game_id, records = finished_classic(preset, options)

    report = verify_game(game_id)

    assert report.problems == []
    assert (report.status, report.version, report.pending) == ("finished", len(records), [])
    assert report.checked == counts_from(records)
    assert report.checked["deals"] == report.checked["secrets"] >= 1
    assert report.lines()[-1] == "OK: every check passed"


def test_a_whist_drive_tables_game_verifies() -> None:
    game_id = played_drive_table(deals=5)
    records = read(stream_of(game_id))

    report = verify_game(game_id)

    assert report.problems == []
    assert report.checked == counts_from(records)
    assert (report.checked["deals"], report.checked["secrets"]) == (5, 5)


def test_a_classic_match_in_play_is_verified_up_to_its_last_revealed_deal() -> None:
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 3})
    rng = random.Random(5)
    while load_table(game_id).game.hand < 1 or not load_table(game_id).played:
        next_move(game_id, users, rng)

    report = verify_game(game_id)

    assert report.ok
    assert (report.status, report.pending) == ("playing", [1])
    # The deal in play waits for its secret: checked once it is revealed.
    assert (report.checked["deals"], report.checked["secrets"]) == (1, 1)
    assert "pending: hand 1 (secret not revealed yet)" in report.lines()


def test_a_classic_secret_that_does_not_match_its_commitment_fails_the_deal_and_the_secret() -> (
    None
):
    _, records = finished_classic()
    revealed = next(
        r.event for r in records if isinstance(r.event, DealRevealed) and r.event.hand == 1
    )
    committed = next(r.event for r in records if isinstance(r.event, DealsCommitted))
    forged_secret = hashlib.sha256(b"a secret of our own").digest()
    forged = replace(revealed, secret=forged_secret.hex())

    stream, copy = tampered_copy(records, lambda r, e: forged if e == revealed else e)

    report = verify_stream(stream)
    assert where(report) == [
        ("deal", sequence_of(copy, classic.HandDealt, hand=1), 1),
        ("secret", sequence_of(copy, DealRevealed, hand=1), 1),
    ]
    assert report.problems[0].message.startswith("classic.HandDealt hands: the log has ")
    assert report.problems[1].message == (
        f"SHA-256 of the revealed secret is {commitment(forged_secret)}, "
        f"the commitment was {committed.commitments[1]}"
    )


def test_a_changed_card_in_a_classic_deal_fails_against_the_deal_from_its_secret() -> None:
    _, records = finished_classic()
    dealt = next(r.event for r in records if isinstance(r.event, classic.HandDealt))
    first, second, *rest = dealt.hands
    swapped = replace(dealt, hands=(second, first, *rest))

    stream, copy = tampered_copy(records, lambda r, e: swapped if e == dealt else e)

    report = verify_stream(stream)
    played = next(
        r.sequence
        for r in copy
        if r.type == "CardPlayed" and r.payload["hand"] == 0 and r.payload["seat"] in (0, 1)
    )
    assert where(report) == [
        ("deal", sequence_of(copy, classic.HandDealt, hand=0), 0),
        ("play", played, 0),
        ("replay", played, None),
    ]
    assert report.problems[0].message == (
        f"classic.HandDealt hands: the log has {listed(classic.to_payload(swapped)['hands'])}, "
        f"the rules give {listed(classic.to_payload(dealt)['hands'])}"
    )


def test_a_wrong_classic_trick_winner_fails_the_winner_the_next_lead_and_the_score() -> None:
    _, records = finished_classic()
    first = next(r.event for r in records if isinstance(r.event, TrickTaken))
    # An opponent of the true winner: the other side is said to have taken it.
    forged = replace(first, winner=(first.winner + 1) % 4)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == first else e)

    report = verify_stream(stream)
    next_lead = sequence_of(copy, TrickTaken, hand=0, trick=0) + 1
    assert where(report)[:4] == [
        ("trick", sequence_of(copy, TrickTaken, hand=0, trick=0), 0),
        ("play", next_lead, 0),
        ("trick", sequence_of(copy, TrickTaken, hand=0, trick=1), 0),
        ("score", sequence_of(copy, classic.HandScored, hand=0), 0),
    ]
    assert report.problems[0].message == (
        f"TrickTaken winner: the log has {forged.winner}, the rules give {first.winner}"
    )
    turn = NotYourTurn(first.winner, forged.winner).message
    assert report.problems[1].message == f"the rules refuse this: {turn}"
    assert report.problems[3].message.startswith("classic.HandScored tricks: the log has ")


def test_a_classic_first_dealer_not_drawn_from_the_committed_seed_fails() -> None:
    _, records = finished_classic()
    started = next(r.event for r in records if isinstance(r.event, classic.MatchStarted))
    wrong = (started.first_dealer + 1) % 4
    forged = replace(started, first_dealer=wrong)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == started else e)

    report = verify_stream(stream)
    assert report.problems[0] == Problem(
        "first-dealer",
        f"classic.MatchStarted first_dealer: the log has {wrong}, "
        f"the rules give {started.first_dealer}",
        sequence_of(copy, classic.MatchStarted),
        None,
    )


def test_a_romanian_event_in_a_classic_log_is_reported_as_not_of_its_game() -> None:
    _, records = finished_classic()
    bid = BidPlaced(hand=0, seat=1, bid=2)
    first_deal = next(i for i, r in enumerate(records) if r.type == "classic.HandDealt")
    events = [r.event for r in records]
    events.insert(first_deal + 1, bid)
    stream = f"test:tampered-{uuid.uuid4()}"
    with transaction.atomic():
        append(stream, 0, events, None)

    report = verify_stream(stream)

    assert report.problems == [
        Problem("replay", "BidPlaced is not an event of classic Whist", first_deal + 2)
    ]


def test_a_classic_game_logged_without_commitments_is_told_once_and_its_play_checked() -> None:
    # Given a finished classic game whose log commits to no deal and reveals no secret
    game_id, _ = finished_classic()
    old = uncommitted_copy(game_id)
    logged = read(stream_of(old))

    # When it is verified
    report = verify_game(old)

    # Then its deals and first dealer cannot be checked, which is said once; every
    # card, trick and score is
    assert report.problems == [
        Problem(
            "commitment",
            "the log commits to no deal: no deal can be checked against one",
            sequence_of(logged, classic.MatchStarted),
        )
    ]
    expected = counts_from(logged)
    del expected["first dealer"], expected["deals"]
    assert report.checked == expected
    assert "secrets" not in report.checked


# --- Tables in the room ----------------------------------------------------------------

ROOM_NOTE = (
    "note: a table in the room: its cards are dealt at the table, so its log commits to "
    "no deal and reveals no secret; its first dealer, drawn from a seed the log does not "
    "keep, is checked as a seat of the table"
)


def room_deal(game_id: uuid.UUID, hand: int, rng: random.Random) -> dict[str, object]:
    """Deal ``hand`` of a table in the room as its players might have played it: legal
    bids in bidding order from the dealer's left, tricks made that add up."""
    game = load_table(game_id).romanian_game
    n, spec = game.player_count, game.schedule[hand]
    dealer = (game.first_dealer + hand) % n
    bids, before = [0] * n, 0
    for turn in range(n):
        seat = (dealer + 1 + turn) % n
        bids[seat] = rng.choice(allowed_bids(spec.cards, before, seat == dealer))
        before += bids[seat]
    tricks = [0] * n
    for _ in range(spec.cards):
        tricks[rng.randrange(n)] += 1
    return {"hand": hand, "bids": bids, "tricks": tricks}


def recorded_game(seed: int = 0) -> tuple[uuid.UUID, list[Recorded]]:
    """A table in the room whose nine deals are written down, each by a player for
    their seat and confirmed by the next one; once it is over, the director corrects
    deal 2 as the paper sheet has it."""
    director = UserFactory.create()
    game_id, users = seated_game(3, "romanian-standard", SHORT, place="room", creator=director)
    rng = random.Random(seed)
    for hand in range(9):
        deal = room_deal(game_id, hand, rng)
        actions.game_record_deal(game_id=game_id, actor=users[hand % 3], **deal)
        actions.game_confirm_deal(game_id=game_id, actor=users[(hand + 1) % 3], hand=hand)
    written = load_table(game_id).romanian_game.results[2]
    while (sheet := room_deal(game_id, 2, rng))["tricks"] == list(written.tricks):
        pass
    actions.game_correct_deal(game_id=game_id, actor=director, reason="The sheet says so", **sheet)
    assert load_table(game_id).status == "finished"
    return game_id, read(stream_of(game_id))


def recorded(records: list[Recorded], hand: int) -> DealRecorded:
    return next(
        r.event for r in records if isinstance(r.event, DealRecorded) and r.event.hand == hand
    )


def test_a_table_in_the_room_is_verified_by_its_recorded_deals_and_says_it_has_no_commitments() -> (
    None
):
    # Given a finished table in the room, its deals written, confirmed and one corrected
    game_id, records = recorded_game()

    # When it is verified
    report = verify_game(game_id)

    # Then every deal written, confirmation, correction and score is decided again by
    # the rules, and the report says why nothing is committed, without failing for it
    assert report.problems == []
    assert report.status == "finished"
    assert report.checked == counts_from(records)
    assert (report.checked["recorded deals"], report.checked["confirmations"]) == (9, 9)
    assert (report.checked["corrections"], report.checked["hand scores"]) == (1, 9 + 7)
    assert report.checked["final ranking"] == 2
    assert "secrets" not in report.checked
    assert report.notes == [ROOM_NOTE.removeprefix("note: ")]
    assert report.lines()[-2:] == [ROOM_NOTE, "OK: every check passed"]


def _dealer_bid_forbidden(deal: DealRecorded) -> tuple[dict[str, object], RuleError] | None:
    forbidden = forbidden_bid(deal.cards, sum(deal.bids) - deal.bids[deal.dealer])
    if forbidden is None:
        return None
    bids = list(deal.bids)
    bids[deal.dealer] = forbidden
    return {"bids": tuple(bids)}, DealerBidForbidden(forbidden, deal.cards)


def _bid_above_the_cards(deal: DealRecorded) -> tuple[dict[str, object], RuleError]:
    bids = list(deal.bids)
    bids[(deal.dealer + 1) % 3] = deal.cards + 1
    return {"bids": tuple(bids)}, BidOutOfRange(deal.cards + 1, deal.cards)


def _tricks_not_adding_up(deal: DealRecorded) -> tuple[dict[str, object], RuleError]:
    tricks = (deal.tricks[0] + 1, *deal.tricks[1:])
    return {"tricks": tricks}, TricksDoNotAddUp(sum(tricks), deal.cards)


@pytest.mark.parametrize(
    "broken",
    [_dealer_bid_forbidden, _bid_above_the_cards, _tricks_not_adding_up],
    ids=["the-dealers-forbidden-bid", "a-bid-above-the-cards-dealt", "tricks-that-do-not-add-up"],
)
def test_a_recorded_deal_that_breaks_the_rules_is_the_one_problem_found(broken) -> None:
    # Given a table in the room whose log says one deal (after the corrected one) was
    # written down against the rules
    _, records = recorded_game()
    hand, deal, (change, error) = next(
        (hand, deal, found)
        for hand in range(3, 9)
        if (found := broken(deal := recorded(records, hand))) is not None
    )
    forged = replace(deal, **change)

    # When it is verified
    stream, copy = tampered_copy(records, lambda r, e: forged if e == deal else e)
    report = verify_stream(stream)

    # Then the rules refuse that deal, and nothing else fails
    assert report.problems == [
        Problem(
            "recorded-deal",
            f"the rules refuse this: {error.message}",
            sequence_of(copy, DealRecorded, hand=hand),
            hand,
        )
    ]


def test_a_recorded_deal_logged_with_another_deals_cards_or_dealer_fails() -> None:
    _, records = recorded_game()
    deal = recorded(records, 0)
    forged = replace(deal, cards=3, dealer=(deal.dealer + 1) % 3)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == deal else e)

    report = verify_stream(stream)
    assert report.problems == [
        Problem(
            "recorded-deal",
            f"DealRecorded dealer: the log has {forged.dealer}, the rules give {deal.dealer}; "
            "cards: the log has 3, the rules give 1",
            sequence_of(copy, DealRecorded, hand=0),
            0,
        )
    ]


def test_a_wrong_score_of_a_recorded_deal_fails_it_and_the_next_total_built_on_it() -> None:
    _, records = recorded_game()
    scored = next(r.event for r in records if isinstance(r.event, HandScored) and r.event.hand == 4)
    forged = replace(scored, totals=(scored.totals[0] + 5, *scored.totals[1:]))

    stream, copy = tampered_copy(records, lambda r, e: forged if e == scored else e)

    report = verify_stream(stream)
    assert where(report) == [
        ("score", sequence_of(copy, HandScored, hand=4), 4),
        ("score", sequence_of(copy, HandScored, hand=5), 5),
    ]


def test_a_correction_is_scored_again_as_the_rules_score_it() -> None:
    # Given a table in the room whose log scores a deal after a correction otherwise
    # than the rules do
    _, records = recorded_game()
    corrected = next(i for i, r in enumerate(records) if isinstance(r.event, DealCorrected))
    target = next(
        r for r in records[corrected:] if isinstance(r.event, HandScored) and r.event.hand == 5
    )
    rescored = target.event
    forged = replace(rescored, totals=(rescored.totals[0] - 10, *rescored.totals[1:]))

    # When it is verified
    stream, _ = tampered_copy(records, lambda r, e: forged if r is target else e)
    report = verify_stream(stream)

    # Then that score is the one problem: the deals after it are scored again from the
    # corrected deal on, as the rules do
    assert report.problems == [
        Problem(
            "score",
            f"HandScored totals: the log has {listed(list(forged.totals))}, "
            f"the rules give {listed(list(rescored.totals))}",
            target.sequence,
            5,
        )
    ]


def test_a_deal_confirmed_by_the_seat_that_wrote_it_is_refused() -> None:
    _, records = recorded_game()
    confirmed = next(
        r.event for r in records if isinstance(r.event, DealConfirmed) and r.event.hand == 1
    )
    writer = recorded(records, 1).by
    forged = replace(confirmed, by=writer)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == confirmed else e)

    report = verify_stream(stream)
    assert report.problems == [
        Problem(
            "confirmation",
            f"the rules refuse this: {ConfirmedByAnother(1, writer).message}",
            sequence_of(copy, DealConfirmed, hand=1),
            1,
        )
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"first_dealer": 3}, "the first dealer 3 is no seat of this table"),
        ({"recorded": False}, "GameStarted recorded: the log has false, the rules give true"),
    ],
    ids=["first-dealer-no-seat", "started-as-a-table-played-here"],
)
def test_a_table_in_the_room_started_otherwise_than_the_rules_start_it_fails(
    change, message
) -> None:
    _, records = recorded_game()
    started = next(r.event for r in records if isinstance(r.event, GameStarted))
    forged = replace(started, **change)

    stream, copy = tampered_copy(records, lambda r, e: forged if e == started else e)

    report = verify_stream(stream)
    assert report.problems[0] == Problem("first-dealer", message, sequence_of(copy, GameStarted))


def _inserted(records: list[Recorded], index: int, event: AnyEvent) -> tuple[str, list[Recorded]]:
    """A new stream holding ``records``' events with ``event`` inserted at ``index``."""
    events = [r.event for r in records]
    events.insert(index, event)
    stream = f"test:tampered-{uuid.uuid4()}"
    with transaction.atomic():
        append(stream, 0, events, None)
    return stream, read(stream)


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        (
            DealsCommitted("00" * 16, ("ab" * 32,) * 9),
            ("commitment", "a table in the room commits to no deal: its cards are not here"),
        ),
        (
            DealRevealed(0, "00" * 32),
            ("secret", "a table in the room reveals no secret: its cards are not here"),
        ),
        (
            HandDealt(0, 0, 1, Visibility.OPEN, ((), (), ()), None),
            ("deal", "a table in the room deals no cards here"),
        ),
        (BidPlaced(0, 0, 0), ("bid", f"the rules refuse this: {RecordedTable().message}")),
    ],
    ids=["commitments", "a-secret", "a-deal", "a-bid"],
)
def test_what_only_a_table_played_here_logs_is_a_problem_at_a_table_in_the_room(
    event, problem
) -> None:
    # Given a table in the room's log with an event of a table played here, after its
    # first deal was written down
    _, records = recorded_game()
    index = next(i for i, r in enumerate(records) if isinstance(r.event, DealConfirmed))

    # When it is verified
    stream, _ = _inserted(records, index, event)
    report = verify_stream(stream)

    # Then that event is the problem
    assert [(p.check, p.message, p.sequence) for p in report.problems][:1] == [
        (*problem, index + 1)
    ]


# --- Time called -----------------------------------------------------------------------


def test_time_called_at_a_table_in_the_room_is_verified_with_the_one_more_deal_it_allows() -> None:
    # Given a table in the room whose time was called after two deals were written
    game_id, users = seated_game(3, "romanian-standard", SHORT, place="room")
    rng = random.Random(1)
    for hand in range(2):
        actions.game_record_deal(game_id=game_id, actor=users[0], **room_deal(game_id, hand, rng))
    actions.game_call_time(game_id=game_id)
    actions.game_record_deal(game_id=game_id, actor=users[1], **room_deal(game_id, 2, rng))
    records = read(stream_of(game_id))

    # When it is verified
    report = verify_game(game_id)

    # Then time called is decided again, and the game ends after the deal in progress
    assert report.problems == []
    assert report.status == "finished"
    assert report.checked == counts_from(records)
    assert (report.checked["time call"], report.checked["recorded deals"]) == (1, 3)
    assert report.lines()[-1] == "OK: every check passed"


def test_time_called_in_a_deal_played_here_ends_the_game_after_that_deal() -> None:
    game_id, users = seated_game(3, "romanian-standard", SHORT)
    rng = random.Random(1)
    while load_table(game_id).game.hand < 1:
        next_move(game_id, users, rng)
    actions.game_call_time(game_id=game_id)
    play_to_end(game_id, users, seed=1)
    records = read(stream_of(game_id))

    report = verify_game(game_id)

    assert report.problems == []
    assert (report.status, report.pending) == ("finished", [])
    assert report.checked == counts_from(records)
    assert (report.checked["time call"], report.checked["hand scores"]) == (1, 2)


def test_time_called_between_deals_played_here_ends_the_game_at_once() -> None:
    # Given a game whose dealer is still to choose how its first, one-card deal is played
    options = {**SHORT, "one_card_mode": "dealer-choice"}
    game_id, _ = seated_game(3, "romanian-standard", options)
    assert load_table(game_id).game.phase is Phase.CHOOSING_MODE

    # When time is called there
    actions.game_call_time(game_id=game_id)
    records = read(stream_of(game_id))

    # Then the game is over with no deal played, which the rules decide alike
    report = verify_game(game_id)
    assert report.problems == []
    assert report.status == "finished"
    assert report.checked == counts_from(records)
    assert (report.checked["time call"], report.checked["final ranking"]) == (1, 1)


def timed_room_game() -> list[Recorded]:
    game_id, users = seated_game(3, "romanian-standard", SHORT, place="room")
    rng = random.Random(2)
    actions.game_record_deal(game_id=game_id, actor=users[0], **room_deal(game_id, 0, rng))
    actions.game_call_time(game_id=game_id)
    actions.game_record_deal(game_id=game_id, actor=users[0], **room_deal(game_id, 1, rng))
    return read(stream_of(game_id))


def test_time_called_for_more_deals_than_the_rules_allow_fails_it_and_the_end() -> None:
    # Given a log whose time called lets the game go on longer than the rules say
    records = timed_room_game()
    called = next(r.event for r in records if isinstance(r.event, TimeCalled))
    forged = TimeCalled(called.deals + 3)

    # When it is verified
    stream, copy = tampered_copy(records, lambda r, e: forged if e == called else e)
    report = verify_stream(stream)

    # Then time called fails, and so does the end of the game the rules do not reach
    assert report.problems == [
        Problem(
            "time",
            f"TimeCalled deals: the log has {forged.deals}, the rules give {called.deals}",
            sequence_of(copy, TimeCalled),
        ),
        Problem(
            "ranking",
            "the log has GameFinished here; the rules give no such event",
            sequence_of(copy, GameFinished),
        ),
    ]


def test_time_called_a_second_time_is_refused() -> None:
    records = timed_room_game()
    index = next(i for i, r in enumerate(records) if isinstance(r.event, TimeCalled))

    stream, _ = _inserted(records, index + 1, TimeCalled(2))

    report = verify_stream(stream)
    assert report.problems == [
        Problem("time", f"the rules refuse this: {TimeAlreadyCalled().message}", index + 2)
    ]


# --- Unexpected events -----------------------------------------------------------------


def _kinds_absent(records: list[Recorded], others: list[Recorded]) -> list[AnyEvent]:
    """The events of ``others`` of a kind ``records`` never logs."""
    kinds = {r.type for r in records}
    return [r.event for r in others if r.type not in kinds]


def test_an_event_of_a_kind_its_log_never_holds_is_a_problem_wherever_it_stands() -> None:
    # Given a finished game played here, a table in the room, and a classic match; and
    # for each, the events of kinds only the others log
    _, played = finished_game()
    _, room = recorded_game()
    _, match = finished_classic()
    strangers = {
        "played here": (played, _kinds_absent(played, room + match)),
        "in the room": (room, _kinds_absent(room, played + match)),
        "classic": (match, _kinds_absent(match, played + room)),
    }
    assert {DealRecorded, DealCorrected, DealConfirmed} <= {
        type(e) for e in strangers["played here"][1]
    }
    assert {HandDealt, BidPlaced, CardPlayed, DealRevealed} <= {
        type(e) for e in strangers["in the room"][1]
    }

    for seed in range(8):
        rng = random.Random(seed)
        for name, (records, pool) in strangers.items():
            # When one of them is inserted at a random place in the log
            event, index = rng.choice(pool), rng.randrange(len(records) + 1)
            stream, _ = _inserted(records, index, event)

            # Then verifying it finds problems, and raises nothing
            report = verify_stream(stream)
            assert not report.ok, (seed, name, index, event)


def test_an_event_of_every_kind_of_either_game_after_the_start_is_a_problem_the_check_knows() -> (
    None
):
    # Given a game played here, a table in the room and a classic match, and an event
    # of every kind either game logs
    options = {**SHORT, "one_card_mode": "dealer-choice", "zero_play": "start"}
    game_id, users = seated_game(3, "romanian-standard", options)
    actions.game_announce_zero_play(game_id=game_id, actor=users[0])
    play_to_end(game_id, users, seed=1)
    played = read(stream_of(game_id))
    _, room = recorded_game()
    _, match = finished_classic()
    kinds = [*rules.EVENT_TYPES.values(), *classic.EVENT_TYPES.values()]
    pool = [r.event for r in played + room + match + timed_room_game()]
    events = [next(e for e in pool if type(e) is kind) for kind in dict.fromkeys(kinds)]

    for records in (played, room, match):
        start = next(
            i
            for i, r in enumerate(records)
            if isinstance(r.event, GameStarted | classic.MatchStarted)
        )
        for event in events:
            # When it is inserted right after the game starts
            stream, _ = _inserted(records, start + 1, event)

            # Then it is a problem the check names, each kind decided by its rules
            report = verify_stream(stream)
            assert not report.ok, event
            assert not any("no move the verification knows" in p.message for p in report.problems)


def test_a_deal_confirmed_whose_writing_the_log_lacks_ends_the_replay_of_the_rules_there() -> None:
    # Given a table in the room's log that lost the writing of its first deal, but
    # kept its score and its confirmation
    _, records = recorded_game()
    lost = next(r for r in records if isinstance(r.event, DealRecorded))
    stream = f"test:tampered-{uuid.uuid4()}"
    with transaction.atomic():
        append(stream, 0, [r.event for r in records if r is not lost], None)
    copy = read(stream)

    # When it is verified
    report = verify_stream(stream)

    # Then the score no move explains is reported, and the confirmation the rules
    # cannot decide on that state ends their replay, with no exception
    confirmed = sequence_of(copy, DealConfirmed, hand=0)
    assert where(report) == [
        ("score", sequence_of(copy, HandScored, hand=0), 0),
        ("replay", confirmed, 0),
    ]
    assert report.problems[0].message == (
        "the log has HandScored here; the rules give no such event"
    )
    assert report.problems[1].message == (
        "the rules cannot decide this on the state the log led to "
        "(IndexError('tuple index out of range')): "
        f"the log cannot be replayed past event {confirmed}"
    )


@pytest.mark.parametrize(
    ("change", "first"),
    [
        ({"place": "garden"}, ("table", "a table is played online or in the room, not 'garden'")),
        ({"player_count": 7}, ("table", "the game starts with a seat empty")),
        ({"options": {"step": "x"}}, ("replay", "the log cannot be replayed past event 1: ")),
    ],
    ids=["a-place-of-no-game", "seven-players", "options-the-rules-cannot-read"],
)
@pytest.mark.parametrize("place", ["online", "room"])
def test_a_table_created_as_no_game_can_be_is_reported_not_raised(change, first, place) -> None:
    # Given a finished game (played here, or a table in the room) whose log says it
    # was created as no game can be
    _, records = finished_game() if place == "online" else recorded_game()
    created = records[0].event

    # When it is verified
    stream, _ = tampered_copy(
        records, lambda r, e: replace(created, **change) if r.sequence == 1 else e
    )
    report = verify_stream(stream)

    # Then that is a problem of the report, first of all, and nothing is raised
    check, message = first
    assert report.problems[0].check == check
    assert report.problems[0].message.startswith(message)
