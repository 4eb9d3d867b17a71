"""The services' errors: the refusals of an action (a table that is full, a version
that moved on, an account not allowed), each with its own HTTP status."""

from coded import CodedError, gettext_noop


class DomainError(CodedError):
    code = "error"
    text = gettext_noop("That was not accepted.")


class TooManyAttempts(DomainError):
    """A budget of failed attempts is spent (:func:`runtime.throttling.take_attempt`):
    nothing was checked; ``retry_after`` says in how many seconds it opens again."""

    code = "too_many_attempts"
    text = gettext_noop("Too many attempts. Try again in a few minutes.")
    status = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many attempts; try again in {retry_after} seconds")
        self.retry_after = retry_after


class DatabaseUnavailable(DomainError):
    """The database is down, restarting, out of connections or not answering in time:
    nothing was written, and the same request may be sent again after
    ``retry_after`` seconds (decision 3702)."""

    code = "database_unavailable"
    text = gettext_noop("The site cannot reach its database just now. Try again in a few seconds.")
    status = 503
    retry_after = 5

    def __init__(self) -> None:
        super().__init__("the database is not answering; try again shortly")
