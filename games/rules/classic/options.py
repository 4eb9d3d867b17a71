"""Classic Whist's options: how trumps are chosen, honours, the points for game, a
rubber or the fixed deals of a tournament, and the named presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from games.rules.errors import InvalidOptions

GAME_TARGETS = (5, 7, 9)


class TrumpMethod(StrEnum):
    # The dealer's last card is turned face up for trump.
    TURNED = "turned"
    # Hearts, diamonds, spades, clubs, then hearts again (whist drives).
    ROTATION = "rotation"


@dataclass(frozen=True, slots=True)
class ClassicOptions:
    trumps: TrumpMethod = TrumpMethod.TURNED
    # With the rotation: every fifth hand is played without trumps.
    no_trump_every_fifth: bool = False
    # A K Q J of trumps: all four held by a side score it 4, three of them 2.
    honours: bool = False
    # Points for game: 5 (British), 7 (American) or 9 (Long Whist).
    target: int = 5
    # Best of three games rather than one game.
    rubber: bool = False
    # The tournament form: this many deals, each side scoring its odd tricks.
    deals: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.trumps, TrumpMethod):
            raise InvalidOptions(f"{self.trumps!r} is not a way to choose trumps")
        if self.no_trump_every_fifth and self.trumps is not TrumpMethod.ROTATION:
            raise InvalidOptions(
                "no-trump every fifth hand needs the fixed rotation of trumps, not the turned card"
            )
        if self.target not in GAME_TARGETS or isinstance(self.target, bool):
            raise InvalidOptions(f"game is 5, 7 or 9 points, not {self.target!r}")
        if self.deals is not None:
            if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
                raise InvalidOptions(
                    f"a tournament plays a fixed number of deals, at least 1, not {self.deals!r}"
                )
            if self.rubber:
                raise InvalidOptions("a tournament plays a fixed number of deals, not a rubber")
            if self.honours:
                raise InvalidOptions(
                    "in a tournament each player's score is the odd tricks of their side: "
                    "honours are not scored"
                )

    @property
    def tournament(self) -> bool:
        return self.deals is not None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict that :func:`options_from_dict` reads back."""
        return {
            "trumps": self.trumps.value,
            "no_trump_every_fifth": self.no_trump_every_fifth,
            "honours": self.honours,
            "target": self.target,
            "rubber": self.rubber,
            "deals": self.deals,
        }


_OPTION_NAMES = frozenset(f.name for f in fields(ClassicOptions))


def options_from_dict(
    data: Mapping[str, Any], base: ClassicOptions | None = None
) -> ClassicOptions:
    """Read options from a JSON-like mapping; absent keys keep ``base``'s values."""
    unknown = sorted(set(data) - _OPTION_NAMES)
    if unknown:
        raise InvalidOptions(f"unknown rule option {unknown[0]!r}")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "trumps":
            try:
                values[key] = TrumpMethod(value)
            except ValueError as error:
                raise InvalidOptions(f"invalid value {value!r} for rule option 'trumps'") from error
        elif key in ("no_trump_every_fifth", "honours", "rubber"):
            if not isinstance(value, bool):
                raise InvalidOptions(f"invalid value {value!r} for rule option {key!r}")
            values[key] = value
        else:
            if value is None and key == "deals":
                values[key] = None
            elif isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"invalid value {value!r} for rule option {key!r}")
            else:
                values[key] = value
    return replace(base or ClassicOptions(), **values)


PRESETS: dict[str, ClassicOptions] = {
    # "In Britain the game was 5 points up, but it was usual to play a rubber";
    # honours "was part of the traditional game".
    "british": ClassicOptions(honours=True, rubber=True),
    # "In America a target of 7 was customary." The text does not say whether
    # honours were counted; they are not here.
    "american": ClassicOptions(target=7),
    # '"Long Whist" in which game was 9 points.'
    "long-whist": ClassicOptions(target=9, honours=True),
    # Fixed trump rotation with a no-trump fifth hand, a fixed number of deals.
    # The text gives no number of deals; 24 is a common whist-drive length.
    "whist-drive": ClassicOptions(trumps=TrumpMethod.ROTATION, no_trump_every_fifth=True, deals=24),
}


PRESET_TITLES: dict[str, str] = {
    "british": "British (5 points, rubber, honours)",
    "american": "American (7 points)",
    "long-whist": "Long Whist (9 points, honours)",
    "whist-drive": "Whist drive (24 deals, rotating trumps)",
}


def max_hands(options: ClassicOptions) -> int:
    """The most hands a match can take: every hand scores at least one odd trick, so
    a game lasts at most ``2 * (target - 1) + 1`` hands, a rubber three games."""
    if options.deals is not None:
        return options.deals
    return (3 if options.rubber else 1) * (2 * options.target - 1)


def preset(name: str) -> ClassicOptions:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidOptions(
            f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None
