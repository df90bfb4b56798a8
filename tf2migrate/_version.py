"""The package's version, apart from `tf2migrate/__init__.py` (which joins the rooms): the cache reads it."""
__version__ = "0.1.0"
