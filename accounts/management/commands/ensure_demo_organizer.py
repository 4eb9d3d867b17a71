from typing import Any

from django.core.management.base import BaseCommand

from accounts.services import (
    DEMO_ORGANIZER_PASSWORD,
    DEMO_ORGANIZER_USERNAME,
    user_ensure_demo_organizer,
)


class Command(BaseCommand):
    help = "Create the demo organizer account if it is missing, and print its login."

    def handle(self, *args: Any, **options: Any) -> None:
        user_ensure_demo_organizer()
        self.stdout.write(
            f"Demo organizer: username {DEMO_ORGANIZER_USERNAME}, "
            f"password {DEMO_ORGANIZER_PASSWORD} — log in at http://127.0.0.1:8000/admin/"
        )
