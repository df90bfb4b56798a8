"""Where TF, Keras and the harness live: code there is not the program's own (its calls are not recorded)."""
import os
import sys

_LIBRARIES = ("tensorflow", "keras", "tf_keras", "tensorflow_estimator", "tf2migrate.harness")


def library_dirs():
    """The folders of TF, Keras and the harness: code there is not the program's own."""
    modules = [sys.modules.get(name) for name in _LIBRARIES]
    return tuple(os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                 for m in modules if getattr(m, "__file__", None))
