"""The web client's pages and assets (docs/CLIENT.md), served from ``korapsyon/web``.

Four pages (the lobby, the phone, the board screen and the moderator's grimoire) and a
static mount for their CSS, ES modules, message catalogs and vendored libraries. Every
response carries a strict Content-Security-Policy: scripts, styles and connections come
from this server only, and no page holds inline script or style.

Each page names every module its script imports, directly or not, as a
``<link rel="modulepreload">`` (read from the modules' ``import ... from`` lines when the
routes are built, so once when the server starts): a phone asks for all of them at once
instead of discovering them one import level at a time (the phone's page imports 24,
found three imports deep; each level is a wait on a party's Wi-Fi).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
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


_IMPORTS = re.compile(
    r"""^(?:(?:import|export)\b[^;'"`]*?\bfrom\s*|import\s*)['"](\.{1,2}/[^'"]+)['"]""",
    re.MULTILINE,
)
"""A module's static imports (``import ... from './x.js'``, ``import './x.js'``,
``export ... from``; over several lines too): the relative specifier. Not a dynamic
``import()``, not a string elsewhere (the client has neither: each module is one file
that names its imports at its top)."""
_ENTRY = re.compile(r'<script type="module" src="/static/([^"]+)"></script>')


def imported_modules(entry: str) -> list[str]:
    """Every module ``entry`` (a path under ``/static``) imports, directly or through
    another, in the order they are first found."""
    found: dict[str, None] = {}
    queue = [entry]
    while queue:
        module = queue.pop(0)
        path = WEB_DIR / module
        if not path.is_file():  # a typo in an import: the page could not load either
            raise RuntimeError(f"the client's {module} is imported but missing")
        source = path.read_text(encoding="utf-8")
        for specifier in _IMPORTS.findall(source):
            name = posixpath.normpath(posixpath.join(posixpath.dirname(module), specifier))
            if name not in found and name != entry:
                found[name] = None
                queue.append(name)
    return list(found)


def page_html(filename: str) -> bytes:
    """A page's HTML with a ``modulepreload`` link for every module its script imports,
    just before the script."""
    html = (WEB_DIR / filename).read_text(encoding="utf-8")
    entry = _ENTRY.search(html)
    if entry is None:
        return html.encode()
    links = "".join(
        f'<link rel="modulepreload" href="/static/{name}">\n  '
        for name in imported_modules(entry.group(1))
    )
    return (html[: entry.start()] + links + html[entry.start() :]).encode()


def _page(url: str, filename: str, shards: Shards) -> Route:
    body = page_html(filename)  # (built once, when the server starts)
    tag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
    headers = {**SECURITY_HEADERS, "etag": tag}

    async def page(request: Request) -> Response:
        code = request.query_params.get("room", "")
        if code and not shards.owns(code):  # another worker's room: its pages are there
            there = f"{shards.url_of(code)}{request.url.path}?{request.url.query}"
            return RedirectResponse(there, status_code=307, headers=SECURITY_HEADERS)
        if request.headers.get("if-none-match") == tag:  # (what FileResponse answered too)
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="text/html", headers=headers)

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
