"""Work to do once the transaction commits."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, update_wrapper
from typing import Any

from django.db import transaction


def after_commit(func: Callable[..., object], /, *args: Any, **kwargs: Any) -> None:
    """Call ``func(*args, **kwargs)`` once the transaction commits; an exception it
    raises is logged and swallowed (``on_commit(robust=True)``).

    Not a bare ``partial``: Django logs a robust hook's failure by its
    ``__qualname__``, which a partial lacks, so the hook's error would escape as an
    ``AttributeError`` into whatever committed."""
    hook = update_wrapper(partial(func, *args, **kwargs), func)
    transaction.on_commit(hook, robust=True)
