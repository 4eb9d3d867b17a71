"""Rule options: every variation of the rules texts as a setting of one engine,
and the named presets that clubs ask for."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from games.rules.errors import InvalidOptions


class Schedule(StrEnum):
    """The shape of the sequence of cards dealt per hand."""

    ONE_EIGHT_ONE = "1-8-1"
    EIGHT_ONE_EIGHT = "8-1-8"
    EACH_DEALER_ONCE = "each-dealer-once"


class SpecialHand(StrEnum):
    """The closing 8-card hands of the reference rules."""

    BLIND_BID = "blind-bid"
    ZERO_BID = "zero-bid"
    EIGHT_BID = "eight-bid"


class Visibility(StrEnum):
    """Who sees a hand's cards while bidding (and, on the forehead, while playing)."""

    OPEN = "open"
    FOREHEAD = "forehead"
    BLIND = "blind"


class OneCardMode(StrEnum):
    NORMAL = "normal"
    FOREHEAD = "forehead"
    BLIND = "blind"
    DEALER_CHOICE = "dealer-choice"


class OneCardRuns(StrEnum):
    """Which runs of consecutive one-card deals the one-card mode applies to;
    the others are played normally."""

    ALL = "all"
    FIRST = "first"
    LAST = "last"
    FIRST_AND_LAST = "first-and-last"


class Scoring(StrEnum):
    FIVE_PLUS_BID = "5+bid"
    ONE_PLUS_BID = "1+bid"
    BID_PLUS_CARDS = "bid+cards"
    TRIANGULAR = "triangular"


class ZeroPlayDeadline(StrEnum):
    """When a zero-play announcement must be made at the latest."""

    START = "start"
    MIDDLE = "middle"
    TEN_BEFORE_END = "ten-before-end"


@dataclass(frozen=True, slots=True)
class Streak:
    """``points`` (a bonus if positive, a penalty if negative) for ``length``
    consecutive exact (or missed) bids."""

    length: int
    points: int


@dataclass(frozen=True, slots=True)
class RuleOptions:
    schedule: Schedule = Schedule.ONE_EIGHT_ONE
    # As many one-card (and eight-card) deals as players, or only one.
    repeat_one_card_deals: bool = True
    repeat_eight_card_deals: bool = True
    # Cards added per deal between the one-card and eight-card deals (1 or 2).
    step: int = 1
    special_hands: tuple[SpecialHand, ...] = ()
    one_card_mode: OneCardMode = OneCardMode.NORMAL
    one_card_runs: OneCardRuns = OneCardRuns.ALL
    # When void in the suit led: must trump (True) or may discard anything (False).
    must_trump: bool = True
    scoring: Scoring = Scoring.FIVE_PLUS_BID
    streak_bonus: Streak | None = None
    streak_penalty: Streak | None = None
    streaks_count_one_card_deals: bool = True
    zero_play: ZeroPlayDeadline | None = None

    def __post_init__(self) -> None:
        if self.step not in (1, 2):
            raise InvalidOptions(f"the increment must be 1 or 2, not {self.step}")
        for name, streak, sign in (
            ("streak bonus", self.streak_bonus, 1),
            ("streak penalty", self.streak_penalty, -1),
        ):
            if streak is None:
                continue
            if streak.length < 1:
                raise InvalidOptions(f"a {name} needs a run of at least 1 deal")
            if streak.points * sign <= 0:
                kind = "positive" if sign > 0 else "negative"
                raise InvalidOptions(f"a {name} must be {kind}, not {streak.points}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict that :func:`options_from_dict` reads back."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, Enum):
                data[key] = value.value
        data["special_hands"] = [hand.value for hand in self.special_hands]
        return data


_ENUM_FIELDS: dict[str, type[Enum]] = {
    "schedule": Schedule,
    "one_card_mode": OneCardMode,
    "one_card_runs": OneCardRuns,
    "scoring": Scoring,
    "zero_play": ZeroPlayDeadline,
}
_FIELD_NAMES = frozenset(f.name for f in fields(RuleOptions))


def options_from_dict(data: Mapping[str, Any], base: RuleOptions | None = None) -> RuleOptions:
    """Read options from a JSON-like mapping; absent keys keep ``base``'s values.

    Raises :class:`InvalidOptions` naming the first key or value it cannot use.
    """
    unknown = sorted(set(data) - _FIELD_NAMES)
    if unknown:
        raise InvalidOptions(f"unknown rule option {unknown[0]!r}")
    values: dict[str, Any] = {}
    for key, value in data.items():
        values[key] = _parse_field(key, value)
    return replace(base or RuleOptions(), **values)


def _parse_field(key: str, value: Any) -> Any:
    try:
        if key in _ENUM_FIELDS:
            return None if value is None and key == "zero_play" else _ENUM_FIELDS[key](value)
        if key == "special_hands":
            return tuple(SpecialHand(item) for item in value)
        if key in ("streak_bonus", "streak_penalty"):
            return None if value is None else Streak(int(value["length"]), int(value["points"]))
        if key == "step":
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError
            return value
        if not isinstance(value, bool):
            raise TypeError
        return value
    except (TypeError, ValueError, KeyError) as error:
        raise InvalidOptions(f"invalid value {value!r} for rule option {key!r}") from error


PRESETS: dict[str, RuleOptions] = {
    # The reference rules (000): 1-8-1, 5 + bid, must trump.
    "romanian-standard": RuleOptions(),
    # Competition format of the DT Association: each dealer deals each number once.
    "championship": RuleOptions(schedule=Schedule.EACH_DEALER_ONCE),
    # The online site (004): +10 / -10 for five exact / missed bids in a row,
    # one-card deals not counted.
    "online-room": RuleOptions(
        streak_bonus=Streak(5, 10),
        streak_penalty=Streak(5, -10),
        streaks_count_one_card_deals=False,
    ),
    # The online app (001): one one-card deal, several no-trump deals, 1 + bid,
    # trumping optional.
    "classic-app": RuleOptions(
        repeat_one_card_deals=False,
        must_trump=False,
        scoring=Scoring.ONE_PLUS_BID,
    ),
}

PRESET_TITLES: dict[str, str] = {
    "romanian-standard": "Romanian standard",
    "championship": "Championship",
    "online-room": "Online room",
    "classic-app": "Classic app",
}


def preset(name: str) -> RuleOptions:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidOptions(
            f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None
