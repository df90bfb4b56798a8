"""TF1 slices (partitions, canned-model column weights) compared and aligned as the TF2 whole."""
import numpy as np

from tf2migrate.harness.compare.align import compare_variables
from tf2migrate.harness.compare.partitions import merge_shapes, merge_values, sharded_name


def test_partitions_merge_in_index_order():
    merged = merge_values([("k/part_1", np.ones((1, 2))), ("k/part_0", np.zeros((2, 2))), ("b", np.ones(2))])
    assert [n for n, _ in merged] == ["k", "b"]
    assert merged[0][1].tolist() == [[0, 0], [0, 0], [1, 1]]


def test_canned_linear_columns_merge_after_their_own_partitions():
    shapes = merge_shapes([{"name": "linear/linear_model/a/weights/part_0", "shape": [1, 1]},
                           {"name": "linear/linear_model/b/weights/part_0", "shape": [1, 1]},
                           {"name": "linear/linear_model/bias_weights/part_0", "shape": [1]}])
    assert shapes == [{"name": "linear/linear_model/weights", "shape": [2, 1]},
                      {"name": "linear/linear_model/bias_weights", "shape": [1]}]


def test_partitioned_original_matches_sharded_migrated():
    ok, message = compare_variables(
        [{"name": "linear/dense/kernel/part_0", "shape": [1, 1]}, {"name": "linear/dense/kernel/part_1", "shape": [1, 1]},
         {"name": "linear/dense/bias/part_0", "shape": [1]}],
        [{"name": "dense/kernel", "shape": [2, 1]}, {"name": "dense/bias", "shape": [1]}])
    assert ok, message


def test_a_real_difference_is_still_reported():
    ok, message = compare_variables([{"name": "k/part_0", "shape": [1, 1]}, {"name": "k/part_1", "shape": [1, 1]}],
                                    [{"name": "k", "shape": [3, 1]}])
    assert not ok and "shapes differ" in message


def test_sharded_name_drops_the_part_suffix():
    class Shard:
        name = "dense/kernel/part_0:0"

    class Sharded:
        variables = [Shard()]
        name = "ShardedVariable"

    assert sharded_name(Sharded()) == "dense/kernel"
