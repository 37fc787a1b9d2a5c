"""The ``korapsyon`` click group: one command per module, each thin (parse, call, print).

The group imports a command's module only when that command runs (or ``--help`` lists
them), so a command does not pay for the server, the bots or the harnesses.
"""

from __future__ import annotations

import importlib

import click

COMMANDS = {
    "play": "play",
    "replay": "replay",
    "analyse": "analyse",
    "bench": "bench",
    "simulate": "simulate",
    "tune": "tune",
    "ladder": "ladder",
    "serve": "serve",
    "protocol": "protocol",
    "loadtest": "loadtest",
    "crashtest": "crashtest",
    "attack": "attack",
}
"""Each command's name -> the module (in this package) whose attribute of that name it is."""


class LazyGroup(click.Group):
    """A group whose commands are imported on first use (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*super().list_commands(ctx), *COMMANDS]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module = importlib.import_module(f"{__package__}.{COMMANDS[cmd_name]}")
        command = getattr(module, cmd_name)
        assert isinstance(command, click.Command), f"{cmd_name} is not a click command"
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="korapsyon")
def main() -> None:
    """Korapsyon: rules engine, game records and tools."""
