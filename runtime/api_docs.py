"""What the OpenAPI schema says about errors, shared by every API module."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, machine-readable: `not_your_turn` ...")
    message = serializers.CharField(help_text="For people: names the rule or the problem.")
    # The error body's member is named `fields`. DRF's metaclass takes a declared field
    # off the class, so it does not hide Serializer.fields; the stubs cannot know that.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False,
        child=serializers.JSONField(),
        help_text="Only with `invalid_input`: the messages by field name.",
    )


# What each status means, and the codes every endpoint answering it may use.
STATUSES = {
    400: (
        "The request cannot be carried out as sent",
        ["invalid_input", "parse_error", "too_deep"],
    ),
    401: ("Not signed in, or an unknown token", ["not_authenticated", "authentication_failed"]),
    403: ("Not allowed", ["permission_denied"]),
    404: ("Not found", ["game_not_found", "not_found"]),
    409: ("In conflict with the game as it is now", []),
    413: ("The body is larger than the site accepts", ["request_too_large"]),
    429: ("Too many requests; try again after `Retry-After` seconds", ["throttled"]),
}


def errors(*statuses: int, codes: dict[int, list[str]] | None = None) -> dict[int, Any]:
    """Error responses for ``extend_schema(responses=...)``; ``codes`` adds the
    endpoint's own codes to each status's usual ones."""
    responses = {}
    for status in statuses:
        title, usual = STATUSES[status]
        named = ", ".join(f"`{code}`" for code in [*usual, *(codes or {}).get(status, [])])
        responses[status] = OpenApiResponse(
            ErrorSerializer, description=f"{title}. Codes: {named}." if named else f"{title}."
        )
    return responses
