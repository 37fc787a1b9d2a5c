"""The ASGI application (Starlette): the HTTP API of the lobby and the WebSocket of the game.

Thin adapters only: decode, check who is asking, call the room or the session, encode.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..collector import collect_young, hold_full_collections, release_full_collections
from ..record import write_record
from ..rules.actions import HOST
from ..rules.errors import IllegalActionError, MalformedError
from ..store.sql import SqlStore, StoreError
from . import protocol as p
from .connection import Connection, Limits
from .room import Hub, LobbyError, Room
from .session import StoreUnavailable
from .settings import RoomSettings
from .web import web_routes

MAX_BODY = 16 * 1024
HELLO_SECONDS = 10.0


# ---------------------------------------------------------------- HTTP bodies
class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    settings: RoomSettings = RoomSettings()
    name: str | None = None  # the host's own seat, if the host plays


class Join(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class AddBot(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["heuristic", "random"] = "heuristic"
    name: str | None = None


class SeatTicket(msgspec.Struct):
    seat: int
    name: str
    token: str | None = None


class RoomCreated(msgspec.Struct):
    code: str
    join_url: str
    host_token: str
    moderator_token: str | None
    seat: SeatTicket | None


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type="application/json")


async def _body(request: Request, kind: type[Any]) -> Any:
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise LobbyError("too_large", f"request bodies are at most {MAX_BODY} bytes", 413)
    try:
        return msgspec.json.decode(data or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        raise LobbyError("malformed", f"malformed request: {exc}") from None


def _host(request: Request, room: Room) -> None:
    auth = request.headers.get("authorization", "")
    secret = auth.removeprefix("Bearer ").strip() if auth.startswith("Bearer ") else ""
    if not room.is_host(secret):
        raise LobbyError(
            "not_host", "only the host may do this (Authorization: Bearer <host token>)", 403
        )


def build_app(
    store: SqlStore, *, base_url: str = "", limits: Limits | None = None, trace: bool = False
) -> Server:
    """The application, over ``store`` (migrated, and restored at start-up). ``trace``
    (benchmarks) makes acks and updates say which actions they include."""
    hub = Hub(store, base_url, trace=trace)
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store.migrate()
        hub.restore()
        loop = asyncio.get_running_loop()
        collector = loop.create_task(_collect_when_quiet(store))
        sweeper = loop.create_task(_evict_idle_rooms(hub))
        yield
        collector.cancel()
        sweeper.cancel()
        store.flush()

    def handles(handler: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except LobbyError as exc:
                return _error(exc.status, exc.code, exc.message)
            except StoreError as exc:
                return _error(503, "store_unavailable", str(exc))

        return endpoint

    async def create(request: Request) -> Response:
        body: CreateRoom = await _body(request, CreateRoom)
        room, host, moderator = hub.create_room(body.settings)
        seat = None
        if body.name is not None:
            index, secret = room.join(body.name)
            seat = SeatTicket(index, room.seats[index].name, secret)
        info = room.info()
        return _json(RoomCreated(room.code, info["join_url"], host, moderator, seat), 201)

    async def show(request: Request) -> Response:
        return _json(hub.room(request.path_params["code"]).info())

    async def join(request: Request) -> Response:
        room = hub.room(request.path_params["code"])
        body: Join = await _body(request, Join)
        index, secret = room.join(body.name)
        return _json(SeatTicket(index, room.seats[index].name, secret), 201)

    async def add_bot(request: Request) -> Response:
        room = hub.room(request.path_params["code"])
        _host(request, room)
        body: AddBot = await _body(request, AddBot)
        index = room.add_bot(body.kind, body.name)
        return _json(SeatTicket(index, room.seats[index].name), 201)

    async def remove_seat(request: Request) -> Response:
        room = hub.room(request.path_params["code"])
        _host(request, room)
        room.remove_seat(int(request.path_params["seat"]))
        return _json(room.info())

    async def settings(request: Request) -> Response:
        room = hub.room(request.path_params["code"])
        _host(request, room)
        body: RoomSettings = await _body(request, RoomSettings)
        room.update_settings(body)
        return _json(room.info())

    async def start(request: Request) -> Response:
        room = hub.room(request.path_params["code"])
        _host(request, room)
        await room.start()
        return _json(room.info())

    async def record(request: Request) -> Response:
        code = request.path_params["code"]
        found = await asyncio.to_thread(hub.record, code)
        if found is None:
            raise LobbyError("no_record", f"room {code!r} has no finished game", 404)
        headers = {"content-disposition": f'attachment; filename="korapsyon-{code}.json"'}
        return Response(write_record(found), media_type="application/json", headers=headers)

    async def protocol_schema(request: Request) -> Response:
        return _json(p.schemas())

    async def health(request: Request) -> Response:
        return _json({"ok": True, "rooms": len(hub.rooms)})

    routes = [
        Route("/api/rooms", handles(create), methods=["POST"]),
        Route("/api/rooms/{code}", handles(show), methods=["GET"]),
        Route("/api/rooms/{code}/seats", handles(join), methods=["POST"]),
        Route("/api/rooms/{code}/seats/{seat:int}", handles(remove_seat), methods=["DELETE"]),
        Route("/api/rooms/{code}/bots", handles(add_bot), methods=["POST"]),
        Route("/api/rooms/{code}/settings", handles(settings), methods=["PUT"]),
        Route("/api/rooms/{code}/start", handles(start), methods=["POST"]),
        Route("/api/rooms/{code}/record", handles(record), methods=["GET"]),
        Route("/api/protocol", handles(protocol_schema), methods=["GET"]),
        Route("/healthz", handles(health), methods=["GET"]),
        *web_routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return Server(app, hub, limits)


class Server:
    """The ASGI entry point. ``/ws`` goes straight to the game: the game's WebSocket sends
    many small messages, and each one skips the HTTP app's middleware stack. Everything
    else (the lobby API, the lifespan) is the Starlette application."""

    def __init__(self, app: Starlette, hub: Hub, limits: Limits) -> None:
        self.app = app
        self.hub = hub
        self.limits = limits
        self.state = app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await serve_connection(self.hub, WebSocket(scope, receive, send), self.limits)
        else:
            await self.app(scope, receive, send)


async def _collect_when_quiet(store: SqlStore) -> None:
    """The garbage collector's policy (:mod:`korapsyon.collector`): young objects on a
    clock, and a full collection only once the server has been quiet (nothing written to
    the store) for QUIET_SECONDS; under load, full collections find nothing to free."""
    gc.collect()
    saved = hold_full_collections()  # the games rebuilt at start-up live as their rooms
    young = asyncio.get_running_loop().create_task(collect_young())
    seen = collected = store.writer.commits
    try:
        while True:
            await asyncio.sleep(QUIET_SECONDS)
            commits = store.writer.commits
            if commits == seen != collected:
                gc.collect()
                collected = commits
            seen = commits
    finally:
        young.cancel()
        release_full_collections(saved)


QUIET_SECONDS = 30.0


async def _evict_idle_rooms(hub: Hub) -> None:
    """Keep memory bounded by the rooms in use: every SWEEP_SECONDS, drop the rooms
    nobody has used for IDLE_SECONDS (finished games and abandoned lobbies; the store
    holds them, and they are rebuilt when asked for)."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        hub.evict_idle(IDLE_SECONDS)


SWEEP_SECONDS = 60.0
IDLE_SECONDS = 600.0


# ---------------------------------------------------------------- the WebSocket
async def serve_connection(hub: Hub, ws: WebSocket, limits: Limits) -> None:
    """One client from ``hello`` to goodbye."""
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        await ws.close(code=1008)
        return
    if first["type"] == "websocket.disconnect":
        return
    raw = first.get("text") or (first.get("bytes") or b"").decode("utf-8", "replace")
    try:
        hello = p.decode_client(raw)
        if not isinstance(hello, p.Hello):
            raise LobbyError("bad_hello", "the first message must be hello")
        if hello.protocol != p.PROTOCOL_VERSION:
            raise LobbyError("protocol", f"this server speaks protocol {p.PROTOCOL_VERSION}")
        room = hub.room(hello.room)
        role, seat, host = room.identify(hello.token, hello.host_token, hello.spectate)
    except (msgspec.DecodeError, LobbyError) as exc:
        code = exc.code if isinstance(exc, LobbyError) else "malformed"
        await ws.send_text(p.encode(p.Error(None, code, str(exc))).decode())
        await ws.close(code=1008)
        return
    conn = Connection(ws, role=role, seat=seat, host=host, limits=limits, outbox=room.outbox)  # type: ignore[arg-type]
    for other in list(room.connections):  # the same seat reconnecting: the old one goes
        if seat is not None and other.seat == seat:
            other.close()
            room.connections.remove(other)
    room.connections.append(conn)
    conn.send(p.Welcome(p.PROTOCOL_VERSION, room.code, role, seat, host, time.time()))  # type: ignore[arg-type]
    room.broadcast_lobby()
    session = room.session
    if session is not None:
        session.send_view(conn)
        for row in session.chat_history(conn):
            conn.send(p.ChatPosted(row.seq, row.channel, row.author, row.text, row.year, row.at))  # type: ignore[arg-type]
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = (message.get("bytes") or b"").decode("utf-8", "replace")
            await handle(room, conn, data)
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()
        if conn in room.connections:
            room.connections.remove(conn)
        room.broadcast_lobby()


async def handle(room: Room, conn: Connection, data: str) -> None:
    """One client message: exactly one ack or error for act, chat and timer messages."""
    if len(data) > p.MAX_MESSAGE_BYTES:
        conn.send(p.Error(None, "too_large", f"messages are at most {p.MAX_MESSAGE_BYTES} bytes"))
        return
    if not conn.messages.allow():
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
            action = message.action
            if action.player == HOST:
                if not (conn.host or conn.role == "moderator"):
                    raise _Refused("not_host", "only the host or the moderator acts as @host")
            elif conn.role != "player" or action.player != conn.seat:
                raise _Refused(
                    "not_your_seat",
                    f"this connection acts for {conn.seat or 'no seat'}, not {action.player!r}",
                )
            seq = await session.act(action)
            session.acknowledge(conn, message.id, seq)
        elif isinstance(message, p.Chat):
            refusal = session.chat_refusal(conn, message.channel)
            if refusal is not None:
                raise _Refused(*refusal)
            if not conn.chat.allow():
                raise _Refused("rate_limited", "at most 5 chat messages in 10 seconds")
            seq = await session.post(conn, message.channel, message.text)
            conn.send(p.Ack(message.id, seq))
        else:  # Timer
            if not (conn.host or conn.role == "moderator"):
                raise _Refused("not_host", "only the host or the moderator controls the timer")
            session.control_timer(message.op, message.seconds)
            conn.send(p.Ack(message.id))
    except _Refused as exc:
        conn.send(p.Error(message.id, exc.code, exc.message))
    except IllegalActionError as exc:
        conn.send(p.Error(message.id, exc.code, str(exc)))
    except MalformedError as exc:
        conn.send(p.Error(message.id, "malformed", str(exc)))
    except StoreUnavailable as exc:
        conn.send(p.Error(message.id, "store_unavailable", str(exc)))
    except ValueError as exc:
        conn.send(p.Error(message.id, "refused", str(exc)))


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _id_of(data: str) -> int | None:
    """The id of a message we could not read, if it has one (so the error can name it)."""
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None
