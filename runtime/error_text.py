"""Every error's words for a reader, in the reader's language.

The services, the rules and the sockets word their errors in English, with the
particulars, for the API's clients and the logs; a page says them again in its
reader's language, by the error class's ``text`` (marked for translation where the
class is defined, translated here). A page may say a code more precisely where it
knows the context (its overrides).
"""

from __future__ import annotations

from django.utils.translation import gettext

from coded import CodedError


def refusal(error: CodedError, overrides: dict[str, str] | None = None) -> str:
    """A refusal in the reader's language: the page's own words for its code if it has
    them, else its class's (with the reason, for errors told by what was wrong)."""
    if overrides and error.code in overrides:
        return overrides[error.code]
    if error.reasoned is not None:
        return gettext(error.reasoned) % {"reason": error.message}
    return gettext(error.text)


def error_texts(*bases: type[CodedError]) -> dict[str, str]:
    """The words of every error class under ``bases`` (the services', the rules' and
    the sockets' by default), by code, in the reader's language: for a page's script,
    which hears only the code. Classes that share a code share their words."""
    texts: dict[str, str] = {}
    found: list[type[CodedError]] = list(bases or (CodedError,))
    while found:
        cls = found.pop(0)
        found += cls.__subclasses__()
        texts.setdefault(cls.code, gettext(cls.text))
    return texts
