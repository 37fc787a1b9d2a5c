"""``korapsyon serve``: run the multiplayer server (SQLite by default, or PostgreSQL)."""

from __future__ import annotations

import sys
from pathlib import Path

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
    "--limit-http",
    default=Limits.http,
    show_default=True,
    type=click.IntRange(0),
    help="HTTP connections open at once from one address, WebSockets before their "
    "upgrade included (0: no limit).",
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
@click.option(
    "--tls-cert",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="Serve HTTPS (and wss://) with this certificate chain (PEM); needs --tls-key.",
)
@click.option(
    "--tls-key",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="The private key (PEM) of --tls-cert.",
)
@click.option(
    "--trust-proxy",
    multiple=True,
    metavar="ADDRESS",
    help="Believe X-Forwarded-For and X-Forwarded-Proto from this reverse proxy's address "
    "(repeatable). Without it no client can name its own address.",
)
@click.option(
    "--public-url",
    multiple=True,
    metavar="URL",
    help="The address players use, for the join links and QR codes (behind a reverse "
    "proxy: e.g. https://korapsyon.example.org); with --workers, one per worker, in order.",
)
@click.option(
    "--allow-origin",
    multiple=True,
    metavar="ORIGIN",
    help="Another origin whose pages may open the game's WebSocket (this server's own "
    "and --public-url's always may).",
)
@click.option("--worker", default=None, hidden=True, type=int, help="Internal: be worker K.")
@click.option("--ready-fd", default=None, hidden=True, type=int, help="Internal: say 'ready' here.")
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
    limit_http: int,
    limit_connections: int,
    limit_connects: int,
    limit_spectators: int,
    limit_body: int,
    limit_send_seconds: float,
    evict_after: float,
    workers: int,
    tls_cert: str | None,
    tls_key: str | None,
    trust_proxy: tuple[str, ...],
    public_url: tuple[str, ...],
    allow_origin: tuple[str, ...],
    worker: int | None,
    ready_fd: int | None,
    advertise: str | None,
) -> None:
    """Run the Korapsyon server.

    On a LAN, --tls-cert/--tls-key serve HTTPS, so that nobody on the Wi-Fi reads the
    tokens and roles off the air. Behind a reverse proxy (docs/DEPLOY.md), give its address
    with --trust-proxy (the per-address limits then count each client's own address) and
    the players' address with --public-url. With several workers, each one's port must be
    reachable by the clients: a room's pages, API and WebSocket are at its worker's address.
    """
    from ..server import runtime
    from ..server.app import build_app
    from ..server.shards import Shards
    from ..store.sql import SqlStore

    url = database_url(db)
    if worker is not None and not 0 <= worker < workers:
        raise click.UsageError(f"--worker must be from 0 to {workers - 1}")
    if workers > 1 and (url == "sqlite://" or ":memory:" in url):
        raise click.UsageError("--workers needs a database they can share, not one in memory")
    if (tls_cert is None) != (tls_key is None):
        raise click.UsageError("--tls-cert and --tls-key go together")
    if public_url and len(public_url) != workers:
        raise click.UsageError(f"give --public-url once for each of the {workers} worker(s)")
    try:
        runtime.Proxies(trust_proxy)
    except ValueError as exc:
        raise click.UsageError(f"--trust-proxy takes addresses, networks or '*': {exc}") from None
    scheme = "https" if tls_cert else "http"
    if workers > 1 and worker is None:
        arguments = _arguments(click.get_current_context())
        first = public_url[0] if public_url else None
        _supervise(workers, host, port, url, arguments, scheme=scheme, public=first)
        return
    runtime.raise_file_limit()
    store = SqlStore(url)
    limits = Limits(
        messages=limit_messages,
        requests=limit_requests,
        rooms=limit_rooms,
        http=limit_http,
        sockets=limit_connections,
        connects=limit_connects,
        spectators=limit_spectators,
        body_bytes=limit_body,
        send_seconds=limit_send_seconds,
    )
    address = advertise or reachable_address(host)  # (workers: the supervisor's, for all)
    urls = public_url or tuple(f"{scheme}://{address}:{port + k}" for k in range(workers))
    shards = Shards(tuple(u.rstrip("/") for u in urls), worker or 0)
    app = build_app(
        store,
        limits=limits,
        trace=trace,
        evict_after=evict_after,
        shards=shards,
        origins=allow_origin,
    )
    if worker is None:  # (workers: the supervisor has said it)
        _announce(shards.base_url, host, port, url, scheme)
    tls = runtime.Tls(tls_cert, tls_key) if tls_cert and tls_key else None
    config = runtime.config(
        app, host, port + (worker or 0), tls=tls, proxies=trust_proxy, per_address=limit_http
    )
    sys.setswitchinterval(SWITCH_SECONDS)
    runtime.Server(config, ready_fd).run()
    store.close()


def _announce(public: str, host: str, port: int, url: str, scheme: str) -> None:
    say(f"korapsyon server on {public} (store: {url.rsplit('@', maxsplit=1)[-1]})")
    if public != f"{scheme}://{host}:{port}":
        say(f"open {public} on the board's screen: the join links and QR codes point there")


def _arguments(context: click.Context) -> list[str]:
    """This command's options as given (with their defaults), to start its workers with."""
    arguments: list[str] = []
    for param in context.command.params:
        value = context.params[param.name or ""]
        if not isinstance(param, click.Option) or value is None or value in (False, ()):
            continue
        for item in value if param.multiple else (value,):
            arguments.append(param.opts[0])
            if not param.is_flag:
                arguments.append(str(item))
    return arguments


def _supervise(
    workers: int,
    host: str,
    port: int,
    url: str,
    arguments: list[str],
    *,
    scheme: str,
    public: str | None,
) -> None:
    """Migrate the store once, then run ``workers`` copies of this command, worker K on
    PORT+K (korapsyon.server.workers). ``public``: the first worker's --public-url."""
    from ..server.workers import WorkerFailed, supervise
    from ..store.sql import SqlStore

    if port == 0 or port + workers - 1 > 65535:
        raise click.UsageError("--workers needs a fixed --port with room for PORT+1, ...")
    store = SqlStore(url)
    store.migrate()
    store.close()
    address = reachable_address(host)
    _announce(public or f"{scheme}://{address}:{port}", host, port, url, scheme)
    say(f"{workers} workers on ports {port}-{port + workers - 1}; each owns some of the rooms")
    command = [sys.executable, "-m", "korapsyon", "serve", *arguments, "--advertise", address]
    try:
        supervise([[*command, "--worker", str(k)] for k in range(workers)], log=say)
    except WorkerFailed as exc:
        raise click.ClickException(str(exc)) from None


SWITCH_SECONDS = 0.0005
"""How long the event loop may keep the interpreter lock while the store's writer thread
waits for it (Python's default is 5 ms). The writer takes the lock back after each call
into the database: under load, with the default, each of those waits was a whole
interval, and every action in a group commit waited for all of them (the figures:
docs/PERFORMANCE.md)."""


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
