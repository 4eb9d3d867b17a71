"""What a name at a table may be (games/commands/aliases.py): read as what it is, and unlike
every other name at the table."""

from __future__ import annotations

import re

import pytest

from games.commands.aliases import clean_alias, fitting_alias, require_free, skeleton
from games.errors import AliasInvalid, AliasTaken


@pytest.mark.parametrize(
    ("alias", "character"),
    [
        ("Ana\u200b", "U+200B"),  # zero-width space
        ("Ana\u200d", "U+200D"),  # zero-width joiner
        ("\u202eanA", "U+202E"),  # right-to-left override
        ("Ana\u2066x", "U+2066"),  # left-to-right isolate
        ("Ana\nBob", "U+000A"),
        ("Ana\r", "U+000D"),
        ("Ana\tBob", "U+0009"),
        ("Ana\u2028", "U+2028"),  # line separator
        ("Ana\ufeff", "U+FEFF"),  # byte order mark
        ("Ana\u00ad", "U+00AD"),  # soft hyphen
        ("Ana\ue000", "U+E000"),  # private use
    ],
)
def test_an_alias_with_an_invisible_or_control_character_is_invalid(
    alias: str, character: str
) -> None:
    expected = f"an alias may not hold the invisible or control character {character}"
    with pytest.raises(AliasInvalid, match=re.escape(expected)):
        clean_alias(alias)


@pytest.mark.parametrize(
    ("alias", "scripts"),
    [("\u0410na", "cyrillic and latin"), ("\u0396eus", "greek and latin")],
)
def test_an_alias_mixing_alphabets_is_invalid(alias: str, scripts: str) -> None:
    with pytest.raises(AliasInvalid, match=f"it mixes {scripts}"):
        clean_alias(alias)


@pytest.mark.parametrize(
    ("alias", "kept"),
    [
        ("Ștefan", "Ștefan"),
        ("S\u0326tefan", "Ștefan"),  # decomposed comma below: composed
        ("  Ana Maria ", "Ana Maria"),
        ("\u00a0Ana", "Ana"),  # a no-break space is a space
        ("\uff21na", "Ana"),  # fullwidth
        ("Иван", "Иван"),
        ("田中さん", "田中さん"),
        ("Tom 田中", "Tom 田中"),
        ("Jo 2", "Jo 2"),
    ],
)
def test_an_alias_of_one_script_is_kept_in_its_composed_form(alias: str, kept: str) -> None:
    assert clean_alias(alias) == kept


@pytest.mark.parametrize("alias", ["", "   ", "x" * 25, None, 3])
def test_an_alias_is_1_to_24_characters(alias: object) -> None:
    with pytest.raises(AliasInvalid, match="an alias is 1 to 24 characters"):
        clean_alias(alias)


@pytest.mark.parametrize(
    ("alias", "taken"),
    [
        ("ana", "Ana"),
        ("\u0421\u043e\u0440\u0435", "Cope"),  # all Cyrillic, reads as Latin
        ("I0", "lO"),
        ("rn", "m"),
        ("0ana", "Oana"),
        ("Ana  Maria", "Ana Maria"),
    ],
)
def test_an_alias_that_reads_as_another_seats_is_taken(alias: str, taken: str) -> None:
    with pytest.raises(AliasTaken, match="is taken at this table"):
        require_free(alias, ["Bob", taken])


@pytest.mark.parametrize(
    ("alias", "other"), [("Ana", "Ane"), ("Ion", "Ioan"), ("Ștefan", "Stefan"), ("Bob", "Bob 2")]
)
def test_an_alias_unlike_every_other_is_free(alias: str, other: str) -> None:
    require_free(alias, [other])
    assert skeleton(alias) != skeleton(other)


def test_an_entrants_name_is_fitted_to_an_alias_none_is_mistaken_for() -> None:
    taken: set[str] = set()

    fitted = [
        fitting_alias(name, taken)
        for name in ["Ana", "ana", "\u0410na", "Ana\u200b", "x" * 30, "\u202e", "Ion", "lon"]
    ]

    assert fitted == ["Ana", "ana 2", "Ana 3", "Ana 4", "x" * 24, "Player", "Ion", "lon 2"]
    assert all(clean_alias(alias) == alias for alias in fitted)
