"""The one family of errors Atu refuses with: every error a caller is shown — a rule
broken, a service's refusal, a socket's, a seating's — is a :class:`CodedError`.

It carries a stable machine-readable ``code``, the HTTP ``status`` it maps to, a human
``message`` in English with the particulars (for the API's clients and the logs), and
its class's ``text``: the words a page says, marked here and said in the reader's
language at the edge (``runtime.error_text``). This module imports nothing, so that
the rules library, which knows no Django, can be of the family too.
"""

from typing import ClassVar


def gettext_noop(message: str) -> str:
    """``message``, marked for Django's makemessages (which collects this name's
    strings) without translating it: the error is worded where it is shown."""
    return message


class CodedError(Exception):
    code: ClassVar[str] = "error"
    text: ClassVar[str] = gettext_noop("That was not accepted.")
    # Words that say the message too (as ``%(reason)s``), where the text alone would
    # not tell what was wrong.
    reasoned: ClassVar[str | None] = None
    status: ClassVar[int] = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
