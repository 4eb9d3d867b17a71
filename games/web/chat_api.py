"""The REST API of the words said at a table (decision 3506): read them as you may
(:mod:`games.visibility`: a delayed table's spectator reads them as late as the play),
say one as a player, report one to the site's staff. The table's socket does the same
with ``chat`` and ``chat_report`` messages (:mod:`games.live.consumer`).
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import AuthenticatedRequest
from games.commands.chat import game_report_message, game_say
from games.commands.inputs import MAX_VERSION, ReportSerializer, SaySerializer
from games.read.chat import HISTORY, PHRASES, chat_mode, readable_messages
from games.read.selectors import CHAT_MODES, find_game
from games.visibility import message_view
from games.web.api import IDEMPOTENCY_HEADER, REF_PARAMETER, TAGS, parse_input
from runtime.api_docs import errors

MESSAGE_PARAMETER = OpenApiParameter(
    "message", OpenApiTypes.INT, OpenApiParameter.PATH, description="The message's id."
)
SAY_CODES = {
    403: ["chat_off", "phrases_only", "players_only"],
    409: ["table_cancelled", "idempotency_key_reused"],
    429: ["chat_too_fast"],
}


class ChatQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        default=0,
        help_text="The last message already read: only later ones are returned.",
    )


class WordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The seat of the player who said it.")
    name = serializers.CharField(help_text="Their alias at the table then.")
    phrase = serializers.ChoiceField(
        sorted(PHRASES), allow_null=True, help_text="A quick phrase's key, or null."
    )
    text = serializers.CharField(allow_null=True, help_text="A line of free text, or null.")
    at = serializers.DateTimeField(help_text="When it was said.")


class ChatSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(
        CHAT_MODES,
        help_text="What may be said at the table: nothing, the quick phrases, or free text too.",
    )
    words = WordSerializer(many=True, help_text=f"The latest {HISTORY} you may read, oldest first.")


class ReportAnswerSerializer(serializers.Serializer):
    message = serializers.IntegerField(help_text="The message reported.")


@extend_schema_view(
    get=extend_schema(
        tags=TAGS,
        operation_id="games_chat",
        summary="The words said at a table, as you may read them",
        parameters=[REF_PARAMETER, ChatQuerySerializer],
        responses={200: ChatSerializer, **errors(400, 401, 404)},
    ),
    post=extend_schema(
        tags=TAGS,
        operation_id="games_chat_say",
        summary="Say a quick phrase or a line of text at your table",
        description="Players only. A championship's table says nothing unless its "
        "organizer allowed the quick phrases; free text is for casual tables. Each "
        "player has a budget of words across their tables (`ATU_THROTTLE_TABLE_CHAT`). "
        "With an idempotency key (the body's `idempotency_key` or the `Idempotency-Key` "
        "header), a word sent again is answered with the word said, once.",
        parameters=[REF_PARAMETER, IDEMPOTENCY_HEADER],
        request=SaySerializer,
        responses={201: WordSerializer, **errors(400, 401, 403, 404, 409, 429, codes=SAY_CODES)},
    ),
)
class ChatView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request: Request, ref: str) -> Response:
        after = parse_input(ChatQuerySerializer, request.query_params)["after"]
        viewer_id = request.user.pk if request.user.is_authenticated else None
        game = find_game(ref, viewer_id=viewer_id)
        words = readable_messages(game, viewer_id=viewer_id, now=timezone.now(), after=after)
        return Response({"mode": chat_mode(game.id), "words": words})

    def post(self, request: AuthenticatedRequest, ref: str) -> Response:
        header = request.headers.get("Idempotency-Key")
        data = parse_input(SaySerializer, request.data, idempotency_header=header)
        game = find_game(ref, viewer_id=request.user.pk)
        said = game_say(game_id=game.id, actor=request.user, **data)
        return Response(message_view(said), status=status.HTTP_201_CREATED)


class ReportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        operation_id="games_chat_report",
        summary="Report a message said at a table",
        description="For the site's staff to read. Any message you may read; once each "
        "(a second report answers the same).",
        parameters=[REF_PARAMETER, MESSAGE_PARAMETER],
        request=None,
        responses={
            201: ReportAnswerSerializer,
            **errors(400, 401, 404, codes={404: ["message_not_found"]}),
        },
    )
    def post(self, request: AuthenticatedRequest, ref: str, message: int) -> Response:
        # The path's id held to the bounds the socket's report is (an id too large for
        # the database is a 400, not its error).
        data = parse_input(ReportSerializer, {"message": message})
        game = find_game(ref, viewer_id=request.user.pk)
        report = game_report_message(game_id=game.id, reporter=request.user, **data)
        return Response({"message": report.message_id}, status=status.HTTP_201_CREATED)
