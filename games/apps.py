from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Here, not at the top: the tasks import the models, which need the apps loaded.
        from config.lifespan import on_startup
        from games import receivers, tasks, turns
        from games.signals import game_recorded

        turns.move_with(tasks.play_automatic_move)
        on_startup(turns.resume_at_startup)
        game_recorded.connect(receivers.game_recorded, dispatch_uid="games-demo")
