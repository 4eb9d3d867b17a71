"""Structured logs: one JSON object per line on stdout, carrying the request and the
game being handled, so that the lines of one request or one table can be picked out
of several processes' output."""

from __future__ import annotations

import json
import logging
import traceback
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

# Set by runtime.middleware for each HTTP request, and where a game is handled (its
# URL, its socket); asgiref carries both into the threads the work runs in.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game: ContextVar[str | None] = ContextVar("game", default=None)

# What a record carries besides these is an `extra={...}` field, written out too
# (uvicorn's color_message is its message again, with terminal colours).
_NOT_EXTRA = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
    | {"message", "asctime", "request_id", "game", "taskName", "color_message"}
)


class ContextFilter(logging.Filter):
    """Stamps each record with the request and game of the context it is logged in."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        record.game = game.get()
        return True


class ClientFault(logging.Filter):
    """Logs a client's fault that Django reports as an error (a body over the size
    limit, answered 413) as a warning: nothing is wrong with the site, and an error
    would page whoever watches its errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON: time, level, logger, message, the context's ids,
    any ``extra`` fields, and the traceback of an error."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ("request_id", "game"):
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        for name, value in record.__dict__.items():
            if name not in _NOT_EXTRA:
                line[name] = value
        if record.exc_info:
            line["traceback"] = "".join(traceback.format_exception(*record.exc_info))
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, default=str, ensure_ascii=False)


def logging_config(level: str = "INFO") -> dict[str, Any]:
    """The ``LOGGING`` setting: everything, uvicorn's and Celery's too, through one
    JSON handler on stdout."""
    handler = {"handlers": ["stdout"], "level": level, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter}, "client_fault": {"()": ClientFault}},
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {
            "stdout": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "formatter": "json",
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["stdout"], "level": level},
        # uvicorn configures its own loggers before it imports the application;
        # these replace its handlers (a server's access lines become JSON too).
        "loggers": {
            "uvicorn": handler,
            "uvicorn.access": handler,
            # Django's own handlers print only under DEBUG, in another format: its
            # records go to the root's instead.
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.security.RequestDataTooBig": {
                "handlers": [],
                "level": level,
                "propagate": True,
                "filters": ["client_fault"],
            },
        },
    }
