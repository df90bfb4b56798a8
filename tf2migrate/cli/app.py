"""The `tf2migrate` command: rewrite, check, rules, explain, verify.

Each subcommand lives in its own module; `verify` imports the harness (and TensorFlow) only when run.
"""
from __future__ import annotations

import click

from tf2migrate import __version__
from tf2migrate.cli.catalog import explain, rules
from tf2migrate.cli.rewrite import check, rewrite
from tf2migrate.cli.verify_cmd import verify


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tf2migrate")
def main() -> None:
    """Move TensorFlow 1 distributed-training code to TensorFlow 2, then prove it trains the same."""


main.add_command(rewrite)
main.add_command(check)
main.add_command(rules)
main.add_command(explain)
main.add_command(verify)  # its body imports the harness (and TensorFlow) only when it runs
