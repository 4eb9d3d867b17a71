"""A classic Whist deal recomputed from its secret by docs/checking.md's procedure
alone, as anyone checking a game's record would: the engine must deal exactly that."""

from __future__ import annotations

import hashlib

import pytest

from games.rules.cards import format_cards
from games.rules.classic import (
    DECK,
    ClassicOptions,
    DealHand,
    HandDealt,
    MatchStarted,
    StartMatch,
    TrumpMethod,
    decide,
    replay,
)
from games.rules.shuffle import shuffled
from tests.games.rules.test_shuffle import documented_shuffle

ROTATION = ClassicOptions(trumps=TrumpMethod.ROTATION, no_trump_every_fifth=True, deals=6)
SECRETS = [hashlib.sha256(str(i).encode()).digest() for i in range(5)]


def documented_deck() -> list[str]:
    """ "the 52 cards: clubs, diamonds, hearts, spades, each from the 2 up to the ace"."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return [rank + suit for suit in "CDHS" for rank in ranks]


def documented_deal(secret: bytes, dealer: int) -> tuple[list[list[str]], str]:
    """Every card one at a time clockwise from the dealer's left; the last card dealt,
    the dealer's thirteenth, is the one turned for trump."""
    deck = documented_shuffle(documented_deck(), secret)
    hands: list[list[str]] = [[] for _ in range(4)]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % 4].append(card)
    return hands, deck[-1]


def dealt(options: ClassicOptions, dealer: int, secret: bytes, hand: int = 0) -> HandDealt:
    state = replay([MatchStarted(options, dealer)])
    state.hand = hand
    [event] = decide(state, DealHand(secret))
    assert isinstance(event, HandDealt)
    return event


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("secret", SECRETS)
def test_a_turned_trump_deal_is_the_documented_deal_of_its_secret(dealer, secret) -> None:
    hands, turned = documented_deal(secret, dealer)

    event = dealt(ClassicOptions(), dealer, secret)

    assert event.dealer == dealer
    assert [sorted(map(str, cards)) for cards in event.hands] == [sorted(h) for h in hands]
    assert str(event.trump_card) == turned
    assert turned in hands[dealer]
    assert event.trump is not None and event.trump.letter == turned[-1]


@pytest.mark.parametrize("secret", SECRETS)
def test_a_rotating_trump_deal_is_the_same_cards_with_no_card_turned(secret) -> None:
    hands, _ = documented_deal(secret, 2)

    for hand, trump in enumerate(["H", "D", "S", "C", None, "H"]):
        event = dealt(ROTATION, (2 - hand) % 4, secret, hand=hand)

        assert [sorted(map(str, cards)) for cards in event.hands] == [sorted(h) for h in hands]
        assert event.trump_card is None
        assert (None if event.trump is None else event.trump.letter) == trump


def test_the_deck_and_its_shuffle_are_pinned_so_old_games_stay_verifiable() -> None:
    assert [str(card) for card in DECK] == documented_deck()
    assert format_cards(shuffled(DECK, b"atu test vector")) == (
        "2S QC 7S 4H JD 9H QH 5D 10C 6S 9S 7C 8S 8D 7D AS 5S KH 4C 9D 2C 3D 3S 8H QD 10S "
        "3C 4D 6H 5H 2H KS 8C JC 6C 7H 10H KC 2D QS 6D 5C AC 9C JH JS AH 3H KD 10D 4S AD"
    )


def test_the_first_dealer_is_drawn_from_the_seed_as_at_romanian_whist() -> None:
    # The seed's first draw below 4 is 1 (tests/games/rules/test_shuffle.py pins it).
    [started] = decide(replay([]), StartMatch(ClassicOptions(), b"atu test vector"))

    assert started == MatchStarted(ClassicOptions(), 1)
