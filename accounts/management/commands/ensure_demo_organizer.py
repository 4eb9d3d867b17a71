from typing import Any

from django.core.management.base import BaseCommand, OutputWrapper

from accounts.models import User
from accounts.services import DEMO_ORGANIZER_USERNAME, user_ensure_demo_organizer

SITE = "http://127.0.0.1:8000"


def ensure_demo_organizer(stdout: OutputWrapper) -> User:
    """The demo organizer, made if missing; tells its password only on the run that
    makes it (nothing else knows it), and afterwards how to set a new one."""
    user, password = user_ensure_demo_organizer()
    if password is None:
        stdout.write(
            f"Demo organizer {DEMO_ORGANIZER_USERNAME} exists; to set a new password: "
            f"python manage.py changepassword {DEMO_ORGANIZER_USERNAME}"
        )
    else:
        stdout.write(
            f"Demo organizer created: username {DEMO_ORGANIZER_USERNAME}, password "
            f"{password} (shown this once) — log in at {SITE}/accounts/login/; "
            "for the admin, make a superuser: python manage.py createsuperuser"
        )
    return user


class Command(BaseCommand):
    help = "Create the demo organizer account if it is missing, printing its password once."

    def handle(self, *args: Any, **options: Any) -> None:
        ensure_demo_organizer(self.stdout)
