"""Data migrations of the accounts."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User


@pytest.mark.django_db(transaction=True)
def test_the_bot_mark_goes_to_the_bot_accounts_made_before_it_and_to_no_person() -> None:
    # Given the accounts as they were before the mark: the bots the services made
    # (named bot-…, with no usable password), a person who registered a bot-… name, and
    # a person without a usable password
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
