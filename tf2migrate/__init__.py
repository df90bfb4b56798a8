"""tf2migrate: move TF1 distributed-training code to TF2, then prove it trains the same.

`rewrite` and `check` never import TensorFlow; only `verify` does, lazily.
"""
from tf2migrate._version import __version__

__all__ = ["__version__", "verify"]


def _own_rules():
    """The rules a library call runs when it hands the engine none (`engine.rule_set.active`): the engine
    imports no rule, the package that holds both rooms joins them."""
    from tf2migrate.rules.rule_set import RULES

    return RULES


def _join_rooms() -> None:
    from tf2migrate.engine import rule_set

    rule_set.DEFAULT = _own_rules


_join_rooms()


def verify(original, migrated=None, **options):
    """Train both programs and compare their losses step by step (see `tf2migrate verify`).

    Imported lazily so that `import tf2migrate` never pulls in TensorFlow.
    """
    from tf2migrate.harness.api import verify as _verify

    return _verify(original, migrated, **options)
