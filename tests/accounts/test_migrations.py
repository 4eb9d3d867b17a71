"""Data migrations of the accounts."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from tests.migrations import as_the_migrations_run


@pytest.mark.django_db(transaction=True)
def test_the_bot_mark_goes_to_the_bot_accounts_made_before_it_and_to_no_person() -> None:
    # Given the accounts as they were before the mark: the bots the services made
    # (named bot-…, with no usable password), a person who registered a bot-… name, and
    # a person without a usable password
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("accounts", "0001_initial")])
        before = executor.loader.project_state(("accounts", "0001_initial")).apps
        OldUser = before.get_model("accounts", "User")
        for username, password in [
            ("bot-ana", None),
            ("bot-bot001", None),
            ("bot-ioana", "walnut-orbit-harbor"),
            ("ana", None),
            ("dan", "walnut-orbit-harbor"),
        ]:
            OldUser.objects.create(username=username, password=make_password(password))

        # When the migration adds the mark
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then exactly the services' bots carry it
    assert dict(User.objects.values_list("username", "is_bot")) == {
        "bot-ana": True,
        "bot-bot001": True,
        "bot-ioana": False,
        "ana": False,
        "dan": False,
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("password", "retired"), [("demo-organizer", True), ("the-organizers-own", False)]
)
def test_a_demo_organizer_on_the_published_password_loses_it_and_the_admin(
    password: str, retired: bool
) -> None:
    # Given the demo organizer as the old `make run` made it: a superuser, on the
    # password it printed (or one its owner chose since)
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("accounts", "0002_user_is_bot")])
        before = executor.loader.project_state(("accounts", "0002_user_is_bot")).apps
        before.get_model("accounts", "User").objects.create(
            username="demo",
            password=make_password(password),
            can_organize=True,
            is_staff=True,
            is_superuser=True,
        )

        # When the migrations run
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then the published password no longer logs in and the account is no admin; a
    # password of its owner's is left as it is
    demo = User.objects.get(username="demo")
    assert demo.check_password(password) is not retired
    assert demo.has_usable_password() is not retired
    assert (demo.is_staff, demo.is_superuser) == (not retired, not retired)
    assert demo.can_organize is True
