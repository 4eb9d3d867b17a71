from typing import Any

from django.core.management.base import BaseCommand

from accounts.management.commands.ensure_demo_organizer import ensure_demo_organizer
from accounts.services import user_ensure_bot_players
from games.commands.actions import game_open_demo_table
from games.table import CLASSIC
from tournaments.services import event_open_demo

SITE = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Make sure the demo organizer exists, then open a table of four bots playing live, "
        "a classic Whist table of bots, and a small championship of bots in progress, "
        "unless the demo already has them. Each is followed by a new one when it ends."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        organizer = ensure_demo_organizer(self.stdout)
        game, created = game_open_demo_table(organizer=organizer, players=user_ensure_bot_players())
        state = "opened" if created else "still playing"
        self.stdout.write(
            f"Demo table {game.code} {state}: four bots play it live; "
            f"watch it at {SITE}/games/{game.code}/"
        )
        game, created = game_open_demo_table(
            organizer=organizer, players=user_ensure_bot_players(), kind=CLASSIC
        )
        state = "opened" if created else "still playing"
        self.stdout.write(
            f"Demo classic Whist table {game.code} {state}: a rubber of four bots; "
            f"watch it at {SITE}/games/{game.code}/"
        )
        event, created = event_open_demo(organizer=organizer)
        state = "started" if created else "still running"
        self.stdout.write(
            f"Demo championship {event.code} {state}: twelve bots, three rounds; "
            f"follow its leaderboard at {SITE}/events/{event.code}/"
        )
