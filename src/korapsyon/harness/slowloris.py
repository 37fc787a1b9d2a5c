"""The slowloris benchmark (``korapsyon attack slowloris``): connections that never finish
their request, and whether the server still answers everyone else.

Each attacking connection sends half a request's headers, then one more header line every
few seconds, and never the blank line that ends them. They come from several loopback
addresses (``127.0.0.2``, ``127.0.0.3``...: Linux's loopback takes any 127/8 source), as an
attacker with a few machines would. Halfway through, a bystander at 127.0.0.1 sends
ordinary requests. The report says how many attacking connections the server took, how
many it closed and after how long, and how many of the bystander's requests it answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

import httpx

from ..server.runtime import raise_file_limit

TRICKLE_SECONDS = 3.0  # one more header line this often
AT_ONCE = 0.5  # a connection closed sooner than this was refused, not timed out


@dataclass
class SlowlorisResult:
    connections: int
    addresses: int
    seconds: float
    refused: int = 0  # closed before they could send anything (the cap per address)
    closed_after: list[float] = field(default_factory=list)  # seconds each was held
    still_open: int = 0
    probes: int = 0
    answered: int = 0

    def report(self) -> str:
        held = sorted(self.closed_after)
        spread = (
            f"after {held[0]:.1f}-{held[-1]:.1f} s (median {held[len(held) // 2]:.1f} s)"
            if held
            else "none"
        )
        return "\n".join([
            f"slowloris: {self.connections} unfinished requests from {self.addresses} "
            f"addresses, held up to {self.seconds:g} s",
            f"  closed at once (the cap per address): {self.refused}",
            f"  closed by the server: {len(held)}, {spread}",
            f"  still open at the end: {self.still_open}",
            f"  a bystander's requests meanwhile: {self.answered} of {self.probes} answered",
        ])  # fmt: skip


async def _attacker(
    host: str, port: int, source: str, result: SlowlorisResult, stop: asyncio.Event
) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    except OSError:
        result.refused += 1
        return
    opened = time.monotonic()
    closed = False
    try:
        writer.write(b"GET / HTTP/1.1\r\nHost: korapsyon\r\n")
        await writer.drain()
        line = 0
        while not stop.is_set():
            try:
                await asyncio.wait_for(reader.read(1024), TRICKLE_SECONDS)
            except TimeoutError:
                line += 1
                writer.write(b"X-Slow-%d: 1\r\n" % line)
                await writer.drain()
                continue
            closed = True  # the end of the stream (or an answer): the server let it go
            break
    except (ConnectionError, OSError):
        closed = True
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    held = time.monotonic() - opened
    if not closed:
        result.still_open += 1
    elif held < AT_ONCE:
        result.refused += 1
    else:
        result.closed_after.append(held)


async def run(
    base: str, *, connections: int = 3000, addresses: int = 30, seconds: float = 30.0,
    probes: int = 50,
) -> SlowlorisResult:  # fmt: skip
    """Hold ``connections`` unfinished requests from ``addresses`` loopback addresses for
    up to ``seconds``; halfway, send ``probes`` ordinary requests from 127.0.0.1."""
    raise_file_limit()
    url = httpx.URL(base)
    host, port = url.host, url.port or 80
    result = SlowlorisResult(connections, addresses, seconds)
    stop = asyncio.Event()
    began = time.monotonic()
    attackers = [
        asyncio.create_task(_attacker(host, port, f"127.0.0.{2 + k % addresses}", result, stop))
        for k in range(connections)
    ]
    await asyncio.sleep(seconds / 2)
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        for _ in range(probes):
            result.probes += 1
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    result.answered += 1
    await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))
    stop.set()
    await asyncio.gather(*attackers)
    return result
