"""The ASGI application (Starlette): the HTTP API of the lobby and the WebSocket of the game.

Thin adapters only: decode, check who is asking, call the room or the session, encode.

Why one module of ~500 lines: it is the server's whole surface to the network (the
middleware that caps bodies and checks origins, the WebSocket's hello and conversation, the
mapping of every refusal to what a client is told), read top to bottom by whoever audits
what a stranger can send; the lobby's HTTP endpoints are apart in :mod:`.lobby`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
import traceback
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..collector import collect_young, hold_full_collections, release_full_collections
from ..rules.errors import KorapsyonError
from ..store.base import Store
from . import protocol as p
from .addresses import AddressLimits, address_of
from .connection import Connection, Limits
from .errors import Refusal, wire
from .hub import Hub
from .lobby import LobbyApi, error_response, too_large
from .room import Room
from .shards import Shards
from .web import web_routes

HELLO_SECONDS = 10.0
REFUSAL_HOLD = 1.0  # a socket refused for opening too often waits this long for its answer
REPLACED = "this seat was opened on another screen"
REPLACED_CLOSE = 4001  # the close code of a seat's connection that a newer one replaced

log = logging.getLogger("korapsyon.server")


def build_app(
    store: Store,
    *,
    base_url: str = "",
    limits: Limits | None = None,
    trace: bool = False,
    evict_after: float | None = None,
    shards: Shards | None = None,
    origins: Sequence[str] = (),
) -> Server:
    """The application, over ``store`` (migrated, and restored at start-up). ``trace``
    (benchmarks) makes acks and updates say which actions they include; a room not in
    play leaves memory ``evict_after`` seconds after its last use (IDLE_SECONDS).
    ``shards``: this process is one of several workers, each owning some rooms.
    ``origins``: other sites whose pages may open the game's WebSocket (:func:`_origin_ok`)."""
    hub = Hub(store, base_url, trace=trace, shards=shards)
    limits = limits or Limits()
    addresses = AddressLimits(limits)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store.migrate()
        hub.restore()
        loop = asyncio.get_running_loop()
        collector = loop.create_task(_collect_when_quiet(store))
        sweeper = loop.create_task(_evict_idle_rooms(hub, evict_after))
        watchdog = loop.create_task(_unstick(hub, limits.send_seconds))
        yield
        watchdog.cancel()
        collector.cancel()
        sweeper.cancel()
        store.flush()

    lobby = LobbyApi(hub, limits, addresses)
    app = Starlette(
        routes=[*lobby.routes(), *web_routes(hub.shards)],
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error, Exception: _crash},  # type: ignore[dict-item]
    )
    app.state.hub = hub
    allowed = {_origin(url) for url in (*hub.shards.urls, *origins)} - {("", "")}
    return Server(app, hub, limits, addresses, frozenset(allowed))


HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, exc: HTTPException) -> Response:
    """Starlette's own refusals (no such path, wrong method) as JSON errors like ours."""
    code = HTTP_CODES.get(exc.status_code, "refused")
    headers = dict(exc.headers or {})
    message = f"{request.method} {request.url.path}: {exc.detail}"
    return error_response(exc.status_code, code, message, headers)


async def _crash(request: Request, exc: Exception) -> Response:
    """A bug: still a JSON error (the traceback goes to the server's log)."""
    return error_response(500, "internal", "the server failed on this request; nothing was changed")


class Server:
    """The ASGI entry point. ``/ws`` goes straight to the game: the game's WebSocket sends
    many small messages, and each one skips the HTTP app's middleware stack. Lobby API
    requests are counted per address first (and refused early when their declared body is
    too large). Everything else (the pages, the lifespan) is the Starlette application."""

    def __init__(
        self,
        app: Starlette,
        hub: Hub,
        limits: Limits,
        addresses: AddressLimits,
        origins: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self.app = app
        self.hub = hub
        self.limits = limits
        self.addresses = addresses
        self.origins = origins  # (scheme, host[:port]) allowed besides the request's own
        self.state = app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" and scope["path"] == "/ws":
            await self._socket(scope, receive, send)
            return
        if kind == "http" and scope["path"].startswith("/api/"):
            send = _api_headers(send)
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> Response | None:
        limits, address = self.limits, address_of(scope)
        if not self.addresses.requests.allow(address):
            retry = self.addresses.requests.retry_after(address)
            message = (
                f"at most {limits.requests} API requests in {limits.requests_seconds:g} s "
                "from one address"
            )
            return error_response(429, "rate_limited", message, {"retry-after": str(retry)})
        for name, value in scope["headers"]:
            if name == b"content-length" and (
                not value.isdigit() or int(value) > limits.body_bytes
            ):
                error = too_large(limits.body_bytes)
                return error_response(413, error.code, error.message, {"connection": "close"})
        return None

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        ws = WebSocket(scope, receive, send)
        if not _origin_ok(ws, self.origins):
            why = "pages of another site may not join a game here"
            await _refuse(ws, "bad_origin", why, fatal=True)
            return
        address = address_of(scope)
        if not self.addresses.open_socket(address):
            await _refuse(
                ws,
                "too_many_connections",
                f"at most {self.limits.sockets} connections from one address at once",
            )
            return
        try:
            if not self.addresses.connects.allow(address):
                limits = self.limits
                await asyncio.sleep(REFUSAL_HOLD)  # (still counted among its open sockets)
                await _refuse(
                    ws,
                    "too_many_connects",
                    f"at most {limits.connects} new connections in {limits.connects_seconds:g} s "
                    "from one address: try again in a minute",
                )
                return
            await serve_connection(self.hub, ws, send, self.limits)
        finally:
            self.addresses.close_socket(address)


def _origin(url: str) -> tuple[str, str]:
    """An origin's scheme and host[:port], lower-cased."""
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def _origin_ok(ws: WebSocket, allowed: frozenset[tuple[str, str]]) -> bool:
    """Whether a WebSocket may be opened from where it comes: a page of this server (the
    Origin is the request's own scheme and Host), one of ``allowed`` (the workers' and
    public addresses, ``serve --allow-origin``, scheme included), or no page at all (a
    program, which sends no Origin). A page's tokens live in its own origin's storage, so
    a page elsewhere that gets in anyway (DNS rebinding) holds no seat: it is a spectator,
    like any program."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    found = _origin(origin)
    own = ("https" if ws.url.scheme == "wss" else "http", ws.headers.get("host", "").lower())
    return bool(found[1]) and (found == own or found in allowed)


API_HEADERS = [(b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
"""On every lobby API answer: tokens and records are never kept by a cache, and no
browser reads an answer as anything but what its Content-Type says."""


def _api_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *API_HEADERS]}
        await send(message)

    return sending


async def _refuse(
    ws: WebSocket,
    error: str,
    message: str,
    accepted: bool = False,
    code: int = 1008,
    *,
    fatal: bool = False,
) -> None:
    """Say why in an error message (``error``, its code; ``fatal``: trying again the same
    way cannot help) and in the close frame (policy violation, or ``code``), then close."""
    if not accepted:
        await ws.accept()
    with contextlib.suppress(Exception):
        await ws.send_text(p.encode(p.Error(None, error, message, fatal)).decode())
        await ws.close(code=code, reason=_reason(message))


def _reason(message: str) -> str:
    """A close frame's reason holds at most 123 bytes."""
    data = message.encode()
    return message if len(data) <= 123 else data[:120].decode("utf-8", "ignore") + "..."


async def _collect_when_quiet(store: Store) -> None:
    """The garbage collector's policy (:mod:`korapsyon.collector`): young objects on a
    clock, and a full collection only once the server has been quiet (nothing written to
    the store) for QUIET_SECONDS; under load, full collections find nothing to free."""
    gc.collect()
    saved = hold_full_collections()  # the games rebuilt at start-up live as their rooms
    young = asyncio.get_running_loop().create_task(collect_young())
    seen = collected = store.commits
    try:
        while True:
            await asyncio.sleep(QUIET_SECONDS)
            commits = store.commits
            if commits == seen != collected:
                gc.collect()
                collected = commits
            seen = commits
    finally:
        young.cancel()
        release_full_collections(saved)


QUIET_SECONDS = 30.0


async def _evict_idle_rooms(hub: Hub, idle: float | None) -> None:
    """Keep memory bounded by the rooms in use: every SWEEP_SECONDS (at most every
    ``idle`` seconds), drop the rooms nobody has used for ``idle`` seconds (IDLE_SECONDS
    by default): finished games and abandoned lobbies; the store holds them, and they are
    rebuilt when asked for."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS if idle is None else min(SWEEP_SECONDS, idle))
        try:
            hub.evict_idle(IDLE_SECONDS if idle is None else idle)
        except Exception:  # a sweep that failed must not end the sweeping
            log.exception("evicting idle rooms failed")


SWEEP_SECONDS = 60.0
IDLE_SECONDS = 600.0


async def _unstick(hub: Hub, seconds: float) -> None:
    """The watchdog of the rooms' send queues: a client that has not taken a message for
    ``seconds`` no longer holds up the others in its room (Outbox.unstick)."""
    while True:
        await asyncio.sleep(seconds / 4)
        now = time.monotonic()
        for room in list(hub.rooms.values()):
            try:
                room.outbox.unstick(now, seconds)
            except Exception:  # one room's failure must not end the watchdog
                log.exception("the send watchdog failed in room %s", room.code)


# ---------------------------------------------------------------- the WebSocket
async def serve_connection(hub: Hub, ws: WebSocket, send: Send, limits: Limits) -> None:
    """One client from ``hello`` to goodbye (``send`` is the ASGI server's, for the
    connection's outbox)."""
    await ws.accept()
    said = await _hello(hub, ws, limits)
    if said is None:
        return
    room, (role, seat, host) = said
    conn = Connection(ws, send, role=role, seat=seat, host=host, limits=limits, outbox=room.outbox)  # type: ignore[arg-type]
    try:
        _join(room, conn)
    except Exception as exc:  # a bug: this connection only is refused; the room is as it was
        incidents.report(exc, f"room {room.code}: a connection could not be set up")
        conn.broken = True  # nothing it was already given goes out
        why = "the server failed to open this connection; nothing was changed"
        await _refuse(ws, "internal", why, accepted=True, code=1011)
        return
    try:
        await _converse(room, conn, ws)
    except WebSocketDisconnect:
        pass
    finally:
        if conn.reason and not conn.broken:  # closed by the server (a flood): say why now
            conn.broken = True
            with contextlib.suppress(Exception):
                await ws.close(conn.code, conn.reason)
        conn.close()
        if conn in room.connections:
            room.connections.remove(conn)
            room.presence_changed()
            seat, session = conn.seat, room.session
            if seat is not None and session is not None and not session.botseats.connected(seat):
                session.botseats.seat_left(seat)  # (a connection a newer one replaced is not here)


async def _hello(
    hub: Hub, ws: WebSocket, limits: Limits
) -> tuple[Room, tuple[str, str | None, bool]] | None:
    """The room and who the client is (role, seat, host?), from its first message; or
    None, the client refused (and told why) or gone."""
    try:
        first = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
    except TimeoutError:
        await _refuse(ws, "bad_hello", f"say hello within {HELLO_SECONDS:g} s", accepted=True)
        return None
    except WebSocketDisconnect:
        return None
    if first["type"] == "websocket.disconnect":
        return None
    raw = first.get("text") or (first.get("bytes") or b"").decode("utf-8", "replace")
    try:
        hello = p.decode_client(raw)
        if not isinstance(hello, p.Hello):
            raise Refusal("bad_hello", "the first message must be hello")
        if hello.protocol != p.PROTOCOL_VERSION:
            raise Refusal("protocol", f"this server speaks protocol {p.PROTOCOL_VERSION}")
        room = await hub.room(hello.room)
        who = room.identify(hello.token, hello.host_token, hello.spectate)
        if who[0] == "spectator" and room.spectators() >= limits.spectators > 0:
            raise Refusal(
                "too_many_spectators", f"at most {limits.spectators} spectators watch a room"
            )
    except (msgspec.DecodeError, Refusal) as exc:
        code = exc.code if isinstance(exc, Refusal) else "malformed"
        await _refuse(ws, code, str(exc), accepted=True, fatal=True)  # (the same hello again)
        return None
    return room, who


async def _converse(room: Room, conn: Connection, ws: WebSocket) -> None:
    """Every message of the client, one at a time, until it or the server closes."""
    while not conn.closed:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            break
        data = message.get("text")
        if data is None:
            data = (message.get("bytes") or b"").decode("utf-8", "replace")
        try:
            await on_message(room, conn, data)
        except Exception as exc:  # a bug: this message only is refused
            incidents.report(exc, f"room {room.code}: a message failed")
            why = "the server failed on this message; nothing was changed"
            conn.send(p.Error(_id_of(data), "internal", why))


def _join(room: Room, conn: Connection) -> None:
    """Give a new connection its welcome, the lobby (which counts it), the view and the chat
    so far, and only then make it one of the room's connections, letting go of the same
    seat's older connection (the newest wins; the older is told why). If anything fails
    before that, the room is as it was: the older connection keeps the seat."""
    now = time.time()
    conn.send(p.Welcome(p.PROTOCOL_VERSION, room.code, conn.role, conn.seat, conn.host, now))
    conn.send_raw(room.lobby_frame(joining=conn))
    session = room.session
    if session is not None:
        session.send_view(conn)
        for frame in session.chat.history(session.game, conn):
            conn.send_raw(frame)
    if conn.seat is not None:
        for other in list(room.connections):
            if other.seat == conn.seat:
                other.send(p.Error(None, "replaced", REPLACED))
                other.close(REPLACED, REPLACED_CLOSE)
                room.connections.remove(other)
    room.connections.append(conn)
    room.presence_changed()
    if conn.seat is not None and session is not None:
        session.botseats.seat_connected(conn.seat)  # a bot standing in for this player stops


def _admit(conn: Connection, data: str) -> p.ClientMessage | None:
    """The message ``data`` decoded, or None: too large, too many, or malformed (the client
    is told; a flood closes the connection)."""
    if len(data) > p.MAX_MESSAGE_BYTES:
        conn.send(p.Error(None, "too_large", f"messages are at most {p.MAX_MESSAGE_BYTES} bytes"))
        return None
    if not conn.messages.allow():
        if not conn.refusals.allow():  # it goes on regardless: a flood
            conn.close("too many messages: closed for flooding", 1008)
        else:
            conn.send(p.Error(_id_of(data), "rate_limited", "too many messages: slow down"))
        return None
    try:
        return p.decode_client(data)
    except msgspec.DecodeError as exc:
        conn.send(p.Error(_id_of(data), "malformed", f"malformed message: {exc}"))
        return None


async def on_message(room: Room, conn: Connection, data: str) -> None:
    """One client message: exactly one ack or error for act, chat and timer messages."""
    message = _admit(conn, data)
    if message is None:
        return
    if isinstance(message, p.Ping):
        conn.send(p.Pong(message.id, time.time()))
        return
    if isinstance(message, p.Hello):
        conn.send(p.Error(None, "bad_hello", "already said hello"))
        return
    session = room.session
    if session is None:
        conn.send(p.Error(message.id, "not_started", "the game has not started"))
        return
    try:
        if isinstance(message, p.Act):
            await session.submit(conn, message.id, message.action)
        elif isinstance(message, p.Chat):
            seq = await session.post(conn, message.channel, message.text)
            conn.send(p.Ack(message.id, seq))
        elif isinstance(message, p.StandIn):
            await session.hand_seat(conn, message.player, message.bot)
            conn.send(p.Ack(message.id))
        else:  # Timer
            session.time(conn, message.op, message.seconds)
            conn.send(p.Ack(message.id))
    except (Refusal, KorapsyonError) as exc:
        conn.send(p.Error(message.id, *wire(exc)))


class Incidents:
    """The log of what failed where it should not have (bugs, or inputs nobody foresaw): one
    line per failure, the same cause (exception type and the line that raised it) at most
    once every ``seconds``, then how many more there were. A client that can set one off
    cannot fill the log with it."""

    def __init__(self, seconds: float = 60.0) -> None:
        self.seconds = seconds
        self.seen: dict[tuple[str, str, int], tuple[float, int]] = {}  # -> (logged at, since)

    def report(self, exc: BaseException, what: str) -> None:
        frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        where = (frame.filename, frame.lineno or 0) if frame else ("?", 0)
        cause = (type(exc).__name__, *where)
        now = time.monotonic()
        logged, since = self.seen.get(cause, (-self.seconds, 0))
        if now - logged < self.seconds:
            self.seen[cause] = (logged, since + 1)
            return
        more = f" ({since} more since the last report)" if since else ""
        place = f"{Path(where[0]).name}:{where[1]}"
        log.error("%s: %s at %s: %s%s", what, cause[0], place, str(exc)[:200], more)
        self.seen[cause] = (now, 0)


incidents = Incidents()


def _id_of(data: str) -> int | None:
    """The id of a message we could not read, if it has one (so the error can name it)."""
    try:
        value = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return None
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None
