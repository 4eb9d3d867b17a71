"""The base of every error a service raises for its caller to show: a stable
machine-readable ``code``, the HTTP ``status`` it maps to, and a human ``message``."""


class DomainError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
