"""The benchmark lock: an exclusive flock that the timed part of a benchmark holds, so that
on a shared machine only timings wait for their turn (compiles and preparation do not)."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator


@contextlib.contextmanager
def held(lock: str | None) -> Iterator[None]:
    """Hold an exclusive flock on the file `lock` (None: no lock) for the body."""
    if lock is None:
        yield
        return
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
