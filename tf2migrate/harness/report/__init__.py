"""The verdict in words: the step table, the summary, `--json`, `--junit` and the plot."""
