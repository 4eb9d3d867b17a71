"""The services' errors: the refusals of an action (a table that is full, a version
that moved on, an account not allowed), each with its own HTTP status."""

from coded import CodedError


class DomainError(CodedError):
    pass
