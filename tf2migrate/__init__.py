"""tf2migrate: move TF1 distributed-training code to TF2, then prove it trains the same.

`rewrite` and `check` never import TensorFlow; only `verify` does, lazily.
"""
__version__ = "0.1.0"

__all__ = ["__version__", "verify"]


def verify(original, migrated=None, **options):
    """Train both programs and compare their losses step by step (see `tf2migrate verify`).

    Imported lazily so that `import tf2migrate` never pulls in TensorFlow.
    """
    from tf2migrate.harness.api import verify as _verify

    return _verify(original, migrated, **options)
