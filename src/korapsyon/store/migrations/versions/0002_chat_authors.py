"""The host's and the moderator's chat messages are marked ``@host`` / ``@moderator``.

They were stored with the author ``host`` / ``moderator``, which a seat could also be named
(issue #17: a player could speak as the host). A message of a room with no seat of that
name was the host's or the moderator's; it is marked as such. In a room where a seat had
that name, nobody can tell: those messages stay the seat's.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name in ("host", "moderator"):
        op.execute(
            sa.text(
                "UPDATE chats SET author = :marked WHERE author = :name AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE seats.room = chats.room AND seats.name = :name)"
            ).bindparams(marked=f"@{name}", name=name)
        )


def downgrade() -> None:
    for name in ("host", "moderator"):
        op.execute(
            sa.text("UPDATE chats SET author = :name WHERE author = :marked").bindparams(
                marked=f"@{name}", name=name
            )
        )
