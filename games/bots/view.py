"""What a bot may know: a :class:`BotView` built from a game state for one seat.

A bot decides from a view, never from the state, so that it cannot read another
seat's hidden cards (nor its own on the forehead, nor any in a blind hand before
the bidding ends). The view holds only what the seat sees at the table: the cards
``visible_holdings`` shows it, how many cards each seat still holds, the bids, the
tricks won, the trick on the table, the cards played earlier in the hand, the
trump card and the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.rules import (
    Card,
    CardPlayed,
    Event,
    GameState,
    Phase,
    RuleOptions,
    Visibility,
    deck,
    legal_bids,
    visible_holdings,
)
from games.rules.play import legal_cards


@dataclass(frozen=True, slots=True)
class BotView:
    seat: int
    player_count: int
    options: RuleOptions
    phase: Phase
    hand: int
    dealer: int
    # Cards dealt to each player this hand.
    cards: int
    visibility: Visibility | None
    # Each seat's cards as this seat sees them (None: hidden).
    holdings: tuple[tuple[Card, ...] | None, ...]
    # How many cards each seat still holds (public: everyone sees the backs).
    held: tuple[int, ...]
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    trump_card: Card | None
    trick_leader: int
    trick: tuple[Card, ...]
    # Cards played in the tricks of this hand already taken.
    played: frozenset[Card]
    legal_bids: tuple[int, ...]
    # The cards this seat may play; empty outside the play and while its own
    # cards are hidden (on the forehead, where the only card is played unseen).
    legal_cards: tuple[Card, ...]
    # The cards this seat has not seen: held by others unseen, or not dealt.
    unseen: frozenset[Card]
    # The cards of this hand in the order played, those on the table last, when
    # the caller gave them in order (else empty): who played what, and so who
    # showed a void by not following, is public at the table.
    sequence: tuple[Card, ...] = ()
    # Each seat's run of exact (and of missed) bids, for the streak rules.
    hits: tuple[int, ...] = ()
    misses: tuple[int, ...] = ()

    @property
    def own(self) -> tuple[Card, ...] | None:
        """This seat's cards, or None while it may not see them."""
        return self.holdings[self.seat] if self.holdings else None

    @property
    def trump(self) -> int | None:
        return None if self.trump_card is None else self.trump_card.suit


def bot_view(state: GameState, seat: int, played: Iterable[Card] | None = None) -> BotView:
    """The view of ``seat``, whose turn it must be to act.

    ``played``: the cards played so far in this hand, those on the table included
    or not (see :func:`played_in_hand`); without it the bot knows only the last
    trick, which is all the state keeps. Raises ValueError when it is not
    ``seat``'s turn.
    """
    _require_turn(state, seat)
    acting = state.phase in (Phase.BIDDING, Phase.PLAYING)
    holdings = visible_holdings(state, seat) if acting else ()
    own = holdings[seat] if holdings else None
    earlier: set[Card] = set(played or ())
    if state.last_trick is not None and state.last_trick.hand == state.hand:
        earlier.update(state.last_trick.cards)
    # The cards on the table are kept apart, in ``trick``.
    earlier.difference_update(state.trick)
    seen = earlier | set(state.trick)
    ordered = [c for c in played if c not in state.trick] if isinstance(played, Sequence) else []
    complete = len(ordered) == len(earlier) == state.player_count * sum(state.tricks)
    for cards in holdings:
        if cards is not None:
            seen.update(cards)
    if state.trump_card is not None:
        seen.add(state.trump_card)
    return BotView(
        seat=seat,
        player_count=state.player_count,
        options=state.options,
        phase=state.phase,
        hand=state.hand,
        dealer=state.dealer,
        cards=state.cards,
        visibility=state.visibility,
        holdings=holdings,
        held=tuple(len(cards) for cards in state.holdings),
        bids=state.bids,
        tricks=state.tricks,
        trump_card=state.trump_card,
        trick_leader=state.trick_leader,
        trick=state.trick,
        played=frozenset(earlier),
        legal_bids=legal_bids(state),
        legal_cards=(
            legal_cards(own, state.led, state.trump, state.options.must_trump)
            if state.phase is Phase.PLAYING and own is not None
            else ()
        ),
        unseen=frozenset(deck(state.player_count)) - seen if state.player_count else frozenset(),
        sequence=tuple(ordered) + state.trick if complete else (),
        hits=state.hits,
        misses=state.misses,
    )


def _require_turn(state: GameState, seat: int) -> None:
    phase = state.phase
    if phase is Phase.CHOOSING_MODE:
        if seat != state.dealer:
            raise ValueError(f"seat {seat} does not choose: seat {state.dealer} deals")
        return
    if phase not in (Phase.BIDDING, Phase.PLAYING):
        raise ValueError(f"no player acts in phase {phase.value}")
    if seat != state.turn:
        raise ValueError(f"it is seat {state.turn}'s turn, not seat {seat}'s")


def played_in_hand(events: Iterable[Event], hand: int) -> tuple[Card, ...]:
    """The cards played so far in hand ``hand``, in order, from a game's events."""
    return tuple(e.card for e in events if isinstance(e, CardPlayed) and e.hand == hand)
