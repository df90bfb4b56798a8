"""The shim path: a forward pass kept verbatim in a Keras layer under `track_tf1_style_variables`, and what
it needs to run as the model_fn ran (layer names, the `training` flag).
"""
