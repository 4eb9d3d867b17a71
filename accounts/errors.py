"""Errors of the accounts services; each has a stable ``code``, an HTTP ``status``, a
``message`` for the API and its ``text`` for a reader (see runtime.errors)."""

from coded import gettext_noop
from runtime.errors import DomainError


class AccountError(DomainError):
    code = "account_error"
    text = gettext_noop("That was not accepted for this account.")


class InvalidCredentials(AccountError):
    code = "invalid_credentials"
    text = gettext_noop("The username and password do not match an active account.")

    def __init__(self) -> None:
        super().__init__("the username and password do not match an active account")
