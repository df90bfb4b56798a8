"""Custom training loops under `tf.distribute` (TFM4xx): loss scaling and strategy scope."""
