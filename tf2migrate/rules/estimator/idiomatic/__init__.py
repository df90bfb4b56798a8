"""The idiomatic path: a model_fn read as a chain of layers, written as a compiled `tf.keras.Sequential`.
"""
