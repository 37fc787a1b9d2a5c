"""``python -m korapsyon`` runs the command line."""

from korapsyon.cli import run

run()
