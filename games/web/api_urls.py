from django.urls import path

from games.web import api, chat_api, room

urlpatterns = [
    path("games/", api.GamesView.as_view(), name="api-games"),
    path("games/play-now/", api.PlayNowView.as_view(), name="api-games-play-now"),
    path("games/<str:ref>/", api.GameView.as_view(), name="api-game"),
    path("games/<str:ref>/events/", api.GameEventsView.as_view(), name="api-game-events"),
    path("games/<str:ref>/record/", api.GameRecordView.as_view(), name="api-game-record"),
    path(
        "games/<str:ref>/record.json",
        api.GameRecordFileView.as_view(),
        name="api-game-record-file",
    ),
    path("games/<str:ref>/analysis/", api.GameAnalysisView.as_view(), name="api-game-analysis"),
    path("games/<str:ref>/join/", api.JoinView.as_view(), name="api-game-join"),
    path("games/<str:ref>/bid/", api.BidView.as_view(), name="api-game-bid"),
    path("games/<str:ref>/play/", api.PlayView.as_view(), name="api-game-play"),
    path("games/<str:ref>/zero-play/", api.ZeroPlayView.as_view(), name="api-game-zero-play"),
    path(
        "games/<str:ref>/one-card-mode/",
        api.OneCardModeView.as_view(),
        name="api-game-one-card-mode",
    ),
    path("games/<str:ref>/seat-bot/", api.SeatBotView.as_view(), name="api-game-seat-bot"),
    path(
        "games/<str:ref>/fill-with-bots/",
        api.FillWithBotsView.as_view(),
        name="api-game-fill-with-bots",
    ),
    path("games/<str:ref>/cancel/", api.CancelView.as_view(), name="api-game-cancel"),
    path("games/<str:ref>/leave/", api.LeaveView.as_view(), name="api-game-leave"),
    path("games/<str:ref>/rematch/", api.RematchView.as_view(), name="api-game-rematch"),
    path("games/<str:ref>/scorer/", room.ScorerView.as_view(), name="api-game-scorer"),
    path("games/<str:ref>/deals/", room.RecordDealView.as_view(), name="api-game-deals"),
    path(
        "games/<str:ref>/deals/correct/",
        room.CorrectDealView.as_view(),
        name="api-game-deals-correct",
    ),
    path(
        "games/<str:ref>/deals/confirm/",
        room.ConfirmDealView.as_view(),
        name="api-game-deals-confirm",
    ),
    path("games/<str:ref>/chat/", chat_api.ChatView.as_view(), name="api-game-chat"),
    path(
        "games/<str:ref>/chat/<int:message>/report/",
        chat_api.ReportView.as_view(),
        name="api-game-chat-report",
    ),
    path("presets/", api.PresetsView.as_view(), name="api-presets"),
]
