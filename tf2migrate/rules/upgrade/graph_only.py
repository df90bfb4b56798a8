"""The TF1 names that need a graph (TFM668, graph_mode.py): one list, also the rule's wake words (wake_words.py).

Kept free of LibCST and of the rule's own imports: the pre-pass reads it without loading any rule.
"""
GRAPH_ONLY = frozenset({
    # placeholders and sessions
    "tf.placeholder", "tf.placeholder_with_default", "tf.sparse_placeholder", "tf.Session", "tf.InteractiveSession",
    # sessions that make their own (TF's distributed samples): no placeholder needed to fail in eager mode
    "tf.train.MonitoredTrainingSession", "tf.train.MonitoredSession", "tf.train.SingularMonitoredSession",
    "tf.train.Supervisor",
    # a device function: tf.compat.v1.device takes one in graph mode only (TFM665 keeps it there)
    "tf.train.replica_device_setter",
    # queue-based input: "Input pipelines based on Queues are not supported when eager execution is enabled"
    "tf.train.string_input_producer", "tf.train.input_producer", "tf.train.range_input_producer",
    "tf.train.slice_input_producer", "tf.train.batch", "tf.train.shuffle_batch", "tf.train.batch_join",
    "tf.train.shuffle_batch_join", "tf.train.maybe_batch", "tf.train.maybe_shuffle_batch", "tf.train.QueueRunner",
    "tf.train.start_queue_runners", "tf.TFRecordReader", "tf.TextLineReader", "tf.WholeFileReader",
    "tf.FixedLengthRecordReader", "tf.IdentityReader", "tf.FIFOQueue", "tf.RandomShuffleQueue",
    "tf.PaddingFIFOQueue", "tf.PriorityQueue",
})
