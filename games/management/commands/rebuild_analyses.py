from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import GameError
from games.management.lookup import game_id_from
from games.models import GameAnalysis
from games.read.analysis import rebuild_analysis


class Command(BaseCommand):
    help = (
        "Compute games' analyses again from their event logs and keep them (the games "
        "named, or every game with an analysis kept); with --check, only compare them "
        "with the ones kept, and fail on a difference."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", help="games' ids or share codes")
        parser.add_argument(
            "--check", action="store_true", help="compare with the analyses kept, write nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            games = [game_id_from(reference) for reference in options["games"]] or list(
                GameAnalysis.objects.values_list("game_id", flat=True)
            )
            results = {game: rebuild_analysis(game, check=options["check"]) for game in games}
        except GameError as error:
            raise CommandError(error.message) from None
        differ = [game for game, same in results.items() if same is False]
        for game in differ:
            self.stdout.write(f"game {game}: the analysis differs from the one kept")
        self.stdout.write(
            f"{len(results)} game(s): {sum(same is True for same in results.values())} "
            f"the same, {len(differ)} different, "
            f"{sum(same is None for same in results.values())} without one kept."
        )
        if options["check"] and differ:
            raise CommandError(f"{len(differ)} analysis(es) differ from the log's")
