from django.urls import path

from games.web import views

app_name = "games"

urlpatterns = [
    path("rules/", views.rules, name="rules"),
    path("games/new/", views.game_new, name="new"),
    path("games/join/", views.game_join, name="join"),
    path("games/play-now/", views.play_now, name="play-now"),
    path("games/score/", views.score_table, name="score-table"),
    path("games/<str:ref>/fill-with-bots/", views.fill_with_bots, name="fill-with-bots"),
    path("games/<str:ref>/cancel/", views.cancel, name="cancel"),
    path("games/<str:ref>/leave/", views.leave, name="leave"),
    path("games/<str:ref>/", views.table, name="table"),
    path("games/<str:ref>/score/", views.score, name="score"),
    path("games/<str:ref>/analysis/", views.analysis, name="analysis"),
    path("games/<str:ref>/rematch/", views.game_rematch, name="rematch"),
    path("games/<str:ref>/sit-as-guest/", views.sit_as_guest, name="sit-as-guest"),
    path("me/games/", views.my_games, name="my-games"),
]
