from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import GameError
from games.management.lookup import game_id_from
from games.read.verification import verify_game


class Command(BaseCommand):
    help = (
        "Check a game from its event log: every deal recomputed from its revealed "
        "secret and checked against its commitment, the first dealer against the seed, "
        "every move, trick, score and the ranking decided again by the rules (at a table "
        "in the room, every deal written down, corrected or confirmed; time called too). "
        "Fails when a check does."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="the game's id or share code")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = verify_game(game_id_from(options["game"]))
        except GameError as error:
            raise CommandError(error.message) from None
        for line in report.lines():
            self.stdout.write(line)
        if not report.ok:
            raise CommandError(f"the game failed {len(report.problems)} check(s)")
