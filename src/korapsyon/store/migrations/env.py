"""Alembic environment: migrates the connection SqlStore hands over (or the URL given)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from korapsyon.store.schema import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
else:  # pragma: no cover - the alembic command line, for developers
    engine = create_engine(
        config.get_main_option("sqlalchemy.url") or "sqlite:///korapsyon.sqlite3"
    )
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
