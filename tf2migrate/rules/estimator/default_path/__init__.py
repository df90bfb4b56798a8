"""The default (general) path: a `tf.keras.Model` subclass that keeps the model_fn's own statements,
split into the forward pass, train_step, test_step and predict_step.
"""
