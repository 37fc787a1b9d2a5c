"""docs/PROTOCOL.md is generated from the code's message types and kept up to date."""

from __future__ import annotations

from pathlib import Path

from korapsyon.server.protocol import PROTOCOL_VERSION, document, schemas

DOC = Path(__file__).parent.parent.parent / "docs" / "PROTOCOL.md"


def test_the_protocol_document_is_current() -> None:
    assert DOC.read_text() == document() + "\n", "run: korapsyon protocol > docs/PROTOCOL.md"


def test_every_message_has_a_schema() -> None:
    specs = schemas()
    assert specs["protocol"] == PROTOCOL_VERSION
    client = {ref["$ref"].rsplit("/", 1)[-1] for ref in specs["client_to_server"]["anyOf"]}
    server = {ref["$ref"].rsplit("/", 1)[-1] for ref in specs["server_to_client"]["anyOf"]}
    assert client == {"Hello", "Act", "Chat", "Timer", "StandIn", "Ping"}
    assert server == {
        "Welcome", "Lobby", "View", "Update", "Cover", "Ack", "Error", "ChatPosted", "Pong"
    }  # fmt: skip
