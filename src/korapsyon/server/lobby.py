"""The lobby's HTTP API (:mod:`.api` describes it): create a room, take a seat, add a bot,
change the settings, start, play again, download a record. Thin adapters: decode the body,
check who asks (the room decides: :meth:`~.room.Room.check_host`), call the hub or the room,
encode; a refusal becomes its JSON error here (:func:`~.errors.wire`)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..record import write_record
from ..store.base import StoreError
from . import protocol as p
from .addresses import AddressLimits, address_of
from .api import OPERATIONS, AddBot, CreateRoom, Health, Join, RoomCreated, SeatTicket, openapi
from .connection import Limits
from .errors import Elsewhere, Refusal, wire
from .hub import Hub
from .names import check_name
from .room import Room, check_settings
from .settings import RoomSettings


def error_response(
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


def too_large(limit: int) -> Refusal:
    return Refusal("too_large", f"request bodies are at most {limit} bytes", 413)


async def _body(request: Request, kind: type[Any], limit: int) -> Any:
    """The request's JSON body as ``kind`` (none: ``{}``). A body must say it is JSON: a
    form a page of another site posts (``text/plain``, no preflight) is refused, 415."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise too_large(limit)
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


class LobbyApi:
    """The lobby API's endpoints over one hub."""

    def __init__(self, hub: Hub, limits: Limits, addresses: AddressLimits) -> None:
        self.hub = hub
        self.limits = limits
        self.addresses = addresses
        self.description = msgspec.json.encode(openapi())

    def routes(self) -> list[Route]:
        """A route for each operation of the API's table (:data:`~.api.OPERATIONS`)."""
        handlers = {
            "create": self.create,
            "show": self.show,
            "join": self.join,
            "add_bot": self.add_bot,
            "remove_seat": self.remove_seat,
            "settings": self.settings,
            "start": self.start,
            "rematch": self.rematch,
            "record": self.record,
            "analysis": self.analysis,
            "protocol": self.protocol,
            "openapi": self.openapi_json,
            "health": self.health,
        }
        return [
            Route(
                _starlette_path(op.path),
                self.answering_refusals(handlers[op.name]),
                methods=[op.method],
            )
            for op in OPERATIONS
        ]

    @staticmethod
    def answering_refusals(handler: Any) -> Any:
        """``handler`` as an endpoint that answers a refusal with its JSON error."""

        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except Elsewhere as exc:
                return _elsewhere(request, exc)
            except Refusal as exc:
                return error_response(exc.status, *wire(exc))
            except ClientDisconnect:  # gone before its body arrived: nobody reads this
                return error_response(
                    400, "disconnected", "the client left before its request ended"
                )

        return endpoint

    async def body(self, request: Request, kind: type[Any]) -> Any:
        return await _body(request, kind, self.limits.body_bytes)

    async def create(self, request: Request) -> Response:
        wanted: CreateRoom = await self.body(request, CreateRoom)
        check_settings(wanted.settings)
        name = None if wanted.name is None else check_name(wanted.name)
        address = address_of(request.scope)
        if not self.addresses.rooms.allow(address):
            retry = self.addresses.rooms.retry_after(address)
            limits = self.limits
            return error_response(
                429,
                "too_many_rooms",
                f"at most {limits.rooms} rooms in {limits.rooms_seconds:g} s from one address",
                {"retry-after": str(retry)},
            )
        for attempt in range(3):
            room, host, moderator = self.hub.create_room(wanted.settings)
            try:
                await room.saved()
                break
            except StoreError:  # the store is failing, or holds an evicted room's code
                self.hub.rooms.pop(room.code, None)
                if attempt == 2:
                    raise
        seat = None
        if name is not None:
            index, secret = room.join(name)
            seat = SeatTicket(index, room.seats[index].name, secret)
            await room.saved()
        return _json(RoomCreated(room.code, room.info().join_url, host, moderator, seat), 201)

    async def show(self, request: Request) -> Response:
        return _json((await self.hub.room(request.path_params["code"])).info())

    async def join(self, request: Request) -> Response:
        wanted: Join = await self.body(request, Join)
        room = await self.hub.room(request.path_params["code"])
        index, secret = room.join(wanted.name)
        await room.saved()
        return _json(SeatTicket(index, room.seats[index].name, secret), 201)

    async def add_bot(self, request: Request) -> Response:
        room = await self.hub.room(request.path_params["code"])
        _host(request, room)
        wanted: AddBot = await self.body(request, AddBot)
        index = room.add_bot(wanted.kind, wanted.name)
        await room.saved()
        return _json(SeatTicket(index, room.seats[index].name), 201)

    async def remove_seat(self, request: Request) -> Response:
        room = await self.hub.room(request.path_params["code"])
        _host(request, room)
        seat, name = int(request.path_params["seat"]), request.query_params.get("name")
        room.remove_seat(seat, name)  # (name: only if the seat is still theirs)
        await room.saved()
        return _json(room.info())

    async def settings(self, request: Request) -> Response:
        room = await self.hub.room(request.path_params["code"])
        _host(request, room)
        wanted: RoomSettings = await self.body(request, RoomSettings)
        room.update_settings(wanted)
        await room.saved()
        return _json(room.info())

    async def start(self, request: Request) -> Response:
        room = await self.hub.room(request.path_params["code"])
        _host(request, room)
        await room.start()
        return _json(room.info())

    async def rematch(self, request: Request) -> Response:
        room = await self.hub.room(request.path_params["code"])
        _host(request, room)
        await self.hub.rematch(room)
        return _json(room.info())

    async def record(self, request: Request) -> Response:
        code = request.path_params["code"]
        found = await asyncio.to_thread(self.hub.record, code, _bearer(request))
        headers = {"content-disposition": f'attachment; filename="korapsyon-{code}.json"'}
        return Response(write_record(found), media_type="application/json", headers=headers)

    async def analysis(self, request: Request) -> Response:
        unknown = set(request.query_params) - {"as"}
        if unknown:
            raise Refusal("malformed", f"unknown query parameter(s): {', '.join(sorted(unknown))}")
        code, viewer = request.path_params["code"], request.query_params.get("as")
        found = await asyncio.to_thread(self.hub.analysis, code, _bearer(request), viewer)
        return _json(found)

    async def protocol(self, request: Request) -> Response:
        return _json(p.schemas())

    async def openapi_json(self, request: Request) -> Response:
        return Response(self.description, media_type="application/json")

    async def health(self, request: Request) -> Response:
        return _json(Health(True, len(self.hub.rooms), sorted(self.hub.damaged)))


def _starlette_path(path: str) -> str:
    return path.replace("{seat}", "{seat:int}")
