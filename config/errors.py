"""The base of every error a service raises for its caller to show: a stable
machine-readable ``code``, the HTTP ``status`` it maps to, a human ``message`` in
English with the particulars (for the API's clients and the logs), and its class's
``text``: the words a page says, in the reader's language (config.error_text)."""

from typing import ClassVar

from django.utils.translation import gettext_noop


class DomainError(Exception):
    code = "error"
    # Marked, not translated: said in the reader's language where it is shown.
    text: ClassVar[str] = gettext_noop("That was not accepted.")
    # Words that say the message too (as ``%(reason)s``), where the text alone would
    # not tell what was wrong.
    reasoned: ClassVar[str | None] = None
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
