from django.urls import path

from tournaments import api

urlpatterns = [
    path(
        "events/<str:code>/tables/<str:game_code>/calls/",
        api.CallDirectorView.as_view(),
        name="api-event-call",
    ),
    path(
        "events/<str:code>/calls/<int:number>/answer/",
        api.AnswerCallView.as_view(),
        name="api-event-call-answer",
    ),
    path(
        "events/<str:code>/calls/<int:number>/close/",
        api.CloseCallView.as_view(),
        name="api-event-call-close",
    ),
    path("players/<int:player_id>/", api.PlayerView.as_view(), name="api-player"),
]
