"""The championships' REST API: calls to the director. A player seated at one of an
event's tables calls the director to it; who directs the event answers and closes the
call. Errors are the API's one shape, ``{"code": ..., "message": ...}``
(:mod:`runtime.api_errors`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import AuthenticatedRequest
from runtime.api_docs import errors
from tournaments import selectors, services
from tournaments.championship import CALL_REASONS, MAX_CALL_NOTE_LENGTH, MAX_CALL_TEXT_LENGTH
from tournaments.services import EventResult

TAGS = ["events"]
# What answering or closing a call may be refused with.
DIRECTORS_CALL_CODES = {
    403: ["not_organizer"],
    404: ["event_not_found", "call_not_found"],
    409: ["call_closed"],
}
CODE = OpenApiParameter("code", str, OpenApiParameter.PATH, description="The event's share code.")
GAME_CODE = OpenApiParameter(
    "game_code", str, OpenApiParameter.PATH, description="The table's share code."
)
NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The call's number in the event."
)


class CallSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=CALL_REASONS)
    text = serializers.CharField(
        max_length=MAX_CALL_TEXT_LENGTH,
        required=False,
        allow_blank=True,
        default="",
        help_text="What the player adds, if anything.",
    )


class CloseSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=MAX_CALL_NOTE_LENGTH,
        required=False,
        allow_blank=True,
        default="",
        help_text="What the director decided.",
    )


class CallAnswerSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The call's number in the event.")
    version = serializers.IntegerField(help_text="The event's version after it.")


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data if isinstance(data, dict) else {})
    serializer.is_valid(raise_exception=True)
    valid: dict[str, Any] = serializer.validated_data
    return valid


def _answer(result: EventResult, number: int) -> dict[str, int]:
    return {"number": number, "version": result.version}


class CallDirectorView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="events_call_director",
        summary="Call the director to your table",
        description="A player seated at one of the event's tables calls the director to "
        "it with a reason; one call at a time from a seat, until the director closes it.",
        parameters=[CODE, GAME_CODE],
        request=CallSerializer,
        responses={
            201: CallAnswerSerializer,
            **errors(
                400,
                401,
                403,
                404,
                409,
                codes={
                    403: ["not_at_table"],
                    404: ["event_not_found"],
                    409: ["call_open", "event_over"],
                },
            ),
        },
    )
    def post(self, request: AuthenticatedRequest, code: str, game_code: str) -> Response:
        data = _valid(CallSerializer, request.data)
        event = selectors.viewable_event(code, request.user.pk)
        game = selectors.event_game(event, game_code)
        result = services.event_call_director(
            event_id=event.id, actor=request.user, game_id=game.id, **data
        )
        return Response(_answer(result, result.number), status=201)


class AnswerCallView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="events_answer_call",
        summary="Answer a call: the director is on the way",
        parameters=[CODE, NUMBER],
        request=None,
        responses={
            200: CallAnswerSerializer,
            **errors(
                401,
                403,
                404,
                409,
                codes=DIRECTORS_CALL_CODES,
            ),
        },
    )
    def post(self, request: AuthenticatedRequest, code: str, number: int) -> Response:
        event = selectors.viewable_event(code, request.user.pk)
        result = services.event_answer_call(event_id=event.id, actor=request.user, number=number)
        return Response(_answer(result, number))


class CloseCallView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="events_close_call",
        summary="Close a call, with a note of what was decided",
        parameters=[CODE, NUMBER],
        request=CloseSerializer,
        responses={
            200: CallAnswerSerializer,
            **errors(
                400,
                401,
                403,
                404,
                409,
                codes=DIRECTORS_CALL_CODES,
            ),
        },
    )
    def post(self, request: AuthenticatedRequest, code: str, number: int) -> Response:
        data = _valid(CloseSerializer, request.data)
        event = selectors.viewable_event(code, request.user.pk)
        result = services.event_close_call(
            event_id=event.id, actor=request.user, number=number, **data
        )
        return Response(_answer(result, number))
