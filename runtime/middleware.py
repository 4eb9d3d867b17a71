"""Each request's id and game, for the logs (runtime.logging); and a page asked while
the database is down, answered as the API answers it."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template import loader

from runtime import logging as log_context
from runtime.errors import DatabaseUnavailable
from runtime.outage import DATABASE_DOWN

logger = logging.getLogger("atu.pages")

REQUEST_ID_HEADER = "X-Request-ID"
# A front's id is kept when it looks like one (nginx's $request_id, a UUID); anything
# else is replaced, so that a client cannot write what it likes into the logs.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")
# The URL names a game as `ref` (its id or share code): the API's, the table page's.
GAME_URL_KWARG = "ref"
# Django's process_view hook: sync, or async on an async stack.
_ViewHook = Callable[
    [HttpRequest, Callable[..., Any], tuple[Any, ...], dict[str, Any]], Awaitable[None] | None
]


def _begin(request: HttpRequest) -> str:
    """The request's id, set for the logs."""
    # Set, and left set until the request is finished: the server logs its access
    # line after the middleware returned. Run in a thread (as Django runs sync
    # middleware under ASGI), the values come back to the request's task with asgiref.
    request_id = _request_id(request)
    log_context.request_id.set(request_id)
    log_context.game.set(None)
    return request_id


@receiver(request_finished, dispatch_uid="runtime.middleware.forget")
def _forget(**kwargs: Any) -> None:
    """A thread that serves one request after another must not log with the last one's ids."""
    log_context.request_id.set(None)
    log_context.game.set(None)


def _note_game(view_kwargs: dict[str, Any]) -> None:
    reference = view_kwargs.get(GAME_URL_KWARG)
    if reference is not None:
        log_context.game.set(str(reference))


def _request_id(request: HttpRequest) -> str:
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


class RequestContextMiddleware:
    """Gives each request an id (the front's ``X-Request-ID``, or a new one), logs
    within it with that id and the game it names, and returns the id in the answer."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        self.process_view: _ViewHook = self._process_view_sync
        self.process_exception: Callable[..., Any] = _unavailable_page
        if self.is_async:
            markcoroutinefunction(self)
            self.process_view = self._process_view_async
            self.process_exception = _unavailable_page_async

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._handle_async(request)
        request_id = _begin(request)
        return self._stamp(self.get_response(request), request_id)

    async def _handle_async(self, request: HttpRequest) -> HttpResponseBase:
        request_id = _begin(request)
        response: Awaitable[HttpResponseBase] = self.get_response(request)
        return self._stamp(await response, request_id)

    def _process_view_sync(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        _note_game(kwargs)

    async def _process_view_async(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        # Django would run a sync process_view in a thread: a hop for every request.
        _note_game(kwargs)

    @staticmethod
    def _stamp(response: HttpResponseBase, request_id: str) -> HttpResponseBase:
        response[REQUEST_ID_HEADER] = request_id
        return response


def _unavailable_page(request: HttpRequest, exception: Exception) -> HttpResponse | None:
    """A page whose view found the database down (a restart, a failover): 503 with
    ``Retry-After`` and a page that says to come back, rather than "Something went
    wrong" and a 500; like that one, the page needs neither the database nor the static
    files. The API's views answer in JSON themselves (runtime.api_errors)."""
    if not isinstance(exception, DATABASE_DOWN):
        return None
    logger.error("database unavailable for %s", request.path, exc_info=exception)
    down = DatabaseUnavailable()
    response = HttpResponse(loader.get_template("503.html").render(), status=down.status)
    response["Retry-After"] = str(down.retry_after)
    return response


async def _unavailable_page_async(
    request: HttpRequest, exception: Exception
) -> HttpResponse | None:
    # Django would run a sync process_exception in a thread.
    return _unavailable_page(request, exception)
