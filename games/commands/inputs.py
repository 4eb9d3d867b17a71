"""What each command takes, checked as the REST API and the socket both receive it:
the same fields, bounds and words either way."""

from __future__ import annotations

import unicodedata
from typing import Any

from rest_framework import serializers

from games.bots import BOTS
from games.commands.aliases import MAX_ALIAS_LENGTH
from games.read.chat import MAX_TEXT_LENGTH, PHRASES
from games.rules import Visibility

# Versions and sequences are stored as PostgreSQL integers.
MAX_VERSION = 2**31 - 1
MAX_IDEMPOTENCY_KEY_LENGTH = 100
# Longer than any card ("10H"), short enough that errors do not echo essays.
MAX_CARD_LENGTH = 16
VISIBILITY_CHOICES = [member.value for member in Visibility]


class CommandSerializer(serializers.Serializer):
    """What every command may carry; the ``Idempotency-Key`` header may stand in for
    ``idempotency_key``."""

    idempotency_key = serializers.CharField(
        required=False,
        max_length=MAX_IDEMPOTENCY_KEY_LENGTH,
        help_text="A retry with the same key gets the first answer, with no second move.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        header = self.context.get("idempotency_header")
        if header is None:
            return attrs
        if not header.strip() or len(header) > MAX_IDEMPOTENCY_KEY_LENGTH:
            problem = f"the Idempotency-Key header is 1 to {MAX_IDEMPOTENCY_KEY_LENGTH} characters"
        elif attrs.get("idempotency_key", header) != header:
            problem = "differs from the Idempotency-Key header"
        else:
            return {**attrs, "idempotency_key": header}
        raise serializers.ValidationError({"idempotency_key": [problem]})


class JoinSerializer(CommandSerializer):
    alias = serializers.CharField(
        max_length=MAX_ALIAS_LENGTH,
        help_text="Your name at this table: of one alphabet, with no invisible or control "
        "character (`alias_invalid`), and unlike every other alias at it, look-alikes "
        "included (`alias_taken`).",
    )
    zero_play = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Announce zero play from the start (tables that play zero play only).",
    )


class MoveSerializer(CommandSerializer):
    """What every move of a seated player may carry."""

    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_VERSION,
        help_text="The version the move was decided on; a game that moved on since "
        "answers 409 `version_conflict` and the move is not made.",
    )
    seat = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=5,
        help_text="The seat acted for; only your own (otherwise 403 `not_your_seat`).",
    )


class BidSerializer(MoveSerializer):
    bid = serializers.IntegerField(
        help_text="Tricks you will take: 0 to the cards dealt (`bid_out_of_range`), "
        "and not the dealer's forbidden bid (`dealer_bid_forbidden`)."
    )


class CardField(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class PlaySerializer(MoveSerializer):
    card = CardField(
        allow_null=True,
        max_length=MAX_CARD_LENGTH,
        help_text='Rank then suit, like "AS", "10H" or "7D"; null plays your last card '
        "(on the forehead, where you cannot see it).",
    )


class ZeroPlaySerializer(MoveSerializer):
    pass


class SeatBotSerializer(CommandSerializer):
    seat = serializers.IntegerField(min_value=0, help_text="The seat a bot plays from now on.")
    bot = serializers.ChoiceField(
        sorted(BOTS), allow_null=True, help_text="The bot; null hands the seat back."
    )


class OneCardModeSerializer(MoveSerializer):
    mode = serializers.ChoiceField(
        VISIBILITY_CHOICES, help_text="How the dealer's one-card hand is played."
    )


# More than any deal has cards or seats: the rules name the exact bound they break.
MAX_DEAL_NUMBER = 64
MAX_COUNT = 52
MAX_SEATS = 6
MAX_REASON_LENGTH = 200


def _by_seat(what: str) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_COUNT),
        min_length=3,
        max_length=MAX_SEATS,
        help_text=f"Each seat's {what}, by seat (seat 0 first).",
    )


class DealSerializer(MoveSerializer):
    """A deal of a table in the room, as its scorer writes it down."""

    hand = serializers.IntegerField(
        min_value=0,
        max_value=MAX_DEAL_NUMBER,
        help_text="The deal, counted from 0: the next to record (`deal_out_of_schedule`).",
    )
    bids = _by_seat(
        "bid, made in turn from the dealer's left (`bid_out_of_range`, "
        "`dealer_bid_forbidden`, `forced_bid_broken`)"
    )
    tricks = _by_seat("tricks made, adding up to the cards dealt (`tricks_do_not_add_up`)")


class CorrectionSerializer(DealSerializer):
    hand = serializers.IntegerField(
        min_value=0,
        max_value=MAX_DEAL_NUMBER,
        help_text="A recorded deal, counted from 0 (`deal_not_recorded`).",
    )
    reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_REASON_LENGTH,
        help_text="Why; required once the deal is confirmed (`correction_needs_reason`).",
    )


class ConfirmationSerializer(MoveSerializer):
    hand = serializers.IntegerField(
        min_value=0,
        max_value=MAX_DEAL_NUMBER,
        help_text="A recorded deal, counted from 0, written by another seat "
        "(`confirmed_by_another`).",
    )


# --- Words at a table (decision 3506) --------------------------------------------------

# A line of text is one line, shown as it reads: no control character, line or
# paragraph separator, surrogate or private-use character, and no bidi embedding,
# override or isolate that would show it in another order than it is written.
REFUSED_IN_TEXT = frozenset({"Cc", "Cs", "Co", "Zl", "Zp"})
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _one_line(text: str) -> None:
    for character in text:
        if unicodedata.category(character) in REFUSED_IN_TEXT or character in BIDI_CONTROLS:
            raise serializers.ValidationError(
                f"a message is one line of text, without the character U+{ord(character):04X}"
            )


class SaySerializer(CommandSerializer):
    """A word said at a table: a quick phrase, or (at a casual table) a line of text;
    with an idempotency key, sent again after a lost answer, said once."""

    phrase = serializers.ChoiceField(
        sorted(PHRASES),
        required=False,
        help_text="A quick phrase, by its key; each reader reads it in their language.",
    )
    text = serializers.CharField(
        required=False,
        max_length=MAX_TEXT_LENGTH,
        validators=[_one_line],
        help_text=f"One line of free text, 1 to {MAX_TEXT_LENGTH} characters, at a casual "
        "table only (`phrases_only` at a championship's).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len({"phrase", "text"} & attrs.keys()) != 1:
            raise serializers.ValidationError("say a phrase or a text: one of them")
        return super().validate(attrs)


class ReportSerializer(serializers.Serializer):
    message = serializers.IntegerField(
        min_value=1, max_value=MAX_VERSION, help_text="The message reported, by its id."
    )
