"""Codes, messages and examples of the custom-loop rules (TFM4xx), kept together for `explain`."""
from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import RuleInfo

_LOOP = '''import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
'''

REDUCE_MEAN = RuleInfo(
    code="TFM401",
    name="replica-loss-reduce-mean",
    summary="tf.reduce_mean(loss) in a strategy.run function -> tf.nn.compute_average_loss(loss, global_batch_size=...)",
    message="`tf.reduce_mean` averages over the per-replica batch: the summed gradients are num_replicas times too large",
    severity=Severity.ERROR,
    why="""Each replica sees global_batch / replicas examples and the replicas' gradients are summed. A
loss averaged with `tf.reduce_mean` is therefore scaled by the per-replica batch, and training with N
replicas takes steps N times larger than with one (seed 004's `loss_function` does exactly this).
`tf.nn.compute_average_loss(per_example_loss, global_batch_size=G)` sums and divides by the global
batch. The global batch size is taken from the module (a `GLOBAL_BATCH_SIZE`-like name, or a name
assigned `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync`); without one the call is reported
with the fix to apply. With one replica the numbers do not change.

Because the fix changes training under N replicas, `tf2migrate verify` reports such a migration
DIVERGED against the original (by exactly N on the first step, and says so). `verify --accept-fix
TFM401` compares it with the original plus this fix alone, which proves nothing else changed.""",
    before=_LOOP + '''

def loss_function(real, pred):
    loss_ = loss_object(real, pred)
    return tf.reduce_mean(loss_)


def train_step(inp, targ):
    return loss_function(targ, model(inp))


per_replica_losses = strategy.experimental_run_v2(train_step, args=(inp, targ))
''',
    after=_LOOP + '''

def loss_function(real, pred):
    loss_ = loss_object(real, pred)
    return tf.nn.compute_average_loss(loss_, global_batch_size=GLOBAL_BATCH_SIZE)


def train_step(inp, targ):
    return loss_function(targ, model(inp))


per_replica_losses = strategy.run(train_step, args=(inp, targ))
''',
)

KERAS_LOSS = RuleInfo(
    code="TFM402",
    name="replica-keras-loss-reduction",
    summary="a tf.keras.losses object with the default reduction called inside strategy.run",
    message="a Keras loss with the default reduction (AUTO / SUM_OVER_BATCH_SIZE) fails or mis-scales under a strategy",
    severity=Severity.ERROR,
    why="""In a custom loop under a strategy, Keras losses built with the default reduction raise (AUTO and
SUM_OVER_BATCH_SIZE are refused) or average over the per-replica batch. Build the loss with
`reduction=tf.keras.losses.Reduction.NONE` and average the per-example loss over the global batch
with `tf.nn.compute_average_loss`. The fix is applied only where every call of the loss object is the
loss of a replica function (it goes to `tape.gradient`, is returned, or is already averaged).""",
    before=_LOOP + '''loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = loss_object(labels, model(images))
    return tape.gradient(loss, model.trainable_variables)


grads = strategy.run(train_step, args=(images, labels))
''',
    after=_LOOP + '''loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(loss_object(labels, model(images)), global_batch_size=GLOBAL_BATCH_SIZE)
    return tape.gradient(loss, model.trainable_variables)


grads = strategy.run(train_step, args=(images, labels))
''',
)

REGULARIZATION = RuleInfo(
    code="TFM403",
    name="replica-regularization-loss",
    summary="sum(model.losses) in a strategy.run function -> tf.nn.scale_regularization_loss(...)",
    message="regularization losses added on every replica must be divided by the number of replicas",
    severity=Severity.ERROR,
    why="""Every replica adds the full regularization loss, and the replicas' gradients are summed, so it
counts num_replicas times. `tf.nn.scale_regularization_loss` divides it by the number of replicas.""",
    before=_LOOP + '''

def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(y, model(x)) + sum(model.losses)
    return tape.gradient(loss, model.trainable_variables)


strategy.run(train_step, args=(x, y))
''',
    after=_LOOP + '''

def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(y, model(x)) + tf.nn.scale_regularization_loss(sum(model.losses))
    return tape.gradient(loss, model.trainable_variables)


strategy.run(train_step, args=(x, y))
''',
)

OUTSIDE_SCOPE = RuleInfo(
    code="TFM404",
    name="created-outside-strategy-scope",
    summary="model, optimizer, metric or Checkpoint created outside strategy.scope() in a strategy loop",
    message="created outside `strategy.scope()`: its variables are not mirrored; create it inside `with strategy.scope():`",
    fix="report only",
    why="""Variables of a model, optimizer or metric used by `strategy.run` must be created under
`strategy.scope()` so that they are distributed (mirrored, or placed on parameter servers). Created
outside, they live on one device: training fails or silently updates a single copy. Moving the
creation is left to you because the order of statements matters.""",
    before=_LOOP + '''optimizer = tf.keras.optimizers.Adam()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
strategy.run(train_step, args=(batch,))
''',
)
