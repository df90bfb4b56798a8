"""Before/after examples for `tf2migrate explain TFM3xx` (each `after` is the converter's real output;
tests/test_estimator_rewrite.py checks that)."""
PAIRS: dict = {}
