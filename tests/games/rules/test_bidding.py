import pytest

from games.rules.bidding import allowed_bids, check_bid, forbidden_bid
from games.rules.errors import BidOutOfRange, DealerBidForbidden


def test_reference_example_third_player_may_not_say_one_after_two_and_one() -> None:
    # 000: four cards, three players; "2", then "1": the third must say 0, 2, 3 or 4.
    with pytest.raises(DealerBidForbidden) as error:
        check_bid(1, cards=4, bids_before=2 + 1, is_last=True)

    assert error.value.code == "dealer_bid_forbidden"
    assert error.value.message == (
        "the dealer may not bid 1: the bids would add up to the 4 cards dealt"
    )
    assert allowed_bids(4, 3, is_last=True) == (0, 2, 3, 4)


def test_app_example_last_bidder_may_not_say_two_after_three_and_one() -> None:
    # 001: six cards; "3", then "1": the last bidder must bid 0, 1, 3, 4, 5 or 6.
    with pytest.raises(DealerBidForbidden, match="may not bid 2"):
        check_bid(2, cards=6, bids_before=4, is_last=True)

    assert allowed_bids(6, 4, is_last=True) == (0, 1, 3, 4, 5, 6)


def test_players_before_the_last_may_make_the_sum_equal_the_cards() -> None:
    check_bid(1, cards=4, bids_before=3, is_last=False)

    assert allowed_bids(4, 3, is_last=False) == (0, 1, 2, 3, 4)


def test_dealer_of_a_one_card_hand_is_forced_when_nobody_bid() -> None:
    # 000's table: Peter 1, John 0 — Peggy "was forced to say 1".
    assert allowed_bids(1, 1, is_last=True) == (1,)
    assert allowed_bids(1, 0, is_last=True) == (0,)


def test_nothing_is_forbidden_once_the_others_have_bid_more_than_the_cards() -> None:
    assert forbidden_bid(3, 5) is None
    assert allowed_bids(3, 5, is_last=True) == (0, 1, 2, 3)


@pytest.mark.parametrize("bid", [-1, 5, True, "2"])
def test_a_bid_is_between_zero_and_the_cards_dealt(bid: object) -> None:
    # 004: "in a game of four cards, a player can't bet 5 or 6".
    with pytest.raises(BidOutOfRange) as error:
        check_bid(bid, cards=4, bids_before=0, is_last=False)  # type: ignore[arg-type]

    assert error.value.code == "bid_out_of_range"
    assert error.value.message == f"a bid must be between 0 and the 4 cards dealt, not {bid}"
