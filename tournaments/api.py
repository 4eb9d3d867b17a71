"""The championships' REST API: calls to the director, and a player's page. A player
seated at one of an event's tables calls the director to it; who directs the event
answers and closes the call. A player's page is public (tournaments.players). Errors
are the API's one shape, ``{"code": ..., "message": ...}`` (:mod:`runtime.api_errors`)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.decorators import method_decorator
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import AuthenticatedRequest
from runtime.api_docs import errors
from runtime.replica import tolerates_staleness
from tournaments import players, selectors, services
from tournaments.championship import CALL_REASONS, MAX_CALL_NOTE_LENGTH, MAX_CALL_TEXT_LENGTH
from tournaments.forms import MAX_PAGE
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


# --- A player's page -------------------------------------------------------------------

PLAYER_ID = OpenApiParameter(
    "player_id", int, OpenApiParameter.PATH, description="The player's account id."
)


class PlayerQuerySerializer(serializers.Serializer):
    page = serializers.IntegerField(
        min_value=1, max_value=MAX_PAGE, required=False, help_text="A page of their games."
    )
    season = serializers.UUIDField(
        required=False, help_text="The season whose rating to chart (else the latest)."
    )
    vs = serializers.IntegerField(
        min_value=1,
        max_value=players.MAX_ACCOUNT_ID,
        required=False,
        help_text="Another player's id: their games together, who placed ahead how often.",
    )


class FiguresSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    deals = serializers.IntegerField(help_text="Deals the player bid (not a bot for them).")
    exact = serializers.IntegerField(help_text="Of those, bid exactly.")
    exact_rate = serializers.FloatField(
        allow_null=True, help_text="exact / deals in percent, 1 decimal; null before any deal."
    )
    best_run = serializers.IntegerField(
        help_text="The longest run of exact bids in a game, as its rules count a streak."
    )
    bonuses = serializers.IntegerField(help_text="Streak bonuses earned.")
    win_streak = serializers.IntegerField(help_text="The most games won in a row.")


class ResultLineSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="`romanian` or `classic`.")
    preset = serializers.CharField(allow_blank=True)
    player_count = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_place = serializers.FloatField()


class SeasonLineSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="season_id")
    name = serializers.CharField()
    rank = serializers.IntegerField()
    points = serializers.IntegerField()
    rating = serializers.FloatField()
    events = serializers.IntegerField()


class ChartRowSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The table's number among the player's.")
    event = serializers.CharField(allow_blank=True)
    round = serializers.IntegerField()
    rating = serializers.FloatField(help_text="The rating after the table.")


class RatingSerializer(serializers.Serializer):
    season = serializers.UUIDField()
    tables = serializers.IntegerField(help_text="The tables here: the season's last 200.")
    total = serializers.IntegerField(help_text="The player's tables in the season.")
    first = serializers.FloatField(help_text="The rating before the first of them.")
    ratings = ChartRowSerializer(many=True)


class EventLineSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    at = serializers.DateTimeField()
    rank = serializers.IntegerField()
    entrants = serializers.IntegerField()
    points = serializers.FloatField()


class OpponentSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField()


class MetSerializer(OpponentSerializer):
    games = serializers.IntegerField(help_text="Games finished together.")


class GameLineSerializer(serializers.Serializer):
    code = serializers.CharField()
    finished_at = serializers.DateTimeField()
    kind = serializers.CharField()
    preset = serializers.CharField(allow_blank=True)
    player_count = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    deals = serializers.IntegerField()
    exact = serializers.IntegerField()
    opponents = OpponentSerializer(many=True, help_text="As the table named them.")


class GamesPageSerializer(serializers.Serializer):
    page = serializers.IntegerField(source="number")
    pages = serializers.IntegerField()
    results = GameLineSerializer(many=True, source="lines", help_text="Newest first, 20 a page.")


class HeadToHeadSerializer(serializers.Serializer):
    player = OpponentSerializer(source="other")
    games = serializers.IntegerField()
    ahead = serializers.IntegerField(help_text="Games where this player placed ahead.")
    behind = serializers.IntegerField()
    level = serializers.IntegerField()


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    figures = FiguresSerializer()
    results = ResultLineSerializer(many=True, help_text="By game, rules and table size.")
    seasons = SeasonLineSerializer(many=True)
    rating = RatingSerializer(allow_null=True)
    events = EventLineSerializer(many=True, help_text="The latest 20 finished, newest first.")
    games = GamesPageSerializer()
    opponents = MetSerializer(many=True, help_text="Whom they met most.")
    versus = HeadToHeadSerializer(allow_null=True)


def player_answer(picture: players.PlayerPicture) -> dict[str, Any]:
    """The picture as the API answers it (:class:`PlayerSerializer`)."""
    chart, season = picture.chart, picture.season
    rating = None
    if chart is not None and season is not None:
        rating = {
            "season": season.season_id,
            "tables": chart.tables,
            "total": chart.total,
            "first": chart.first,
            "ratings": chart.rows,
        }
    answer: dict[str, Any] = PlayerSerializer(
        {
            "id": picture.player.pk,
            "name": picture.player.display,
            "figures": picture.figures,
            "results": picture.results,
            "seasons": picture.seasons,
            "rating": rating,
            "events": picture.events,
            "games": picture.page,
            "opponents": [
                {"player_id": met.player_id, "name": met.name, "games": games}
                for met, games in picture.opponents
            ],
            "versus": picture.versus,
        }
    ).data
    return answer


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["players"],
        operation_id="players_read",
        summary="A player's page",
        description="What the page /players/<id>/ shows, as the viewer may see it: their "
        "figures, results by rules and table size, seasons and rating table by table, "
        "latest events, a page of their finished games, whom they met most, and their "
        "record against another player (`vs`). Guests and bots have no page. A game shows "
        "once its spectator delay is over; a private event's tables only to who may see "
        "the event. Asking what cannot be shown (a season without their rating, "
        "themself or nobody as `vs`) is `invalid_input`.",
        parameters=[PLAYER_ID, PlayerQuerySerializer],
        responses={
            200: PlayerSerializer,
            **errors(400, 404, codes={404: ["player_not_found", "page_not_found"]}),
        },
    )
    @method_decorator(tolerates_staleness)
    def get(self, request: Request, player_id: int) -> Response:
        query = _valid(PlayerQuerySerializer, request.query_params.dict())
        player = players.find_player(player_id)
        viewer = request.user.pk if request.user.is_authenticated else None
        picture = players.player_picture(
            player,
            viewer,
            timezone.now(),
            page=query.get("page", 1),
            season_id=query.get("season"),
            other_id=query.get("vs"),
        )
        if picture.refused:
            raise serializers.ValidationError(
                {field: [reason] for field, reason in picture.refused.items()}
            )
        return Response(player_answer(picture))
