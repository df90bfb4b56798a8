"""Keep an equivalence test beside each migrated training script:

    from tf2migrate.harness.pytest_helper import assert_equivalent

    def test_train_py_still_trains_the_same():
        assert_equivalent("train_tf1.py", "train.py", steps=20)
"""


def assert_equivalent(original, migrated=None, **options):
    """Run `tf2migrate.verify` and fail the test with the step table unless the verdict is EQUIVALENT."""
    from tf2migrate.harness import api
    from tf2migrate.harness.report import report

    options.setdefault("progress", lambda line: None)
    result = api.verify(original, migrated, **options)
    if not result.equivalent:
        raise AssertionError("\n".join([f"{result.verdict}: {result.reason}", report.table(result)]
                                       + report.summary_lines(result)[1:]))
    return result
