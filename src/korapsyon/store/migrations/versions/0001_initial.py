"""The first schema: rooms, seats, games, actions, chats, timers.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("host_token", sa.String(64), nullable=False),
        sa.Column("moderator_token", sa.String(64)),
    )
    op.create_table(
        "seats",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("bot", sa.String(16)),
        sa.Column("token", sa.String(64)),
    )
    op.create_table(
        "games",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
    )
    op.create_table(
        "actions",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chats",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("author", sa.String(24), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("year", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "timers",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("timers", "chats", "actions", "games", "seats", "rooms"):
        op.drop_table(table)
