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
from games.commands import actions
from games.errors import GameNotFound
from games.read.verification import Problem, verify_game, verify_records, verify_stream
from games.rules import (
    BidPlaced,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    Phase,
    TrickTaken,
    classic,
    to_payload,
)
from games.rules.errors import DealerBidForbidden, InvalidCard, NotYourTurn
from games.rules.shuffle import commitment
from games.table import AnyEvent, DealRevealed, DealsCommitted, stream_of
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
