import pytest

from games.rules import Suit, parse_card, parse_cards
from games.rules.errors import CardNotInHand, MustFollowSuit, MustTrump
from games.rules.play import check_play, legal_cards, winning_index


def test_leader_may_play_any_card() -> None:
    hand = parse_cards("AS KH 7D")

    assert legal_cards(hand, None, Suit.CLUBS, must_trump=True) == hand


def test_a_player_who_holds_the_suit_led_must_follow_it() -> None:
    hand = parse_cards("AS 9H KH 7D")

    assert legal_cards(hand, Suit.HEARTS, Suit.SPADES, must_trump=True) == parse_cards("9H KH")
    with pytest.raises(MustFollowSuit) as error:
        check_play(hand, parse_card("AS"), Suit.HEARTS, Suit.SPADES, must_trump=True)
    assert error.value.code == "must_follow_suit"
    assert error.value.message == "must follow suit: you hold hearts, which were led"


def test_a_void_player_must_trump_under_the_reference_rules() -> None:
    hand = parse_cards("8S AS 7D")

    assert legal_cards(hand, Suit.HEARTS, Suit.SPADES, must_trump=True) == parse_cards("8S AS")
    with pytest.raises(MustTrump) as error:
        check_play(hand, parse_card("7D"), Suit.HEARTS, Suit.SPADES, must_trump=True)
    assert error.value.code == "must_trump"
    assert error.value.message == ("must trump: you cannot follow suit and you hold spades, trumps")


def test_a_void_player_may_discard_when_trumping_is_optional() -> None:
    # 001: "Any player who has no card of the suit led may play a trump or any other card".
    hand = parse_cards("8S AS 7D")

    check_play(hand, parse_card("7D"), Suit.HEARTS, Suit.SPADES, must_trump=False)
    assert legal_cards(hand, Suit.HEARTS, Suit.SPADES, must_trump=False) == hand


def test_a_player_with_neither_suit_nor_trump_discards_anything() -> None:
    hand = parse_cards("7D AC")

    check_play(hand, parse_card("7D"), Suit.HEARTS, Suit.SPADES, must_trump=True)
    assert legal_cards(hand, Suit.HEARTS, Suit.SPADES, must_trump=True) == hand


def test_without_trump_a_void_player_discards_anything() -> None:
    # 004: in 8-card games "Card color => any other card".
    hand = parse_cards("7D AC")

    assert legal_cards(hand, Suit.HEARTS, None, must_trump=True) == hand


def test_a_card_not_held_cannot_be_played() -> None:
    with pytest.raises(CardNotInHand) as error:
        check_play(parse_cards("7D"), parse_card("AS"), None, None, must_trump=True)

    assert error.value.code == "card_not_in_hand"
    assert error.value.message == "AS is not in your hand"


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("9H AH KH", Suit.SPADES, 1),  # highest of the suit led
        ("9H AD KH", Suit.SPADES, 2),  # another suit never wins, however high
        ("9H 7S AH", Suit.SPADES, 1),  # any trump beats the suit led
        ("9H 7S 8S", Suit.SPADES, 2),  # the highest trump wins
        ("7S AH 8S", Suit.SPADES, 2),  # trumps led: highest trump
        ("9H AS KS", None, 0),  # no trump: off-suit aces lose
        ("10H 9H", None, 0),
    ],
)
def test_trick_goes_to_the_highest_trump_else_the_highest_card_of_the_suit_led(
    trick: str, trump: Suit | None, winner: int
) -> None:
    assert winning_index(parse_cards(trick), trump) == winner
