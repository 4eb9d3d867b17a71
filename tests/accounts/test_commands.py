import re
from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User

pytestmark = pytest.mark.django_db

CREATED = re.compile(
    r"Demo organizer created: username demo, password (?P<password>[A-Za-z0-9_-]{20}) "
    r"\(shown this once\) — log in at http://127\.0\.0\.1:8000/accounts/login/; "
    r"for the admin, make a superuser: python manage\.py createsuperuser\n"
)
EXISTS = "Demo organizer demo exists; to set a new password: python manage.py changepassword demo\n"


def ensure() -> str:
    out = StringIO()
    call_command("ensure_demo_organizer", stdout=out)
    return out.getvalue()


def test_the_run_that_creates_the_demo_organizer_prints_the_password_it_logs_in_with() -> None:
    printed = CREATED.fullmatch(ensure())

    assert printed is not None
    user = User.objects.get(username="demo")
    assert user.check_password(printed["password"]) is True
    assert (user.can_organize, user.is_staff, user.is_superuser) == (True, False, False)


def test_two_runs_print_the_password_once_and_then_how_to_set_a_new_one() -> None:
    first = ensure()

    second = ensure()

    printed = CREATED.fullmatch(first)
    assert printed is not None
    assert second == EXISTS
    assert printed["password"] not in second
    assert User.objects.filter(username="demo").count() == 1


def test_a_changed_password_is_never_printed() -> None:
    ensure()
    user = User.objects.get(username="demo")
    user.set_password("the-organizers-own-secret")
    user.save()

    printed = ensure()

    assert printed == EXISTS
    assert User.objects.get(username="demo").check_password("the-organizers-own-secret")


def test_each_demo_organizer_gets_a_password_of_its_own() -> None:
    first = CREATED.fullmatch(ensure())
    User.objects.filter(username="demo").delete()

    second = CREATED.fullmatch(ensure())

    assert first is not None and second is not None
    assert first["password"] != second["password"]
