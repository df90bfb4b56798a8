"""Issue 18 point 2: initial values judged by the laws their initializers draw from (init_laws.py,
law_tests.py), so initializer families of equal variance are told apart at any size. The initializers here
are stand-ins with the attributes TF1, Keras 2 and Keras 3 initializers all keep."""
import numpy as np

from tf2migrate.harness.capture import init_laws
from tf2migrate.harness.compare import inits, law_tests


class VarianceScaling:
    def __init__(self, scale=1.0, mode="fan_avg", distribution="uniform"):
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, None


class TruncatedNormal:
    def __init__(self, mean=0.0, stddev=0.05):
        self.mean, self.stddev, self.seed = mean, stddev, None


class RandomNormal(TruncatedNormal):
    pass


def _spec(init, shape, shards=None, full=None):
    return init_laws.spec(init, shape, type(init).__name__, shards=shards, partition_full_shape=full)


def test_laws_follow_the_fans_and_the_distribution():
    uniform = _spec(VarianceScaling(), [8, 8])["parts"]
    assert uniform == [[8, {"kind": "uniform", "low": -np.sqrt(3 / 8), "high": np.sqrt(3 / 8)}]]
    he = _spec(VarianceScaling(2.0, "fan_in", "normal"), [3, 3, 4, 16])["parts"][0][1]   # TF1's "normal" is truncated
    assert he["kind"] == "truncated_normal" and np.isclose(he["std"], np.sqrt(2 / 36) / 0.87962566103423978)
    assert _spec(None, [4], )["parts"][0][1]["kind"] == "uniform"                       # TF's default: glorot
    assert _spec(object(), [4])["parts"] == [[4, None]]                                   # unknown: said so


def test_shards_are_drawn_with_their_own_shape_and_tf1_partitions_with_the_whole():
    sharded = _spec(VarianceScaling(), [200, 8], shards=[100, 100])["parts"]
    assert [r for r, _ in sharded] == [100, 100] and np.isclose(sharded[0][1]["high"], np.sqrt(6 / 108))

    class TF1GlorotUniform(VarianceScaling):
        def __call__(self, shape, dtype=None, partition_info=None):
            pass

    part = _spec(TF1GlorotUniform(), [100, 8], full=[200, 8])["parts"][0][1]
    assert np.isclose(part["high"], np.sqrt(6 / 208))


def test_equal_variance_families_are_told_apart_where_samples_cannot_be():
    rng = np.random.RandomState(0)
    limit = np.sqrt(3 / 8)
    a = rng.uniform(-limit, limit, size=(8, 8)).astype("float32")
    b = (np.clip(rng.normal(size=(8, 8)), -2, 2) * np.sqrt(1 / 8) / 0.8796).astype("float32")
    assert inits.differs(a, b) == ""   # 64 elements: the samples alone see nothing
    laws_o = {"k": _spec(VarianceScaling(), [8, 8])}
    laws_m = {"k": _spec(VarianceScaling(distribution="truncated_normal"), [8, 8])}
    tally = {}
    _, causes = inits.compare_initial([("k", a)], [("k", b)], laws_o=laws_o, laws_m=laws_m, tally=tally)
    assert len(causes) == 1 and "k: original ~ VarianceScaling: uniform(" in causes[0], causes
    assert "migrated ~ VarianceScaling: truncated normal(" in causes[0] and "other initializers" in causes[0]
    assert tally["by law"] == ["k"]
    _, causes = inits.compare_initial([("k", a)], [("k", a)], laws_o=laws_o, laws_m=laws_o)
    assert causes == []


def test_truncated_and_untruncated_normal_differ_as_laws():
    t = _spec(TruncatedNormal(stddev=0.1), [8, 24])
    n = _spec(RandomNormal(stddev=0.1), [8, 24])
    assert not law_tests.same_laws(t, n) and not law_tests.only_cut_differs(t, n)


def test_only_the_cut_differs_is_a_note_not_a_cause():
    rng = np.random.RandomState(1)
    whole = _spec(VarianceScaling(), [200, 8])
    cut = _spec(VarianceScaling(), [200, 8], shards=[100, 100])
    a = rng.uniform(-whole["parts"][0][1]["high"], whole["parts"][0][1]["high"], size=(200, 8))
    b = rng.uniform(-cut["parts"][0][1]["high"], cut["parts"][0][1]["high"], size=(200, 8))
    tally = {}
    _, causes = inits.compare_initial([("e", a)], [("e", b)], laws_o={"e": whole}, laws_m={"e": cut}, tally=tally)
    assert causes == [] and "cut otherwise" in tally["notes"][0]


def test_one_known_law_tests_the_other_sides_values_and_a_law_its_values_contradict_is_dropped():
    rng = np.random.RandomState(2)
    law = _spec(VarianceScaling(), [64, 64])
    far = rng.normal(0, 1.0, size=(64, 64))
    _, causes = inits.compare_initial([("k", far)], [("k", far)], laws_o={}, laws_m={"k": law}, tally={})
    assert causes == []   # the migrated values contradict their own law: the law is dropped, values compared
    near = rng.uniform(-np.sqrt(3 / 64), np.sqrt(3 / 64), size=(64, 64))
    tally = {}
    _, causes = inits.compare_initial([("k", far)], [("k", near)], laws_m={"k": law}, tally=tally)
    assert tally["against a law"] == ["k"] and "were not drawn from the migrated's initializer" in causes[0]
    assert causes[0].startswith("k: original random, mean")


def test_no_law_on_either_side_is_inconclusive():
    rng = np.random.RandomState(3)
    tally = {}
    inits.compare_initial([("k", rng.normal(size=(4, 4)))], [("k", rng.normal(size=(4, 4)))], tally=tally)
    assert tally["inconclusive"] == ["k"]
