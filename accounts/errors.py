"""Errors of the accounts services; each has a stable ``code``, an HTTP ``status`` and a
``message`` to show."""

from config.errors import DomainError


class AccountError(DomainError):
    code = "account_error"


class InvalidCredentials(AccountError):
    code = "invalid_credentials"

    def __init__(self) -> None:
        super().__init__("the username and password do not match an active account")
