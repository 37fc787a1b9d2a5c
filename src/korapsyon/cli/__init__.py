"""The ``korapsyon`` command line: one command per module, each thin (parse, call, print)."""

from __future__ import annotations

import click

from .attack import attack
from .bench import bench
from .crashtest import crashtest
from .loadtest import loadtest
from .play import play
from .protocol import protocol
from .replay import replay
from .serve import serve
from .simulate import simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="korapsyon")
def main() -> None:
    """Korapsyon: rules engine, game records and tools."""


main.add_command(play)
main.add_command(replay)
main.add_command(bench)
main.add_command(simulate)
main.add_command(serve)
main.add_command(protocol)
main.add_command(loadtest)
main.add_command(crashtest)
main.add_command(attack)
