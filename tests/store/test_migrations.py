"""The store's migrations carry stored games forward (tests/server/conftest.py's ``db_url``:
SQLite, and PostgreSQL where scripts/test runs one)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, insert, select

from korapsyon.store import schema
from korapsyon.store.sql import SqlStore

MIGRATIONS = Path(schema.__file__).parent / "migrations"


def _upgrade(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    engine.dispose()


def test_0002_marks_the_host_s_and_the_moderator_s_old_messages(db_url: str) -> None:
    """Issue #17: the host's and the moderator's messages were stored as "host" /
    "moderator", which a seat could also be named. In a room where no seat had that name
    they were the real ones, and become "@host" / "@moderator"; where a seat did, nobody
    can tell, and they stay the seat's."""
    _upgrade(db_url, "0001")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        for code in ("PLAIN", "NAMED"):
            conn.execute(
                insert(schema.rooms).values(
                    code=code, created_at=0.0, status="playing", settings="{}", host_token="x"
                )
            )
        conn.execute(insert(schema.seats).values(room="NAMED", seat=0, name="host"))
        rows = [
            (room, seq, author)
            for room in ("PLAIN", "NAMED")
            for seq, author in enumerate(("host", "moderator", "Ana"))
        ]
        for room, seq, author in rows:
            conn.execute(
                insert(schema.chats).values(
                    room=room, seq=seq, channel="public", author=author, text="hi", year=1, at=0.0
                )
            )
    engine.dispose()
    store = SqlStore(db_url)
    try:
        store.migrate()
        with store.engine.connect() as conn:
            found = {
                (r.room, r.seq): r.author
                for r in conn.execute(
                    select(schema.chats.c.room, schema.chats.c.seq, schema.chats.c.author)
                )
            }
    finally:
        store.close()
    assert found == {
        ("PLAIN", 0): "@host",
        ("PLAIN", 1): "@moderator",
        ("PLAIN", 2): "Ana",
        ("NAMED", 0): "host",  # a seat was named so
        ("NAMED", 1): "@moderator",
        ("NAMED", 2): "Ana",
    }


def test_0003_rooms_remember_their_successor_and_seats_their_stand_in(db_url: str) -> None:
    """Issue #18: a room stored before 0003 has no successor and its seats no bot standing
    in; after it both are there to be set (the rematch, a stand-in), and 0003 can be undone
    and done again."""
    _upgrade(db_url, "0002")
    engine = create_engine(db_url)
    with engine.begin() as conn:  # (the tables as 0002 left them: no new column named)
        conn.execute(
            sa.text(
                "INSERT INTO rooms (code, created_at, status, settings, host_token) "
                "VALUES ('OLD', 0, 'finished', '{}', 'x')"
            )
        )
        conn.execute(sa.text("INSERT INTO seats (room, seat, name) VALUES ('OLD', 0, 'Ana')"))
    engine.dispose()
    store = SqlStore(db_url)
    try:
        store.migrate()
        room = store.load_room("OLD")
        assert room is not None and room.next_room is None
        assert [(s.name, s.stand_in) for s in room.seats] == [("Ana", None)]
        store.set_stand_in("OLD", 0, "heuristic").result(timeout=10)
        room = store.load_room("OLD")
        assert room is not None and room.seats[0].stand_in == "heuristic"
    finally:
        store.close()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(db_url)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0002")
    engine.dispose()
    _upgrade(db_url, "head")
