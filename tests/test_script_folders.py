"""Scripts in a folder without `__init__.py` are read together, one folder at a time (engine/package.py)."""
from __future__ import annotations

from tf2migrate.engine import package

MODEL_FN = ("import tensorflow as tf\n\n\ndef model_fn(features, labels, mode):\n"
            "    return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_mean(features))\n")
TRAIN = ("import tensorflow as tf\n\nfrom config import *\nfrom model_fn import *\n\n"
         "estimator = tf.estimator.Estimator(model_fn=model_fn)\n")


def test_a_star_imported_sibling_script_is_a_neighbour(tmp_path):
    files = {str(tmp_path / "model_fn.py"): MODEL_FN, str(tmp_path / "train.py"): TRAIN,
             str(tmp_path / "config.py"): "import tensorflow as tf\n"}
    views = package.scan(files)
    assert views[str(tmp_path / "train.py")].name == "train"
    assert [(n, p) for n, p, _ in views[str(tmp_path / "train.py")].modules] == [("model_fn", str(tmp_path / "model_fn.py"))]
    assert [n for n, _, _ in views[str(tmp_path / "model_fn.py")].modules] == ["train"]


def test_two_folders_of_scripts_are_two_packages(tmp_path):
    files = {}
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        files[str(tmp_path / folder / "model_fn.py")] = MODEL_FN
        files[str(tmp_path / folder / "train.py")] = TRAIN
    views = package.scan(files)
    for folder in ("a", "b"):
        seen = views[str(tmp_path / folder / "train.py")].modules
        assert [p for _, p, _ in seen] == [str(tmp_path / folder / "model_fn.py")]


def test_a_package_module_is_not_a_script(tmp_path):
    (tmp_path / "__init__.py").write_text("")
    assert package.script_name(str(tmp_path / "train.py")) is None
    assert package.script_name(str(tmp_path / "sub" / "train.py")) == "train"
    assert package.script_name(str(tmp_path / "sub" / "my-train.py")) is None  # not importable by that name
