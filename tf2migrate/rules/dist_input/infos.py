"""Codes, reasons and examples of the distributed-input lints (TFM5xx), from seed 000's guide."""
from tf2migrate.rules.base import RuleInfo

_HEAD = '''import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
'''

BREAK_IN_LOOP = RuleInfo(
    code="TFM501",
    name="break-in-distributed-loop",
    summary="break/return inside `for x in dist_dataset` in a tf.function",
    message="`break`/`return` inside a loop over a distributed dataset in a `tf.function` is not supported",
    fix="report only",
    why="""The distributed-input guide: iterating a `tf.distribute.DistributedDataset` with a Python `for`
inside a `tf.function` is fine, but `break` and `return` inside that loop are not supported (the loop
is converted to a graph loop over all replicas). Iterate a fixed number of steps with an explicit
iterator (`it = iter(dist_dataset)`; `next(it)`) instead.""",
    before=_HEAD + '''dist_dataset = strategy.experimental_distribute_dataset(dataset)


@tf.function
def train(dist_dataset):
    for step, x in dist_dataset:
        if step > 10:
            break
        strategy.run(train_step, args=(x,))
''',
)

LIST_FILES = RuleInfo(
    code="TFM502",
    name="list-files-without-seed",
    summary="Dataset.list_files without seed= or shuffle=False in a multi-worker program",
    message="`list_files` shuffles with a random seed: each worker sees a different file order and the shards overlap",
    fix="report only",
    why="""With several workers each one builds the dataset and shards the file list. `list_files`
shuffles by default with an unset seed, so workers disagree on the order and shard the files
inconsistently (some files twice, some never). Pass `seed=` or `shuffle=False` (seed 000).""",
    before='''import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
files = tf.data.Dataset.list_files("/data/train-*.tfrecord")
dist = strategy.experimental_distribute_dataset(files.interleave(tf.data.TFRecordDataset).batch(64))
''',
)

RANDOM_IN_MAP = RuleInfo(
    code="TFM503",
    name="stateful-random-in-map",
    summary="stateful random op (tf.random.uniform, ...) in a Dataset.map of a distributed program",
    message="a stateful random op in `map` depends on each worker's local seed state: use a stateless op (tf.random.stateless_uniform)",
    fix="report only",
    why="""`tf.distribute` does not support stateful dataset transformations: a `map` that calls
`tf.random.uniform` (for example to rotate images) depends on the local state of the process that runs
it, so replicas and runs disagree and results are not reproducible. Use the `tf.random.stateless_*`
ops with a seed derived from the element, or `tf.random.Generator` outside the pipeline.""",
    before=_HEAD + '''dataset = tf.data.Dataset.range(100).map(lambda x: x + tf.random.uniform([], maxval=10, dtype=tf.int64))
dist = strategy.experimental_distribute_dataset(dataset.batch(8))
''',
)

SHARD_ORDER = RuleInfo(
    code="TFM504",
    name="shard-after-batch-or-map",
    summary="Dataset.shard after batch or after map",
    message="shard as early as possible: after `batch` it drops whole batches per worker, after `map` every worker does all the work",
    fix="report only",
    why="""`shard` keeps every n-th element. After `batch` the elements are batches, so each worker gets
whole global batches instead of its share of examples; after an expensive `map` every worker pays for
preprocessing the elements it then throws away. Shard right after the source (seed 000's example:
`list_files(...).shard(num_workers, worker_index)`).""",
    before=_HEAD + '''

def dataset_fn(input_context):
    dataset = tf.data.Dataset.range(64).batch(16).shard(
        input_context.num_input_pipelines, input_context.input_pipeline_id)
    return dataset.prefetch(2)


dist = strategy.distribute_datasets_from_function(dataset_fn)
''',
)

BATCH_DIVISIBLE = RuleInfo(
    code="TFM505",
    name="batch-not-divisible-by-replicas",
    summary="a global batch not divisible by the replica count, without drop_remainder=True",
    message="the global batch does not divide by the number of replicas: replicas get different batch sizes",
    fix="report only",
    why="""MirroredStrategy splits each global batch between the replicas. When it does not divide
evenly, replicas see different batch sizes (some may get an empty batch), which changes the loss
scaling and the gradient (measured: Keras 2 silently halves the gradient of a one-example batch on two
replicas; Keras 3 crashes). Make the global batch a multiple of `strategy.num_replicas_in_sync` and
pass `drop_remainder=True`.""",
    before='''import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(100).batch(15))
''',
)

NO_PREFETCH = RuleInfo(
    code="TFM506",
    name="input-function-without-prefetch",
    summary="an input function for distribute_datasets_from_function without prefetch",
    message="the input function returns a dataset without `prefetch`: tf.distribute adds none for you here",
    fix="report only",
    why="""`experimental_distribute_dataset` appends a prefetch for you, but with
`distribute_datasets_from_function` the dataset you return is used as it is. End the input
function with `.prefetch(tf.data.AUTOTUNE)` (seed 000 prefetches 2 batches per device) so input
preparation overlaps the training step.""",
    before=_HEAD + '''

def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(64)
    return tf.data.Dataset.range(64).shard(
        input_context.num_input_pipelines, input_context.input_pipeline_id).batch(batch_size)


dist = strategy.distribute_datasets_from_function(dataset_fn)
''',
)

ALL = (BREAK_IN_LOOP, LIST_FILES, RANDOM_IN_MAP, SHARD_ORDER, BATCH_DIVISIBLE, NO_PREFETCH)
