"""Classic partnership Whist (rules text 003): each worked statement of the text
as a test, with the sentence quoted above it."""

from __future__ import annotations

import json

import pytest

from games.rules.cards import Suit, format_cards, parse_card, parse_cards
from games.rules.classic import (
    DECK,
    CardPlayed,
    ClassicEvent,
    ClassicOptions,
    ClassicState,
    Command,
    DealHand,
    GameWon,
    HandDealt,
    HandScored,
    MatchFinished,
    MatchStarted,
    Phase,
    PlayCard,
    StartMatch,
    TrickTaken,
    TrumpMethod,
    deal_trump,
    decide,
    event_type,
    evolve,
    from_payload,
    honours_held,
    legal_plays,
    options_from_dict,
    preset,
    replay,
    to_payload,
    visible_hands,
)
from games.rules.commands import PlaceBid
from games.rules.errors import (
    CardNotInHand,
    GameOver,
    InvalidOptions,
    InvalidSecret,
    MustFollowSuit,
    NoSuchSeat,
    NotInThisGame,
    NotYourTurn,
    WrongPhase,
)
from games.rules.shuffle import draw
from tests.games.rules.test_shuffle import documented_shuffle

SECRET = b"a deal secret of 32 bytes......."
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
PLAIN = ClassicOptions()
HONOURS = ClassicOptions(honours=True)

# Four hands of 13, one suit each: North the spades, East the clubs, South the
# diamonds, West the hearts.
FOUR_SUITS = (
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
)


def started(options: ClassicOptions = PLAIN, dealer: int = WEST) -> ClassicState:
    """A match waiting for its first hand, dealt by ``dealer``."""
    return replay([MatchStarted(options, first_dealer=dealer)])


def dealt(
    state: ClassicState,
    *hands: str,
    trump: Suit | None = Suit.HEARTS,
    trump_card: str | None = None,
) -> ClassicState:
    """``state`` after the next hand is dealt with the given cards, seat by seat."""
    event = HandDealt(
        state.hand,
        state.dealer,
        tuple(tuple(sorted(parse_cards(hand))) for hand in hands),
        trump,
        None if trump_card is None else parse_card(trump_card),
    )
    return evolve(state, [event])


def run(state: ClassicState, *commands: Command) -> tuple[ClassicState, list[ClassicEvent]]:
    events: list[ClassicEvent] = []
    for command in commands:
        new = decide(state, command)
        events.extend(new)
        state = evolve(state, new)
    return state, events


def play(state: ClassicState, *cards: str) -> tuple[ClassicState, list[ClassicEvent]]:
    """Each card played in turn by whoever is to play."""
    events: list[ClassicEvent] = []
    for text in cards:
        state, new = run(state, PlayCard(state.turn, parse_card(text)))
        events.extend(new)
    return state, events


def hands_with_honours(
    honours: dict[int, str], trump: Suit = Suit.HEARTS
) -> tuple[tuple[str, ...], str]:
    """Four hands of 13 where each seat of ``honours`` holds those trumps; the
    other cards go round. Also the trump suit's letter."""
    given = {seat: parse_cards(cards) for seat, cards in honours.items()}
    taken = {c for cards in given.values() for c in cards}
    rest = [c for c in DECK if c not in taken]
    hands = [list(given.get(seat, ())) for seat in range(4)]
    for seat in range(4):
        while len(hands[seat]) < 13:
            hands[seat].append(rest.pop())
    return tuple(format_cards(hand) for hand in hands), trump.letter


def at_last_trick(
    options: ClassicOptions = PLAIN,
    *,
    tricks: tuple[int, int],
    scores: tuple[int, int] = (0, 0),
    games: tuple[int, int] = (0, 0),
    honours: dict[int, str] | None = None,
    trump: Suit | None = Suit.HEARTS,
    hand: int = 0,
) -> ClassicState:
    """A hand dealt by West with 12 tricks played (``tricks`` by side), North to
    lead the last; ``honours`` says who was dealt which honours. Setting the
    fields stands in for the hands and tricks before, which the test does not
    care about."""
    state = started(options, dealer=WEST)
    state.hand, state.scores, state.games, state.game = hand, scores, games, sum(games)
    state.first_dealer = (WEST - hand) % 4
    hands, _ = hands_with_honours(honours or {})
    state = dealt(state, *hands, trump=trump)
    state.tricks, state.trick_number, state.turned_up = tricks, 12, None
    return state


def last_trick_to(state: ClassicState, team: int) -> list[ClassicEvent]:
    """The events of the last trick, led by North in clubs and won by ``team``
    (0: North-South, by South's ace; 1: East-West, by East's ace)."""
    cards = ("2C", "3C", "AC", "4C") if team == 0 else ("2C", "AC", "3C", "4C")
    state.holdings = tuple((parse_card(c),) for c in cards)
    _, events = play(state, *cards)
    return events


def scored(events: list[ClassicEvent]) -> HandScored:
    return next(e for e in events if isinstance(e, HandScored))


# --- cards, deal and trumps ------------------------------------------------------


# "A standard 52-card pack is used."
def test_the_pack_is_the_standard_52_cards_by_suit_then_rank() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    assert format_cards(DECK[:13]) == "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
    assert format_cards(DECK[-1:]) == "AS"


def test_first_dealer_is_drawn_from_the_seed_and_the_match_waits_for_the_deal() -> None:
    state, [event] = run(ClassicState(), StartMatch(ClassicOptions(), b"seed"))

    assert event == MatchStarted(ClassicOptions(), draw(4, b"seed"))
    assert state.phase is Phase.DEALING
    assert state.dealer == draw(4, b"seed")
    assert state.scores == state.games == (0, 0)


# "The dealer deals out all the cards one at a time so that each player has 13.
# The final card, which will belong to the dealer, is turned face up to indicate
# which suit is trump."
def test_deal_goes_one_at_a_time_from_the_dealers_left_and_turns_the_dealers_last_card() -> None:
    order = documented_shuffle([str(c) for c in DECK], SECRET)

    [event] = decide(started(dealer=SOUTH), DealHand(SECRET))

    assert isinstance(event, HandDealt)
    # Dealer South: West gets the first card, then North, East, South.
    assert [sorted(map(str, h)) for h in event.hands] == [
        sorted(order[1::4]),
        sorted(order[2::4]),
        sorted(order[3::4]),
        sorted(order[0::4]),
    ]
    assert str(event.trump_card) == order[51]
    assert event.trump_card in event.hands[SOUTH]
    assert event.trump is event.trump_card.suit


def test_deal_refuses_a_short_secret() -> None:
    with pytest.raises(InvalidSecret):
        decide(started(), DealHand(b"short"))


# "The turned trump remains face up on the table until it is dealer's turn to
# play to the first trick."
def test_the_turned_trump_is_seen_by_everyone_until_the_dealer_plays_to_the_first_trick() -> None:
    state = dealt(started(dealer=WEST), *FOUR_SUITS, trump_card="7H")
    ah, seven = parse_card("AH"), parse_card("7H")

    before = [visible_hands(state, viewer) for viewer in (NORTH, EAST, None)]
    state, _ = play(state, "2S", "2C", "2D")
    still = visible_hands(state, EAST)
    state, _ = play(state, "AH")
    after = visible_hands(state, EAST)

    assert before[0][WEST] == before[1][WEST] == before[2][WEST] == (seven,)
    assert before[0][NORTH] == state.dealt[NORTH] and before[1][NORTH] == ()
    assert before[2][NORTH] == ()
    assert still[WEST] == (seven,)
    assert after[WEST] == () and state.turned_up is None
    assert ah not in state.holdings[WEST] and seven in state.holdings[WEST]


# "for the first deal hearts are trumps, for the second deal diamonds, then
# spades, then clubs, then hearts again, and so on."
def test_fixed_trumps_go_hearts_diamonds_spades_clubs_then_hearts_again() -> None:
    options = ClassicOptions(trumps=TrumpMethod.ROTATION)

    trumps = [deal_trump(options, hand) for hand in range(6)]

    assert trumps == [
        Suit.HEARTS,
        Suit.DIAMONDS,
        Suit.SPADES,
        Suit.CLUBS,
        Suit.HEARTS,
        Suit.DIAMONDS,
    ]


# "It is also possible to introduce no trumps into the sequence - so that every
# fifth hand is played without trumps."
def test_with_no_trumps_every_fifth_hand_is_played_without_trumps() -> None:
    options = ClassicOptions(trumps=TrumpMethod.ROTATION, no_trump_every_fifth=True)

    trumps = [deal_trump(options, hand) for hand in range(10)]

    assert trumps == [Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS, None] * 2


def test_fixed_trumps_turn_no_card() -> None:
    options = ClassicOptions(trumps=TrumpMethod.ROTATION)

    [event] = decide(started(options), DealHand(SECRET))

    assert isinstance(event, HandDealt)
    assert event.trump is Suit.HEARTS and event.trump_card is None


def test_no_trump_needs_the_fixed_rotation() -> None:
    with pytest.raises(InvalidOptions, match="fixed rotation"):
        ClassicOptions(no_trump_every_fifth=True)


# --- play ----------------------------------------------------------------------


# "The player to the dealer's left leads to the first trick."
def test_the_player_left_of_the_dealer_leads_first() -> None:
    state = dealt(started(dealer=EAST), *FOUR_SUITS)

    assert state.turn == SOUTH
    with pytest.raises(NotYourTurn):
        decide(state, PlayCard(NORTH, parse_card("2S")))


# "Players must follow suit by playing a card of the same suit as the card led
# if they can"
def test_a_player_holding_the_suit_led_must_follow() -> None:
    state = dealt(started(), "2S AC", "3C 4S", "KD 5S", "2H 3H")
    state.holdings = state.dealt

    state, _ = play(state, "AC")

    assert legal_plays(state) == parse_cards("3C")
    with pytest.raises(MustFollowSuit, match="must follow suit: you hold clubs"):
        decide(state, PlayCard(EAST, parse_card("4S")))


# "a player with no card of the suit led may play any card."
def test_a_void_player_may_discard_while_holding_trumps() -> None:
    state = dealt(started(), "2S AC", "3S 4H", "KD 5S", "2H 3H", trump=Suit.HEARTS)
    state.holdings = state.dealt
    state, _ = play(state, "AC")

    assert legal_plays(state) == parse_cards("4H 3S")
    state, events = play(state, "3S")
    assert events == [CardPlayed(0, EAST, parse_card("3S"))]


# "The trick is won by the highest trump in it - or if it contains no trump, by
# the highest card of the suit led. The winner of a trick leads to the next."
def test_the_highest_trump_wins_and_its_player_leads_next() -> None:
    state = dealt(started(), "AC 2S", "2H 3S", "KC 4S", "3H 5S", trump=Suit.HEARTS)
    state.holdings = state.dealt

    state, events = play(state, "AC", "2H", "KC", "3H")

    assert events[-1] == TrickTaken(0, 0, NORTH, parse_cards("AC 2H KC 3H"), WEST)
    assert state.turn == WEST and state.tricks == (0, 1)


def test_without_trump_the_highest_card_of_the_suit_led_wins() -> None:
    state = dealt(started(), "10C 2S", "AS 3S", "KC 4S", "2C 5S", trump=Suit.HEARTS)
    state.holdings = state.dealt

    state, events = play(state, "10C", "AS", "KC", "2C")

    assert events[-1] == TrickTaken(0, 0, NORTH, parse_cards("10C AS KC 2C"), SOUTH)
    assert state.tricks == (1, 0)


def test_in_a_no_trump_hand_nothing_trumps() -> None:
    state = dealt(started(), "10C 2S", "2H 3S", "KC 4S", "3H 5S", trump=None)
    state.holdings = state.dealt

    _, events = play(state, "10C", "2H", "KC", "3H")

    assert events[-1] == TrickTaken(0, 0, NORTH, parse_cards("10C 2H KC 3H"), SOUTH)


def test_play_errors_are_typed() -> None:
    state = dealt(started(), *FOUR_SUITS)

    with pytest.raises(CardNotInHand, match="2C is not in your hand"):
        decide(state, PlayCard(NORTH, parse_card("2C")))
    with pytest.raises(NoSuchSeat):
        decide(state, PlayCard(4, parse_card("2S")))
    with pytest.raises(WrongPhase, match="has not been dealt"):
        decide(started(), PlayCard(NORTH, parse_card("2S")))
    with pytest.raises(WrongPhase, match="already started"):
        decide(state, StartMatch(ClassicOptions(), b"seed"))
    with pytest.raises(NotInThisGame, match="classic whist has no PlaceBid: players only play"):
        decide(state, PlaceBid(NORTH, 1))  # type: ignore[arg-type]


# --- odd tricks ------------------------------------------------------------------


# "When all 13 tricks have been played, the side which won more tricks scores 1
# point for each trick they won in excess of 6."
@pytest.mark.parametrize(
    ("before", "team", "tricks", "points"),
    [
        ((6, 6), 0, (7, 6), (1, 0)),
        ((6, 6), 1, (6, 7), (0, 1)),
        ((4, 8), 1, (4, 9), (0, 3)),
        ((12, 0), 0, (13, 0), (7, 0)),
    ],
)
def test_the_side_with_more_tricks_scores_one_point_per_trick_over_six(
    before: tuple[int, int], team: int, tricks: tuple[int, int], points: tuple[int, int]
) -> None:
    state = at_last_trick(tricks=before)

    event = scored(last_trick_to(state, team))

    assert event.tricks == tricks
    assert event.trick_points == points
    assert event.totals == points


def test_a_hand_that_does_not_reach_game_waits_for_the_next_deal_by_the_next_dealer() -> None:
    state = at_last_trick(tricks=(6, 6), scores=(2, 3))

    events = last_trick_to(state, 0)
    after = evolve(state, events)

    assert not any(isinstance(e, GameWon | MatchFinished) for e in events)
    assert after.phase is Phase.DEALING and after.scores == (3, 3)
    assert after.hand == 1 and after.dealer == NORTH


# "The partnership, which first reaches 5 points, wins the game."
def test_the_first_side_to_reach_five_wins_the_game() -> None:
    state = at_last_trick(tricks=(7, 5), scores=(3, 4))

    events = last_trick_to(state, 0)

    assert scored(events).totals == (5, 4)
    assert events[-2:] == [GameWon(0, 0, (5, 4), (1, 0)), MatchFinished(0, (1, 0), (2, 0))]
    assert evolve(state, events).phase is Phase.FINISHED


def test_points_past_the_target_still_win_the_game() -> None:
    state = at_last_trick(tricks=(2, 10), scores=(0, 4))

    events = last_trick_to(state, 1)

    assert scored(events).totals == (0, 9)
    assert GameWon(0, 1, (0, 9), (0, 1)) in events


def test_nothing_is_allowed_after_the_match_is_over() -> None:
    state = at_last_trick(tricks=(7, 5), scores=(3, 4))
    state = evolve(state, last_trick_to(state, 0))

    with pytest.raises(GameOver):
        decide(state, DealHand(SECRET))


# "In America a target of 7 was customary."
def test_american_game_is_seven_points() -> None:
    options = preset("american")

    short = last_trick_to(at_last_trick(options, tricks=(7, 5), scores=(3, 0)), 0)
    enough = last_trick_to(at_last_trick(options, tricks=(7, 5), scores=(5, 0)), 0)

    assert options.target == 7
    assert scored(short).totals == (5, 0) and not any(isinstance(e, GameWon) for e in short)
    assert GameWon(0, 0, (7, 0), (1, 0)) in enough


# 'There was also "Long Whist" in which game was 9 points.'
def test_long_whist_game_is_nine_points() -> None:
    options = preset("long-whist")

    short = last_trick_to(at_last_trick(options, tricks=(7, 5), scores=(6, 0)), 0)
    enough = last_trick_to(at_last_trick(options, tricks=(7, 5), scores=(7, 0)), 0)

    assert options.target == 9
    assert not any(isinstance(e, GameWon) for e in short)
    assert GameWon(0, 0, (9, 0), (1, 0)) in enough


def test_game_is_five_seven_or_nine() -> None:
    with pytest.raises(InvalidOptions, match="game is 5, 7 or 9 points, not 6"):
        ClassicOptions(target=6)


# --- honours -------------------------------------------------------------------


# "Honours are the top four trumps - A K Q J."
def test_honours_are_the_ace_king_queen_and_jack_of_trumps() -> None:
    hands, _ = hands_with_honours({NORTH: "AH KH", SOUTH: "JH", EAST: "QH 10H"})
    parsed = tuple(parse_cards(hand) for hand in hands)

    assert honours_held(parsed, Suit.HEARTS) == (3, 1)
    assert honours_held(parsed, None) == (0, 0)


# "A partnership, which between them held all four, honours in their hands score
# an extra 4 points, which they claim at the end of the play."
def test_a_side_holding_all_four_honours_scores_four() -> None:
    state = at_last_trick(HONOURS, tricks=(6, 6), honours={NORTH: "AH KH", SOUTH: "QH JH"})

    event = scored(last_trick_to(state, 1))

    assert event.honours == (4, 0)
    assert event.trick_points == (0, 1)
    assert event.honour_points == (4, 0)
    assert event.totals == (4, 1)


# "A side, which held three of the four honours, can claim 2 points for them."
def test_a_side_holding_three_honours_scores_two() -> None:
    state = at_last_trick(HONOURS, tricks=(6, 6), honours={EAST: "AH", WEST: "QH JH", NORTH: "KH"})

    event = scored(last_trick_to(state, 1))

    assert event.honours == (1, 3)
    assert event.honour_points == (0, 2)
    assert event.totals == (0, 3)


def test_two_honours_each_score_nothing() -> None:
    state = at_last_trick(HONOURS, tricks=(6, 6), honours={EAST: "AH KH", NORTH: "QH JH"})

    event = scored(last_trick_to(state, 0))

    assert event.honours == (2, 2) and event.honour_points == (0, 0)


# "Although scoring honours was part of the traditional game, nowadays many
# players do not count them."
def test_without_the_honours_option_honours_score_nothing() -> None:
    state = at_last_trick(tricks=(6, 6), honours={NORTH: "AH KH", SOUTH: "QH JH"})

    event = scored(last_trick_to(state, 1))

    assert event.honours == (4, 0) and event.honour_points == (0, 0)
    assert event.totals == (0, 1)


# "A team which at the start of the already has 4 points towards the 5 required
# for game cannot score honours on that deal."
def test_a_side_at_four_cannot_score_honours() -> None:
    state = at_last_trick(
        HONOURS, tricks=(6, 6), scores=(4, 0), honours={NORTH: "AH KH", SOUTH: "QH JH"}
    )

    events = last_trick_to(state, 1)

    assert scored(events).honour_points == (0, 0)
    assert scored(events).totals == (4, 1)
    assert not any(isinstance(e, GameWon) for e in events)


def test_a_side_at_three_may_score_honours_and_reach_game_with_them() -> None:
    state = at_last_trick(
        HONOURS, tricks=(6, 6), scores=(3, 2), honours={NORTH: "AH KH", SOUTH: "QH"}
    )

    events = last_trick_to(state, 1)

    assert scored(events).honour_points == (2, 0)
    assert scored(events).totals == (5, 3)
    assert GameWon(0, 0, (5, 3), (1, 0)) in events


def test_the_exception_applies_one_point_short_of_any_target() -> None:
    options = preset("long-whist")
    state = at_last_trick(options, tricks=(6, 6), scores=(8, 0), honours={NORTH: "AH KH QH JH"})

    assert scored(last_trick_to(state, 1)).honour_points == (0, 0)


# "If on the same deal one-side scores for tricks and the other side scores
# honours, the tricks are scored first. That means that if both sides would have
# reached 5 or more points, it is the side scoring for tricks that wins the game."
def test_tricks_are_scored_before_honours_so_tricks_win_the_race_to_game() -> None:
    state = at_last_trick(
        HONOURS, tricks=(6, 6), scores=(3, 4), honours={NORTH: "AH KH", SOUTH: "QH JH"}
    )

    events = last_trick_to(state, 1)

    assert scored(events).trick_points == (0, 1)
    assert scored(events).honour_points == (0, 0)
    assert scored(events).totals == (3, 5)
    assert GameWon(0, 1, (3, 5), (0, 1)) in events


def test_honours_still_score_when_the_tricks_do_not_reach_game() -> None:
    state = at_last_trick(
        HONOURS, tricks=(6, 6), scores=(3, 2), honours={NORTH: "AH KH", SOUTH: "QH JH"}
    )

    events = last_trick_to(state, 1)

    assert scored(events).totals == (7, 3)
    assert GameWon(0, 0, (7, 3), (1, 0)) in events


def test_there_are_no_honours_in_a_no_trump_hand() -> None:
    state = at_last_trick(HONOURS, tricks=(6, 6), trump=None, honours={NORTH: "AH KH QH JH"})

    event = scored(last_trick_to(state, 1))

    assert event.honours == (0, 0) and event.honour_points == (0, 0)


# --- rubber --------------------------------------------------------------------


RUBBER = ClassicOptions(rubber=True)


# "it was usual to play a rubber, which was the best of three games - that is,
# the winners were the first side to win two games."
def test_a_rubber_goes_on_after_the_first_game_with_fresh_scores() -> None:
    state = at_last_trick(RUBBER, tricks=(6, 6), scores=(4, 2))

    events = last_trick_to(state, 0)
    after = evolve(state, events)

    assert events[-1] == GameWon(0, 0, (5, 2), (1, 0))
    assert after.phase is Phase.DEALING
    assert after.game == 1 and after.games == (1, 0) and after.scores == (0, 0)
    assert after.points == (1, 0) and after.hand == 1


def test_a_rubber_ends_when_a_side_wins_two_games_without_a_third() -> None:
    state = at_last_trick(RUBBER, tricks=(6, 6), scores=(4, 2), games=(1, 0), hand=5)

    events = last_trick_to(state, 0)

    assert events[-2:] == [GameWon(1, 0, (5, 2), (2, 0)), MatchFinished(0, (2, 0), (1, 0))]


def test_a_rubber_at_one_game_all_is_decided_by_the_third() -> None:
    state = at_last_trick(RUBBER, tricks=(6, 6), scores=(0, 4), games=(1, 1), hand=9)

    events = last_trick_to(state, 1)

    assert events[-2:] == [GameWon(2, 1, (0, 5), (1, 2)), MatchFinished(1, (1, 2), (0, 1))]


def test_a_single_game_ends_the_match_without_a_rubber() -> None:
    state = at_last_trick(tricks=(6, 6), scores=(4, 2))

    assert last_trick_to(state, 0)[-1] == MatchFinished(0, (1, 0), (1, 0))


# --- tournament ----------------------------------------------------------------


# "Therefore it is usual to play a fixed number of deals, rather than a game.
# Each player's score is the total number of odd tricks (tricks above six) that
# their side has taken over the deals played."
def test_a_tournament_scores_each_player_their_sides_odd_tricks_over_fixed_deals() -> None:
    options = ClassicOptions(trumps=TrumpMethod.ROTATION, deals=3)
    state = at_last_trick(options, tricks=(1, 11), scores=(4, 9), hand=1)

    middle = last_trick_to(state, 1)
    after = evolve(state, middle)

    assert scored(middle).totals == (4, 15)
    assert not any(isinstance(e, GameWon | MatchFinished) for e in middle)
    assert after.scores == (4, 15) and after.phase is Phase.DEALING

    final = at_last_trick(options, tricks=(7, 5), scores=(4, 15), hand=2)
    final.points = (4, 15)
    events = last_trick_to(final, 0)
    assert events[-1] == MatchFinished(1, (0, 0), (6, 15))


def test_a_tournament_may_end_level() -> None:
    options = ClassicOptions(deals=1)
    state = at_last_trick(options, tricks=(6, 6), scores=(0, 0))
    state.scores = state.points = (0, 1)

    assert last_trick_to(state, 0)[-1] == MatchFinished(None, (0, 0), (1, 1))


def test_a_tournament_counts_no_honours_and_no_rubber() -> None:
    with pytest.raises(InvalidOptions, match="honours are not scored"):
        ClassicOptions(deals=24, honours=True)
    with pytest.raises(InvalidOptions, match="not a rubber"):
        ClassicOptions(deals=24, rubber=True)
    with pytest.raises(InvalidOptions, match="at least 1"):
        ClassicOptions(deals=0)


# --- options and payloads ------------------------------------------------------


def test_presets_follow_the_text() -> None:
    assert preset("british") == ClassicOptions(honours=True, rubber=True, target=5)
    assert preset("whist-drive").trumps is TrumpMethod.ROTATION
    with pytest.raises(InvalidOptions, match="unknown preset"):
        preset("bridge")


def test_options_round_trip_through_a_dict_and_reject_unknown_keys() -> None:
    for options in (ClassicOptions(), preset("british"), preset("whist-drive")):
        assert options_from_dict(json.loads(json.dumps(options.to_dict()))) == options
    with pytest.raises(InvalidOptions, match="unknown rule option 'bids'"):
        options_from_dict({"bids": 1})
    with pytest.raises(InvalidOptions, match="invalid value 'yes'"):
        options_from_dict({"honours": "yes"})


def test_events_round_trip_through_json_with_cards_and_suits_in_notation() -> None:
    state = started(preset("british"))
    [deal] = decide(state, DealHand(SECRET))
    events = [
        MatchStarted(preset("british"), 3),
        deal,
        *last_trick_to(at_last_trick(tricks=(7, 5), scores=(4, 0)), 0),
    ]

    payloads = [(event_type(e), json.loads(json.dumps(to_payload(e)))) for e in events]

    assert [from_payload(name, payload) for name, payload in payloads] == events
    assert payloads[1][1]["trump"] == deal.trump.letter  # type: ignore[union-attr]
    assert payloads[2][1]["card"] == "2C"
