"""The games REST API: thin views over the services, selectors and viewer policy.

Each view parses its input with a serializer, calls the one service (writes) or
selector (reads) it needs, and answers with what :mod:`games.visibility` lets the
requesting user see. Errors become ``{"code", "message"}`` in
:mod:`runtime.api_errors`.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import AuthenticatedRequest
from accounts.models import User
from eventlog import store
from games.commands import actions
from games.commands.catalog import COMMANDS
from games.commands.inputs import (
    MAX_IDEMPOTENCY_KEY_LENGTH,
    JoinSerializer,
)
from games.errors import NoRematch
from games.read.analysis import analysis_view
from games.read.download import game_record, record_filename
from games.read.selectors import (
    find_game,
    game_summaries,
    games_list,
    rematch_game,
    rule_presets,
    scored_game,
)
from games.table import CLASSIC, ROMANIAN, Table, fold, stream_of
from games.visibility import (
    Viewer,
    event_views,
    event_views_from,
    require_public_record,
    seen_records,
    seen_table,
    state_view,
    viewer_of,
)
from games.web.serializers import (
    ClassicGameStateSerializer,
    CommandResponseSerializer,
    EventsQuerySerializer,
    EventsResponseSerializer,
    FillWithBotsSerializer,
    GameCreateSerializer,
    GameListQuerySerializer,
    GameStateSerializer,
    GameSummarySerializer,
    PlayNowSerializer,
    PresetSerializer,
    RecordQuerySerializer,
    StateQuerySerializer,
    WaitingRoomSerializer,
)
from games.write import path as writepath
from games.write.tables import load_table
from runtime.api_docs import errors
from runtime.replica import tolerates_staleness

TAGS = ["games"]
REF_PARAMETER = OpenApiParameter(
    "ref",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The game's id (UUID) or its share code.",
)
IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    # As CommandSerializer checks it: 1 to 100 characters, not all spaces.
    {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_IDEMPOTENCY_KEY_LENGTH,
        "pattern": r"\S",
    },
    OpenApiParameter.HEADER,
    required=False,
    description="Same as the body's `idempotency_key` (they must agree if both are sent).",
)
# Codes every move may answer besides the usual ones.
MOVE_CODES = {
    400: ["not_your_turn", "wrong_phase", "game_over", "no_such_seat"],
    403: ["not_your_seat"],
    409: ["version_conflict", "idempotency_key_reused"],
}


def parse_input(serializer_class: type[Any], data: Any, **context: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, context=context)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _user_id(request: Request) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


class GamePagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        # DRF writes OpenAPI 3.0's "nullable"; the schema is 3.1, where null is a type.
        page = super().get_paginated_response_schema(schema)
        for link in ("next", "previous"):
            del page["properties"][link]["nullable"]
            page["properties"][link]["type"] = ["string", "null"]
        page["required"] = ["count", "next", "previous", "results"]
        return page


@extend_schema_view(
    get=extend_schema(
        tags=TAGS,
        operation_id="games_list",
        summary="List games, newest first",
        parameters=[GameListQuerySerializer],
        responses={200: GameSummarySerializer(many=True), **errors(400, 401, 404)},
    ),
    post=extend_schema(
        tags=TAGS,
        operation_id="games_create",
        summary="Open a table",
        description="From a preset and/or rule options. The creator takes no seat "
        "by this: everyone, the creator too, joins with the id or share code.",
        request=GameCreateSerializer,
        responses={
            201: GameSummarySerializer,
            **errors(
                400,
                401,
                codes={400: ["invalid_options", "invalid_player_count"]},
            ),
        },
    ),
)
@method_decorator(tolerates_staleness, name="get")
class GamesView(generics.ListAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = GameSummarySerializer
    pagination_class = GamePagination

    def get_queryset(self) -> Any:
        query = parse_input(GameListQuerySerializer, self.request.query_params)
        return games_list(
            query.get("status"),
            viewer_id=_user_id(self.request),
            rematch_of=query.get("rematch_of"),
        )

    def paginate_queryset(self, queryset: Any) -> Any:
        # A delayed table's figures as the viewer sees them: only the page's rows.
        page = super().paginate_queryset(queryset)
        return None if page is None else game_summaries(page, viewer_id=_user_id(self.request))

    def post(self, request: AuthenticatedRequest) -> Response:
        data = parse_input(GameCreateSerializer, request.data)
        game = actions.game_create(creator=request.user, **data)
        return Response(GameSummarySerializer(game).data, status=status.HTTP_201_CREATED)


class PlayNowView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        operation_id="games_play_now",
        summary="Play now: a table of your own against bots",
        description="Opens a Romanian Whist table under a preset (and options), seats "
        "you under your display name and a bot of the chosen level in every other seat: "
        "the game starts at once. All of it, or nothing.",
        request=PlayNowSerializer,
        responses={
            201: GameSummarySerializer,
            **errors(400, 401, codes={400: ["invalid_options", "invalid_player_count"]}),
        },
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        data = parse_input(PlayNowSerializer, request.data)
        game = actions.game_play_now(user=request.user, **data)
        return Response(GameSummarySerializer(game).data, status=status.HTTP_201_CREATED)


class GameView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        operation_id="games_retrieve",
        summary="A game as you may see it",
        description="Players see their own cards when the hand lets them (on the "
        "forehead: everyone else's); spectators and anonymous visitors see no hidden card.",
        parameters=[REF_PARAMETER, StateQuerySerializer],
        responses={
            200: PolymorphicProxySerializer(
                component_name="AnyGameState",
                serializers={
                    ROMANIAN: GameStateSerializer,
                    CLASSIC: ClassicGameStateSerializer,
                },
                resource_type_field_name="kind",
            ),
            **errors(400, 401, 404, 409, codes={409: ["game_not_finished", "deal_set_in_play"]}),
        },
    )
    def get(self, request: Request, ref: str) -> Response:
        at = parse_input(StateQuerySerializer, request.query_params).get("at")
        game, scorer = scored_game(ref, viewer_id=_user_id(request), session=request.session)
        game_id = game.id
        if at is not None:
            require_public_record(game, _user_id(request))
            shown = store.read(stream_of(game_id))[:at]
            table = fold(Table(), [record.event for record in shown])
            return Response(state_view(game_id, table, Viewer(None, replay=True)))
        table = load_table(game_id)
        viewer = viewer_of(game_id, table, _user_id(request), scorer=scorer)
        table, _ = seen_table(game_id, table, viewer, timezone.now())
        return Response(state_view(game_id, table, viewer))


class GameEventsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        operation_id="games_events",
        summary="The game's events after a sequence number, as you may see them",
        parameters=[REF_PARAMETER, EventsQuerySerializer],
        responses={200: EventsResponseSerializer, **errors(400, 401, 404)},
    )
    def get(self, request: Request, ref: str) -> Response:
        after = parse_input(EventsQuerySerializer, request.query_params)["after"]
        game_id = find_game(ref, viewer_id=_user_id(request)).id
        table = load_table(game_id)
        viewer = viewer_of(game_id, table, _user_id(request))
        # The whole log up to the table's version: visibility depends on all before.
        records, _ = seen_records(game_id, table, viewer, timezone.now())
        return Response(
            {"version": len(records), "events": event_views(records, viewer, after=after)}
        )


class GameRecordView(APIView):
    permission_classes = [AllowAny]
    download = False

    @extend_schema(
        tags=TAGS,
        operation_id="games_record",
        summary="A finished game's full record",
        description="Every deal as dealt with its commitment and secret, every bid, trick "
        "and score, of Romanian or classic Whist (`kind`; docs/checking.md). Published once "
        "the game is finished (409 `game_not_finished` before).",
        parameters=[REF_PARAMETER, RecordQuerySerializer],
        responses={
            200: OpenApiTypes.OBJECT,
            **errors(
                400,
                401,
                404,
                409,
                codes={409: ["game_not_finished", "deal_set_in_play"]},
            ),
        },
    )
    def get(self, request: Request, ref: str) -> Response:
        query = parse_input(RecordQuerySerializer, request.query_params)
        game = find_game(ref, viewer_id=_user_id(request))
        require_public_record(game, _user_id(request))
        response = Response(game_record(game.id))
        if self.download or query["download"]:
            response["Content-Disposition"] = f'attachment; filename="{record_filename(game.code)}"'
        return response


class GameRecordFileView(GameRecordView):
    download = True

    @extend_schema(
        tags=TAGS,
        operation_id="games_record_file",
        summary="A finished game's full record, as the file atu-game-<CODE>.json",
        parameters=[REF_PARAMETER],
        responses={
            200: OpenApiTypes.OBJECT,
            **errors(
                401,
                404,
                409,
                codes={409: ["game_not_finished", "deal_set_in_play"]},
            ),
        },
    )
    def get(self, request: Request, ref: str) -> Response:
        return super().get(request, ref)


class GameAnalysisView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        operation_id="games_analysis",
        summary="A finished game's analysis by the strong bot",
        description="`status` `ready` with the `review` of the `seats` this viewer may see "
        "(a player's own at once; every seat once the game's record is public), or "
        "`pending` while it is computed (asked for by this request if need be). Each "
        "reviewed bid and card has `at`, the version of its event in the log. 409 "
        "`game_not_finished` before the game ends, `analysis_not_kept` for classic Whist "
        "and tables in the room, `deal_set_in_play` to a viewer without a seat while "
        "other tables play the same deals.",
        parameters=[REF_PARAMETER],
        responses={
            200: OpenApiTypes.OBJECT,
            **errors(
                401,
                404,
                409,
                codes={409: ["game_not_finished", "analysis_not_kept", "deal_set_in_play"]},
            ),
        },
    )
    def get(self, request: Request, ref: str) -> Response:
        game = find_game(ref, viewer_id=_user_id(request))
        return Response(analysis_view(game, load_table(game.id), _user_id(request)))


class PresetsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        operation_id="presets_list",
        summary="The rule presets, their options and deal sequences",
        responses={200: PresetSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(PresetSerializer(rule_presets(), many=True).data)


# --- Commands -------------------------------------------------------------------------


class CommandView(APIView):
    """A command of the signed-in user: parse, run the one service, and answer with
    the events it appended as the user may see them."""

    permission_classes = [IsAuthenticated]
    serializer_class: type[Any]
    # The service, as a staticmethod: (game_id=..., actor or user=..., **data).
    command: Any

    def post(self, request: AuthenticatedRequest, ref: str) -> Response:
        header = request.headers.get("Idempotency-Key")
        data = parse_input(self.serializer_class, request.data, idempotency_header=header)
        game_id = find_game(ref, viewer_id=_user_id(request)).id
        result = type(self).command(game_id=game_id, **self.arguments(request.user, data))
        return Response(command_answer(result, request.user.pk))

    def arguments(self, user: User, data: dict[str, Any]) -> dict[str, Any]:
        return {"actor": user, **data}


def command_answer(
    result: writepath.CommandResult, user_id: int | None, *, scorer: int | None = None
) -> dict[str, Any]:
    """The events the command appended as the user ``user_id`` (or a scorer who gave
    the table's PIN, for seat ``scorer``) may see them: shown from the table the
    command decided on, without reading the log again; a retry answered from its
    receipt reads them from the log."""
    if result.before is not None and result.table is not None:
        viewer = viewer_of(result.game_id, result.table, user_id, scorer=scorer)
        events = event_views_from(result.before, result.records, viewer)
    elif result.last_sequence < result.first_sequence:
        events = []
    else:
        table = load_table(result.game_id)
        records = store.read(stream_of(result.game_id))[: result.last_sequence]
        viewer = viewer_of(result.game_id, table, user_id, scorer=scorer)
        events = event_views(records, viewer, after=result.first_sequence - 1)
    return {"version": result.version, "events": events, "replayed": result.replayed}


def command_schema(
    name: str, summary: str, description: str, request: type[Any], codes: dict[int, list[str]]
) -> Any:
    own = {status: [*MOVE_CODES.get(status, []), *codes.get(status, [])] for status in MOVE_CODES}
    return extend_schema_view(
        post=extend_schema(
            tags=TAGS,
            operation_id=f"games_{name}",
            summary=summary,
            description=description
            + " Answers with the events the command appended, as you may see them; a retry "
            "with the same idempotency key answers the same, with `replayed: true`.",
            parameters=[REF_PARAMETER, IDEMPOTENCY_HEADER],
            request=request,
            responses={
                200: CommandResponseSerializer,
                **errors(400, 401, 403, 404, 409, codes=own),
            },
        )
    )


@command_schema(
    "join",
    "Take a seat",
    "The seats fill in order; the last one taken starts the game and deals the first hand.",
    JoinSerializer,
    {400: ["alias_invalid", "alias_taken"], 409: ["already_seated", "table_full"]},
)
class JoinView(CommandView):
    serializer_class = JoinSerializer
    command = staticmethod(actions.game_join)

    def arguments(self, user: User, data: dict[str, Any]) -> dict[str, Any]:
        return {"user": user, **data}


@command_schema(
    "bid",
    "Bid",
    "Bid the tricks you will take, in turn.",
    COMMANDS["bid"].inputs,
    {400: ["bid_out_of_range", "dealer_bid_forbidden"]},
)
class BidView(CommandView):
    serializer_class = COMMANDS["bid"].inputs
    command = staticmethod(COMMANDS["bid"].run)


@command_schema(
    "play",
    "Play a card",
    "Play a card of your hand, in turn; `card: null` plays your last card, which on the "
    "forehead you cannot see.",
    COMMANDS["play"].inputs,
    {400: ["invalid_card", "card_not_in_hand", "must_follow_suit", "must_trump"]},
)
class PlayView(CommandView):
    serializer_class = COMMANDS["play"].inputs
    command = staticmethod(COMMANDS["play"].run)


@command_schema(
    "zero_play",
    "Announce zero play",
    "At tables that play it, before the deadline their options set.",
    COMMANDS["zero_play"].inputs,
    {400: ["zero_play_not_allowed"]},
)
class ZeroPlayView(CommandView):
    serializer_class = COMMANDS["zero_play"].inputs
    command = staticmethod(COMMANDS["zero_play"].run)


@command_schema(
    "one_card_mode",
    "Choose how a one-card hand is played",
    "The dealer of a one-card hand at a dealer's-choice table chooses before it is dealt.",
    COMMANDS["one_card_mode"].inputs,
    {400: ["not_the_dealer", "invalid_one_card_mode"]},
)
class OneCardModeView(CommandView):
    serializer_class = COMMANDS["one_card_mode"].inputs
    command = staticmethod(COMMANDS["one_card_mode"].run)


@command_schema(
    "seat_bot",
    "Give a seat to a bot, or take it back",
    "The game's creator may do it for any seat, a player for their own; the bot plays "
    "the seat's turns through the same rules as everyone. A seat a bot's own account "
    "holds is never handed back to nobody (409 `seat_of_a_bot`).",
    COMMANDS["seat_bot"].inputs,
    {400: ["invalid_input"], 409: ["seat_of_a_bot"]},
)
class SeatBotView(CommandView):
    serializer_class = COMMANDS["seat_bot"].inputs
    command = staticmethod(COMMANDS["seat_bot"].run)


@command_schema(
    "fill_with_bots",
    "Fill the free seats with bots",
    "The creator of a table waiting for players seats a bot of the chosen level in every "
    "free seat, which starts the game.",
    FillWithBotsSerializer,
    {403: ["not_the_creator"], 409: ["game_started", "table_cancelled"]},
)
class FillWithBotsView(CommandView):
    serializer_class = FillWithBotsSerializer
    command = staticmethod(actions.game_fill_with_bots)


@command_schema(
    "cancel",
    "Cancel a table before it starts",
    "Only its creator may; nobody may sit at it or play it from then on, and its status "
    "is `cancelled`.",
    WaitingRoomSerializer,
    {403: ["not_the_creator"], 409: ["game_started", "table_cancelled"]},
)
class CancelView(CommandView):
    serializer_class = WaitingRoomSerializer
    command = staticmethod(actions.game_cancel)


@command_schema(
    "leave",
    "Leave your seat before the game starts",
    "The seat is free again for the next player to join.",
    WaitingRoomSerializer,
    {409: ["not_seated", "game_started", "table_cancelled"]},
)
class LeaveView(CommandView):
    serializer_class = WaitingRoomSerializer
    command = staticmethod(actions.game_leave)


class RematchView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=TAGS,
        operation_id="games_rematch_retrieve",
        summary="The rematch of a finished game",
        description="The table where its players play it again, once one of them asked.",
        parameters=[REF_PARAMETER],
        responses={200: GameSummarySerializer, **errors(401, 404, codes={404: ["no_rematch"]})},
    )
    def get(self, request: Request, ref: str) -> Response:
        game = rematch_game(find_game(ref, viewer_id=_user_id(request)).id)
        if game is None:
            raise NoRematch()
        [seen] = game_summaries([game], viewer_id=_user_id(request))
        return Response(GameSummarySerializer(seen).data)

    @extend_schema(
        tags=TAGS,
        operation_id="games_rematch",
        summary="Play a finished game again",
        description="A player of the finished game gets a new table with the same rules, "
        "seated at it, its bots' seats taken by the same bots. The first player to ask "
        "opens it; whoever asks after is seated at that same table. An event's table has "
        "no rematch.",
        parameters=[REF_PARAMETER],
        request=None,
        responses={
            200: GameSummarySerializer,
            **errors(
                401,
                403,
                404,
                409,
                codes={
                    403: ["not_a_player"],
                    409: ["game_not_finished", "event_game", "table_full"],
                },
            ),
        },
    )
    def post(self, request: AuthenticatedRequest, ref: str) -> Response:
        game_id = find_game(ref, viewer_id=_user_id(request)).id
        game = actions.game_rematch(game_id=game_id, actor=request.user)
        return Response(GameSummarySerializer(game).data)
