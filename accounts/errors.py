"""Errors of the accounts services; each has a stable ``code``, an HTTP ``status`` and a
``message`` to show."""


class AccountError(Exception):
    code = "account_error"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidCredentials(AccountError):
    code = "invalid_credentials"

    def __init__(self) -> None:
        super().__init__("the username and password do not match an active account")
