from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("rules/", views.rules, name="rules"),
]
