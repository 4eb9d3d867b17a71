import logging

import pytest
from django.db import transaction

from runtime.transactions import after_commit

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hook_runs_with_its_arguments_once_the_transaction_commits() -> None:
    # given
    calls: list[tuple[int, str]] = []

    def record(number: int, *, word: str) -> None:
        calls.append((number, word))

    # when
    with transaction.atomic():
        after_commit(record, 7, word="seven")
        assert calls == []

    # then
    assert calls == [(7, "seven")]


def test_a_hook_that_raises_is_logged_by_name_and_the_commit_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given
    calls: list[str] = []

    def fails() -> None:
        raise RuntimeError("the broker is down")

    # when
    with caplog.at_level(logging.ERROR, logger="django.db.backends.base"), transaction.atomic():
        after_commit(fails)
        after_commit(calls.append, "next")

    # then
    assert calls == ["next"]
    assert [record.getMessage() for record in caplog.records] == [
        "Error calling test_a_hook_that_raises_is_logged_by_name_and_the_commit_goes_on."
        "<locals>.fails in on_commit() during transaction (the broker is down)."
    ]
