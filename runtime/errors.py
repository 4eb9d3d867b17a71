"""The services' errors: the refusals of an action (a table that is full, a version
that moved on, an account not allowed), each with its own HTTP status."""

from coded import CodedError, gettext_noop


class DomainError(CodedError):
    code = "error"
    text = gettext_noop("That was not accepted.")
