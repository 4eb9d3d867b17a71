"""Every error a reader can be refused with has words in English and in Romanian."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest
from django.utils import translation

import accounts.errors
import games.consumers
import games.errors
import games.rules.errors
import tournaments.errors
import tournaments.seating
from config import limits
from config.error_text import error_texts, refusal
from games.errors import InvalidInput, TableFull
from games.rules.errors import InvalidOptions, RuleError

ERROR_MODULES = [
    games.errors,
    tournaments.errors,
    accounts.errors,
    games.rules.errors,
    tournaments.seating,
    games.consumers,
]


def codes_of(module: ModuleType) -> set[str]:
    """The codes of the error classes the module defines."""
    return {
        cls.code
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__
        and issubclass(cls, Exception)
        and isinstance(getattr(cls, "code", None), str)
    }


SOCKET_CODES = {limits.MESSAGE_TOO_LARGE, limits.TOO_MANY_MESSAGES, limits.TOO_DEEP}
EVERY_CODE = sorted(set().union(*map(codes_of, ERROR_MODULES), SOCKET_CODES))


def test_the_error_modules_are_read_for_their_codes() -> None:
    assert {"table_full", "must_trump", "players_not_in_fours", "invalid_credentials"} <= set(
        EVERY_CODE
    )
    assert {"not_authenticated", "too_few_players", "too_many_messages"} <= set(EVERY_CODE)


@pytest.mark.parametrize("code", EVERY_CODE)
def test_every_error_code_has_a_romanian_text_of_its_own(code: str) -> None:
    with translation.override("en"):
        english = error_texts().get(code)
    with translation.override("ro"):
        romanian = error_texts().get(code)

    assert english, f"{code} has no text"
    assert romanian and romanian != english, f"{code} is not translated: {english!r}"


def test_a_refusal_is_said_by_its_code_in_the_readers_language() -> None:
    with translation.override("ro"):
        said = refusal(TableFull())

    assert said == "Toate locurile de la această masă sunt ocupate."


def test_a_refusal_for_bad_input_names_what_was_wrong() -> None:
    with translation.override("ro"):
        said = refusal(InvalidInput("bid: a whole number"))
        options = refusal(InvalidOptions("step must be 1 or 2"))

    assert said == "Nu a fost acceptat: bid: a whole number"
    assert options == "Aceste reguli nu merg împreună: step must be 1 or 2"


def test_a_page_may_say_a_code_its_own_way() -> None:
    said = refusal(TableFull(), {"table_full": "The event's table is full."})

    assert said == "The event's table is full."


def test_a_code_without_words_is_refused_generically_never_in_the_services_english() -> None:
    class Unheard(RuleError):
        code = "unheard_of"

    with translation.override("ro"):
        said = refusal(Unheard("an English reason"))

    assert said == "Nu a fost acceptat."
