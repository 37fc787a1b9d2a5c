"""The garbage collector's policy for a process holding many long-lived objects (the server
with its rooms, the load generator with its clients).

CPython's automatic collections suit such a process badly. A full collection walks every
object of every room: one to three seconds at 1,000 rooms, during which nothing else runs.
And the young generations are collected by an allocation count *net of deallocations*:
when a process keeps replacing live objects (a view for a view, a waiting receive for the
next) the count hardly moves, the young generation grows to tens of thousands of objects
and its collection stalls for 20-120 ms.

So: full collections do not run on their own (the caller runs one when it is quiet), and
the young generations are collected together on a clock, every YOUNG_SECONDS: each
collection is small (a millisecond or two), and an object that lives longer is walked once
before it joins the old generation.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_SECONDS = 0.05
NEVER = 2**30  # a collection threshold no count reaches


def hold_full_collections() -> tuple[int, int, int]:
    """Freeze what exists now (it lives as long as the process) and stop automatic full
    collections; returns the thresholds to restore."""
    saved = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(saved[0], saved[1], NEVER)
    return saved


def release_full_collections(saved: tuple[int, int, int]) -> None:
    gc.set_threshold(*saved)
    gc.unfreeze()


async def collect_young(interval: float = YOUNG_SECONDS) -> None:
    """Collect the two young generations every ``interval`` seconds, until cancelled."""
    while True:
        await asyncio.sleep(interval)
        gc.collect(1)
