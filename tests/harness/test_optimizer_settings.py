"""The optimizers' hyper-parameters compared directly (compare/optimizer_settings.py), not through the losses:
Keras' default epsilon for TF1's Adam moves an update less than the drift twin's nudge, so only reading it tells
it. Pure Python; the capture side on real TensorFlow is test_wrong_migrations.py (slow)."""
from types import SimpleNamespace

from tf2migrate.harness.compare.optimizer_settings import check_optimizers

TF1_ADAM = {"kind": "Adam", "class": "tf.compat.v1.train.AdamOptimizer", "learning_rate": 0.01, "beta_1": 0.9,
            "beta_2": 0.999, "epsilon": 1e-08, "amsgrad": False}
KERAS_ADAM = {"kind": "Adam", "class": "keras.optimizers.Adam", "learning_rate": 0.009999999776482582,
              "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-08, "amsgrad": False}


def side(*optimizers):
    return SimpleNamespace(optimizers=list(optimizers))


def test_the_same_settings_agree_in_float32():
    scope, causes = check_optimizers(side(TF1_ADAM), side(KERAS_ADAM))
    assert causes == []
    assert "Adam (learning_rate 0.01, beta_1 0.9, beta_2 0.999, epsilon 1e-08, amsgrad False alike)" in scope


def test_keras_default_epsilon_is_named():
    _, causes = check_optimizers(side(TF1_ADAM), side(dict(KERAS_ADAM, epsilon=1e-07)))
    assert causes == ["the optimizer's hyper-parameters differ (tf.compat.v1.train.AdamOptimizer and "
                      "keras.optimizers.Adam): epsilon: original 1e-08, migrated 1e-07"]


def test_every_differing_field_and_a_flag():
    _, causes = check_optimizers(side(TF1_ADAM), side(dict(KERAS_ADAM, beta_2=0.99, learning_rate=0.0101,
                                                             amsgrad=True)))
    assert len(causes) == 1
    for part in ("learning_rate: original 0.01, migrated 0.0101", "beta_2: original 0.999, migrated 0.99",
                 "amsgrad: original False, migrated True"):
        assert part in causes[0]


def test_a_schedule_is_left_to_the_losses():
    scope, causes = check_optimizers(side(dict(TF1_ADAM, learning_rate=None)), side(KERAS_ADAM))
    assert causes == [] and "learning_rate not a number on one side, left to the losses" in scope


def test_another_optimizer_class_is_a_difference():
    sgd = {"kind": "SGD", "class": "keras.optimizers.SGD", "learning_rate": 0.01, "momentum": 0.0,
           "nesterov": False}
    _, causes = check_optimizers(side(TF1_ADAM), side(sgd))
    assert causes == ["the optimizer differs: the original trains with tf.compat.v1.train.AdamOptimizer, the "
                      "migrated program with keras.optimizers.SGD"]


def test_optimizers_not_paired_one_to_one_are_not_compared():
    scope, causes = check_optimizers(side(TF1_ADAM), side())
    assert causes == [] and scope.startswith("optimizers: not compared (the original applies Adam, the migrated "
                                             "program none of them")
    scope, causes = check_optimizers(side(), side())
    assert causes == [] and "none of" in scope
    # a recording made before the field existed reads as none
    assert check_optimizers(SimpleNamespace(), side())[1] == []


def test_two_optimizers_are_paired_by_their_settings_before_their_order():
    slow = dict(KERAS_ADAM, learning_rate=0.001)
    scope, causes = check_optimizers(side(TF1_ADAM, dict(TF1_ADAM, learning_rate=0.001)), side(slow, KERAS_ADAM))
    assert causes == [] and scope.count("Adam (") == 2
    _, causes = check_optimizers(side(TF1_ADAM, dict(TF1_ADAM, learning_rate=0.001)),
                                 side(dict(slow, epsilon=1e-07), KERAS_ADAM))
    assert causes == ["optimizer 2's hyper-parameters differ (tf.compat.v1.train.AdamOptimizer and "
                      "keras.optimizers.Adam): epsilon: original 1e-08, migrated 1e-07"]
