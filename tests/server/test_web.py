"""The web client's pages and assets (docs/CLIENT.md) as korapsyon/server/web.py serves
them: every page and asset under a strict Content-Security-Policy, scripts as JavaScript,
nothing outside the client's directory."""

from __future__ import annotations

import asyncio
import json
import posixpath
import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from korapsyon.server.shards import Shards
from korapsyon.server.web import _IMPORTS, PAGES, WEB_DIR, web_routes


class Client:
    """GET requests to the web routes alone, in process."""

    def __init__(self) -> None:
        self.transport = httpx.ASGITransport(app=Starlette(routes=web_routes(Shards.single(""))))

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        async def fetch() -> httpx.Response:
            async with httpx.AsyncClient(transport=self.transport, base_url="http://k") as http:
                response = await http.get(url, **kwargs)
                await response.aread()
                return response

        return asyncio.run(fetch())


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.mark.parametrize("url", list(PAGES))
def test_every_page_is_sent_with_a_strict_policy(client: Client, url: str) -> None:
    response = client.get(url, params={"room": "ABCDE"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in response.text and "style=" not in response.text  # no inline code


def test_assets_are_served_with_their_types_and_the_same_policy(client: Client) -> None:
    script = client.get("/static/js/phone.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert script.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in script.headers["content-security-policy"]
    assert client.get("/static/vendor/qrcode.mjs").status_code == 200
    assert client.get("/static/css/app.css").headers["content-type"].startswith("text/css")


@pytest.mark.parametrize("url", list(PAGES))
def test_every_page_preloads_the_modules_its_script_imports(client: Client, url: str) -> None:
    """One round trip for the whole module graph, not one per import level: each module
    the page's script reaches is named once, before the script, and is served."""
    html = client.get(url).text
    (entry,) = re.findall(r'<script type="module" src="/static/([^"]+)"></script>', html)
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', html)
    reached, queue = set(), [entry]
    while queue:  # the graph, walked here from each module's own import lines
        module = queue.pop()
        for specifier in re.findall(r"from '(\.[^']+)'|^import '(\.[^']+)'", _source(module), re.M):
            name = posixpath.normpath(
                posixpath.join(posixpath.dirname(module), *filter(None, specifier))
            )
            if name not in reached:
                reached.add(name)
                queue.append(name)
    assert len(preloaded) == len(set(preloaded)) and set(preloaded) == reached - {entry}
    assert html.index("modulepreload") < html.index('<script type="module"')
    assert all(client.get(f"/static/{name}").status_code == 200 for name in preloaded)


@pytest.mark.parametrize(
    ("source", "imports"),
    [
        ("import { a } from './a.js';", ["./a.js"]),
        ("import {\n  a,\n  b,\n} from './b.js';", ["./b.js"]),
        ("import './c.js';", ["./c.js"]),
        ("export { x } from '../vendor/q.mjs';", ["../vendor/q.mjs"]),
        ("export function go(c) {\n  location.href = '../play?room=' + c;\n}", []),
        ("const m = await import('./z.js');", []),
        ("export const A = 1;\nconst s = 'x from ./y.js';", []),
    ],
)
def test_only_import_lines_name_modules_to_preload(source: str, imports: list[str]) -> None:
    assert _IMPORTS.findall(source) == imports


def test_a_page_is_not_sent_again_while_the_browser_holds_it(client: Client) -> None:
    first = client.get("/play")
    again = client.get("/play", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["content-security-policy"] == first.headers["content-security-policy"]
    assert client.get("/play", headers={"if-none-match": '"stale"'}).status_code == 200


def _source(module: str) -> str:
    return (WEB_DIR / module).read_text(encoding="utf-8")


def test_nothing_outside_the_client_directory(client: Client) -> None:
    assert client.get("/static/../server/web.py").status_code == 404
    assert client.get("/static/%2e%2e/server/web.py").status_code == 404
    assert client.get("/static/nothing.js").status_code == 404


def test_the_catalogs_hold_the_same_keys() -> None:
    english = json.loads((WEB_DIR / "i18n" / "en.json").read_text(encoding="utf-8"))
    filipino = json.loads((WEB_DIR / "i18n" / "fil.json").read_text(encoding="utf-8"))
    assert english.keys() == filipino.keys()
    assert all(isinstance(text, str) and text for text in [*english.values(), *filipino.values()])
