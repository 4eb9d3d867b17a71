from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services import event_finish_all


class Command(BaseCommand):
    help = (
        "Record EventFinished for every championship whose last round is over and whose "
        "stream does not say so yet, through the championships' write path."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        finished = event_finish_all()
        self.stdout.write(f"Recorded the finish of {finished} event(s).")
