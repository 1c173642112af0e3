"""What a process keeps for its live pages: the newest version of each thing, least recently
used out, and each missing version made once (one thread makes it while the others that
want it wait), whatever the number of open pages that want it at once."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
WAIT = 5.0  # seconds a thread waits for another's making before it looks again
_every: weakref.WeakSet[Kept] = weakref.WeakSet()


def forget_everything() -> None:
    """Let go of what every Kept of the process holds: after a restore, whose games number
    their versions again from an older copy (what is kept for a version would be another
    game's)."""
    for kept in list(_every):
        kept.clear()


class Kept(Generic[V]):
    def __init__(self, most: int, version_of: Callable[[V], int]) -> None:
        self.most, self.version_of = most, version_of
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._making: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()
        _every.add(self)

    def at(self, key: Hashable, version: int, make: Callable[[V | None], V | None]) -> V | None:
        """The thing `key` at `version` or later: the kept one, else `make(earlier)` (given
        what is kept for an earlier version, if anything), kept unless it is None."""
        while True:
            with self._lock:
                found = self._items.get(key)
                if found is not None and self.version_of(found) >= version:
                    self._items.move_to_end(key)
                    return found
                making = self._making.get(key)
                if making is None:
                    mine = self._making[key] = threading.Event()
                    break
            making.wait(WAIT)
        try:
            made = make(found)
            return None if made is None else self.keep(key, made)
        finally:
            with self._lock:
                del self._making[key]
            mine.set()

    def passing(
        self, key: Hashable, version: int, make: Callable[[V | None], V | None]
    ) -> V | None:
        """As `at`, for a request whose process draws no live page of it: the kept thing
        if it is new enough, else `make(earlier)`, not kept."""
        with self._lock:
            found = self._items.get(key)
        if found is not None and self.version_of(found) >= version:
            return found
        return make(found)

    def keep(self, key: Hashable, value: V) -> V:
        """Keep `value` for `key`, unless a later version is kept already (then that one)."""
        with self._lock:
            kept = self._items.get(key)
            if kept is not None and self.version_of(kept) > self.version_of(value):
                return kept
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.most:
                self._items.popitem(last=False)
            return value

    def get(self, key: Hashable) -> V | None:
        """What is kept for `key`, whatever its version (None: nothing)."""
        with self._lock:
            return self._items.get(key)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def forget(self, key: Hashable, version: int) -> None:
        """Let go of what is kept for `key`, unless it is of a version after `version`."""
        with self._lock:
            kept = self._items.get(key)
            if kept is not None and self.version_of(kept) <= version:
                del self._items[key]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
