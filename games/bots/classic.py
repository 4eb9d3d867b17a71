"""Bots that play classic partnership Whist (:mod:`games.rules.classic`), with
the same names as the Romanian bots (:data:`games.bots.BOTS`) so that a seat's
bot works in either game.

A bot decides from a :class:`ClassicView`, what its seat may know when it is its
turn to play, never from the match state itself::

    command = choose_classic_command(state, seat, played=played_so_far)
    state = evolve(state, decide(state, command))

The heuristic bot plays the classic whist maxims: lead from the longest and
strongest side suit (trumps when holding five of them), a winner or the top of
a sequence, else a low card; second hand low; third hand high, with the cheapest
card that beats the trick and cannot be beaten in its suit, else the highest
(the lowest of touching top cards), unless partner is winning already with a
card nobody can beat in its suit; fourth hand wins as cheaply as it can when the
opponents are winning, and plays low otherwise. A player void in the suit led
trumps in with the lowest trump that wins when the opponents are winning, and
otherwise discards the lowest card of its weakest suit; no high card is wasted
on partner's trick. Ties go to the lower card: the decision depends on the view
alone. Only the random bot uses the ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from games.bots import LEVEL_NAMES
from games.rules.cards import Card, Suit
from games.rules.classic import (
    DECK,
    PLAYERS,
    ClassicState,
    Phase,
    PlayCard,
    side,
    visible_hands,
)
from games.rules.play import legal_cards, winning_index

__all__ = [
    "CLASSIC_BOTS",
    "ClassicBot",
    "ClassicView",
    "HeuristicClassicBot",
    "RandomClassicBot",
    "choose_classic_command",
    "classic_view",
]

_FULL_DECK = frozenset(DECK)
# Honour points of a suit's strength: A 4, K 3, Q 2, J 1.
HONOUR_POINTS = {14: 4, 13: 3, 12: 2, 11: 1}
# "With five trumps, lead them": a hand this long in trumps draws the others'.
TRUMP_LEAD = 5
# Touching cards from this rank up (10 and above) are led from the top.
SEQUENCE_RANK = 10


@dataclass(frozen=True, slots=True)
class ClassicView:
    """What ``seat`` may know when it is its turn to play a card."""

    seat: int
    dealer: int
    # None in a no-trump hand.
    trump: Suit | None
    # The turned trump, still face up in the dealer's hand (None once played,
    # or when trumps rotate).
    turned_up: Card | None
    own: tuple[Card, ...]
    trick_leader: int
    # The cards on the table, in the order played from the leader.
    trick: tuple[Card, ...]
    # Tricks taken this hand, by side.
    tricks: tuple[int, int]
    # Cards played in the tricks of this hand already taken.
    played: frozenset[Card]
    # The cards this seat may play now.
    legal_cards: tuple[Card, ...]
    # The cards this seat has not seen: the others' hands, the turned trump aside.
    unseen: frozenset[Card]

    @property
    def outstanding(self) -> frozenset[Card]:
        """The cards the three other seats hold: the unseen ones and the turned
        trump while it lies face up in another seat's hand."""
        if self.turned_up is None or self.seat == self.dealer:
            return self.unseen
        return self.unseen | {self.turned_up}


def classic_view(state: ClassicState, seat: int, played: Iterable[Card] = ()) -> ClassicView:
    """The view of ``seat``, whose turn to play it must be.

    ``played``: the cards played so far in the hand, those on the table included
    or not; without it the view knows only the last trick, all the state keeps.
    Raises ValueError outside the play or when it is not ``seat``'s turn.
    """
    if state.phase is not Phase.PLAYING:
        raise ValueError(f"no card is played in phase {state.phase.value}")
    if seat != state.turn:
        raise ValueError(f"it is seat {state.turn}'s turn, not seat {seat}'s")
    own = visible_hands(state, seat)[seat]
    earlier = set(played)
    if state.last_trick is not None:
        # The state keeps the last trick of this hand (none before the first).
        earlier.update(state.last_trick.cards)
    trick = state.trick
    earlier.difference_update(trick)
    turned = state.turned_up
    seen = earlier.union(own, trick)
    if turned is not None:
        seen.add(turned)
    return ClassicView(
        seat=seat,
        dealer=state.dealer,
        trump=state.trump,
        turned_up=turned,
        own=own,
        trick_leader=state.trick_leader,
        trick=trick,
        tricks=state.tricks,
        played=frozenset(earlier),
        legal_cards=legal_cards(own, state.led, state.trump, False),
        unseen=_FULL_DECK - seen,
    )


class ClassicBot(Protocol):
    name: str

    def choose_card(self, view: ClassicView, rng: random.Random) -> Card: ...


class HeuristicClassicBot:
    name = "heuristic"

    def choose_card(self, view: ClassicView, rng: random.Random) -> Card:
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        outstanding = view.outstanding
        if not view.trick:
            return _lead(view, outstanding)
        return _follow(view, outstanding)


class RandomClassicBot:
    """Uniform among the legal cards: a baseline for the others."""

    name = "random"

    def choose_card(self, view: ClassicView, rng: random.Random) -> Card:
        return rng.choice(view.legal_cards)


_HEURISTIC = HeuristicClassicBot()
CLASSIC_BOTS: dict[str, ClassicBot] = {
    "heuristic": _HEURISTIC,
    "random": RandomClassicBot(),
    # Classic whist has no sampling bot: every level a seat may choose plays
    # the heuristic.
    **dict.fromkeys(LEVEL_NAMES, _HEURISTIC),
}


def choose_classic_command(
    state: ClassicState,
    seat: int,
    rng: random.Random | None = None,
    *,
    bot: str = "heuristic",
    played: Iterable[Card] = (),
) -> PlayCard:
    """The card the bot ``bot`` plays for ``seat`` when it is that seat's turn.

    ``played``: the cards played so far in the hand, which the state alone does
    not keep. Without ``rng`` the random bot is seeded from the position, so the
    same position always gets the same card. Raises ValueError for an unknown
    bot, outside the play, or when it is not ``seat``'s turn.
    """
    try:
        player = CLASSIC_BOTS[bot]
    except KeyError:
        raise ValueError(f"unknown bot {bot!r}; choose one of {', '.join(CLASSIC_BOTS)}") from None
    view = classic_view(state, seat, played)
    if rng is None:
        rng = random.Random(f"{state.hand}/{seat}/{len(view.played)}/{len(view.trick)}")
    return PlayCard(seat, player.choose_card(view, rng))


# --- the heuristic --------------------------------------------------------------


def _by_suit(cards: Iterable[Card]) -> dict[Suit, list[Card]]:
    """The cards of each suit held, lowest first."""
    suits: dict[Suit, list[Card]] = {}
    for card in sorted(cards):
        suits.setdefault(card.suit, []).append(card)
    return suits


def _is_master(card: Card, outstanding: frozenset[Card]) -> bool:
    """No other seat holds a higher card of its suit."""
    return not any(other.suit == card.suit and other > card for other in outstanding)


def _touching(low: Card, high: Card, outstanding: frozenset[Card]) -> bool:
    """Two cards of a suit worth the same: no other seat holds a card between them."""
    return not any(other.suit == low.suit and low < other < high for other in outstanding)


def _top_of_touching(cards: Sequence[Card], outstanding: frozenset[Card]) -> list[Card]:
    """The highest of ``cards`` (of one suit, lowest first) and those touching it,
    highest first."""
    group = [cards[-1]]
    for card in reversed(cards[:-1]):
        if not _touching(card, group[-1], outstanding):
            break
        group.append(card)
    return group


def _strength(cards: Sequence[Card], outstanding: frozenset[Card]) -> tuple[int, int]:
    """A suit's sure winners, then its honour points."""
    masters = sum(1 for card in cards if _is_master(card, outstanding))
    return masters, sum(HONOUR_POINTS.get(card.rank, 0) for card in cards)


def _lead(view: ClassicView, outstanding: frozenset[Card]) -> Card:
    suits = _by_suit(view.legal_cards)
    trump = view.trump
    trumps = suits.get(trump, []) if trump is not None else []
    sides = [suit for suit in suits if suit != trump]
    trumps_out = any(card.suit == trump for card in outstanding)
    if not sides or (len(trumps) >= TRUMP_LEAD and trumps_out):
        return _lead_from(trumps, outstanding)
    # The longest side suit, then the strongest; then the lower suit.
    suit = max(sides, key=lambda s: (len(suits[s]), *_strength(suits[s], outstanding), -s))
    return _lead_from(suits[suit], outstanding)


def _lead_from(cards: Sequence[Card], outstanding: frozenset[Card]) -> Card:
    """A winner, else the top of a sequence of high cards, else the lowest."""
    top = cards[-1]
    if _is_master(top, outstanding):
        return top
    if top.rank >= SEQUENCE_RANK and len(_top_of_touching(cards, outstanding)) > 1:
        return top
    return cards[0]


def _follow(view: ClassicView, outstanding: frozenset[Card]) -> Card:
    trick, trump, legal = view.trick, view.trump, view.legal_cards
    index = winning_index(trick, trump)
    best = trick[index]
    partner_winning = side((view.trick_leader + index) % PLAYERS) == side(view.seat)
    following = legal[0].suit == trick[0].suit
    # All of one suit: the suit led, or trumps when void in it.
    beaters = sorted(card for card in legal if _beats(card, best, trump))
    third = len(trick) == 2
    if partner_winning:
        if third and following and not _is_master(best, outstanding):
            # Third hand high over partner's card that may yet be beaten, with a
            # card that beats more than partner's does.
            useful = [card for card in beaters if not _touching(best, card, outstanding)]
            if useful:
                return _third_hand_high(useful, outstanding)
        return _low(view, outstanding)
    if not beaters:
        return _low(view, outstanding)
    if third and following:
        return _third_hand_high(beaters, outstanding)
    if following and len(trick) == 1:
        # Second hand low.
        return _low(view, outstanding)
    # Fourth hand, or void in the suit led: the cheapest card that wins.
    return beaters[0]


def _beats(card: Card, best: Card, trump: Suit | None) -> bool:
    if card.suit == best.suit:
        return card > best
    return card.suit == trump


def _third_hand_high(beaters: Sequence[Card], outstanding: frozenset[Card]) -> Card:
    """The cheapest of ``beaters`` (one suit, lowest first) nobody can beat in its
    suit; else the highest, the lowest of the cards touching it."""
    for card in beaters:
        if _is_master(card, outstanding):
            return card
    return _top_of_touching(beaters, outstanding)[-1]


def _low(view: ClassicView, outstanding: frozenset[Card]) -> Card:
    """The lowest card of the suit led, else a discard: the lowest card of the
    weakest suit, trumps kept."""
    legal = view.legal_cards
    if legal[0].suit == view.trick[0].suit:
        return min(legal)
    suits = _by_suit(legal)
    weakest = min(
        suits,
        key=lambda s: (s == view.trump, *_strength(suits[s], outstanding), len(suits[s]), s),
    )
    return suits[weakest][0]
