import pytest

from games.rules import (
    OneCardMode,
    OneCardRuns,
    RuleOptions,
    Schedule,
    SpecialHand,
    Visibility,
    ZeroPlayDeadline,
    build_schedule,
    preset,
)
from games.rules.errors import InvalidPlayerCount
from games.rules.schedule import card_counts, zero_play_deadline


def counts(options: RuleOptions, players: int) -> list[int]:
    return [spec.cards for spec in build_schedule(options, players)]


def test_one_eight_one_for_four_players_is_the_24_deals_of_the_reference_rules() -> None:
    # 000: "1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1"
    assert counts(preset("romanian-standard"), 4) == [
        1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1,
    ]  # fmt: skip


def test_online_room_plays_the_same_one_eight_one_of_24_games() -> None:
    # 004: "1-1-1-1-2-3-4-5-6-7-8-8-8-8-7-6-5-4-3-2-1-1-1-1 ... in total 24 games"
    assert counts(preset("online-room"), 4) == counts(preset("romanian-standard"), 4)
    assert len(counts(preset("online-room"), 4)) == 24


def test_one_eight_one_repeats_one_and_eight_card_deals_once_per_player() -> None:
    assert counts(RuleOptions(), 3) == [
        1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1,
    ]  # fmt: skip
    assert counts(RuleOptions(), 6).count(1) == 12
    assert counts(RuleOptions(), 6).count(8) == 6


def test_eight_one_eight_for_four_players_matches_the_reference_rules() -> None:
    # 000: "8-8-8-8-7-6-5-4-3-2-1-1-1-1-2-3-4-5-6-7-8-8-8-8"
    assert counts(RuleOptions(schedule=Schedule.EIGHT_ONE_EIGHT), 4) == [
        8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8,
    ]  # fmt: skip


def test_each_dealer_once_deals_every_number_once_per_dealer() -> None:
    # 000: "1,1,1,1,2,2,2,2,3,3,3,3,...,8,8,8,8"
    assert counts(preset("championship"), 4) == [
        1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
        5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
    ]  # fmt: skip
    assert counts(preset("championship"), 5) == [k for k in range(1, 9) for _ in range(5)]


def test_app_with_one_one_card_deal_several_no_trump_deals_and_increment_one() -> None:
    # 001: "1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1 (4 players, 32 cards)"
    options = RuleOptions(repeat_one_card_deals=False, repeat_eight_card_deals=True, step=1)

    assert counts(options, 4) == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1]


def test_app_with_increment_two_gives_the_shorter_game() -> None:
    # 001: "1, 3, 5, 7, 8, 8, 8, 8, 7, 5, 3, 1"
    options = RuleOptions(repeat_one_card_deals=False, step=2)

    assert counts(options, 4) == [1, 3, 5, 7, 8, 8, 8, 8, 7, 5, 3, 1]


def test_classic_app_preset_uses_the_first_sequence_of_the_app_guide() -> None:
    assert counts(preset("classic-app"), 4) == [
        1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1,
    ]  # fmt: skip


def test_single_one_card_and_single_eight_card_deal_with_increment_two() -> None:
    options = RuleOptions(repeat_one_card_deals=False, repeat_eight_card_deals=False, step=2)

    assert counts(options, 5) == [1, 3, 5, 7, 8, 7, 5, 3, 1]
    assert counts(RuleOptions(schedule=Schedule.EIGHT_ONE_EIGHT, step=2), 3) == [
        8, 8, 8, 7, 5, 3, 1, 1, 1, 3, 5, 7, 8, 8, 8,
    ]  # fmt: skip


def test_special_hands_close_the_game_as_eight_card_deals_in_the_order_chosen() -> None:
    options = RuleOptions(
        special_hands=(SpecialHand.BLIND_BID, SpecialHand.ZERO_BID, SpecialHand.EIGHT_BID)
    )

    schedule = build_schedule(options, 4)

    closing = schedule[-3:]
    assert len(schedule) == 27
    assert [spec.special for spec in closing] == [
        SpecialHand.BLIND_BID,
        SpecialHand.ZERO_BID,
        SpecialHand.EIGHT_BID,
    ]
    assert [spec.cards for spec in closing] == [8, 8, 8]
    assert [spec.visibility for spec in closing] == [
        Visibility.BLIND,
        Visibility.OPEN,
        Visibility.OPEN,
    ]
    assert [spec.forced_bid for spec in closing] == [None, 0, 8]
    assert not any(spec.has_trump for spec in closing)


def test_only_eight_card_deals_have_no_trump() -> None:
    schedule = build_schedule(RuleOptions(), 4)

    assert [spec.cards for spec in schedule if not spec.has_trump] == [8, 8, 8, 8]


def visibilities(options: RuleOptions, players: int) -> list[str]:
    return [
        "-" if spec.cards > 1 else (spec.visibility or "choice")[0]
        for spec in build_schedule(options, players)
    ]


def test_one_card_mode_applies_to_every_run_of_one_card_deals_by_default() -> None:
    options = RuleOptions(one_card_mode=OneCardMode.FOREHEAD)

    assert "".join(visibilities(options, 3)) == "fff" + "-" * 15 + "fff"


def test_forehead_on_the_final_round_of_one_card_deals_only() -> None:
    options = RuleOptions(one_card_mode=OneCardMode.FOREHEAD, one_card_runs=OneCardRuns.LAST)

    assert "".join(visibilities(options, 3)) == "ooo" + "-" * 15 + "fff"


def test_blind_on_the_first_round_only() -> None:
    options = RuleOptions(one_card_mode=OneCardMode.BLIND, one_card_runs=OneCardRuns.FIRST)

    assert "".join(visibilities(options, 3)) == "bbb" + "-" * 15 + "ooo"


def test_forehead_on_the_central_round_of_eight_one_eight() -> None:
    options = RuleOptions(schedule=Schedule.EIGHT_ONE_EIGHT, one_card_mode=OneCardMode.FOREHEAD)

    assert "".join(visibilities(options, 3)) == "-" * 9 + "fff" + "-" * 9


def test_dealer_chooses_the_mode_of_the_first_and_last_runs() -> None:
    options = RuleOptions(
        one_card_mode=OneCardMode.DEALER_CHOICE, one_card_runs=OneCardRuns.FIRST_AND_LAST
    )

    assert "".join(visibilities(options, 3)) == "ccc" + "-" * 15 + "ccc"


@pytest.mark.parametrize("players", [0, 2, 7])
def test_three_to_six_players_only(players: int) -> None:
    with pytest.raises(InvalidPlayerCount) as error:
        card_counts(RuleOptions(), players)

    assert error.value.code == "invalid_player_count"
    assert error.value.message == f"Romanian Whist is played by 3 to 6 players, not {players}"


@pytest.mark.parametrize(
    ("options", "deadline"),
    [
        # Before the first 8-card deal of 1-8-1: deals 1..10 (four 1s, 2..7) may be dealt.
        (RuleOptions(zero_play=ZeroPlayDeadline.MIDDLE), 10),
        # Before the first 1-card deal of 8-1-8: four 8s and 7..2.
        (RuleOptions(schedule=Schedule.EIGHT_ONE_EIGHT, zero_play=ZeroPlayDeadline.MIDDLE), 10),
        # At least ten deals before the end of 24.
        (RuleOptions(zero_play=ZeroPlayDeadline.TEN_BEFORE_END), 14),
        (RuleOptions(zero_play=ZeroPlayDeadline.START), 0),
    ],
)
def test_zero_play_deadline_counts_the_deals_that_may_precede_the_announcement(
    options: RuleOptions, deadline: int
) -> None:
    assert zero_play_deadline(options, build_schedule(options, 4)) == deadline
