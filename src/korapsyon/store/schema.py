"""The database tables (SQLAlchemy Core). Migrations in ``migrations/`` create them."""

from __future__ import annotations

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # lobby | playing | finished
    Column("settings", Text, nullable=False),  # JSON: ruleset, roles, timers, spectators...
    Column("host_token", String(64), nullable=False),  # sha256 of the host's token
    Column("moderator_token", String(64)),  # sha256, for a human moderator
    Column("next_room", String(16)),  # the room its table moved on to (the host's rematch)
)

seats = Table(
    "seats",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(24), nullable=False),
    Column("bot", String(16)),  # None for a person, else the bot kind
    Column("token", String(64)),  # sha256 of the seat's token (people only)
    Column("stand_in", String(16)),  # the kind of bot playing for its player while away
)

games = Table(
    "games",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("setup", Text, nullable=False),  # the record without its actions (JSON)
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float),
)

actions = Table(
    "actions",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0, 1, 2 ... the action's index in the record
    Column("data", Text, nullable=False),  # the action's record form (JSON)
    Column("at", Float, nullable=False),
)

chats = Table(
    "chats",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("channel", String(16), nullable=False),
    Column("author", String(24), nullable=False),
    Column("text", Text, nullable=False),
    Column("year", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

timers = Table(
    "timers",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("data", Text, nullable=False),  # JSON: the current step's timer
)
