"""A TF 2.0-era custom training loop (seed 002 / seed 004 style) that stopped running in TF 2.4.

Try: tf2migrate rewrite --diff examples/custom_loop_tf2_0.py
"""
import tensorflow as tf
import tensorflow.compat.v1 as tf1

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
variable_partitioner = tf1.fixed_size_partitioner(num_shards=2, axis=0)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    train_loss = tf.keras.metrics.Mean(name="train_loss")


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        per_example_loss = tf.keras.losses.mse(labels, model(features))
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.experimental_run_v2(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses)


def dataset_fn(input_context):
    features = tf.random.stateless_uniform([256, 4], seed=(1, 2))
    labels = tf.reduce_sum(features, axis=1, keepdims=True)
    return tf.data.Dataset.from_tensor_slices((features, labels)).batch(64).prefetch(2)


dist_dataset = strategy.experimental_distribute_datasets_from_function(dataset_fn)
for epoch in range(2):
    for batch in dist_dataset:
        train_loss(distributed_train_step(batch))
    print("epoch", epoch, "loss", float(train_loss.result()))
    train_loss.reset_states()
