from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User

pytestmark = pytest.mark.django_db

LOGIN_LINE = (
    "Demo organizer: username demo, password demo-organizer"
    " — log in at http://127.0.0.1:8000/admin/\n"
)


def test_ensure_demo_organizer_creates_the_user_and_prints_the_login() -> None:
    out = StringIO()

    call_command("ensure_demo_organizer", stdout=out)

    assert out.getvalue() == LOGIN_LINE
    assert User.objects.filter(username="demo", can_organize=True).count() == 1


def test_ensure_demo_organizer_prints_the_login_again_when_the_user_exists() -> None:
    call_command("ensure_demo_organizer", stdout=StringIO())
    out = StringIO()

    call_command("ensure_demo_organizer", stdout=out)

    assert out.getvalue() == LOGIN_LINE
    assert User.objects.filter(username="demo").count() == 1
