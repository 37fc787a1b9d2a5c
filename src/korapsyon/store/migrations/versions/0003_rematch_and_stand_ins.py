"""A room remembers the room its table moved on to, and a seat the bot standing in for it.

``rooms.next_room``: the host's "play again" made a new room with the same seats and
settings; pages of the old room (and any that come back to it later) move there.
``seats.stand_in``: the kind of bot playing a person's seat while they are away (issue
#18), so that it goes on playing after a restart until its player comes back.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("next_room", sa.String(16)))
    op.add_column("seats", sa.Column("stand_in", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("stand_in")
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_column("next_room")
