"""Where the simulator's tasks run: in this process, on a pool of local processes, or on a
Dask distributed cluster.

Each place is a :class:`concurrent.futures.Executor` (Dask's ``Client.get_executor()`` is
one), so the runner submits the same tasks and reads their results in the same order
wherever they run: a run's results do not depend on the place. A task plays a chunk of
games (:data:`.runner.CHUNK`), never one game.

On a cluster the workers import :mod:`korapsyon` themselves: install the same version of
``korapsyon[cluster]`` on every worker (README, "The balance simulator").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs tasks in this process (one worker: no pool to start, and a debugger or profiler
    sees the games). :meth:`map` runs each task only when its result is read, so a caller
    reading results one by one shows progress, meets an error at once and stops on Ctrl-C;
    :meth:`submit` runs the task at once."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # (KeyboardInterrupt and SystemExit go to the caller)
            future.set_exception(exc)
        return future

    def map(
        self,
        fn: Callable[..., T],
        *iterables: Iterable[Any],
        timeout: float | None = None,
        chunksize: int = 1,
    ) -> Iterator[T]:
        return map(fn, *iterables)


@contextmanager
def place(workers: int | None = None, cluster: str | None = None) -> Iterator[Executor]:
    """An executor for the simulator's tasks: the Dask scheduler at ``cluster`` (an address
    such as ``tcp://10.0.0.5:8786``) if given, else ``workers`` local processes (default:
    every core), or this process for one worker."""
    if cluster is not None:
        with _dask(cluster) as executor:
            yield executor
    elif workers == 1:
        yield InlineExecutor()
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool


@contextmanager
def _dask(address: str) -> Iterator[Executor]:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError(
            "--cluster needs Dask distributed: pip install 'korapsyon[cluster]'"
        ) from None
    try:
        client: Any = Client(address, timeout="10s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        # pure=False: every task is new work (no hashing of the configuration for a cache)
        yield client.get_executor(pure=False)
    finally:
        client.close()
