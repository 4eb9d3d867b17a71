from django.db import transaction

from accounts.models import User

DEMO_ORGANIZER_USERNAME = "demo"
DEMO_ORGANIZER_PASSWORD = "demo-organizer"


def user_ensure_demo_organizer(
    *, username: str = DEMO_ORGANIZER_USERNAME, password: str = DEMO_ORGANIZER_PASSWORD
) -> tuple[User, bool]:
    """Create the demo organizer unless a user with that name exists; never alter an existing one.

    Returns the user and whether it was created.
    """
    with transaction.atomic():
        user, created = User.objects.get_or_create(
            username=username,
            # A superuser, so that the demo's admin shows everything an organizer runs.
            defaults={
                "display_name": "Demo Organizer",
                "can_organize": True,
                "is_staff": True,
                "is_superuser": True,
            },
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
    return user, created
