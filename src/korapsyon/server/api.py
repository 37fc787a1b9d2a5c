"""The HTTP API of the lobby: its request and answer types, the table of its operations, and
its OpenAPI description (``GET /api/openapi.json``), generated from the two.

The server's routes are built from :data:`OPERATIONS` (korapsyon.server.app), so the
description and the routes cannot drift apart; the JSON Schemas come from the msgspec types
the handlers decode and encode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from ..bots.kinds import SeatKind
from ..record import Record
from .analysis import Analysis
from .settings import RoomSettings


# ---------------------------------------------------------------- bodies and answers
class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    """A new room: its settings, and the host's own seat name if the host plays."""

    settings: RoomSettings = RoomSettings()
    name: str | None = None


class Join(msgspec.Struct, forbid_unknown_fields=True):
    """Take a seat (R-01: 1 to 24 printable characters, not starting with '@')."""

    name: str


class AddBot(msgspec.Struct, forbid_unknown_fields=True):
    """Host: add a bot seat."""

    kind: SeatKind = "heuristic"
    name: str | None = None


class SeatTicket(msgspec.Struct):
    """A seat: its index, its name and (for a person) its secret token, given only once."""

    seat: int
    name: str
    token: str | None = None


class RoomCreated(msgspec.Struct):
    """The new room: its code, the join link and the secrets only its creator gets."""

    code: str
    join_url: str
    host_token: str
    moderator_token: str | None
    seat: SeatTicket | None


class SeatInfo(msgspec.Struct):
    """A seat: a bot's (``bot``: its kind) or a person's, connected now or not. In a game,
    ``away`` says its person is gone (no connection, or the timer's default taken in two
    steps in a row), and ``stand_in`` which kind of bot plays the seat meanwhile."""

    seat: int
    name: str
    bot: str | None
    connected: bool
    stand_in: str | None = None
    away: bool = False


class NextRoom(msgspec.Struct):
    """The room this room's table moved on to (the host's "play again"): its code, and the
    base URL of the worker that serves it when that is not this one (``url``; null: here)."""

    code: str
    url: str | None = None


class RoomInfo(msgspec.Struct):
    """What anyone may see of a room (also the ``lobby`` message's ``room``)."""

    code: str
    status: Literal["lobby", "playing", "finished"]
    join_url: str
    seats: list[SeatInfo]
    settings: RoomSettings
    spectators: int
    next: NextRoom | None = None  # the table played again: the room to move on to


class Health(msgspec.Struct):
    """The server is up: its rooms in memory, and those it could not rebuild at start-up
    (their codes; docs/RELIABILITY.md)."""

    ok: bool
    rooms: int
    damaged: list[str] = []


class ErrorDetail(msgspec.Struct, omit_defaults=True):
    code: str
    message: str
    url: str | None = None  # ``elsewhere``: this request's URL at the room's own worker


class ErrorBody(msgspec.Struct):
    """Every refusal: nothing changed. ``code`` is stable, ``message`` says why."""

    error: ErrorDetail


# ---------------------------------------------------------------- the operations
@dataclass(frozen=True)
class Operation:
    """One request the API answers: ``name`` is its handler in the server."""

    method: str
    path: str
    name: str
    summary: str
    host: bool = False  # needs ``Authorization: Bearer <host token>``
    table: bool = False  # needs any token of the room's table (a seat's, the host's...)
    body: type | None = None
    status: int = 200
    answer: Any = None
    errors: tuple[int, ...] = (400, 404, 409, 421)
    query: tuple[str, ...] = ()  # optional query parameters (:data:`PARAMETERS`)


OPERATIONS: tuple[Operation, ...] = (
    Operation("POST", "/api/rooms", "create", "Create a room", body=CreateRoom, status=201,
              answer=RoomCreated, errors=(400,)),
    Operation("GET", "/api/rooms/{code}", "show", "A room's seats, settings and status",
              answer=RoomInfo, errors=(404, 421)),
    Operation("POST", "/api/rooms/{code}/seats", "join", "Take a seat", body=Join, status=201,
              answer=SeatTicket),
    Operation("DELETE", "/api/rooms/{code}/seats/{seat}", "remove_seat",
              "Host: remove a seat (with ?name=NAME, only if it is still that player's: the "
              "seats after it move up)", host=True, answer=RoomInfo, query=("name",)),
    Operation("POST", "/api/rooms/{code}/bots", "add_bot", "Host: add a bot seat", host=True,
              body=AddBot, status=201, answer=SeatTicket),
    Operation("PUT", "/api/rooms/{code}/settings", "settings", "Host: change the settings",
              host=True, body=RoomSettings, answer=RoomInfo),
    Operation("POST", "/api/rooms/{code}/start", "start", "Host: deal and start (R-02/R-03)",
              host=True, answer=RoomInfo),
    Operation("POST", "/api/rooms/{code}/rematch", "rematch",
              "Host, once the game is over: play again, with the same seats (every token of "
              "the room opens the same place there) and settings and a new deal; the answer "
              "is this room, whose next names the new one (asked again: the same one)",
              host=True, answer=RoomInfo),
    Operation("GET", "/api/rooms/{code}/record", "record",
              "A finished game's record: for its table (a seat's, the host's or the moderator's "
              "token), or anyone if the host chose public_record", table=True, answer=Record,
              errors=(404,)),
    Operation("GET", "/api/rooms/{code}/analysis", "analysis",
              "A finished game's analysis: Year by Year, how likely each player was Corrupt "
              "from what the whole table could know (for anyone: public events and the roles "
              "the end reveals), or from one player's view (?as=NAME: for whoever may read the "
              "record), and the decisive moments", table=True,
              answer=Analysis, query=("as",), errors=(400, 404)),
    Operation("GET", "/api/protocol", "protocol", "The JSON Schema of every WebSocket message",
              answer=dict[str, Any], errors=()),
    Operation("GET", "/api/openapi.json", "openapi", "This description", answer=dict[str, Any],
              errors=()),
    Operation("GET", "/healthz", "health", "Is the server up", answer=Health, errors=()),
)  # fmt: skip

ALWAYS = {
    413: "the body is too large",
    429: "too many requests from this address (see Retry-After)",
    503: "the store is unavailable",
}
REASONS = {
    400: "malformed or refused",
    403: "not the host's token (a record or an analysis: no token of this room's table)",
    404: "no such room, seat or record",
    405: "method not allowed",
    409: "not in this state (the game has started, the name is taken, the room is full)",
    415: "a body that is not JSON (Content-Type: application/json)",
    421: "another worker serves this room: ask at error.url (also in Location)",
}
PARAMETERS = {
    "code": {"type": "string", "minLength": 1, "maxLength": 16, "description": "room code"},
    "seat": {"type": "integer", "minimum": 0, "description": "seat index"},
    "as": {"type": "string", "minLength": 1, "description": "a player's name: their view"},
    "name": {"type": "string", "minLength": 1, "description": "the name the seat must hold"},
}


def openapi(version: str = "") -> dict[str, Any]:
    """The OpenAPI 3.1 description of the HTTP API."""
    bodies = [op.body for op in OPERATIONS if op.body is not None]
    answers = [op.answer for op in OPERATIONS if op.answer is not None]
    refs = "#/components/schemas/{name}"
    schemas, components = msgspec.json.schema_components(
        [*bodies, *answers, ErrorBody], ref_template=refs
    )
    schema_of = dict(zip([*bodies, *answers, ErrorBody], schemas, strict=True))
    error = {"application/json": {"schema": schema_of[ErrorBody]}}
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        statuses = {*op.errors, *(ALWAYS if op.path.startswith("/api/") else {})}
        if op.host or op.table:
            statuses.add(403)
        if op.body is not None:
            statuses.add(415)
        responses: dict[str, Any] = {
            str(op.status): {
                "description": op.summary,
                "content": {"application/json": {"schema": schema_of[op.answer]}},
            }
        }
        for status in sorted(statuses):
            reason = REASONS.get(status) or ALWAYS[status]
            responses[str(status)] = {"description": reason, "content": error}
        if 429 in statuses:
            responses["429"]["headers"] = {
                "Retry-After": {"schema": {"type": "integer", "minimum": 0}}
            }
        entry: dict[str, Any] = {
            "operationId": op.name,
            "summary": op.summary,
            "responses": responses,
        }
        names = [part[1:-1] for part in op.path.split("/") if part.startswith("{")]
        where = [(n, "path") for n in names] + [(n, "query") for n in op.query]
        parameters = [
            {"name": n, "in": place, "required": place == "path", "schema": PARAMETERS[n]}
            for n, place in where
        ]
        if parameters:
            entry["parameters"] = parameters
        if op.body is not None:
            entry["requestBody"] = {
                "required": False,
                "content": {"application/json": {"schema": schema_of[op.body]}},
            }
        if op.host:
            entry["security"] = [{"host": []}]
        elif op.table:
            entry["security"] = [{"table": []}, {}]  # (none: a record the host published)
        paths.setdefault(op.path, {})[op.method.lower()] = entry
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Korapsyon lobby API",
            "version": version or "1",
            "description": "Rooms, seats, bots and settings before the game; the game itself "
            "is played over the WebSocket /ws (GET /api/protocol).",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "host": {"type": "http", "scheme": "bearer", "description": "the host token"},
                "table": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "any token of the room: a seat's, the host's or the moderator's",
                },
            },
        },
    }
