"""Fixtures shared by every test folder."""

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.factories import UserFactory


@pytest.fixture
def user(db: None) -> User:
    return UserFactory.create()


@pytest.fixture
def logged_in_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client
