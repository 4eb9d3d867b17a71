"""Deterministic, independently checkable randomness.

Every random draw comes from SHA-256 in counter mode over a secret, so anyone who
learns the secret can recompute it in any language:

    block_i = SHA-256(secret || i as 8 big-endian bytes), i = 0, 1, 2, ...

The blocks are read as a stream of 4-byte big-endian unsigned integers. A number
below ``n`` is drawn by rejection: take the next integer ``x``, reject it while
``x >= 2**32 - (2**32 % n)``, and answer ``x % n``. The deck is shuffled by
Fisher-Yates from the last position down: for ``i = len-1 .. 1`` swap position
``i`` with position ``draw(i + 1)``. Cards are dealt one at a time, clockwise,
starting with the player to the dealer's left; at Romanian Whist the next card is
turned for trump; at classic Whist, where all 52 are dealt, the dealer's last when
trumps are turned (docs/checking.md).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

_LIMIT = 1 << 32
_BLOCK = struct.Struct(">8I")


def _stream(secret: bytes) -> Iterator[int]:
    """The 4-byte big-endian unsigned integers of SHA-256 in counter mode."""
    counter = 0
    while True:
        block = hashlib.sha256(secret + counter.to_bytes(8, "big")).digest()
        yield from _BLOCK.unpack(block)
        counter += 1


def _below(stream: Iterator[int], n: int) -> int:
    """A uniform integer in ``range(n)``, by rejection so that no value is favoured."""
    cutoff = _LIMIT - _LIMIT % n
    value = next(stream)
    while value >= cutoff:
        value = next(stream)
    return value % n


def shuffled(items: Sequence[T], secret: bytes) -> list[T]:
    stream = _stream(secret)
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = _below(stream, i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def draw(n: int, secret: bytes) -> int:
    """One uniform draw in ``range(n)``: the first dealer comes from the seed."""
    return _below(_stream(secret), n)


def commitment(secret: bytes) -> str:
    """The hex SHA-256 of a secret, to publish before the secret is revealed."""
    return hashlib.sha256(secret).hexdigest()


def derive_secret(seed: bytes, label: str) -> bytes:
    """A sub-secret of ``seed``, for callers that deal a whole game from one seed."""
    return hashlib.sha256(seed + b"/" + label.encode()).digest()
