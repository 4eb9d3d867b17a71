"""Events as JSON payloads and back, for every game of the library: cards in the
compact notation ("10H"), suits by letter, other enums by value, options by their
``to_dict``; decoding follows each event field's type hint."""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from enum import Enum
from typing import Any, Generic, TypeVar

from games.rules.cards import SUIT_BY_LETTER, Card, Suit, parse_card

E = TypeVar("E")


def encode_value(value: Any) -> Any:
    kind = type(value)
    # The common kinds first, by their exact type: every move encodes its events.
    if kind is int or kind is str or kind is bool or value is None:
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [encode_value(item) for item in value]
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


def to_payload(event: Any) -> dict[str, Any]:
    """The event (a dataclass) as a JSON-ready dict."""
    names = _FIELD_NAMES.get(type(event))
    if names is None:
        names = _FIELD_NAMES[type(event)] = tuple(f.name for f in fields(event))
    return {name: encode_value(getattr(event, name)) for name in names}


# Each event class's field names: dataclasses.fields builds them anew on every call.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _decode_suit(value: Any) -> Suit:
    return SUIT_BY_LETTER[value]


class EventCodec(Generic[E]):
    """Decodes one game's events by type name; ``special`` decodes the field types the
    generic rules do not know (a game's options)."""

    def __init__(
        self, types: Iterable[type[E]], special: Mapping[Any, Callable[[Any], Any]]
    ) -> None:
        self.types: dict[str, type[E]] = {cls.__name__: cls for cls in types}
        self._special = special
        self._decoders = {
            name: {key: self._decoder(hint) for key, hint in typing.get_type_hints(cls).items()}
            for name, cls in self.types.items()
        }

    def _decoder(self, hint: Any) -> Callable[[Any], Any]:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint in self._special:
            return self._special[hint]
        if hint is Card:
            return parse_card
        if hint is Suit:
            return _decode_suit
        if isinstance(hint, type) and issubclass(hint, Enum):
            return hint
        if origin is tuple:
            item = self._decoder(args[0])
            return lambda value: tuple(map(item, value))
        if type(None) in args:
            inner = self._decoder(next(arg for arg in args if arg is not type(None)))
            return lambda value: None if value is None else inner(value)
        return lambda value: value

    def from_payload(self, type_name: str, payload: Mapping[str, Any]) -> E:
        """Rebuild an event from its type name and :func:`to_payload`."""
        decoders = self._decoders[type_name]
        return self.types[type_name](
            # A field added since the event was stored takes its default.
            **{name: decode(payload[name]) for name, decode in decoders.items() if name in payload}
        )
