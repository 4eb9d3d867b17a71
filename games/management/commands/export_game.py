from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import GameError
from games.management.lookup import game_id_from
from games.read.download import dump_record, game_record, record_filename


class Command(BaseCommand):
    help = (
        "Write a finished game's full record as JSON (the same as the API's "
        "/api/games/<ref>/record/), to stdout or to --output."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="the game's id or share code")
        parser.add_argument(
            "--output",
            "-o",
            type=Path,
            help="the file to write (in a directory: atu-game-<CODE>.json there)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = game_record(game_id_from(options["game"]))
        except GameError as error:
            raise CommandError(error.message) from None
        text = dump_record(record)
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(text, ending="")
            return
        if output.is_dir():
            output = output / record_filename(record["code"])
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from None
        self.stdout.write(f"wrote {output}")
