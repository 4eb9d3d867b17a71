import pytest

from games.rules import (
    PRESET_TITLES,
    PRESETS,
    OneCardMode,
    RuleOptions,
    Schedule,
    Scoring,
    SpecialHand,
    Streak,
    ZeroPlayDeadline,
    options_from_dict,
    preset,
)
from games.rules.errors import InvalidOptions


def test_romanian_standard_is_the_reference_game() -> None:
    options = preset("romanian-standard")

    assert options.schedule is Schedule.ONE_EIGHT_ONE
    assert options.scoring is Scoring.FIVE_PLUS_BID
    assert options.must_trump is True
    assert options.one_card_mode is OneCardMode.NORMAL
    assert (options.streak_bonus, options.streak_penalty, options.zero_play) == (None, None, None)


def test_championship_is_each_dealer_once_with_five_plus_bid_and_must_trump() -> None:
    assert preset("championship") == RuleOptions(
        schedule=Schedule.EACH_DEALER_ONCE, scoring=Scoring.FIVE_PLUS_BID, must_trump=True
    )


def test_online_room_has_ten_up_ten_down_for_five_without_one_card_deals() -> None:
    options = preset("online-room")

    assert options.schedule is Schedule.ONE_EIGHT_ONE
    assert options.streak_bonus == Streak(5, 10)
    assert options.streak_penalty == Streak(5, -10)
    assert options.streaks_count_one_card_deals is False
    assert options.must_trump is True


def test_classic_app_scores_one_plus_bid_and_trumping_is_optional() -> None:
    options = preset("classic-app")

    assert options.scoring is Scoring.ONE_PLUS_BID
    assert options.must_trump is False
    assert options.repeat_one_card_deals is False


def test_every_preset_has_a_title() -> None:
    assert set(PRESET_TITLES) == set(PRESETS)
    assert PRESET_TITLES["championship"] == "Championship"


def test_an_unknown_preset_names_the_choices() -> None:
    with pytest.raises(InvalidOptions) as error:
        preset("poker")

    assert error.value.code == "invalid_options"
    assert error.value.message == (
        "unknown preset 'poker'; choose one of "
        "romanian-standard, championship, online-room, classic-app"
    )


def test_options_round_trip_through_a_json_dict() -> None:
    options = RuleOptions(
        schedule=Schedule.EIGHT_ONE_EIGHT,
        step=2,
        special_hands=(SpecialHand.ZERO_BID, SpecialHand.BLIND_BID),
        one_card_mode=OneCardMode.DEALER_CHOICE,
        scoring=Scoring.TRIANGULAR,
        streak_bonus=Streak(10, 30),
        streak_penalty=Streak(5, -5),
        zero_play=ZeroPlayDeadline.TEN_BEFORE_END,
    )

    data = options.to_dict()

    assert data["schedule"] == "8-1-8"
    assert data["special_hands"] == ["zero-bid", "blind-bid"]
    assert data["streak_bonus"] == {"length": 10, "points": 30}
    assert data["zero_play"] == "ten-before-end"
    assert options_from_dict(data) == options


def test_a_partial_dict_changes_only_what_it_names() -> None:
    options = options_from_dict({"scoring": "1+bid"}, base=preset("championship"))

    assert options == RuleOptions(schedule=Schedule.EACH_DEALER_ONCE, scoring=Scoring.ONE_PLUS_BID)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"trumps": True}, "unknown rule option 'trumps'"),
        ({"schedule": "1-9-1"}, "invalid value '1-9-1' for rule option 'schedule'"),
        ({"step": 3}, "the increment must be 1 or 2, not 3"),
        ({"step": "2"}, "invalid value '2' for rule option 'step'"),
        ({"must_trump": "yes"}, "invalid value 'yes' for rule option 'must_trump'"),
        ({"streak_bonus": {"length": 5}}, "for rule option 'streak_bonus'"),
        ({"streak_bonus": {"length": 5, "points": -10}}, "a streak bonus must be positive"),
        ({"streak_penalty": {"length": 0, "points": -5}}, "at least 1 deal"),
        ({"special_hands": ["nine-bid"]}, "for rule option 'special_hands'"),
        ({"scoring": None}, "invalid value None for rule option 'scoring'"),
    ],
)
def test_bad_options_are_refused_with_the_reason(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message.replace("(", r"\(")):
        options_from_dict(data)
