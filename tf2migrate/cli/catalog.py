"""`tf2migrate rules` (every code, one line each) and `tf2migrate explain CODE`."""
from __future__ import annotations

import inspect
import textwrap

import click


@click.command()
def rules():
    """List every diagnostic code with a one-line summary ([*] = fixed automatically)."""
    from tf2migrate.rules.registry import all_infos

    for code, info in all_infos().items():
        mark = "[*]" if info.fixable else "   "
        click.echo(f"{code} {mark} {info.name:<36} {info.summary}")


@click.command()
@click.argument("code")
def explain(code):
    """Explain what CODE means, why, and show a before/after example."""
    from tf2migrate.rules.registry import all_infos

    info = all_infos().get(code.strip().upper())
    if info is None:
        raise click.UsageError(f"unknown code {code!r}: `tf2migrate rules` lists them all")
    click.echo(f"{info.code} ({info.name}): {info.summary}\n")
    click.echo(f"Severity: {info.severity.value}. Fix: {info.fix}.\n")
    click.echo(inspect.cleandoc(info.why) + "\n")
    if info.before:
        click.echo("Before:\n" + textwrap.indent(info.before.rstrip(), "    ") + "\n")
    if info.after:
        click.echo("After:\n" + textwrap.indent(info.after.rstrip(), "    ") + "\n")
