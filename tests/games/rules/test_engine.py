import pytest

from games.rules import (
    AnnounceZeroPlay,
    BidPlaced,
    ChooseOneCardMode,
    DealHand,
    GameFinished,
    GameState,
    HandScored,
    OneCardMode,
    OneCardModeChosen,
    Phase,
    PlaceBid,
    PlayCard,
    RuleOptions,
    SpecialHand,
    StartGame,
    TrickTaken,
    Visibility,
    ZeroPlayAnnounced,
    ZeroPlayDeadline,
    decide,
    deck,
    evolve,
    legal_bids,
    legal_plays,
    parse_card,
    parse_cards,
    preset,
    visible_holdings,
)
from games.rules.errors import (
    CardNotInHand,
    DealerBidForbidden,
    GameOver,
    InvalidOneCardMode,
    InvalidOptions,
    InvalidPlayerCount,
    InvalidSecret,
    MustFollowSuit,
    MustTrump,
    NoSuchSeat,
    NotTheDealer,
    NotYourTurn,
    RuleError,
    WrongPhase,
    ZeroPlayNotAllowed,
)
from games.rules.shuffle import draw
from tests.games.rules.builders import dealt, run, started

PETER, JOHN, PEGGY = 0, 1, 2
SECRET = b"a deal secret of 32 bytes......."


def play(state: GameState, *cards: str) -> GameState:
    """Each card played in turn by whoever is to play."""
    for text in cards:
        state, _ = run(state, PlayCard(state.turn, parse_card(text)))
    return state


def bid(state: GameState, *bids: int) -> GameState:
    for value in bids:
        state, _ = run(state, PlaceBid(state.turn, value))
    return state


def test_first_dealer_is_drawn_from_the_seed_and_the_game_waits_for_the_deal() -> None:
    [event] = decide(GameState(), StartGame(4, RuleOptions(), b"seed"))

    state, _ = run(GameState(), StartGame(4, RuleOptions(), b"seed"))
    assert event.first_dealer == draw(4, b"seed")
    assert state.phase is Phase.DEALING
    assert state.dealer == event.first_dealer
    assert state.scores == (0, 0, 0, 0)


def test_start_refuses_a_table_of_two() -> None:
    with pytest.raises(InvalidPlayerCount):
        decide(GameState(), StartGame(2, RuleOptions(), b"seed"))


def test_a_deal_gives_each_player_the_schedules_cards_and_turns_the_next_for_trump() -> None:
    state = started(4, preset("championship"), dealer=3)

    state, [event] = run(state, DealHand(SECRET))

    dealt_cards = [c for hand in event.hands for c in hand]
    assert (event.hand, event.dealer, event.cards) == (0, 3, 1)
    assert [len(hand) for hand in event.hands] == [1, 1, 1, 1]
    assert event.trump_card is not None
    assert len({*dealt_cards, event.trump_card}) == 5
    assert set(dealt_cards) <= set(deck(4))
    assert state.phase is Phase.BIDDING
    assert state.turn == 0  # the player to the dealer's left bids first


def test_the_same_secret_deals_the_same_cards() -> None:
    first = decide(started(4), DealHand(SECRET))
    again = decide(started(4), DealHand(SECRET))
    other = decide(started(4), DealHand(b"another secret of 32 bytes......"))

    assert first == again
    assert first != other


def test_a_deal_needs_a_secret_of_sixteen_bytes_or_more() -> None:
    with pytest.raises(InvalidSecret):
        decide(started(4), DealHand(b"short"))


def test_eight_card_deals_use_the_whole_deck_and_have_no_trump() -> None:
    state = started(3, RuleOptions(special_hands=(SpecialHand.BLIND_BID,)), hand=21)

    [event] = decide(state, DealHand(SECRET))

    assert event.trump_card is None
    assert sorted(c for hand in event.hands for c in hand) == sorted(deck(3))


def test_reference_table_of_peter_john_and_peggy_replayed_through_the_engine() -> None:
    # 000's score table: four deals (1, 1, 1, 2 cards) of a 3-player game; Peggy deals first.
    state = started(3, preset("romanian-standard"), dealer=PEGGY)

    state = dealt(state, "AS", "9H", "KD", trump="9C")
    state = bid(state, 1, 0)  # Peter 1, John 0 ...
    assert legal_bids(state) == (1,)  # ... and Peggy is forced to say 1
    state = play(bid(state, 1), "AS", "9H", "KD")  # Peter makes his trick

    state = dealt(state, "10H", "9H", "AH", trump="9S")  # Peter deals; John leads
    state = play(bid(state, 0, 0, 0), "9H", "AH", "10H")  # Peggy takes it

    state = dealt(state, "10D", "JD", "9D", trump="9C")  # John deals; Peggy leads
    state = play(bid(state, 0, 1, 1), "9D", "10D", "JD")  # John takes it

    state = dealt(state, "9S 10S", "9H 10H", "AS KS", trump="9C")  # Peggy deals 2 each
    state = bid(state, 0, 2, 2)
    state = play(state, "9S", "9H", "KS", "AS", "10S", "10H")

    scoreboard = [(state.schedule[r.hand].cards, r.bids, r.totals) for r in state.results]
    assert scoreboard == [
        (1, (1, 0, 1), (6, 5, -1)),
        (1, (0, 0, 0), (11, 10, -2)),
        (1, (1, 1, 0), (10, 16, 3)),
        (2, (0, 2, 2), (15, 14, 10)),
    ]


def test_bidding_goes_clockwise_from_the_dealers_left_and_the_dealer_bids_last() -> None:
    state = dealt(started(3, dealer=JOHN), "AS", "KS", "QS", trump="9C")

    state, events = run(state, PlaceBid(PEGGY, 1), PlaceBid(PETER, 0))

    assert [(e.seat, e.bid) for e in events if isinstance(e, BidPlaced)] == [(2, 1), (0, 0)]
    with pytest.raises(DealerBidForbidden, match="the dealer may not bid 0"):
        decide(state, PlaceBid(JOHN, 0))
    with pytest.raises(NotYourTurn) as error:
        decide(state, PlaceBid(PEGGY, 1))
    assert error.value.message == "it is seat 1's turn, not seat 2's"


def test_the_play_starts_left_of_the_dealer_and_the_trick_winner_leads_next() -> None:
    state = started(3, dealer=PETER, hand=3)  # a 2-card deal
    state = dealt(state, "9H 10S", "AH KS", "JH AS", trump="9C")
    state = bid(state, 0, 1, 0)

    state, _ = run(state, PlayCard(JOHN, parse_card("AH")))
    with pytest.raises(NotYourTurn):
        decide(state, PlayCard(JOHN, parse_card("KS")))
    state, more = run(state, PlayCard(PEGGY, parse_card("JH")), PlayCard(PETER, parse_card("9H")))

    [taken] = [e for e in more if isinstance(e, TrickTaken)]
    assert taken == TrickTaken(3, 0, JOHN, parse_cards("AH JH 9H"), JOHN)
    assert state.turn == JOHN
    assert state.tricks == (0, 1, 0)
    assert state.last_trick == taken


def test_illegal_cards_are_refused_with_the_rule_they_break() -> None:
    state = started(3, dealer=PETER, hand=3)
    state = dealt(state, "9H 10S", "AH KS", "JD AS", trump="9S")
    state = bid(state, 0, 1, 0)
    state = play(state, "AH")

    with pytest.raises(MustTrump):  # Peggy has no heart but holds the ace of trumps
        decide(state, PlayCard(PEGGY, parse_card("JD")))
    with pytest.raises(CardNotInHand):
        decide(state, PlayCard(PEGGY, parse_card("KS")))
    state = play(state, "AS")
    with pytest.raises(MustFollowSuit):
        decide(state, PlayCard(PETER, parse_card("10S")))


def test_trumping_is_optional_in_the_classic_app() -> None:
    state = started(3, preset("classic-app"), dealer=PETER, hand=1)
    state = dealt(state, "9H 10S", "AH KS", "JD AS", trump="9S")
    state = play(bid(state, 0, 1, 0), "AH")

    assert legal_plays(state) == parse_cards("JD AS")
    play(state, "JD")


def test_the_last_card_of_a_hand_scores_it_and_the_next_dealer_deals() -> None:
    state = dealt(started(3, dealer=PEGGY), "AS", "9H", "KD", trump="9C")
    state = bid(state, 1, 0, 1)

    state, events = run(
        state,
        PlayCard(PETER, parse_card("AS")),
        PlayCard(JOHN, parse_card("9H")),
        PlayCard(PEGGY, parse_card("KD")),
    )

    assert events[-1] == HandScored(0, (1, 0, 1), (1, 0, 0), (6, 5, -1), (0, 0, 0), (6, 5, -1))
    assert state.phase is Phase.DEALING
    assert (state.hand, state.dealer) == (1, PETER)


def test_the_last_hand_finishes_the_game_with_places_ties_sharing() -> None:
    state = started(3, dealer=PETER, hand=20, scores=(10, 4, 5))  # the last of 21
    state = dealt(state, "AH", "9H", "KD", trump="9C")
    state = bid(state, 0, 0, 0)  # John, Peggy, Peter: forbidden would be 1

    state, events = run(
        state,
        PlayCard(JOHN, parse_card("9H")),
        PlayCard(PEGGY, parse_card("KD")),
        PlayCard(PETER, parse_card("AH")),
    )

    assert events[-1] == GameFinished((9, 9, 10), (2, 2, 1), ())
    assert state.phase is Phase.FINISHED
    assert state.places == (2, 2, 1)
    with pytest.raises(GameOver):
        decide(state, PlaceBid(PETER, 0))


def test_commands_out_of_phase_name_what_is_awaited() -> None:
    state = started(3)

    with pytest.raises(WrongPhase, match="the next hand has not been dealt"):
        decide(state, PlaceBid(state.turn, 0))
    state, _ = run(state, DealHand(SECRET))
    with pytest.raises(WrongPhase, match="the bidding is not over"):
        decide(state, PlayCard(state.turn, state.holdings[state.turn][0]))
    with pytest.raises(WrongPhase, match="has already started"):
        decide(state, StartGame(3, RuleOptions(), b"seed"))


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_there_is_no_such_seat(seat: object) -> None:
    state = dealt(started(3, dealer=PEGGY), "AS", "9H", "KD", trump="9C")

    with pytest.raises(NoSuchSeat):
        decide(state, PlaceBid(seat, 0))  # type: ignore[arg-type]


def test_a_command_the_game_does_not_know_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="is not a command"):
        decide(GameState(), "deal")  # type: ignore[arg-type]


def test_dealer_chooses_how_a_one_card_hand_is_played_before_dealing() -> None:
    options = RuleOptions(one_card_mode=OneCardMode.DEALER_CHOICE)
    state = started(4, options, dealer=2)

    assert state.phase is Phase.CHOOSING_MODE
    with pytest.raises(NotTheDealer):
        decide(state, ChooseOneCardMode(1, Visibility.FOREHEAD))
    with pytest.raises(WrongPhase, match="the dealer must first choose"):
        decide(state, DealHand(SECRET))
    with pytest.raises(InvalidOneCardMode, match="choose open, forehead or blind"):
        decide(state, ChooseOneCardMode(2, "sideways"))  # type: ignore[arg-type]
    state, events = run(state, ChooseOneCardMode(2, Visibility.FOREHEAD), DealHand(SECRET))

    assert events[0] == OneCardModeChosen(0, 2, Visibility.FOREHEAD)
    assert events[1].visibility is Visibility.FOREHEAD
    assert state.visibility is Visibility.FOREHEAD


def test_on_the_forehead_a_player_sees_every_card_but_their_own() -> None:
    state = dealt(started(3), "AS", "9H", "KD", trump="9C", visibility=Visibility.FOREHEAD)

    assert visible_holdings(state, JOHN) == (parse_cards("AS"), None, parse_cards("KD"))
    assert visible_holdings(state, None) == (None, None, None)


def test_in_a_blind_hand_nobody_sees_their_cards_until_the_bidding_is_over() -> None:
    state = dealt(started(3), "AS", "9H", "KD", trump="9C", visibility=Visibility.BLIND)

    assert visible_holdings(state, PETER) == (None, None, None)
    state = bid(state, 1, 1, 1)
    assert visible_holdings(state, PETER) == (parse_cards("AS"), None, None)


def test_in_an_open_hand_a_player_sees_only_their_own_cards() -> None:
    state = dealt(started(3), "AS", "9H", "KD", trump="9C")

    assert visible_holdings(state, PEGGY) == (None, None, parse_cards("KD"))
    assert visible_holdings(state, None) == (None, None, None)


@pytest.mark.parametrize(
    ("special", "forced"), [(SpecialHand.ZERO_BID, 0), (SpecialHand.EIGHT_BID, 8)]
)
def test_everyone_bids_the_forced_number_in_the_closing_special_hands(
    special: SpecialHand, forced: int
) -> None:
    state = started(3, RuleOptions(special_hands=(special,)), dealer=JOHN, hand=21)

    state, events = run(state, DealHand(SECRET))

    bids = [e for e in events if isinstance(e, BidPlaced)]
    assert [(e.seat, e.bid, e.forced) for e in bids] == [
        (PEGGY, forced, True),
        (PETER, forced, True),
        (JOHN, forced, True),
    ]
    assert state.phase is Phase.PLAYING
    assert state.turn == PEGGY


def test_blind_bid_special_hand_is_bid_before_seeing_with_the_dealer_rule() -> None:
    state = started(3, RuleOptions(special_hands=(SpecialHand.BLIND_BID,)), dealer=JOHN, hand=21)
    state, _ = run(state, DealHand(SECRET))

    assert state.visibility is Visibility.BLIND
    assert visible_holdings(state, PEGGY) == (None, None, None)
    state = bid(state, 3, 3)
    with pytest.raises(DealerBidForbidden, match="may not bid 2"):
        decide(state, PlaceBid(JOHN, 2))


def zero_play_game(deadline: ZeroPlayDeadline, hand: int = 0) -> GameState:
    return started(4, RuleOptions(zero_play=deadline), dealer=hand % 4, hand=hand)


def test_zero_play_is_announced_once_before_the_first_eight_card_deal() -> None:
    # Ten hands played; the eleventh, the first 8-card deal, not yet dealt.
    state = zero_play_game(ZeroPlayDeadline.MIDDLE, hand=10)

    state, events = run(state, AnnounceZeroPlay(2))

    assert events == [ZeroPlayAnnounced(2, 10)]
    assert state.zero_play == (False, False, True, False)
    with pytest.raises(ZeroPlayNotAllowed, match="already announced"):
        decide(state, AnnounceZeroPlay(2))
    state, _ = run(state, DealHand(SECRET))
    with pytest.raises(ZeroPlayNotAllowed, match="too late") as error:
        decide(state, AnnounceZeroPlay(1))
    assert error.value.code == "zero_play_not_allowed"


def test_zero_play_at_the_start_only_before_the_first_deal() -> None:
    state = zero_play_game(ZeroPlayDeadline.START)

    run(state, AnnounceZeroPlay(0))
    state, _ = run(state, DealHand(SECRET))
    with pytest.raises(ZeroPlayNotAllowed, match="too late"):
        decide(state, AnnounceZeroPlay(0))


def test_zero_play_is_refused_where_the_table_does_not_play_it() -> None:
    with pytest.raises(ZeroPlayNotAllowed, match="not played at this table"):
        decide(started(4), AnnounceZeroPlay(0))


def test_a_zero_player_who_ends_on_exactly_zero_wins() -> None:
    options = RuleOptions(zero_play=ZeroPlayDeadline.TEN_BEFORE_END)
    state = started(4, options, dealer=0, hand=23, scores=(20, 1, 8, -5))  # the last deal
    state = evolve(state, [ZeroPlayAnnounced(1, 0)])  # seat 1 announced at the start
    state = dealt(state, "AH", "9H", "KD", "7D", trump="8C")
    state = bid(state, 1, 1, 0, 0)  # seats 1, 2, 3, then the dealer, seat 0

    state, events = run(
        state,
        PlayCard(1, parse_card("9H")),
        PlayCard(2, parse_card("KD")),
        PlayCard(3, parse_card("7D")),
        PlayCard(0, parse_card("AH")),
    )

    # Seat 1 missed by one: 1 - 1 = 0; seat 3 also ends on 0 but did not announce.
    assert events[-1] == GameFinished((19, 0, 7, 0), (2, 1, 3, 4), (1,))


def test_streak_bonus_is_added_to_the_hands_points_and_marked_apart() -> None:
    options = RuleOptions(streak_bonus=preset("online-room").streak_bonus)
    state = started(3, options, dealer=PETER, hand=3)
    state.hits = (4, 0, 0)  # Peter has made his last four bids
    state = dealt(state, "9H 10S", "AH KS", "JD AS", trump="9C")  # 2 cards each
    state = bid(state, 1, 1, 1)  # John, Peggy, Peter

    state = play(state, "AH", "JD", "9H", "KS", "AS", "10S")

    assert state.results[-1].points == (-6 + 5, 6, 6)
    assert state.results[-1].streak_points == (0, 0, 0)
    assert state.hits == (0, 1, 1)


def test_options_are_checked_when_the_game_starts() -> None:
    with pytest.raises(InvalidOptions, match="increment must be 1 or 2"):
        RuleOptions(step=3)
