import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import GameError
from games.management.lookup import game_id_from
from games.table import projected
from games.write.tables import replay_table


class Command(BaseCommand):
    help = (
        "Replay a game (Romanian or classic Whist) from its event log alone and print "
        "where it stands: status, version, hand and scores (--events: every event first)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="the game's id or share code")
        parser.add_argument("--events", action="store_true", help="print every event replayed")

    def handle(self, *args: Any, **options: Any) -> None:
        game_id = game_id_from(options["game"])
        try:
            table, records = replay_table(game_id)
        except GameError as error:
            raise CommandError(error.message) from None
        if options["events"]:
            for record in records:
                payload = json.dumps(record.payload, separators=(", ", ": "), ensure_ascii=False)
                self.stdout.write(f"{record.sequence:>5} {record.type} {payload}")
        game, shown = table.game, projected(table)
        # Hands count from 0, as in the log, the record and verify_game's report; a
        # classic match to points has no set number of deals (hands_total 0).
        total, phase = shown["hands_total"], game.phase.value
        if phase == "not-started":
            hand = f"{game.hand} (not dealt yet)"
        elif phase == "finished":
            hand = f"{game.hand} (all {len(game.results)} deals played)"
        else:
            of = f" of {total}" if total else ""
            hand = f"{game.hand} (deal {game.hand + 1}{of}, {phase})"
        self.stdout.write(f"game {table.code} ({game_id})")
        self.stdout.write(f"status: {table.status}")
        self.stdout.write(f"version: {table.version}")
        self.stdout.write(f"hand: {hand}")
        # At classic Whist each seat scores its side's points.
        self.stdout.write("scores:")
        scores, places = shown["scores"], shown["places"]
        for number, seat in enumerate(table.seats):
            alias = "(empty seat)" if seat is None else seat.alias
            score = scores[number] if scores else 0
            place = f"  place {places[number]}" if table.status == "finished" else ""
            self.stdout.write(f"  seat {number}  {alias:<24} {score:>5}{place}")
