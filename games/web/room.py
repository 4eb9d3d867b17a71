"""The REST API of tables in the room: a scorer gives the table's PIN and chooses
their seat, then writes down each deal, corrects and confirms deals.

Who may: the table's players (signed in), its director (the organizer who opened
it), and a session that gave the table's PIN (:mod:`games.read.pins`; failures are
throttled per table). Each command is the one service of :mod:`games.commands.actions`
it names; its idempotency key makes an entry sent again after a lost connection
apply once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.commands import actions
from games.commands.inputs import ConfirmationSerializer, CorrectionSerializer, DealSerializer
from games.errors import ScorerOnly, WrongPin
from games.models import Game
from games.read.pins import PIN_DIGITS, grant_seat, pin_matches
from games.read.selectors import room_game, scored_game, scorer_of
from games.web.api import (
    REF_PARAMETER,
    TAGS,
    CommandView,
    command_answer,
    command_schema,
    parse_input,
)
from games.write.path import CommandResult
from runtime.api_docs import errors
from runtime.throttling import AttemptKey, take_attempt


class PinSerializer(serializers.Serializer):
    pin = serializers.RegexField(
        rf"^\s*\d{{{PIN_DIGITS}}}\s*$",
        help_text=f"The {PIN_DIGITS} digits printed on the table card.",
    )
    seat = serializers.IntegerField(
        min_value=0, max_value=5, help_text="The seat you sit in, counted from 0."
    )


class PinAnswerSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="The table's share code.")
    seat = serializers.IntegerField()


class ScorerView(APIView):
    """This session scores the table from the seat it names, once it gives the PIN."""

    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        operation_id="games_scorer",
        summary="Score a table in the room with its PIN",
        parameters=[REF_PARAMETER],
        request=PinSerializer,
        responses={200: PinAnswerSerializer, **errors(400, 403, 404, 429)},
    )
    def post(self, request: Request, ref: str) -> Response:
        SessionAuthentication().enforce_csrf(request)
        data = parse_input(PinSerializer, request.data)
        game = room_game(ref)
        # Wrong PINs are counted per table, wherever they come from (a room's phones
        # share one address): the budget stops guessing long before it could succeed.
        attempt = take_attempt(AttemptKey("table-pin", str(game.id)))
        if not pin_matches(game.id, data["pin"]):
            raise WrongPin()
        attempt.succeeded()
        if data["seat"] >= game.player_count:
            raise serializers.ValidationError(
                {"seat": [f"this table has seats 0 to {game.player_count - 1}"]}
            )
        grant_seat(request.session, game.id, data["seat"])
        return Response({"game": game.code, "seat": data["seat"]})


class DealCommandView(CommandView):
    """A command of a table in the room, by a signed-in player or director, or by a
    session that gave the table's PIN."""

    permission_classes = [AllowAny]

    def post(self, request: Request, ref: str) -> Response:
        header = request.headers.get("Idempotency-Key")
        data = parse_input(self.serializer_class, request.data, idempotency_header=header)
        user_id = request.user.pk if request.user.is_authenticated else None
        game, scorer = _scoring(request, ref, user_id)
        actor = request.user if scorer is None else None
        if scorer is not None:
            data["seat"] = scorer
        result = type(self).command(game_id=game.id, actor=actor, **data)
        return Response(command_answer(result, user_id, scorer=scorer))


def _scoring(request: Request, ref: str, user_id: int | None) -> tuple[Game, int | None]:
    """The table, and the seat this request scores from by the table's PIN (None: it
    acts as the signed-in user, a player at the table or its director)."""
    game, _ = scored_game(ref, viewer_id=user_id, session=request.session)
    scorer = scorer_of(game, user_id=user_id, session=request.session)
    if not scorer.by_pin:
        if scorer.seat is None and not scorer.director:
            raise ScorerOnly()
        return game, None
    # Sent with the session's cookie alone: as forgeable as any signed-in request.
    SessionAuthentication().enforce_csrf(request)
    return game, scorer.seat


def _deal_view(
    name: str,
    inputs: type[serializers.Serializer],
    run: Callable[..., CommandResult],
    summary: str,
    description: str,
    codes: dict[int, list[str]],
) -> Any:
    # Not among the socket's commands: a scorer who gave the PIN has no account to
    # act as there; the scorer page sends its entries here, each with its key.
    view = type(
        f"{name.title().replace('_', '')}View",
        (DealCommandView,),
        {"serializer_class": inputs, "command": staticmethod(run)},
    )
    return command_schema(name, summary, description, inputs, codes)(view)


RecordDealView = _deal_view(
    "record_deal",
    DealSerializer,
    actions.game_record_deal,
    "Write down a deal played in the room",
    "Each seat's bid and tricks made, by seat; scored as a deal played here would be.",
    {
        400: [
            "deal_out_of_schedule",
            "invalid_deal",
            "bid_out_of_range",
            "dealer_bid_forbidden",
            "forced_bid_broken",
            "tricks_out_of_range",
            "tricks_do_not_add_up",
            "played_table",
        ],
        403: ["scorer_only"],
    },
)
CorrectDealView = _deal_view(
    "correct_deal",
    CorrectionSerializer,
    actions.game_correct_deal,
    "Correct a deal written down",
    "Writes the deal anew and scores it and every later deal again; a confirmed deal "
    "only with a reason, and once the game is over only by its director.",
    {
        400: [
            "deal_not_recorded",
            "nothing_to_correct",
            "correction_needs_reason",
            "table_closed",
            "bid_out_of_range",
            "dealer_bid_forbidden",
            "tricks_do_not_add_up",
        ],
        403: ["scorer_only"],
    },
)
ConfirmDealView = _deal_view(
    "confirm_deal",
    ConfirmationSerializer,
    actions.game_confirm_deal,
    "Confirm a deal written down",
    "Another seat than the one that wrote it, or the director.",
    {
        400: ["deal_not_recorded", "deal_already_confirmed", "confirmed_by_another"],
        403: ["scorer_only"],
    },
)
