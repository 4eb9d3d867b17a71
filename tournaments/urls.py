from django.urls import path

from tournaments import views

app_name = "tournaments"

manage = "events/<str:code>/manage/"

urlpatterns = [
    path("events/", views.events_list, name="list"),
    path("events/new/", views.event_new, name="new"),
    path("seasons/new/", views.season_new, name="season-new"),
    path("seasons/<uuid:season_id>/", views.season_page, name="season"),
    path("players/<int:player_id>/", views.player_page, name="player"),
    path("events/<str:code>/", views.event_page, name="event"),
    path("events/<str:code>/live.json", views.event_live, name="live"),
    path("events/<str:code>/my-table/", views.my_table, name="my-table"),
    path("events/<str:code>/register/", views.register_self, name="register"),
    path("events/<str:code>/check-in/", views.check_in_self, name="check-in"),
    path("events/<str:code>/withdraw/", views.withdraw_self, name="withdraw"),
    path("events/<str:code>/standings.csv", views.standings_csv, name="csv"),
    path("events/<str:code>/results/", views.results, name="results"),
    path("events/<str:code>/rounds/<int:number>/deals/", views.deals, name="deals"),
    path("events/<str:code>/screen/", views.screen, name="screen"),
    path(manage, views.manage, name="manage"),
    path(f"{manage}players/", views.register_player, name="register-player"),
    path(
        f"{manage}players/<int:player_id>/check-in/",
        views.check_in_player,
        name="check-in-player",
    ),
    path(
        f"{manage}players/<int:player_id>/withdraw/",
        views.withdraw_player,
        name="withdraw-player",
    ),
    path(f"{manage}bots/", views.add_bots, name="bots"),
    path(f"{manage}rounds/", views.start_round, name="start-round"),
    path(f"{manage}corrections/", views.correct_result, name="correct"),
    path(f"{manage}clock/call/", views.call_time, name="call-time"),
    path(f"{manage}clock/extend/", views.extend_round, name="extend-round"),
    path(f"{manage}publish/", views.publish_results, name="publish"),
    path(f"{manage}announcements/", views.announce, name="announce"),
    path(
        f"{manage}announcements/<int:number>/withdraw/",
        views.unannounce,
        name="unannounce",
    ),
    path(f"{manage}calls/<int:number>/answer/", views.answer_call, name="answer-call"),
    path(f"{manage}calls/<int:number>/close/", views.close_call, name="close-call"),
    path(f"{manage}deputies/", views.name_deputy, name="name-deputy"),
    path(f"{manage}deputies/<int:user_id>/remove/", views.remove_deputy, name="remove-deputy"),
    path(f"{manage}tables/<str:game_code>/pause/", views.pause_table, name="pause"),
    path(f"{manage}round-tables/<int:number>/move/", views.move_table, name="move-table"),
    path(f"{manage}seats/", views.seat_substitute, name="seat-substitute"),
    path(f"{manage}disqualifications/", views.disqualify_player, name="disqualify"),
    path(f"{manage}tables/<str:game_code>/resume/", views.resume_table, name="resume"),
    path(f"{manage}rounds/<int:number>/seating/", views.print_seating, name="print-seating"),
    path(f"{manage}rounds/<int:number>/cards/", views.print_cards, name="print-cards"),
    path(f"{manage}rounds/<int:number>/sheets/", views.print_sheets, name="print-sheets"),
    path(f"{manage}tables/<str:game_code>/print/", views.print_table, name="print-table"),
]
