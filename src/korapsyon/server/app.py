"""The ASGI application (Starlette): the HTTP API of the lobby and the WebSocket of the game.

Thin adapters only: decode, check who is asking, call the room or the session, encode.
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
from typing import Any
from urllib.parse import urlsplit

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..collector import collect_young, hold_full_collections, release_full_collections
from ..record import write_record
from ..rules.errors import KorapsyonError
from ..store.base import Store, StoreError
from . import protocol as p
from .addresses import AddressLimits, address_of
from .api import OPERATIONS, AddBot, CreateRoom, Health, Join, RoomCreated, SeatTicket, openapi
from .connection import Connection, Limits
from .errors import Elsewhere, Refusal, wire
from .names import check_name
from .room import Hub, Room, check_settings
from .settings import RoomSettings
from .shards import Shards
from .web import web_routes

HELLO_SECONDS = 10.0
REFUSAL_HOLD = 1.0  # a socket refused for opening too often waits this long for its answer
REPLACED = "this seat was opened on another screen"
REPLACED_CLOSE = 4001  # the close code of a seat's connection that a newer one replaced

log = logging.getLogger("korapsyon.server")


def _error(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def _elsewhere(request: Request, exc: Elsewhere) -> JSONResponse:
    """421: the room is another worker's; ``url`` (and Location) is this request there."""
    there = exc.url + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    body = {"error": {"code": exc.code, "message": exc.message, "url": there}}
    return JSONResponse(body, status_code=exc.status, headers={"location": there})


def _json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type="application/json")


def _too_large(limit: int) -> Refusal:
    return Refusal("too_large", f"request bodies are at most {limit} bytes", 413)


async def _body(request: Request, kind: type[Any], limit: int) -> Any:
    """The request's JSON body as ``kind`` (none: ``{}``). A body must say it is JSON: a
    form a page of another site posts (``text/plain``, no preflight) is refused, 415."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise _too_large(limit)
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if data and media != "application/json":
        raise Refusal(
            "unsupported_media_type", "a request body is JSON (Content-Type: application/json)", 415
        )
    try:
        return msgspec.json.decode(data or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        raise Refusal("malformed", f"malformed request: {exc}") from None
    except RecursionError:
        raise Refusal("malformed", "malformed request: JSON nested too deeply") from None


def _bearer(request: Request) -> str:
    """The token of ``Authorization: Bearer <token>``, or ""."""
    auth = request.headers.get("authorization", "")
    return auth.removeprefix("Bearer ").strip() if auth.startswith("Bearer ") else ""


def _host(request: Request, room: Room) -> None:
    room.check_host(_bearer(request))


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

    def handles(handler: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except Elsewhere as exc:
                return _elsewhere(request, exc)
            except Refusal as exc:
                return _error(exc.status, *wire(exc))
            except ClientDisconnect:  # gone before its body arrived: nobody reads this
                return _error(400, "disconnected", "the client left before its request ended")

        return endpoint

    async def body(request: Request, kind: type[Any]) -> Any:
        return await _body(request, kind, limits.body_bytes)

    async def create(request: Request) -> Response:
        wanted: CreateRoom = await body(request, CreateRoom)
        check_settings(wanted.settings)
        name = None if wanted.name is None else check_name(wanted.name)
        address = address_of(request.scope)
        if not addresses.rooms.allow(address):
            retry = addresses.rooms.retry_after(address)
            return _error(
                429,
                "too_many_rooms",
                f"at most {limits.rooms} rooms in {limits.rooms_seconds:g} s from one address",
                {"retry-after": str(retry)},
            )
        for attempt in range(3):
            room, host, moderator = hub.create_room(wanted.settings)
            try:
                await room.saved()
                break
            except StoreError:  # the store is failing, or holds an evicted room's code
                hub.rooms.pop(room.code, None)
                if attempt == 2:
                    raise
        seat = None
        if name is not None:
            index, secret = room.join(name)
            seat = SeatTicket(index, room.seats[index].name, secret)
            await room.saved()
        return _json(RoomCreated(room.code, room.info().join_url, host, moderator, seat), 201)

    async def show(request: Request) -> Response:
        return _json((await hub.room(request.path_params["code"])).info())

    async def join(request: Request) -> Response:
        wanted: Join = await body(request, Join)
        room = await hub.room(request.path_params["code"])
        index, secret = room.join(wanted.name)
        await room.saved()
        return _json(SeatTicket(index, room.seats[index].name, secret), 201)

    async def add_bot(request: Request) -> Response:
        room = await hub.room(request.path_params["code"])
        _host(request, room)
        wanted: AddBot = await body(request, AddBot)
        index = room.add_bot(wanted.kind, wanted.name)
        await room.saved()
        return _json(SeatTicket(index, room.seats[index].name), 201)

    async def remove_seat(request: Request) -> Response:
        room = await hub.room(request.path_params["code"])
        _host(request, room)
        room.remove_seat(int(request.path_params["seat"]))
        await room.saved()
        return _json(room.info())

    async def settings(request: Request) -> Response:
        room = await hub.room(request.path_params["code"])
        _host(request, room)
        wanted: RoomSettings = await body(request, RoomSettings)
        room.update_settings(wanted)
        await room.saved()
        return _json(room.info())

    async def start(request: Request) -> Response:
        room = await hub.room(request.path_params["code"])
        _host(request, room)
        await room.start()
        return _json(room.info())

    async def rematch(request: Request) -> Response:
        room = await hub.room(request.path_params["code"])
        _host(request, room)
        await hub.rematch(room)
        return _json(room.info())

    async def record(request: Request) -> Response:
        code = request.path_params["code"]
        found = await asyncio.to_thread(hub.record, code, _bearer(request))
        headers = {"content-disposition": f'attachment; filename="korapsyon-{code}.json"'}
        return Response(write_record(found), media_type="application/json", headers=headers)

    async def protocol(request: Request) -> Response:
        return _json(p.schemas())

    description = msgspec.json.encode(openapi())

    async def openapi_json(request: Request) -> Response:
        return Response(description, media_type="application/json")

    async def health(request: Request) -> Response:
        return _json(Health(True, len(hub.rooms), sorted(hub.damaged)))

    handlers = {
        "create": create,
        "show": show,
        "join": join,
        "add_bot": add_bot,
        "remove_seat": remove_seat,
        "settings": settings,
        "start": start,
        "rematch": rematch,
        "record": record,
        "protocol": protocol,
        "openapi": openapi_json,
        "health": health,
    }
    routes = [
        Route(_starlette_path(op.path), handles(handlers[op.name]), methods=[op.method])
        for op in OPERATIONS
    ]
    app = Starlette(
        routes=[*routes, *web_routes(hub.shards)],
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error, Exception: _crash},  # type: ignore[dict-item]
    )
    app.state.hub = hub
    allowed = {_origin(url) for url in (*hub.shards.urls, *origins)} - {("", "")}
    return Server(app, hub, limits, addresses, frozenset(allowed))


def _starlette_path(path: str) -> str:
    return path.replace("{seat}", "{seat:int}")


HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, exc: HTTPException) -> Response:
    """Starlette's own refusals (no such path, wrong method) as JSON errors like ours."""
    code = HTTP_CODES.get(exc.status_code, "refused")
    headers = dict(exc.headers or {})
    message = f"{request.method} {request.url.path}: {exc.detail}"
    return _error(exc.status_code, code, message, headers)


async def _crash(request: Request, exc: Exception) -> Response:
    """A bug: still a JSON error (the traceback goes to the server's log)."""
    return _error(500, "internal", "the server failed on this request; nothing was changed")


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
            return _error(429, "rate_limited", message, {"retry-after": str(retry)})
        for name, value in scope["headers"]:
            if name == b"content-length" and (
                not value.isdigit() or int(value) > limits.body_bytes
            ):
                error = _too_large(limits.body_bytes)
                return _error(413, error.code, error.message, {"connection": "close"})
        return None

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        ws = WebSocket(scope, receive, send)
        if not _origin_ok(ws, self.origins):
            await _refuse(ws, "bad_origin", "pages of another site may not join a game here")
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
    ws: WebSocket, error: str, message: str, accepted: bool = False, code: int = 1008
) -> None:
    """Say why in an error message (``error``, its code) and in the close frame (policy
    violation, or ``code``), then close."""
    if not accepted:
        await ws.accept()
    with contextlib.suppress(Exception):
        await ws.send_text(p.encode(p.Error(None, error, message)).decode())
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
    try:
        first = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
    except TimeoutError:
        await _refuse(ws, "bad_hello", f"say hello within {HELLO_SECONDS:g} s", accepted=True)
        return
    except WebSocketDisconnect:
        return
    if first["type"] == "websocket.disconnect":
        return
    raw = first.get("text") or (first.get("bytes") or b"").decode("utf-8", "replace")
    try:
        hello = p.decode_client(raw)
        if not isinstance(hello, p.Hello):
            raise Refusal("bad_hello", "the first message must be hello")
        if hello.protocol != p.PROTOCOL_VERSION:
            raise Refusal("protocol", f"this server speaks protocol {p.PROTOCOL_VERSION}")
        room = await hub.room(hello.room)
        role, seat, host = room.identify(hello.token, hello.host_token, hello.spectate)
        if role == "spectator" and room.spectators() >= limits.spectators > 0:
            raise Refusal(
                "too_many_spectators", f"at most {limits.spectators} spectators watch a room"
            )
    except (msgspec.DecodeError, Refusal) as exc:
        code = exc.code if isinstance(exc, Refusal) else "malformed"
        await _refuse(ws, code, str(exc), accepted=True)
        return
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
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = (message.get("bytes") or b"").decode("utf-8", "replace")
            try:
                await handle(room, conn, data)
            except Exception as exc:  # a bug: this message only is refused
                incidents.report(exc, f"room {room.code}: a message failed")
                why = "the server failed on this message; nothing was changed"
                conn.send(p.Error(_id_of(data), "internal", why))
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


async def handle(room: Room, conn: Connection, data: str) -> None:
    """One client message: exactly one ack or error for act, chat and timer messages."""
    if len(data) > p.MAX_MESSAGE_BYTES:
        conn.send(p.Error(None, "too_large", f"messages are at most {p.MAX_MESSAGE_BYTES} bytes"))
        return
    if not conn.messages.allow():
        if not conn.refusals.allow():  # it goes on regardless: a flood
            conn.close("too many messages: closed for flooding", 1008)
            return
        conn.send(p.Error(_id_of(data), "rate_limited", "too many messages: slow down"))
        return
    try:
        message = p.decode_client(data)
    except msgspec.DecodeError as exc:
        conn.send(p.Error(_id_of(data), "malformed", f"malformed message: {exc}"))
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
