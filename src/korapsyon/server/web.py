"""The web client's pages and assets (docs/CLIENT.md), served from ``korapsyon/web``.

Four pages (the lobby, the phone, the board screen and the moderator's grimoire) and a
static mount for their CSS, ES modules, message catalogs and vendored libraries. Every
response carries a strict Content-Security-Policy: scripts, styles and connections come
from this server only, and no page holds inline script or style.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from .shards import Shards

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

PAGES = {
    "/": "index.html",
    "/play": "play.html",
    "/board": "board.html",
    "/moderator": "moderator.html",
}

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; media-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def _page(url: str, filename: str, shards: Shards) -> Route:
    path = WEB_DIR / filename

    async def page(request: Request) -> Response:
        code = request.query_params.get("room", "")
        if code and not shards.owns(code):  # another worker's room: its pages are there
            there = f"{shards.url_of(code)}{request.url.path}?{request.url.query}"
            return RedirectResponse(there, status_code=307, headers=SECURITY_HEADERS)
        return FileResponse(path, media_type="text/html", headers=SECURITY_HEADERS)

    return Route(url, page, methods=["GET", "HEAD"])


class _Assets(StaticFiles):
    """Static files with the same security headers as the pages."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await super().__call__(scope, receive, send_secured)


def web_routes(shards: Shards) -> list[BaseRoute]:
    """The pages and ``/static`` (the client's assets). A page for another worker's room
    (``?room=CODE``) redirects there, where its tokens and WebSocket belong."""
    routes: list[BaseRoute] = [_page(url, filename, shards) for url, filename in PAGES.items()]
    routes.append(Mount("/static", app=_Assets(directory=WEB_DIR), name="static"))
    return routes
