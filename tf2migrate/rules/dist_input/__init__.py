"""Distributed-input lints from the distributed-input guide (seed 000), codes TFM5xx. Report only."""
