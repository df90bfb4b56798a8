"""Small programs the tests write into tmp_path: a TF1-style original, its Keras migrations (right and
deliberately wrong), and programs that crash or hang."""
import os

from harness_support import SEED_DIR

TF1_MLP_ADAM = '''
import numpy as np
import tensorflow as tf  # a real TF1 program: runs only in legacy mode

rng = np.random.RandomState(0)
X = rng.normal(size=(32, 4)).astype("float32")
Y = (X @ rng.normal(size=(4, 1)) + 0.1).astype("float32")

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
hidden = tf.layers.dense(x, 8, activation=tf.nn.relu)
pred = tf.layers.dense(hidden, 1)
loss = tf.losses.mean_squared_error(y, pred)
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range({steps}):
        _, value = sess.run([train_op, loss], feed_dict={{x: X, y: Y}})
    print("final loss", value)
'''

KERAS_MLP_ADAM = '''
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X = rng.normal(size=(32, 4)).astype("float32")
Y = (X @ rng.normal(size=(4, 1)) + 0.1).astype("float32")

dataset = tf.data.Dataset.from_tensors((X, Y)).repeat()
model = tf.keras.Sequential([{layers}])
model.compile(tf.keras.optimizers.Adam(0.01{epsilon}), "mse")
model.fit(dataset, epochs=1, steps_per_epoch={steps}, verbose=0)
'''

TWO_LAYERS = 'tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)'
ONE_LAYER = "tf.keras.layers.Dense(1)"

HANGS = '''
import os, subprocess, sys, time
import tensorflow as tf
child = subprocess.Popen(["sleep", "3600"])
me = os.readlink("/proc/self")   # as /proc and the test number it: verify runs this in a PID namespace of its own
with open("/proc/%s/task/%s/children" % (me, me)) as f:
    outer = f.read().split()[0]
with open({pid_file!r}, "w") as f:
    f.write(outer)
time.sleep(3600)
'''


def write(tmp_path, name, text):
    path = os.path.join(str(tmp_path), name)
    with open(path, "w") as f:
        f.write(text)
    return path


def tf1_mlp(tmp_path, steps):
    return write(tmp_path, "train_tf1.py", TF1_MLP_ADAM.format(steps=steps))


def keras_mlp(tmp_path, steps, epsilon=1e-8, layers=TWO_LAYERS, name="train_tf2.py"):
    eps = "" if epsilon is None else f", epsilon={epsilon!r}"
    return write(tmp_path, name, KERAS_MLP_ADAM.format(steps=steps, epsilon=eps, layers=layers))


def seed_migrated_variant(tmp_path, old, new, name):
    with open(os.path.join(SEED_DIR, "migrated.py")) as f:
        text = f.read()
    assert old in text
    return write(tmp_path, name, text.replace(old, new))


def hanging(tmp_path):
    pid_file = os.path.join(str(tmp_path), "grandchild.pid")
    return write(tmp_path, "hangs.py", HANGS.format(pid_file=pid_file)), pid_file

TF1_CONTRIB_ESTIMATOR = '''"""TF1 as it was written: `import tensorflow as tf`, tf.contrib.distribute, an Estimator."""
import tensorflow as tf

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]


def input_fn():
    return tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)


def model_fn(features, labels, mode):
    logits = tf.layers.Dense(1)(features)
    loss = tf.losses.mean_squared_error(labels=labels, predictions=logits)
    train_op = tf.train.AdagradOptimizer(0.05).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


strategy = tf.contrib.distribute.MirroredStrategy(["/cpu:0"])
config = tf.estimator.RunConfig(train_distribute=strategy)
tf.estimator.Estimator(model_fn=model_fn, config=config).train(input_fn)
'''

CANNED_LINEAR = '''
import tensorflow.compat.v1 as tf1

features = {"x": [[1., 1.5], [2., 2.5], [3., 3.5], [4., 4.5]]}
labels = [[0.3], [0.5], [0.7], [0.9]]


def input_fn():
    return tf1.data.Dataset.from_tensor_slices((features, labels)).batch(2).repeat(3)


regressor = tf1.estimator.LinearRegressor(feature_columns=[tf1.feature_column.numeric_column("x", shape=(2,))],
                                          optimizer=lambda: tf1.train.GradientDescentOptimizer(0.05))
regressor.train(input_fn)
'''

KERAS_LINEAR_SUM = '''
import tensorflow as tf

features = [[1., 1.5], [2., 2.5], [3., 3.5], [4., 4.5]]
labels = [[0.3], [0.5], [0.7], [0.9]]

dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(2).repeat(3)
# TF1's LinearRegressor starts from zeros; it sums the loss over the batch (v1 default Reduction.SUM)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="{initializer}")])
model.compile(tf.keras.optimizers.SGD(0.05), tf.keras.losses.MeanSquaredError(reduction="{reduction}"))
model.fit(dataset, verbose=0)
'''

TF1_SHUFFLE_DROPOUT = '''
import tensorflow.compat.v1 as tf1

features = [[0.1 * i, 0.2 * i - 0.5] for i in range(8)]
labels = [[0.05 * i] for i in range(8)]


def input_fn():
    return tf1.data.Dataset.from_tensor_slices((features, labels)).shuffle(8).batch(2)


def model_fn(features, labels, mode):
    hidden = tf1.layers.dense(features, 4, activation=tf1.nn.relu)
    hidden = tf1.layers.dropout(hidden, 0.5, training=mode == tf1.estimator.ModeKeys.TRAIN)
    logits = tf1.layers.dense(hidden, 1)
    loss = tf1.losses.mean_squared_error(labels, logits)
    train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


tf1.estimator.Estimator(model_fn).train(input_fn)
'''

KERAS_SHUFFLE_DROPOUT = '''
import tensorflow as tf

features = [[0.1 * i, 0.2 * i - 0.5] for i in range(8)]
labels = [[0.05 * i] for i in range(8)]

dataset = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(8).batch(2)
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dropout(0.5),
                             tf.keras.layers.Dense(1)])
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
model.fit(dataset, verbose=0)
'''

PSS_CUSTOM_LOOP = '''import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X = rng.normal(size=(32, 4)).astype("float32")
Y = (X @ rng.normal(size=(4, 1)) + 0.1).astype("float32")

resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
    model.build((None, 4))
    optimizer = tf.keras.optimizers.Adam(0.01, epsilon=1e-8)


def dataset_fn():
    return tf.data.Dataset.from_tensors((X, Y)).repeat()


per_worker = coordinator.create_per_worker_dataset(dataset_fn)
iterator = iter(per_worker)


@tf.function
def train_step(iterator):
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    x, y = next(iterator)
    return strategy.run(step, args=(x, y))


for _ in range({steps}):
    coordinator.schedule(train_step, args=(iterator,))
    coordinator.join()
'''


# Issue 9: the small program whose single mistakes all used to come out EQUIVALENT, bitwise.
TF1_BN_DROPOUT = '''
import numpy as np
import tensorflow as tf  # a real TF1 program: runs only in legacy mode

rng = np.random.RandomState(0)
X = rng.normal(size=(256, 8)).astype("float32")
Y = (X @ rng.normal(size=(8, 1)) > 0).astype("float32")

dataset = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(128).batch(32).repeat(2)
x, y = tf.data.make_one_shot_iterator(dataset).get_next()
hidden = tf.layers.dense(x, 16, activation=tf.nn.relu)
hidden = tf.layers.batch_normalization(hidden, momentum=0.99, training=True)
hidden = tf.layers.dropout(hidden, rate=0.3, training=True)
logits = tf.layers.dense(hidden, 1)
loss = tf.losses.sigmoid_cross_entropy(y, logits)
with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(16):
        sess.run(train_op)
'''

KERAS_BN_DROPOUT = '''
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X = rng.normal(size=(256, 8)).astype("float32")
Y = (X @ rng.normal(size=(8, 1)) > 0).astype("float32")

dataset = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(128).batch(32).repeat(2)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu", kernel_initializer="glorot_uniform"),
    tf.keras.layers.BatchNormalization(momentum=0.99),
    tf.keras.layers.Dropout(0.3),
    tf.keras.layers.Dense(1),
])
model.compile(tf.keras.optimizers.SGD(0.1), tf.keras.losses.BinaryCrossentropy(from_logits=True))
model.fit(dataset, epochs=1, steps_per_epoch=16, verbose=0)
'''


def keras_bn_dropout(tmp_path, old=None, new=None, name="train_tf2.py"):
    """The faithful Keras migration, or a copy with one deliberate mistake (`old` -> `new`)."""
    text = KERAS_BN_DROPOUT
    if old is not None:
        assert old in text
        text = text.replace(old, new)
    return write(tmp_path, name, text)
