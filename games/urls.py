from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("rules/", views.rules, name="rules"),
    path("games/new/", views.game_new, name="new"),
    path("games/join/", views.game_join, name="join"),
    path("games/<str:ref>/", views.table, name="table"),
    path("games/<str:ref>/rematch/", views.game_rematch, name="rematch"),
]
