"""The rules of Romanian Whist as a pure library: no Django, no I/O.

A command is decided against a state and yields events; ``apply`` (or ``evolve``)
folds events into a new state; a game is the fold of its events (``replay``).
Everything is deterministic given the seed and the deal secrets.
"""

from games.rules.cards import Card, Suit, deck, format_cards, parse_card, parse_cards
from games.rules.commands import (
    AnnounceZeroPlay,
    ChooseOneCardMode,
    Command,
    DealHand,
    PlaceBid,
    PlayCard,
    StartGame,
)
from games.rules.engine import decide, legal_bids, legal_plays, visible_holdings
from games.rules.errors import RuleError
from games.rules.events import (
    EVENT_TYPES,
    SCHEMA_VERSION,
    BidPlaced,
    CardPlayed,
    Event,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    TrickTaken,
    ZeroPlayAnnounced,
    event_type,
    from_payload,
    to_payload,
)
from games.rules.options import (
    PRESET_TITLES,
    PRESETS,
    OneCardMode,
    OneCardRuns,
    RuleOptions,
    Schedule,
    Scoring,
    SpecialHand,
    Streak,
    Visibility,
    ZeroPlayDeadline,
    options_from_dict,
    preset,
)
from games.rules.schedule import DealSpec, build_schedule
from games.rules.state import GameState, Phase, apply, evolve, replay

__all__ = [
    "EVENT_TYPES",
    "PRESETS",
    "PRESET_TITLES",
    "SCHEMA_VERSION",
    "AnnounceZeroPlay",
    "BidPlaced",
    "Card",
    "CardPlayed",
    "ChooseOneCardMode",
    "Command",
    "DealHand",
    "DealSpec",
    "Event",
    "GameFinished",
    "GameStarted",
    "GameState",
    "HandDealt",
    "HandScored",
    "OneCardMode",
    "OneCardModeChosen",
    "OneCardRuns",
    "Phase",
    "PlaceBid",
    "PlayCard",
    "RuleError",
    "RuleOptions",
    "Schedule",
    "Scoring",
    "SpecialHand",
    "StartGame",
    "Streak",
    "Suit",
    "TrickTaken",
    "Visibility",
    "ZeroPlayAnnounced",
    "ZeroPlayDeadline",
    "apply",
    "build_schedule",
    "decide",
    "deck",
    "event_type",
    "evolve",
    "format_cards",
    "from_payload",
    "legal_bids",
    "legal_plays",
    "options_from_dict",
    "parse_card",
    "parse_cards",
    "preset",
    "replay",
    "to_payload",
    "visible_holdings",
]
