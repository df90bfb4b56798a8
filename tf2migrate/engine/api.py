"""The codemod as a library call, for `verify ORIGINAL.py` and for users' own tooling."""
from tf2migrate.engine.apply import RewriteResult, rewrite_package, rewrite_text
from tf2migrate.engine.context import Selection

__all__ = ["RewriteResult", "Selection", "rewrite_package", "rewrite_text"]
