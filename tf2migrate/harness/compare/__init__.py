"""What both sides share and the comparisons of two runs: the observations and their vocabulary, the value
files, the loss verdicts and every other check. Imports no other room, and no TensorFlow at import."""
