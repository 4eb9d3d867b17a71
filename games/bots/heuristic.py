"""The heuristic bot: bids the tricks it expects and plays to make them exactly.

Each card gets a chance of winning a trick, from what the seat has seen: the
unseen cards above it in its suit (each held by an opponent with the chance
``others' cards / unseen cards``), the risk of a side suit being trumped, long
suits that outlast the others, lower trumps that can ruff another suit. Bidding
picks the bid with the best expected score over the distribution of tricks these
chances give; playing wins cheaply while tricks are missing and ducks otherwise.
Ties fall to the lower card, so a decision depends on the view alone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from games.bots.view import BotView
from games.rules import Card, Phase, Visibility
from games.rules.play import winning_index
from games.rules.scoring import hand_points

# A card below the top of its suit still wins when the seat's higher cards can
# draw every unseen card of the suit first.
LONG_SUIT = 0.35
# A card with as many lower cards of its suit as unseen higher ones wins this
# often per higher card (a guarded king: about half the time).
GUARDED = 0.45
# A trump below the highest wins about this often by ruffing another suit.
RUFF = 0.4
# ... once this many cards beyond the first are dealt; proportionally less before.
RUFF_ROUNDS = 4
# Following but not last: a winning card counts as safe from this chance on.
SAFE = 0.8


class HeuristicBot:
    name = "heuristic"

    def choose_mode(self, view: BotView, rng: random.Random) -> Visibility:
        # Open play leaves the dealer's forbidden bid as the only handicap; the
        # other modes add guessing for everyone, the dealer included.
        return Visibility.OPEN

    def choose_bid(self, view: BotView, rng: random.Random) -> int:
        own = view.own
        if own is not None and view.cards == 1:
            chances = [one_card_chance(view, own[0])]
        elif own is not None:
            chances = list(card_chances(view, own).values())
        elif view.visibility is Visibility.FOREHEAD and view.cards == 1:
            chances = [forehead_chance(view)]
        else:
            # Blind: each player takes cards / players tricks on average.
            chances = [1 / view.player_count] * view.cards
        return best_bid(view, trick_distribution(chances))

    def choose_card(self, view: BotView, rng: random.Random) -> Card:
        own = view.own
        assert own is not None and view.phase is Phase.PLAYING
        bid = view.bids[view.seat] or 0
        wants = bid > view.tricks[view.seat]
        chances = card_chances(view, own)
        legal = view.legal_cards
        if not view.trick:
            return _lead(legal, chances, wants)
        return _follow(view, legal, chances, wants)


def card_chances(view: BotView, own: Sequence[Card]) -> dict[Card, float]:
    """Each own card's estimated chance of taking a trick."""
    unseen = view.unseen
    opponents = view.player_count - 1
    others_held = sum(held for seat, held in enumerate(view.held) if seat != view.seat)
    total = len(unseen)
    in_opponents = others_held / total if total else 0.0
    # The chance that one given opponent holds one given unseen card.
    per_opponent = in_opponents / opponents
    trump = view.trump
    unseen_by_suit = [0, 0, 0, 0]
    for card in unseen:
        unseen_by_suit[card.suit] += 1
    own_by_suit: list[list[Card]] = [[], [], [], []]
    for card in sorted(own, reverse=True):
        own_by_suit[card.suit].append(card)
    # More cards, more rounds in which another suit can be ruffed.
    ruff = RUFF * min(1.0, (view.cards - 1) / RUFF_ROUNDS)
    chances: dict[Card, float] = {}
    for suit, cards in enumerate(own_by_suit):
        suit_unseen = unseen_by_suit[suit]
        for above, card in enumerate(cards):
            higher = sum(1 for c in unseen if c.suit == suit and c > card)
            chance = (1 - in_opponents) ** higher
            if higher and above >= suit_unseen:
                chance = max(chance, LONG_SUIT)
            if higher and len(cards) - above - 1 >= higher:
                # Guarded: enough lower cards to follow while the higher ones fall.
                chance = max(chance, GUARDED**higher)
            if trump is not None and suit != trump:
                chance *= 1 - _ruff_risk(
                    per_opponent, opponents, suit_unseen, above, unseen_by_suit[trump]
                )
            elif suit == trump:
                # A trump that is not the highest still wins often by ruffing.
                chance += (1 - chance) * ruff
            chances[card] = chance
    return chances


def _ruff_risk(
    per_opponent: float, opponents: int, suit_unseen: int, above: int, trumps_unseen: int
) -> float:
    """The chance that an opponent trumps the ``above + 1``-th round of a suit."""
    # Each earlier round takes about one card of the suit from every opponent.
    left = max(0, suit_unseen - above * opponents)
    void = (1 - per_opponent) ** left
    has_trump = 1 - (1 - per_opponent) ** trumps_unseen
    return 1 - (1 - void * has_trump) ** opponents


def one_card_chance(view: BotView, card: Card) -> float:
    """The chance that ``card`` wins a one-card hand: no opponent may hold a card
    that beats it and, unless it leads or is a trump, the suit led must be its own."""
    unseen = view.unseen
    trump = view.trump
    beaters = sum(
        1
        for other in unseen
        if (other.suit == card.suit and other > card)
        or (other.suit == trump and card.suit != trump)
    )
    opponents = view.player_count - 1
    safe = len(unseen) - beaters
    chance = comb(safe, opponents) / comb(len(unseen), opponents)
    if card.suit != trump and view.trick_leader != view.seat and safe:
        # The leader's card, none of the beaters, must be a lower card of the suit.
        lower = sum(1 for other in unseen if other.suit == card.suit and other < card)
        chance *= lower / safe
    return chance


def forehead_chance(view: BotView) -> float:
    """The chance of winning a one-card trick on the forehead: the seat sees every
    other card, so it counts the unseen cards that would win against them."""
    others = {seat: cards[0] for seat, cards in enumerate(view.holdings) if cards}
    candidates = view.unseen
    if not candidates:
        return 0.0
    n, leader, trump = view.player_count, view.trick_leader, view.trump
    wins = 0
    for mine in candidates:
        order = [others.get((leader + i) % n, mine) for i in range(n)]
        if (leader + winning_index(order, trump)) % n == view.seat:
            wins += 1
    return wins / len(candidates)


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """The chance of taking each number of tricks, the cards taken as independent."""
    distribution = [1.0]
    for chance in chances:
        step = [0.0] * (len(distribution) + 1)
        for tricks, weight in enumerate(distribution):
            step[tricks] += weight * (1 - chance)
            step[tricks + 1] += weight * chance
        distribution = step
    return distribution


def best_bid(view: BotView, distribution: Sequence[float]) -> int:
    """The bid of best expected score; when the dealer may not make it, the
    nearest allowed bid (the better of the two when both are as near)."""
    scoring, cards = view.options.scoring, view.cards

    def expected(bid: int) -> float:
        return sum(
            weight * hand_points(scoring, bid, tricks, cards)
            for tricks, weight in enumerate(distribution)
        )

    # The first of equals, so that a tie always goes the same way.
    wanted = max(range(cards + 1), key=lambda bid: (expected(bid), -bid))
    return min(view.legal_bids, key=lambda bid: (abs(bid - wanted), -expected(bid), bid))


def _lead(legal: Sequence[Card], chances: dict[Card, float], wants: bool) -> Card:
    if wants:
        return max(legal, key=lambda card: (chances[card], -card))
    return min(legal, key=lambda card: (chances[card], card))


def _follow(view: BotView, legal: Sequence[Card], chances: dict[Card, float], wants: bool) -> Card:
    trick, trump = view.trick, view.trump
    best = trick[winning_index(trick, trump)]
    winners = [card for card in legal if _beats(card, best, trump)]
    losers = [card for card in legal if card not in winners]
    last = len(trick) == view.player_count - 1
    cheapest = sorted(winners, key=lambda card: (card.suit == trump, card.rank))
    if wants:
        if not winners:
            # Keep the cards that may win later.
            return min(losers, key=lambda card: (chances[card], card))
        if last:
            return cheapest[0]
        for card in cheapest:
            if _holds(view, card) >= SAFE:
                return card
        return max(winners, key=lambda card: (_holds(view, card), -card))
    if losers:
        # The most dangerous card that cannot win this trick.
        return max(losers, key=lambda card: (chances[card], card))
    if last:
        # The trick is ours anyway: shed the card most likely to win another.
        return max(winners, key=lambda card: (chances[card], card))
    return cheapest[0]


def _beats(card: Card, best: Card, trump: int | None) -> bool:
    if card.suit == best.suit:
        return card > best
    return card.suit == trump


def _holds(view: BotView, card: Card) -> float:
    """The chance that nobody still to play this trick beats ``card``."""
    unseen = view.unseen
    if not unseen:
        return 1.0
    n, trump, led = view.player_count, view.trump, view.trick[0].suit
    after = [(view.seat + i) % n for i in range(1, n - len(view.trick))]
    holding = min(1.0, sum(view.held[seat] for seat in after) / len(unseen))
    beaters = sum(1 for other in unseen if other.suit == card.suit and other > card)
    # A trump beats a card of another suit only from a player void in the suit
    # led, which is likely once fewer of its cards are unseen than players follow.
    led_unseen = sum(1 for other in unseen if other.suit == led)
    if trump is not None and card.suit != trump and led_unseen < len(after):
        beaters += sum(1 for other in unseen if other.suit == trump)
    return (1 - holding) ** beaters
