"""The API's one error shape, straight from the exception handler and error views."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.template import loader
from django.test import RequestFactory
from django.utils import translation
from rest_framework import exceptions

from accounts.errors import InvalidCredentials
from games.errors import TableFull, VersionConflict
from games.rules.errors import MustTrump
from runtime.api_errors import api_exception_handler, not_found, server_error
from runtime.errors import TooManyAttempts


def handled(exc: Exception) -> tuple[int, dict[str, object]]:
    response = api_exception_handler(exc, {"view": None})
    return response.status_code, dict(response.data)


def test_platform_errors_keep_their_status_code_and_message() -> None:
    assert handled(VersionConflict(3, 5)) == (
        409,
        {
            "code": "version_conflict",
            "message": "the game is at version 5, not 3: reload and try again",
        },
    )
    assert handled(TableFull())[0] == 409
    assert handled(InvalidCredentials()) == (
        400,
        {
            "code": "invalid_credentials",
            "message": "the username and password do not match an active account",
        },
    )


def test_too_many_attempts_is_a_429_that_says_when_to_try_again() -> None:
    response = api_exception_handler(TooManyAttempts(42), {"view": None})

    assert response.status_code == 429
    assert response.data == {
        "code": "too_many_attempts",
        "message": "too many attempts; try again in 42 seconds",
    }
    assert response["Retry-After"] == "42"


def test_rule_errors_are_400s_with_the_rules_code() -> None:
    assert handled(MustTrump("hearts")) == (
        400,
        {
            "code": "must_trump",
            "message": "must trump: you cannot follow suit and you hold hearts, trumps",
        },
    )


def test_validation_errors_name_the_first_field_and_list_every_field() -> None:
    drf = exceptions.ValidationError({"options": {"step": ["Bad step."]}, "bid": ["Bad bid."]})
    django = DjangoValidationError({"__all__": ["Nope."], "username": ["Taken."]})

    assert handled(drf) == (
        400,
        {
            "code": "invalid_input",
            "message": "options.step: Bad step.",
            "fields": {"options": {"step": ["Bad step."]}, "bid": ["Bad bid."]},
        },
    )
    assert handled(django) == (
        400,
        {
            "code": "invalid_input",
            "message": "Nope.",
            "fields": {"non_field_errors": ["Nope."], "username": ["Taken."]},
        },
    )
    assert handled(exceptions.ValidationError(["Wrong shape."]))[1]["fields"] == {
        "non_field_errors": ["Wrong shape."]
    }


def test_drf_and_django_exceptions_keep_their_status_and_code() -> None:
    assert handled(exceptions.NotAuthenticated()) == (
        401,
        {"code": "not_authenticated", "message": "Authentication credentials were not provided."},
    )
    assert handled(exceptions.MethodNotAllowed("PUT"))[1]["code"] == "method_not_allowed"
    assert handled(Http404())[0:1] == (404,)
    assert handled(Http404())[1]["code"] == "not_found"


def test_an_unexpected_error_is_a_500_in_the_same_shape_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert handled(RuntimeError("boom")) == (
        500,
        {"code": "server_error", "message": "something went wrong on our side"},
    )
    assert caplog.records[-1].exc_info is not None


def test_unknown_api_addresses_and_crashes_answer_json_and_pages_answer_html() -> None:
    factory = RequestFactory()

    api_404 = not_found(factory.get("/api/nothing/"), Http404())
    page_404 = not_found(factory.get("/nothing/"), Http404())
    api_500 = server_error(factory.get("/api/games/"))
    page_500 = server_error(factory.get("/rules/"))

    assert (api_404.status_code, json.loads(api_404.content)["code"]) == (404, "not_found")
    assert (api_500.status_code, json.loads(api_500.content)["code"]) == (500, "server_error")
    assert page_404.status_code == 404
    assert page_404["Content-Type"].startswith("text/html")
    assert page_500.status_code == 500
    assert page_500["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("template", "title", "heading"),
    [
        ("500.html", "Ceva nu a mers bine — Atu", "<h1>Ceva nu a mers bine</h1>"),
        ("503.html", "Revenim imediat — Atu", "<h1>Revenim imediat</h1>"),
    ],
)
def test_the_error_pages_stand_alone_in_the_visitors_language(
    template: str, title: str, heading: str
) -> None:
    # Given a Romanian visitor, when a page for a failing server or database is drawn
    # with no request, database or static files
    with translation.override("ro"):
        page = loader.get_template(template).render()

    # Then it is whole, in Romanian
    assert page.startswith("<!doctype html>")
    assert '<html lang="ro">' in page
    assert f"<title>{title}</title>" in page
    assert heading in page
    assert "{%" not in page and "static" not in page
