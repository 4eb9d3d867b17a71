"""The REST API's one error shape: ``{"code": ..., "message": ...}``, plus ``fields``
for invalid input.

Every error of Atu's one family (:class:`coded.CodedError`: the rules', the
services', the accounts') carries its own code and status, and DRF's own exceptions
keep their status and code
(``not_authenticated``, ``parse_error``, ``method_not_allowed``, ``throttled`` ...);
``too_many_attempts`` comes with ``Retry-After``, as ``throttled`` does.
A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 ``request_too_large``, under
/api/ and on the pages alike. A database that is down, refuses, has no free
connection or does not answer in time is a 503 ``database_unavailable`` with
``Retry-After``: the request may be sent again, and nothing of it was written.

The front (docker/nginx.conf) answers in the same shape under /api/ when a request
does not reach a server: 413 ``request_too_large`` (with the same limit and message),
502 and 503 ``server_unavailable`` with ``Retry-After``, 504 ``server_timeout``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from coded import CodedError
from runtime.errors import DatabaseUnavailable, TooManyAttempts
from runtime.outage import DATABASE_DOWN

logger = logging.getLogger("atu.api")

INVALID_INPUT = "invalid_input"
NON_FIELD_ERRORS = "non_field_errors"
REQUEST_TOO_LARGE = "request_too_large"


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    if isinstance(exc, CodedError):
        response = _error(exc.status, exc.code, exc.message)
        if isinstance(exc, TooManyAttempts):
            response.headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, DjangoValidationError):
        response = _invalid(_django_detail(exc))
    elif isinstance(exc, exceptions.ValidationError):
        response = _invalid(exc.detail)
    elif isinstance(exc, RequestDataTooBig):
        response = _error(413, REQUEST_TOO_LARGE, _too_large_message())
    elif isinstance(exc, DATABASE_DOWN):
        # Not the client's fault, and the operator's to see: logged as an error.
        logger.error("database unavailable in %s", context.get("view"), exc_info=exc)
        down = DatabaseUnavailable()
        response = _error(down.status, down.code, down.message)
        response.headers["Retry-After"] = str(down.retry_after)
    else:
        response = _drf_error(exc, context)
    set_rollback()
    return response


def _drf_error(exc: Exception, context: Mapping[str, Any]) -> Response:
    drf_response = exception_handler(exc, dict(context))
    if drf_response is None:
        # A bug, not a bad request: log it with its traceback, answer in our shape.
        logger.error("unhandled error in %s", context.get("view"), exc_info=exc)
        return _error(500, "server_error", "something went wrong on our side")
    # DRF's own exceptions (and Django's Http404 and PermissionDenied, which it
    # converts) carry one detail with its code.
    data = drf_response.data
    detail = data.get("detail") if isinstance(data, dict) else None
    code = getattr(detail, "code", None) or "error"
    response = _error(drf_response.status_code, str(code), str(detail or exc))
    # WWW-Authenticate for a 401, Retry-After when throttled.
    for name, value in drf_response.headers.items():
        response.headers.setdefault(name, value)
    return response


def _error(status_code: int, code: str, message: str) -> Response:
    return Response({"code": code, "message": message}, status=status_code)


def _invalid(detail: Any) -> Response:
    fields = _plain(detail if isinstance(detail, Mapping) else {NON_FIELD_ERRORS: detail})
    message = _first_message(fields) or "the input is not valid"
    return Response(
        {"code": INVALID_INPUT, "message": message, "fields": fields},
        status=status.HTTP_400_BAD_REQUEST,
    )


def _django_detail(exc: DjangoValidationError) -> Any:
    if not hasattr(exc, "error_dict"):
        return exc.messages
    return {
        NON_FIELD_ERRORS if field == "__all__" else field: messages
        for field, messages in exc.message_dict.items()
    }


def _plain(value: Any) -> Any:
    """Error details as plain JSON: strings in lists in dicts."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return str(value)


def _first_message(value: Any, path: tuple[str, ...] = ()) -> str | None:
    """The first error, prefixed with the field it is about (``bid: ...``)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = _first_message(item, path if key == NON_FIELD_ERRORS else (*path, key))
            if found:
                return found
        return None
    if isinstance(value, list):
        return next(filter(None, (_first_message(item, path) for item in value)), None)
    return f"{'.'.join(path)}: {value}" if path else str(value)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _too_large_message() -> str:
    return f"the request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refuses: a body too large to read is a 413, in JSON under /api/
    (before DRF sees it, e.g. a form read by the CSRF check) and as a page elsewhere."""
    if not isinstance(exception, RequestDataTooBig):
        return defaults.bad_request(request, exception)
    if _is_api(request):
        body = {"code": REQUEST_TOO_LARGE, "message": _too_large_message()}
        return JsonResponse(body, status=413)
    context = {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    return render(request, "413.html", context, status=413)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL that matches nothing: ``not_found`` under /api/, the usual page elsewhere."""
    if _is_api(request):
        body = {"code": "not_found", "message": f"there is no {request.path} in the API"}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        body = {"code": "server_error", "message": "something went wrong on our side"}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)
