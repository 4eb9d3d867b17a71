"""Every error a reader can be refused with carries its words, in English and in
Romanian."""

from __future__ import annotations

import inspect
from collections import defaultdict

import pytest
from django.utils import translation

import accounts.errors
import games.errors
import games.live.consumer
import games.rules.errors
import tournaments.errors
import tournaments.seating
from games.errors import InvalidInput, TableFull, UnknownBot
from games.rules.errors import InvalidOptions, RuleError
from runtime import errors, limits
from runtime.error_text import error_texts, refusal

ERROR_MODULES = [
    errors,
    games.errors,
    tournaments.errors,
    accounts.errors,
    games.rules.errors,
    tournaments.seating,
    limits,
]
ERROR_BASES = (
    errors.DomainError,
    RuleError,
    tournaments.seating.SeatingError,
    games.errors.SocketError,
    limits.Refusal,
)
EVERY_CLASS = sorted(
    (
        cls
        for module in ERROR_MODULES
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and issubclass(cls, ERROR_BASES)
    ),
    key=lambda cls: cls.__qualname__,
)


def test_the_error_modules_are_read_for_their_classes() -> None:
    codes = {cls.code for cls in EVERY_CLASS}
    assert {"table_full", "must_trump", "players_not_in_fours", "invalid_credentials"} <= codes
    assert {"not_authenticated", "too_few_players", "too_many_messages", "too_deep"} <= codes


@pytest.mark.parametrize("cls", EVERY_CLASS, ids=lambda cls: cls.__qualname__)
def test_every_error_class_has_words_of_its_own_in_romanian_too(cls: type[RuleError]) -> None:
    assert "text" in vars(cls), f"{cls.__qualname__} says its parent's words"
    with translation.override("en"):
        english = translation.gettext(cls.text)
    with translation.override("ro"):
        romanian = translation.gettext(cls.text)

    assert english, f"{cls.__qualname__} has no text"
    assert romanian != english, f"{cls.__qualname__} is not translated: {english!r}"


def test_error_classes_that_share_a_code_share_their_words() -> None:
    words = defaultdict(set)
    for cls in EVERY_CLASS:
        words[cls.code].add(cls.text)

    assert {code: texts for code, texts in words.items() if len(texts) > 1} == {}


def test_a_refusal_is_said_by_its_class_in_the_readers_language() -> None:
    with translation.override("ro"):
        said = refusal(TableFull())

    assert said == "Toate locurile de la această masă sunt ocupate."


def test_a_refusal_for_bad_input_names_what_was_wrong() -> None:
    with translation.override("ro"):
        said = refusal(InvalidInput("bid: a whole number"))
        options = refusal(InvalidOptions("step must be 1 or 2"))
        bot = refusal(UnknownBot("x", ["easy"]))

    assert said == "Nu a fost acceptat: bid: a whole number"
    assert options == "Aceste reguli nu merg împreună: step must be 1 or 2"
    assert bot == "Nu există un bot de acest nivel: alege ușor, mediu sau puternic."


def test_a_page_may_say_a_code_its_own_way() -> None:
    said = refusal(TableFull(), {"table_full": "The event's table is full."})

    assert said == "The event's table is full."


def test_an_error_without_words_of_its_own_says_its_parents_never_the_services_english() -> None:
    class Unheard(RuleError):
        code = "unheard_of"

    with translation.override("ro"):
        said = refusal(Unheard("an English reason"))

    assert said == "Regulile nu permit asta."


def test_a_pages_script_hears_every_code_in_the_readers_language() -> None:
    with translation.override("ro"):
        texts = error_texts()

    assert texts["must_follow_suit"] == "Trebuie să răspunzi la culoare."
    assert texts["too_many_messages"] == "Prea multe mesaje deodată: conexiunea a fost închisă."
    heard = (errors.DomainError, RuleError, limits.Refusal)
    assert {cls.code for cls in EVERY_CLASS if issubclass(cls, heard)} <= set(texts)
