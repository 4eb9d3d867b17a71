"""What a name at a table may be: the one place that decides it.

Players are known at a table by their aliases only, so an alias must read as what
it is, and unlike every other alias at the table. An alias is taken in Unicode's
compatibility form (NFKC: a fullwidth A, U+FF21, is an A) and refused when it holds

- a control or format character: newlines, tabs, zero-width characters, bidi
  overrides that show the text in another order, or any space but U+0020;
- letters of two scripts that are not written together (Unicode TR39's "highly
  restrictive" level: one script, or Latin with the Han, kana, Hangul or Bopomofo
  scripts of Chinese, Japanese and Korean names), as a Cyrillic a (U+0430) among
  Latin letters does;

and it is taken when its confusable skeleton (TR39: each character mapped to its
look-alike prototype, in either case) is another seat's: ``Ana`` with a Cyrillic
A and ``Ana``, ``ana`` and ``Ana``, ``I0`` and ``lO``. The prototypes and scripts are the Unicode
data shipped by ``confusable_homoglyphs``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from games.errors import AliasInvalid, AliasTaken

MAX_ALIAS_LENGTH = 24
# Characters of no script of their own (digits, punctuation, combining marks).
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
# TR39's highly restrictive level: the sets of scripts one name may mix.
SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
# Control, format, surrogate, private-use and unassigned characters, and the line and
# paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_alias(alias: object) -> str:
    """``alias`` in the form it is shown and kept, if it may be one; otherwise
    :class:`AliasInvalid` says why. Spaces around it are dropped (a form drops them
    too); any other character around it, a newline say, is refused like inside it."""
    if not isinstance(alias, str):
        raise AliasInvalid(f"an alias is 1 to {MAX_ALIAS_LENGTH} characters")
    alias = unicodedata.normalize("NFKC", alias).strip(" ")
    if not 1 <= len(alias) <= MAX_ALIAS_LENGTH:
        raise AliasInvalid(f"an alias is 1 to {MAX_ALIAS_LENGTH} characters")
    for character in alias:
        category = unicodedata.category(character)
        if category in REFUSED_CATEGORIES or (category == "Zs" and character != " "):
            raise AliasInvalid(
                f"an alias may not hold the invisible or control character U+{ord(character):04X}"
            )
    # Imported when first needed: the library reads its Unicode data (about 1 MB of
    # JSON) as it is imported, which most processes never need.
    from confusable_homoglyphs import categories

    scripts = categories.unique_aliases(alias) - NEUTRAL_SCRIPTS
    if len(scripts) > 1 and not any(scripts <= mix for mix in SCRIPT_MIXES):
        raise AliasInvalid(
            "an alias is written in one alphabet: it mixes " + " and ".join(sorted(scripts)).lower()
        )
    return alias


def require_free(alias: str, others: Iterable[str]) -> None:
    """Raise :class:`AliasTaken` if ``alias`` may be taken for one of ``others``."""
    keys = _keys(alias)
    if any(keys & _keys(other) for other in others):
        raise AliasTaken(alias)


def fitting_alias(name: str, taken: set[str]) -> str:
    """An alias for a player known as ``name`` (a championship entrant's name) that
    :func:`clean_alias` accepts and none of ``taken`` is confused with: the name
    without the characters an alias may not hold, a number added when it is taken.
    The alias is added to ``taken``."""
    kept = "".join(
        character
        for character in unicodedata.normalize("NFKC", name)
        if unicodedata.category(character) not in REFUSED_CATEGORIES
    )
    base = " ".join(kept.split())[:MAX_ALIAS_LENGTH].strip()
    # A name that mixes scripts is known by the letters it looks like.
    for candidate in (base, skeleton(base)[:MAX_ALIAS_LENGTH], "Player"):
        try:
            base = clean_alias(candidate)
            break
        except AliasInvalid:
            continue
    alias, number = base, 2
    while any(_keys(alias) & _keys(other) for other in taken):
        suffix = f" {number}"
        alias, number = base[: MAX_ALIAS_LENGTH - len(suffix)].strip() + suffix, number + 1
    taken.add(alias)
    return alias


def _keys(alias: str) -> set[str]:
    """The skeletons under which ``alias`` may be mistaken for another: as written,
    and in lower case (``Il`` reads as ``ll``, and ``ANA`` as ``ana``)."""
    return {skeleton(alias), skeleton(alias.casefold())}


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: each character of its NFD form mapped to the
    prototype of the characters it may be mistaken for; runs of spaces read as one."""
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(_prototype(character) for character in decomposed)
    return " ".join(unicodedata.normalize("NFD", mapped).split())


@lru_cache(maxsize=4096)
def _prototype(character: str) -> str:
    """The character's look-alike prototype. ``confusable_homoglyphs`` lists, for a
    prototype, every character confused with it, and for any other character its one
    prototype (which lists it back); a pair that each lists only the other is
    mapped to the lesser of the two, so that both share one."""
    from confusable_homoglyphs import confusables

    found = confusables.confusables_data.get(character)
    if not found or len(found) != 1:
        return character
    prototype = str(found[0]["c"])
    back = confusables.confusables_data.get(prototype) or []
    if len(back) == 1 and back[0]["c"] == character:
        return min(character, prototype)
    return prototype
