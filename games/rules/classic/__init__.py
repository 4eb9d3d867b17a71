"""Classic partnership Whist (rules text 003) as a pure library: no Django, no I/O.

Four players in fixed partnerships, partners facing: seats 0 and 2 are side 0,
seats 1 and 3 are side 1 (``side(seat) == seat % 2``). All 52 cards are dealt
one at a time clockwise from the dealer's left, so the last card goes to the
dealer; it is turned for trump (or the trump follows a fixed rotation). The
player left of the dealer leads; follow suit if you can, else play anything
(:mod:`games.rules.play` with ``must_trump=False``); the trick's winner leads.
The side with more tricks scores one point per trick over six.

The match is one game to 5, 7 or 9 points, a rubber (best of three games), or,
in the tournament form, a fixed number of deals. The same shape as the Romanian
engine: ``decide(state, command)`` yields events or raises a typed
:class:`~games.rules.errors.RuleError`; ``apply``/``evolve``/``replay`` fold
events into a :class:`ClassicState`. Hand and trick numbers count from 0 over the
whole match (a rubber's hands run on across its games). The modules are laid out as
the Romanian engine's: the table (seats, sides, the pack), options, commands, events,
state, scoring and engine; this package names what each offers.

Checking a deal: the deck is the 52 cards in the canonical order (clubs,
diamonds, hearts, spades, each from the 2 up to the ace), shuffled from the
hand's secret by :func:`games.rules.shuffle.shuffled`; card ``i`` of the
shuffled deck goes to seat ``(dealer + 1 + i) % 4``, and card 51 (the dealer's
last) is the turned trump.
"""

from games.rules.classic.commands import Command, StartMatch
from games.rules.classic.engine import (
    TRUMP_ROTATION,
    deal_trump,
    decide,
    legal_plays,
    visible_hands,
)
from games.rules.classic.events import (
    EVENT_TYPES,
    ClassicEvent,
    GameWon,
    HandDealt,
    HandScored,
    MatchFinished,
    MatchStarted,
    event_type,
    from_payload,
    to_payload,
)
from games.rules.classic.options import (
    GAME_TARGETS,
    PRESET_TITLES,
    PRESETS,
    ClassicOptions,
    TrumpMethod,
    max_hands,
    options_from_dict,
    preset,
)
from games.rules.classic.scoring import HONOUR_RANKS, honours_held, score_hand
from games.rules.classic.state import ClassicState, Phase, apply, evolve, replay
from games.rules.classic.table import DECK, PLAYERS, TRICKS, side
from games.rules.commands import DealHand, PlayCard
from games.rules.events import CardPlayed, TrickTaken

__all__ = [
    "DECK",
    "EVENT_TYPES",
    "GAME_TARGETS",
    "HONOUR_RANKS",
    "PLAYERS",
    "PRESETS",
    "PRESET_TITLES",
    "TRICKS",
    "TRUMP_ROTATION",
    "CardPlayed",
    "ClassicEvent",
    "ClassicOptions",
    "ClassicState",
    "Command",
    "DealHand",
    "GameWon",
    "HandDealt",
    "HandScored",
    "MatchFinished",
    "MatchStarted",
    "Phase",
    "PlayCard",
    "StartMatch",
    "TrickTaken",
    "TrumpMethod",
    "apply",
    "deal_trump",
    "decide",
    "event_type",
    "evolve",
    "from_payload",
    "honours_held",
    "legal_plays",
    "max_hands",
    "options_from_dict",
    "preset",
    "replay",
    "score_hand",
    "side",
    "to_payload",
    "visible_hands",
]
