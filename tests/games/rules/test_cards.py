import pytest

from games.rules import Suit, deck, format_cards, parse_card, parse_cards
from games.rules.cards import card, lowest_rank
from games.rules.errors import InvalidCard


def test_compact_notation_reads_rank_then_suit() -> None:
    cards = parse_cards("AS KH 10D 7C")

    assert [(c.rank, c.suit) for c in cards] == [
        (14, Suit.SPADES),
        (13, Suit.HEARTS),
        (10, Suit.DIAMONDS),
        (7, Suit.CLUBS),
    ]


def test_ten_may_be_written_t_and_case_does_not_matter() -> None:
    assert parse_card("th") == parse_card("10H") == card(10, Suit.HEARTS)


def test_cards_format_back_to_the_notation() -> None:
    assert format_cards(parse_cards("AS KH 10D 7C JS QD")) == "AS KH 10D 7C JS QD"


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "ZS", "10"])
def test_anything_else_is_an_invalid_card_error(text: str) -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card(text)

    assert error.value.code == "invalid_card"
    assert repr(text) in error.value.message


@pytest.mark.parametrize(
    ("players", "lowest", "size"), [(3, 9, 24), (4, 7, 32), (5, 5, 40), (6, 3, 48)]
)
def test_deck_holds_eight_cards_per_player_with_the_lowest_ranks_removed(
    players: int, lowest: int, size: int
) -> None:
    cards = deck(players)

    assert len(cards) == len(set(cards)) == size
    assert lowest_rank(players) == lowest
    assert min(c.rank for c in cards) == lowest
    assert {c.rank for c in cards} == set(range(lowest, 15))
    assert all(sum(c.suit == suit for c in cards) == size // 4 for suit in Suit)


def test_three_player_deck_is_ace_down_to_nine() -> None:
    assert format_cards(c for c in deck(3) if c.suit == Suit.SPADES) == "9S 10S JS QS KS AS"
