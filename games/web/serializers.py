"""The games API's bodies: requests parsed here, responses described here.

Game states and events come from :mod:`games.visibility` as they are; the response
serializers below only describe them for the OpenAPI schema (the API tests check
real responses against it).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.bots import DEFAULT_LEVEL, LEVEL_NAMES
from games.commands.actions import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from games.commands.inputs import MAX_VERSION, VISIBILITY_CHOICES, CommandSerializer
from games.models import Game
from games.read.selectors import PresetSummary
from games.rules import EVENT_TYPES, PRESETS, Phase, classic
from games.rules.options import (
    OneCardMode,
    OneCardRuns,
    Schedule,
    Scoring,
    SpecialHand,
    ZeroPlayDeadline,
)
from games.table import (
    CLASSIC,
    CLASSIC_STORED_TYPES,
    GAME_KINDS,
    PLACES,
    ROMANIAN,
    TABLE_EVENT_TYPES,
)


def _choices(enum: Any) -> list[str]:
    return [member.value for member in enum]


STATUS_CHOICES = _choices(Game.Status)
TURN_DEADLINE_HELP = (
    "When the seat to act is played by a bot if it has not acted (its turn timer, or a "
    "bot standing in for an absent player); null when neither runs (none set, nobody "
    "to act, a bot's seat, a paused game)."
)

# --- Rule options -------------------------------------------------------------------


class StreakSerializer(serializers.Serializer):
    length = serializers.IntegerField(min_value=1, help_text="Consecutive deals in the run.")
    points = serializers.IntegerField(help_text="Positive for a bonus, negative for a penalty.")


class RuleOptionsSerializer(serializers.Serializer):
    """Every option of a table's rules (see ``/rules/``)."""

    schedule = serializers.ChoiceField(_choices(Schedule))
    repeat_one_card_deals = serializers.BooleanField(
        help_text="As many one-card deals as players (true) or one."
    )
    repeat_eight_card_deals = serializers.BooleanField(
        help_text="As many eight-card deals as players (true) or one."
    )
    step = serializers.ChoiceField([1, 2], help_text="Cards added per deal on the ramp.")
    special_hands = serializers.ListField(
        child=serializers.ChoiceField(_choices(SpecialHand)),
        help_text="Closing eight-card hands, in order.",
    )
    one_card_mode = serializers.ChoiceField(_choices(OneCardMode))
    one_card_runs = serializers.ChoiceField(_choices(OneCardRuns))
    must_trump = serializers.BooleanField(
        help_text="When void in the suit led: must trump (true) or may discard."
    )
    scoring = serializers.ChoiceField(_choices(Scoring))
    streak_bonus = StreakSerializer(allow_null=True)
    streak_penalty = StreakSerializer(allow_null=True)
    streaks_count_one_card_deals = serializers.BooleanField()
    zero_play = serializers.ChoiceField(_choices(ZeroPlayDeadline), allow_null=True)


class RuleOptionsInputSerializer(RuleOptionsSerializer):
    """Any of the rule options; those left out keep the preset's (or the defaults')."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


@extend_schema_field(RuleOptionsInputSerializer)
class RuleOptionsField(serializers.DictField):
    """Passed on as given: the rules engine reads and checks the options
    (``invalid_options`` names the first one it cannot use)."""


# --- Requests -----------------------------------------------------------------------


class GameCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        list(GAME_KINDS),
        default=ROMANIAN,
        help_text="The game: Romanian Whist, or classic partnership Whist (4 players).",
    )
    player_count = serializers.IntegerField(help_text="3 to 6 (otherwise `invalid_player_count`).")
    preset = serializers.ChoiceField(
        [*PRESETS, *classic.PRESETS],
        required=False,
        allow_null=True,
        help_text="The rules to start from, a preset of the chosen game; the defaults "
        "(romanian-standard, or a classic game to 5) if left out.",
    )
    options = RuleOptionsField(required=False, help_text="Options changed from the preset.")
    turn_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        help_text="Seconds a seat has to act before a bot acts for it; none if left out.",
    )


def _level_field(what: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        list(LEVEL_NAMES), default=DEFAULT_LEVEL, help_text=f"The level of the bots {what}."
    )


class PlayNowSerializer(serializers.Serializer):
    player_count = serializers.IntegerField(
        default=4, help_text="3 to 6 (otherwise `invalid_player_count`)."
    )
    preset = serializers.ChoiceField(
        list(PRESETS),
        required=False,
        allow_null=True,
        help_text="The Romanian Whist rules to start from; romanian-standard if left out.",
    )
    options = RuleOptionsField(required=False, help_text="Options changed from the preset.")
    level = _level_field("in the other seats")


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        STATUS_CHOICES, required=False, help_text="Only the games in this status."
    )
    rematch_of = serializers.UUIDField(
        required=False,
        help_text="Only the rematch of this finished game (none until one of its players "
        "asks for it): a finished table asks this, which always answers 200.",
    )


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        default=0,
        help_text="The last sequence number already seen: only later events are returned.",
    )


class StateQuerySerializer(serializers.Serializer):
    at = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_VERSION,
        help_text="Replay: the finished game as it stood at this version, every hand open "
        "(409 `game_not_finished` while it is in play).",
    )


class RecordQuerySerializer(serializers.Serializer):
    download = serializers.BooleanField(
        default=False, help_text="Send as a file attachment, `atu-game-<CODE>.json`."
    )


class FillWithBotsSerializer(CommandSerializer):
    level = _level_field("seated")


class WaitingRoomSerializer(CommandSerializer):
    """Cancelling a table, or leaving one's seat: nothing but the command itself."""


# --- Responses (documentation only) ------------------------------------------------


class SeatViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    alias = serializers.CharField(allow_null=True, help_text="null while the seat is free.")


class GameSummarySerializer(serializers.Serializer):
    """A game as the lobby lists it: no cards."""

    id = serializers.UUIDField()
    code = serializers.CharField(help_text="The short code to share, like the id.")
    kind = serializers.ChoiceField(list(GAME_KINDS))
    place = serializers.ChoiceField(
        PLACES, help_text="`online`: played here; `room`: played with real cards."
    )
    status = serializers.ChoiceField(STATUS_CHOICES)
    player_count = serializers.IntegerField()
    preset = serializers.CharField()
    options = serializers.DictField(
        help_text="The game's rule options: those of Romanian Whist (see `/rules/`) "
        "or of classic Whist."
    )
    seats = SeatViewSerializer(many=True, help_text="The seats taken.")
    hand = serializers.IntegerField(help_text="Hands played so far.")
    hands_total = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(child=serializers.IntegerField())
    version = serializers.IntegerField()
    rematch_of = serializers.UUIDField(
        allow_null=True, help_text="The finished game this one plays again, if any."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class ResultSerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    cards = serializers.IntegerField()
    bids = serializers.ListField(child=serializers.IntegerField())
    tricks = serializers.ListField(child=serializers.IntegerField())
    points = serializers.ListField(child=serializers.IntegerField())
    streak_points = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=serializers.IntegerField())


class DealsSerializer(serializers.Serializer):
    seed = serializers.CharField(help_text="Hex; draws the first dealer.")
    commitments = serializers.ListField(
        child=serializers.CharField(), help_text="SHA-256 of every hand's secret, in hex."
    )
    revealed = serializers.ListField(
        child=serializers.CharField(), help_text="The secrets of the hands played, in hex."
    )


class TrickSerializer(serializers.Serializer):
    leader = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())


class LastTrickSerializer(TrickSerializer):
    winner = serializers.IntegerField()


class HandViewSerializer(serializers.Serializer):
    """The hand in progress; the card fields only while bidding and playing."""

    number = serializers.IntegerField()
    cards = serializers.IntegerField()
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField()
    visibility = serializers.ChoiceField(VISIBILITY_CHOICES, allow_null=True)
    trump_card = serializers.CharField(required=False, allow_null=True)
    holdings = serializers.ListField(
        required=False,
        child=serializers.ListField(child=serializers.CharField(), allow_null=True),
        help_text="By seat, the cards you may see; null where you may not.",
    )
    held = serializers.ListField(
        required=False, child=serializers.IntegerField(), help_text="Cards held, by seat."
    )
    bids = serializers.ListField(required=False, child=serializers.IntegerField(allow_null=True))
    tricks = serializers.ListField(required=False, child=serializers.IntegerField())
    trick = TrickSerializer(required=False)
    last_trick = LastTrickSerializer(required=False, allow_null=True)


class ForbiddenBidSerializer(serializers.Serializer):
    bid = serializers.IntegerField()
    code = serializers.CharField(help_text="The rule that forbids it, like `dealer_bid_forbidden`.")
    message = serializers.CharField()


class LegalSerializer(serializers.Serializer):
    """What you may do now (all empty unless it is your turn)."""

    bids = serializers.ListField(child=serializers.IntegerField())
    forbidden_bids = ForbiddenBidSerializer(
        many=True, help_text="The bids from 0 to the cards dealt that you may not make, and why."
    )
    cards = serializers.ListField(child=serializers.CharField())
    hidden_card = serializers.BooleanField(help_text="Play your card unseen: send `card: null`.")
    modes = serializers.ListField(child=serializers.ChoiceField(VISIBILITY_CHOICES))


class EntrySerializer(serializers.Serializer):
    by = serializers.IntegerField(
        allow_null=True, help_text="The seat that wrote the deal down; null: the director."
    )
    confirmed = serializers.BooleanField()


class GameStateSerializer(serializers.Serializer):
    """A game of Romanian Whist as the requesting viewer may see it."""

    id = serializers.UUIDField()
    code = serializers.CharField()
    kind = serializers.CharField(help_text=f"`{ROMANIAN}`")
    place = serializers.ChoiceField(
        PLACES,
        help_text="`online`: played here; `room`: played with real cards, its deals "
        "written down here.",
    )
    status = serializers.ChoiceField(STATUS_CHOICES)
    version = serializers.IntegerField()
    player_count = serializers.IntegerField()
    preset = serializers.CharField()
    options = RuleOptionsSerializer()
    seats = SeatViewSerializer(many=True, help_text="Every seat, taken or free.")
    you = serializers.IntegerField(allow_null=True, help_text="Your seat; null to spectators.")
    phase = serializers.ChoiceField(_choices(Phase))
    hands_total = serializers.IntegerField()
    schedule = serializers.ListField(
        child=serializers.IntegerField(), help_text="The cards dealt in each hand, in order."
    )
    scores = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(child=serializers.IntegerField())
    zero_play = serializers.ListField(child=serializers.BooleanField())
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="The turn timer, in seconds; null when there is none."
    )
    turn_deadline = serializers.DateTimeField(allow_null=True, help_text=TURN_DEADLINE_HELP)
    bots = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="The bot playing each seat; null where a person plays.",
    )
    paused = serializers.BooleanField(help_text="Paused by its organizer: nobody moves.")
    spectator_delay = serializers.IntegerField(help_text="Seconds spectators lag behind.")
    screened = serializers.BooleanField(
        help_text="You watch a duplicate table whose deals are still in play elsewhere: "
        "no card is shown until every table of the set has finished."
    )
    first_dealer = serializers.IntegerField(help_text="The seat that dealt the first deal.")
    entries = EntrySerializer(
        many=True,
        help_text="A table in the room: who wrote each deal down, and whether it stands "
        "confirmed (empty at a table played here).",
    )
    results = ResultSerializer(many=True)
    deals = DealsSerializer()
    hand = HandViewSerializer(allow_null=True)
    legal = LegalSerializer()


class ClassicOptionsSerializer(serializers.Serializer):
    trumps = serializers.ChoiceField(_choices(classic.TrumpMethod))
    no_trump_every_fifth = serializers.BooleanField()
    honours = serializers.BooleanField()
    target = serializers.ChoiceField(list(classic.GAME_TARGETS))
    rubber = serializers.BooleanField()
    deals = serializers.IntegerField(
        allow_null=True, help_text="The tournament form's number of deals; null: play to points."
    )


class ClassicResultSerializer(serializers.Serializer):
    """One hand's score, by side (0: seats 0 and 2; 1: seats 1 and 3)."""

    hand = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game of the rubber the hand belongs to.")
    trump = serializers.ChoiceField(
        ["C", "D", "H", "S"], allow_null=True, help_text="The hand's trumps; null: no trump."
    )
    tricks = serializers.ListField(child=serializers.IntegerField())
    trick_points = serializers.ListField(child=serializers.IntegerField())
    honours = serializers.ListField(
        child=serializers.IntegerField(), help_text="Honours held by each side."
    )
    honour_points = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each side's points in the game."
    )


class GameWonSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    side = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    games = serializers.ListField(child=serializers.IntegerField())


class ClassicHandViewSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField()
    trump = serializers.ChoiceField(["C", "D", "H", "S"], allow_null=True)
    trump_card = serializers.CharField(allow_null=True)
    turned_up = serializers.CharField(
        allow_null=True,
        help_text="The turned trump, face up in the dealer's hand until the dealer plays.",
    )
    holdings = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(allow_null=True), allow_null=True),
        help_text="By seat, the cards you may see: your own, and the turned-up trump.",
    )
    held = serializers.ListField(child=serializers.IntegerField())
    tricks = serializers.ListField(child=serializers.IntegerField(), help_text="By side.")
    trick = TrickSerializer()
    last_trick = LastTrickSerializer(allow_null=True)


class ClassicLegalSerializer(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField())


class ClassicGameStateSerializer(serializers.Serializer):
    """A game of classic partnership Whist as the requesting viewer may see it."""

    id = serializers.UUIDField()
    code = serializers.CharField()
    kind = serializers.CharField(help_text=f"`{CLASSIC}`")
    place = serializers.ChoiceField(
        PLACES,
        help_text="`online`: played here; `room`: played with real cards, its deals "
        "written down here.",
    )
    status = serializers.ChoiceField(STATUS_CHOICES)
    version = serializers.IntegerField()
    player_count = serializers.IntegerField()
    preset = serializers.CharField()
    options = ClassicOptionsSerializer()
    seats = SeatViewSerializer(many=True)
    you = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(_choices(classic.Phase))
    turn_seconds = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True, help_text=TURN_DEADLINE_HELP)
    paused = serializers.BooleanField()
    spectator_delay = serializers.IntegerField()
    screened = serializers.BooleanField()
    bots = serializers.ListField(child=serializers.CharField(allow_null=True))
    deals = DealsSerializer()
    sides = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The seats of each partnership: [[0, 2], [1, 3]].",
    )
    hands_total = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField(help_text="The game of the rubber in play.")
    scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each side's points in the game in play."
    )
    games = serializers.ListField(child=serializers.IntegerField())
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each side's points over the match."
    )
    seat_points = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    results = ClassicResultSerializer(many=True)
    game_results = GameWonSerializer(many=True)
    hand = ClassicHandViewSerializer(allow_null=True)
    legal = ClassicLegalSerializer()


class EventViewSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    type = serializers.ChoiceField(
        sorted({*TABLE_EVENT_TYPES, *EVENT_TYPES, *CLASSIC_STORED_TYPES})
    )
    payload = serializers.DictField(
        child=serializers.JSONField(),
        help_text="The event's fields; cards you may not see are null.",
    )
    recorded_at = serializers.DateTimeField()


class CommandResponseSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version now.")
    events = EventViewSerializer(
        many=True, help_text="What the command appended, as you may see it."
    )
    replayed = serializers.BooleanField(
        help_text="True when this answers a retry: nothing new was appended."
    )


class EventsResponseSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventViewSerializer(many=True)


class PresetSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    options = serializers.SerializerMethodField()
    sequences = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Cards dealt per hand, by player count.",
    )

    @extend_schema_field(RuleOptionsSerializer)
    def get_options(self, preset: PresetSummary) -> dict[str, Any]:
        return preset.options.to_dict()
