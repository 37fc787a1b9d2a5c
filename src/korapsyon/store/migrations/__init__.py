"""Alembic migrations of the korapsyon database (run by ``SqlStore.migrate``)."""
