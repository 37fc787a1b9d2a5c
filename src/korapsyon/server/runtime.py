"""How the server runs under uvicorn: its options (TLS, which proxy to believe), the
process's file limit, and the guards of the HTTP connections themselves.

``korapsyon serve`` and the tests' servers build their uvicorn configuration here, so the
server a test attacks is the server ``serve`` runs.

Guards (against slowloris: connections that hold the server's file descriptors without
ever finishing a request): a connection whose request is not complete ``request_seconds``
after it opened (or after its next request began) is closed, and one address may hold at
most ``per_address`` HTTP connections at once (its WebSockets are counted apart, by
:class:`~korapsyon.server.addresses.AddressLimits`); a connection beyond that is closed at
once. A trusted reverse proxy's own address is not capped: every client comes through it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import resource
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .connection import Limits
from .workers import READY

REQUEST_SECONDS = 10.0
"""A connection must have sent its whole request (headers and body) within this."""
PING_SECONDS = 60.0
PONG_SECONDS = 30.0  # a connection silent for a minute and a half is closed
WS_MAX_SIZE = 64 * 1024  # a larger WebSocket message closes the connection (1009)

UVICORN_OPTIONS: dict[str, Any] = {
    "ws_per_message_deflate": False,  # compression halves capacity and triples memory
    "ws_max_size": WS_MAX_SIZE,
    # The server's own pings only find connections that died without a word (the web
    # client pings every 20 s itself); uvicorn's default of one every 20 s cost 700
    # pings and pongs a second at 14,000 connections.
    "ws_ping_interval": PING_SECONDS,
    "ws_ping_timeout": PONG_SECONDS,
    "log_level": "warning",
}


@dataclass(frozen=True)
class Tls:
    """A certificate (chain) and its private key, PEM files."""

    certfile: str
    keyfile: str


def config(
    app: Any,
    host: str,
    port: int,
    *,
    tls: Tls | None = None,
    proxies: Sequence[str] = (),
    request_seconds: float = REQUEST_SECONDS,
    per_address: int = Limits.http,
) -> uvicorn.Config:
    """uvicorn's configuration for the app. ``proxies``: the addresses of the reverse
    proxies whose X-Forwarded-For (and X-Forwarded-Proto) is believed; without one, no
    client can name its own address (the per-address limits count the socket's).
    ``per_address``: HTTP connections one address may hold open at once (0: no limit)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_http(request_seconds, per_address, Proxies(proxies)),
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies) or None,
        ssl_certfile=tls.certfile if tls else None,
        ssl_keyfile=tls.keyfile if tls else None,
        **UVICORN_OPTIONS,
    )


class Proxies:
    """The trusted proxies, as ``serve --trust-proxy`` names them (uvicorn's forms:
    addresses, networks such as ``10.0.0.0/8``, or ``*`` for any): ``address in proxies``."""

    def __init__(self, given: Sequence[str] = ()) -> None:
        self.anyone = "*" in given
        self.networks = [ipaddress.ip_network(g, strict=False) for g in given if g != "*"]

    def __contains__(self, address: str) -> bool:
        if self.anyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


def guarded_http(
    request_seconds: float, per_address: int, exempt: Proxies | None = None
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools) with the module's two guards, counting the
    connections of one server (a class of its own for each server); the ``exempt``
    proxies' own connections are not capped."""
    trusted = exempt or Proxies()
    held: dict[str, int] = {}  # HTTP connections open, per address

    class Guarded(HttpToolsProtocol):
        address = ""
        counted = False
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address = self.client[0] if self.client else "?"
            count = held.get(self.address, 0)
            if 0 < per_address <= count and self.address not in trusted:
                transport.abort()  # nothing read, nothing answered
                return
            held[self.address] = count + 1
            self.counted = True
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.deadline is None:
                self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._release()  # a WebSocket now: AddressLimits counts it
            super().handle_websocket_upgrade()

        def _arm(self) -> None:
            self.deadline = self.loop.call_later(request_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _release(self) -> None:
            self._disarm()
            if self.counted:
                self.counted = False
                count = held.get(self.address, 1) - 1
                if count > 0:
                    held[self.address] = count
                else:
                    held.pop(self.address, None)

        def _too_slow(self) -> None:
            self.deadline = None
            if not self.transport.is_closing():
                self.transport.abort()

    return Guarded


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's limit of open files to its hard limit (a server holds one per
    connection; many systems start processes at 1,024). Returns (soft, hard) after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


class Server(uvicorn.Server):
    """uvicorn's server, which also says it has started, by writing READY to ``ready_fd``
    (a worker's supervisor reads it: :mod:`korapsyon.server.workers`), once its rooms are
    rebuilt and it listens: before it has served any request."""

    def __init__(self, config: uvicorn.Config, ready_fd: int | None = None) -> None:
        super().__init__(config)
        self.ready_fd = ready_fd

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.ready_fd is not None:
            os.write(self.ready_fd, READY)
            os.close(self.ready_fd)
            self.ready_fd = None
