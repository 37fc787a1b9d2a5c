"""The live protocol: every message of the WebSocket, as typed values.

One WebSocket per client (``/ws``). Every message is a JSON object with a ``type``. The
client opens with ``hello``; the server answers ``welcome``, then sends the lobby, the full
view and the chat so far, and from then on an ``update`` whenever that client's view
changes: only what changed (the members of the state that did, the new timeline entries,
the timer). Each ``act``, ``chat`` and
``timer`` message gets exactly one answer: ``ack`` or ``error`` with the same ``id`` (an
action's ack usually inside the ``update`` that shows the action to its sender).

docs/PROTOCOL.md is generated from these types (``korapsyon.server.protocol.document``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

import msgspec

from ..rules.actions import Action

PROTOCOL_VERSION = 4
MAX_MESSAGE_BYTES = 16 * 1024
MAX_CHAT_CHARS = 500

Id = Annotated[int, msgspec.Meta(ge=0, le=2**53, description="chosen by the client, echoed back")]


class _Message(
    msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, omit_defaults=True
):
    pass


# ---------------------------------------------------------------- client -> server
class Hello(_Message, frozen=True, tag="hello"):
    """First message: join a room as a seat (``token``), as its host (``host_token``,
    alone or with a seat token), as its human moderator (``token`` = the moderator token)
    or as a spectator (``spectate``)."""

    room: Annotated[str, msgspec.Meta(min_length=1, max_length=16)]
    token: Annotated[str, msgspec.Meta(max_length=128)] | None = None
    host_token: Annotated[str, msgspec.Meta(max_length=128)] | None = None
    spectate: bool = False
    protocol: int = PROTOCOL_VERSION


class Act(_Message, frozen=True, tag="act"):
    """Take an action for your seat (``action`` in its game-record form; its ``player`` must
    be your seat, or ``@host`` for the host's ``end_discussion``)."""

    id: Id
    action: Action


class Chat(_Message, frozen=True, tag="chat"):
    """Post to the table chat, or to the Corrupt team's channel during the Hidden Phase."""

    id: Id
    channel: Literal["public", "corrupt"]
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CHAT_CHARS)]


class Timer(_Message, frozen=True, tag="timer"):
    """Host or moderator: pause, resume, extend (by ``seconds``) or end the current step."""

    id: Id
    op: Literal["pause", "resume", "extend", "end"]
    seconds: Annotated[int, msgspec.Meta(ge=1, le=3600)] = 30


class StandIn(_Message, frozen=True, tag="stand_in"):
    """Host or moderator: hand ``player``'s seat to a bot of kind ``bot`` while its player
    is away (no connection, or the timer's default in two steps in a row), or with ``bot``
    null take the bot off. The seat is handed back by itself when its player's phone says
    hello again (or acts); the table is told both ways (``notice``)."""

    id: Id
    player: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    bot: Literal["heuristic", "random"] | None = "heuristic"


class Ping(_Message, frozen=True, tag="ping"):
    id: Id


ClientMessage: TypeAlias = Hello | Act | Chat | Timer | StandIn | Ping


# ---------------------------------------------------------------- server -> client
class Welcome(_Message, frozen=True, tag="welcome"):
    """You are in: as ``player`` (with your ``seat`` name), ``host``, ``moderator`` or
    ``spectator``. ``now`` is the server's clock (seconds since the epoch)."""

    protocol: int
    room: str
    role: Literal["player", "host", "moderator", "spectator"]
    seat: str | None
    host: bool
    now: float


class Lobby(_Message, frozen=True, tag="lobby"):
    """The room: its seats, settings and status (sent on joining and on every change)."""

    room: dict[str, Any]


class View(_Message, frozen=True, tag="view"):
    """Your whole view (player, public or moderator view: see docs/PROTOCOL.md), with its
    timeline, and the current step's timer."""

    state: dict[str, Any]
    timeline: list[dict[str, Any]]
    timer: dict[str, Any] | None
    now: float
    pad: str = ""  # players: spaces, so that the frame's size tells nothing (see cover)


class Ack(_Message, frozen=True, tag="ack"):
    """Your ``act``, ``chat`` or ``timer`` message was accepted and stored. For an action,
    ``seq`` is its index in the game record. An action's ack usually comes inside the
    ``update`` that shows it (``acks``), and otherwise on its own after that update."""

    id: int
    seq: int | None = None
    pushed: int | None = None  # benchmarks only (server --trace): the views already pushed


class Update(_Message, frozen=True, tag="update"):
    """Your view changed. ``state`` holds the members of your view's state that changed
    since your last ``view`` or ``update`` (each replaces the one you hold, whole; a member
    gone reads null; the others are as they were), ``timeline`` the entries added since,
    ``timer`` the current step's timer. ``acks`` are the acks of your actions this update
    is the first to show (settle them once the update is applied)."""

    state: dict[str, Any]
    timeline: list[dict[str, Any]]
    timer: dict[str, Any] | None
    now: float
    acks: list[Ack] = []
    seq: int | None = None  # benchmarks only (server --trace): the last action it includes
    pad: str = ""  # players: spaces, so that the frame's size tells nothing (see cover)


class Cover(_Message, frozen=True, tag="cover"):
    """Nothing for you: ignore it. In the Hidden Phase, when any player's view changes (a
    choice made, a Corrupt teammate's choice), every player's phone gets a frame at the
    same moment, of the same length: the changed view to those it concerns and a ``cover``
    to the others, so that a network observer cannot tell whose phone lit up (R-70). A
    message on the Corrupt channel reaches every connection likewise (the message to its
    readers, a cover of the same length to everyone else). Every player's ``view``,
    ``update`` and ``cover`` frame is padded with spaces (``pad``) to a length that depends
    only on public facts."""

    pad: str = ""


class Error(_Message, frozen=True, tag="error"):
    """Refused, and nothing changed. ``code`` is stable (``malformed``, ``not_your_seat``,
    ``rate_limited``, ``muted``, ``elsewhere`` (another worker serves the room), a rule's
    code such as ``consecutive_protect``...); ``message`` says why, naming the rule id where
    a rule refused it. ``replaced`` (no ``id``): this seat connected again from another
    screen, which now has it; this connection is closed (code 4001) and should not
    reconnect by itself (the web client offers to take the seat back). ``fatal``: the
    ``hello`` (or the connection itself) was refused for good and the connection is
    closed; connecting again the same way cannot help (a wrong token, no such room, another
    protocol, no room for more spectators...), where a refusal without it (too many
    connections from one address, a server failure) may be tried again later."""

    id: int | None
    code: str
    message: str
    fatal: bool = False


class ChatPosted(_Message, frozen=True, tag="chat_posted"):
    """A chat message on a channel you can read. ``author`` is the seat's name, or
    ``@host`` (the host without a seat) or ``@moderator``: no seat's name starts with "@",
    so only the server can mark a message as the host's or the moderator's. On the
    ``notice`` channel the server tells the table what the game's events do not (author
    ``@server``, ``text`` a JSON object: its ``kind`` and facts, which a client words:
    ``step_ended_early`` with ``step``, ``by`` and, for a vote, ``cast`` and ``of``;
    ``stand_in`` (a bot plays for ``player``, handed over ``by`` the host, the moderator
    or ``auto``, ``why``: ``away`` or ``timeouts``); ``stand_in_ended`` (``player``'s seat is
    theirs again, ``why``: ``returned``, ``host`` or ``moderator``))."""

    seq: int
    channel: Literal["public", "corrupt", "notice"]
    author: str
    text: str
    year: int
    at: float


class Pong(_Message, frozen=True, tag="pong"):
    id: int
    now: float


ServerMessage: TypeAlias = Welcome | Lobby | View | Update | Cover | Ack | Error | ChatPosted | Pong

_decode_client = msgspec.json.Decoder(ClientMessage).decode


def decode_client(data: str | bytes) -> ClientMessage:
    """A client's message; ``msgspec.DecodeError`` (``ValidationError`` for a wrong shape)
    if it is not one, JSON nested too deeply to read included (msgspec would raise
    RecursionError)."""
    try:
        return _decode_client(data)
    except RecursionError:
        raise msgspec.DecodeError("malformed JSON: nested too deeply") from None


encode = msgspec.json.Encoder().encode


def schemas() -> dict[str, Any]:
    """JSON Schema of every message, client and server."""
    client, client_defs = msgspec.json.schema_components([ClientMessage])
    server, server_defs = msgspec.json.schema_components([ServerMessage])
    return {
        "protocol": PROTOCOL_VERSION,
        "client_to_server": client[0],
        "server_to_client": server[0],
        "$defs": {**client_defs, **server_defs},
    }


_HTTP = (
    ("POST /api/rooms", "anyone", "`{settings?, name?}`", "`{code, join_url, host_token, ...}`"),
    ("GET /api/rooms/{code}", "anyone", "", "the room: seats, settings, status"),
    ("POST /api/rooms/{code}/seats", "anyone", "`{name}`", "`{seat, name, token}`"),
    (
        "POST /api/rooms/{code}/bots",
        "host",
        "`{kind: heuristic \\| search \\| random, name?}`",
        "`{seat, name}`",
    ),
    (
        "DELETE /api/rooms/{code}/seats/{seat}[?name=NAME]",
        "host",
        "",
        "the room (with `name`: 409 `seat_moved` unless the seat is still theirs)",
    ),
    ("PUT /api/rooms/{code}/settings", "host", "the settings", "the room"),
    ("POST /api/rooms/{code}/start", "host", "", "the room"),
    ("POST /api/rooms/{code}/rematch", "host", "", "the room, its `next` the new one"),
    ("GET /api/rooms/{code}/record", "the table", "", "the finished game's record"),
    (
        "GET /api/rooms/{code}/analysis[?as=NAME]",
        "anyone; `as`: the table",
        "",
        "the finished game's analysis: `{years: [{year, corrupt: {name: p}}], view, moments}` "
        "(`korapsyon analyse`)",
    ),
    ("GET /api/protocol", "anyone", "", "the JSON Schema of every message"),
    ("GET /api/openapi.json", "anyone", "", "the OpenAPI 3.1 description of these requests"),
)


def document() -> str:
    """docs/PROTOCOL.md: the protocol, generated from the message types above."""
    import json
    import random

    from ..rules.game import Game
    from ..rules.views import player_view
    from ..selfplay import play_random, table

    specs = schemas()
    defs = specs["$defs"]
    out = [
        "# The live protocol",
        "",
        "<!-- generated by `korapsyon protocol`: edit src/korapsyon/server/protocol.py -->",
        "",
        f"Protocol version **{PROTOCOL_VERSION}**. "
        + (__doc__ or "").split("\n\n")[1].strip().replace("``", "`"),
        "",
        "## The lobby (HTTP, JSON)",
        "",
        "| request | who | body | answer |",
        "|---|---|---|---|",
        *(f"| `{r}` | {w} | {b} | {a} |" for r, w, b, a in _HTTP),
        "",
        "The host authenticates with `Authorization: Bearer <host token>`. A finished game's",
        "record is for its table: any token of the room (a seat's, the host's, the",
        "moderator's) opens it, and nobody else unless the host chose `public_record` in the",
        "settings before the start (the record holds every secret ballot). The analysis from",
        "what the whole table could know is anyone's (the public events and the roles the end",
        "reveals: the board on a TV holds no token); a player's own view's (`?as=NAME`: their",
        "private results) follows the record's rule. Errors are",
        '`{"error": {"code": "...", "message": "..."}}` with a 4xx status; nothing changes.',
        "`PUT .../settings` replaces the whole settings, in the order requests arrive: a client",
        "sends the next only once the last is answered (two in flight, on two connections, may",
        "arrive in either order, and the older would win; the web app queues them).",
        "",
        "**Playing again.** Once a game is over, the host's `rematch` makes a new room with",
        "the same settings and seats (names and bots; every token of the old room opens the",
        "same place in the new one) and starts it at once with a new deal (R-02/R-03). The",
        "old room remembers it: from then on its `room` (the answer, and every `lobby`",
        'message to its pages, also to one that connects later) has `"next": {"code": ...,',
        '"url": ...}` (`url`: the worker that serves it, when not this one; else null), and a',
        "page moves there with the tokens it holds. Asked again, `rematch` gives the same",
        "room: there is one successor, ever. A `room`'s seats also say, during a game,",
        "whether a person is `away` and which bot plays for them meanwhile (`stand_in`).",
        "",
        "A server run with several workers (`korapsyon serve --workers N`) serves each room",
        "from the worker that owns it, on that worker's own address: the `join_url` of a new",
        "room (created at any worker) is there. A worker asked about another's room answers",
        '421 with `{"error": {"code": "elsewhere", "message": "...", "url": "..."}}` (the',
        "same request's URL at the owner, also in `Location`) and changes nothing; a page",
        "with `?room=` redirects there (307), and a `hello` there is refused with the error",
        "`elsewhere`, whose message names the owner's address. A finished game's record can",
        "be downloaded from any worker.",
        "",
        "## Messages",
        "",
    ]
    for title, key in (
        ("Client to server", "client_to_server"),
        ("Server to client", "server_to_client"),
    ):
        out += [f"### {title}", ""]
        for ref in specs[key]["anyOf"]:
            name = ref["$ref"].rsplit("/", 1)[-1]
            schema = defs[name]
            tag = schema["properties"]["type"]["enum"][0]
            out += [f"#### `{tag}`", "", " ".join((schema.get("description") or "").split()), ""]
            out += ["```json", json.dumps(schema, indent=1), "```", ""]
    game = Game(table(9), seed=1)
    play_random(game, random.Random(1), max_actions=40)
    view = player_view(game, game.players[0], words=False)
    view["timeline"] = view["timeline"][-3:]
    out += [
        "## Views",
        "",
        "`view` and `update` carry the client's view: a player's view (`you` holds the seat's",
        "role, private results and legal `choices`), the public view (spectators) or the",
        "moderator's view (`secrets` holds every role, tracker and night choice). An `update`",
        "carries only the members of the `state` that changed (`players`, `history`, `you`...:",
        "each whole) and the timeline entries added since (protocol 4; protocol 3 sent the",
        "whole state in each update, every Year's `history` again). Nothing in",
        "a view is an English sentence: a timeline entry is its `kind` and the facts it names",
        "(`params`), the moderator's line is a `cue` (`key`, `params`), roles and cards are",
        "ids; a client words them in its own language (the web client from its catalogs). The",
        "`timer` is `{paused: false, deadline}` (server seconds) or `{paused: true,",
        "remaining}`. An example player view (timeline shortened):",
        "",
        "```json",
        json.dumps(view, indent=1),
        "```",
        "",
    ]
    return "\n".join(out)
