"""``korapsyon serve``: run the multiplayer server (SQLite by default, or PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import click

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
    default=20,
    show_default=True,
    hidden=True,
    help="Messages a connection may send per second.",
)
def serve(host: str, port: int, db: str | None, trace: bool, limit_messages: int) -> None:
    """Run the Korapsyon server."""
    import uvicorn

    from ..server.app import build_app
    from ..server.connection import Limits
    from ..store.sql import SqlStore

    url = database_url(db)
    store = SqlStore(url)
    limits = Limits(messages=limit_messages)
    public = f"http://{reachable_address(host)}:{port}"
    app = build_app(store, base_url=public, limits=limits, trace=trace)
    say(f"korapsyon server on {public} (store: {url.split('@')[-1]})")
    if public != f"http://{host}:{port}":
        say(f"open {public} on the board's screen: the join links and QR codes point there")
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_per_message_deflate=False,  # compression halves capacity and triples memory
        ws_max_size=64 * 1024,
        # The server's own pings only find connections that died without a word (the web
        # client pings every 20 s itself); uvicorn's default of one every 20 s cost 700
        # pings and pongs a second at 14,000 connections.
        ws_ping_interval=PING_SECONDS,
        ws_ping_timeout=PONG_SECONDS,
        log_level="warning",
    )
    store.close()


PING_SECONDS = 60.0
PONG_SECONDS = 30.0  # a connection silent for a minute and a half is closed


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
