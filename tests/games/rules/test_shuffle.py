import hashlib
import struct

from games.rules import DealHand, GameStarted, RuleOptions, decide, deck, format_cards, replay
from games.rules.shuffle import commitment, derive_secret, draw, shuffled


def documented_shuffle(items: list[str], secret: bytes) -> list[str]:
    """The procedure in shuffle.py's docstring, written out plainly as a checker would."""
    numbers: list[int] = []
    counter = 0

    def next_number() -> int:
        nonlocal counter
        if not numbers:
            block = hashlib.sha256(secret + struct.pack(">Q", counter)).digest()
            numbers.extend(struct.unpack(">8I", block))
            counter += 1
        return numbers.pop(0)

    def below(n: int) -> int:
        while True:
            x = next_number()
            if x < 2**32 - (2**32 % n):
                return x % n

    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def test_shuffle_follows_the_documented_procedure() -> None:
    for secret in (b"atu test vector", b"x" * 32, bytes(range(64))):
        cards = [str(c) for c in deck(6)]

        assert [str(c) for c in shuffled(deck(6), secret)] == documented_shuffle(cards, secret)


def test_shuffle_is_pinned_so_old_games_stay_verifiable() -> None:
    assert format_cards(shuffled(deck(4), b"atu test vector")) == (
        "QC 8S 7H 9D AD AH 9C AS 7C KD JD AC KC 8H KH 7S "
        "9H 10S JC 8C JS 8D KS 10H JH 7D QS 10C 10D QH 9S QD"
    )


def test_deal_goes_round_from_the_dealers_left_and_turns_the_next_card() -> None:
    secret = b"atu test vector!"
    order = shuffled(deck(4), secret)
    state = replay([GameStarted(4, RuleOptions(), first_dealer=1)])

    [event] = decide(state, DealHand(secret))

    # Dealer 1: seats 2, 3, 0, 1 receive the first four cards, then the trump is turned.
    assert event.hands == ((order[2],), (order[3],), (order[0],), (order[1],))
    assert event.trump_card == order[4]


def test_draw_is_uniform_over_the_range_and_deterministic() -> None:
    draws = [draw(6, derive_secret(b"seed", str(i))) for i in range(600)]

    assert draw(4, b"atu test vector") == 1
    assert set(draws) == set(range(6))
    assert all(60 <= draws.count(value) <= 140 for value in range(6))


def test_commitment_is_the_hex_sha256_of_the_secret() -> None:
    assert commitment(b"abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


def test_derived_secrets_differ_by_label() -> None:
    assert derive_secret(b"seed", "hand-0") != derive_secret(b"seed", "hand-1")
    assert derive_secret(b"seed", "hand-0") == derive_secret(b"seed", "hand-0")
