"""``korapsyon serve``: run the multiplayer server (SQLite by default, or PostgreSQL)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..server.connection import Limits
from .terminal import say

DEFAULT_DB = "korapsyon.sqlite3"


def database_url(db: str | None) -> str:
    """A SQLAlchemy URL: a file path means SQLite; postgresql://... means PostgreSQL."""
    if db is None:
        return f"sqlite:///{Path(DEFAULT_DB).resolve()}"
    if db.startswith("postgresql://"):
        return "postgresql+psycopg://" + db.removeprefix("postgresql://")
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).resolve()}"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    default=None,
    help=f"Database: a SQLite file (default ./{DEFAULT_DB}, created on first run) or "
    "postgresql://user:password@host/dbname.",
)
@click.option(
    "--trace", is_flag=True, hidden=True, help="Benchmarks: say which actions views include."
)
@click.option(
    "--limit-messages",
    default=Limits.messages,
    show_default=True,
    type=click.IntRange(1),
    help="Messages a WebSocket may send per second.",
)
@click.option(
    "--limit-requests",
    default=Limits.requests,
    show_default=True,
    type=click.IntRange(0),
    help=f"Lobby API requests per address in {Limits.requests_seconds:g} s (0: no limit).",
)
@click.option(
    "--limit-rooms",
    default=Limits.rooms,
    show_default=True,
    type=click.IntRange(0),
    help=f"Rooms one address may create in {Limits.rooms_seconds:g} s (0: no limit).",
)
@click.option(
    "--limit-connections",
    default=Limits.sockets,
    show_default=True,
    type=click.IntRange(0),
    help="WebSockets open at once from one address (0: no limit).",
)
@click.option(
    "--limit-connects",
    default=Limits.connects,
    show_default=True,
    type=click.IntRange(0),
    help=f"WebSockets one address may open in {Limits.connects_seconds:g} s (0: no limit).",
)
@click.option(
    "--limit-spectators",
    default=Limits.spectators,
    show_default=True,
    type=click.IntRange(0),
    help="Spectators watching one room at once (0: no limit).",
)
@click.option(
    "--limit-body",
    default=Limits.body_bytes,
    show_default=True,
    type=click.IntRange(256),
    help="Largest lobby API request body, in bytes.",
)
@click.option(
    "--limit-send-seconds",
    default=Limits.send_seconds,
    show_default=True,
    type=click.FloatRange(0.1),
    help="A client that has not taken a message for this long is dropped.",
)
@click.option(
    "--evict-after",
    default=600.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Seconds a room not in play (finished, or an abandoned lobby) stays in memory "
    "once nobody uses it; the store keeps it.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes, each owning some of the rooms on its own port (PORT, PORT+1, "
    "...): one per core. Clients are sent to a room's own worker.",
)
@click.option("--worker", default=None, hidden=True, type=int, help="Internal: be worker K.")
@click.option(
    "--advertise", default=None, hidden=True, help="Internal: the workers' address in links."
)
def serve(  # noqa: PLR0917
    host: str,
    port: int,
    db: str | None,
    trace: bool,
    limit_messages: int,
    limit_requests: int,
    limit_rooms: int,
    limit_connections: int,
    limit_connects: int,
    limit_spectators: int,
    limit_body: int,
    limit_send_seconds: float,
    evict_after: float,
    workers: int,
    worker: int | None,
    advertise: str | None,
) -> None:
    """Run the Korapsyon server.

    Behind a reverse proxy on this machine, the proxy must pass each client's address in
    X-Forwarded-For: the per-address limits count addresses, and without it every client
    would be the proxy's 127.0.0.1. With several workers, each one's port must be reachable
    by the clients: a room's pages, API and WebSocket are at its worker's address.
    """
    import uvicorn

    from ..server.app import build_app
    from ..server.shards import Shards
    from ..store.sql import SqlStore

    url = database_url(db)
    if worker is not None and not 0 <= worker < workers:
        raise click.UsageError(f"--worker must be from 0 to {workers - 1}")
    if workers > 1 and (url == "sqlite://" or ":memory:" in url):
        raise click.UsageError("--workers needs a database they can share, not one in memory")
    if workers > 1 and worker is None:
        _supervise(workers, host, port, url, _arguments(click.get_current_context()))
        return
    store = SqlStore(url)
    limits = Limits(
        messages=limit_messages,
        requests=limit_requests,
        rooms=limit_rooms,
        sockets=limit_connections,
        connects=limit_connects,
        spectators=limit_spectators,
        body_bytes=limit_body,
        send_seconds=limit_send_seconds,
    )
    address = advertise or reachable_address(host)  # (workers: the supervisor's, for all)
    shards = Shards(tuple(f"http://{address}:{port + k}" for k in range(workers)), worker or 0)
    app = build_app(store, limits=limits, trace=trace, evict_after=evict_after, shards=shards)
    if worker is None:  # (workers: the supervisor has said it)
        _announce(shards.base_url, host, port, url)
    sys.setswitchinterval(SWITCH_SECONDS)
    uvicorn.run(app, host=host, port=port + (worker or 0), **UVICORN_OPTIONS)
    store.close()


def _announce(public: str, host: str, port: int, url: str) -> None:
    say(f"korapsyon server on {public} (store: {url.rsplit('@', maxsplit=1)[-1]})")
    if public != f"http://{host}:{port}":
        say(f"open {public} on the board's screen: the join links and QR codes point there")


def _arguments(context: click.Context) -> list[str]:
    """This command's options as given (with their defaults), to start its workers with."""
    arguments: list[str] = []
    for param in context.command.params:
        value = context.params[param.name or ""]
        if not isinstance(param, click.Option) or value is None or value is False:
            continue
        arguments.append(param.opts[0])
        if not param.is_flag:
            arguments.append(str(value))
    return arguments


def _supervise(workers: int, host: str, port: int, url: str, arguments: list[str]) -> None:
    """Migrate the store once, then run ``workers`` copies of this command, worker K on
    PORT+K (korapsyon.server.workers)."""
    from ..server.workers import WorkerFailed, supervise
    from ..store.sql import SqlStore

    if port == 0 or port + workers - 1 > 65535:
        raise click.UsageError("--workers needs a fixed --port with room for PORT+1, ...")
    store = SqlStore(url)
    store.migrate()
    store.close()
    address = reachable_address(host)
    _announce(f"http://{address}:{port}", host, port, url)
    say(f"{workers} workers on ports {port}-{port + workers - 1}; each owns some of the rooms")
    command = [sys.executable, "-m", "korapsyon", "serve", *arguments, "--advertise", address]
    try:
        supervise([[*command, "--worker", str(k)] for k in range(workers)], log=say)
    except WorkerFailed as exc:
        raise click.ClickException(str(exc)) from None


SWITCH_SECONDS = 0.0005
"""How long the event loop may keep the interpreter lock while the store's writer thread
waits for it (Python's default is 5 ms). The writer takes the lock back after each call
into the database; under load each wait was a default 5 ms, so a group commit took 20-70
ms and every action in it waited as long (p99 at 1,000 rooms: see docs/PERFORMANCE.md)."""


PING_SECONDS = 60.0
PONG_SECONDS = 30.0  # a connection silent for a minute and a half is closed
WS_MAX_SIZE = 64 * 1024  # a larger WebSocket message closes the connection (1009)

UVICORN_OPTIONS: dict[str, Any] = {
    "ws_per_message_deflate": False,  # compression halves capacity and triples memory
    "ws_max_size": WS_MAX_SIZE,
    # The server's own pings only find connections that died without a word (the web
    # client pings every 20 s itself); uvicorn's default of one every 20 s cost 700
    # pings and pongs a second at 14,000 connections.
    "ws_ping_interval": PING_SECONDS,
    "ws_ping_timeout": PONG_SECONDS,
    "log_level": "warning",
}
"""How ``serve`` runs uvicorn (the security tests run their server the same way). uvicorn's
``proxy_headers`` stay on: X-Forwarded-For is believed from 127.0.0.1 only."""


def reachable_address(host: str) -> str:
    """The address other machines can use when the server listens on every interface
    (``0.0.0.0`` or ``::``): this machine's address on its network, so that join links and
    QR codes work from the players' phones. Any other host is kept as given."""
    if host not in ("0.0.0.0", "::"):
        return host
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
            address: str = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address
