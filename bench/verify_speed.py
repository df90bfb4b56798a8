"""Wall time of `tf2migrate verify` on the seed pair against running the two programs directly, one
after the other (the floor is two TensorFlow imports; verify runs the two sides at the same time).

    python bench/verify_speed.py [--repeats 3]

Prints both medians and their ratio; the target is a ratio of at most 1.3.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIR = [os.path.join(ROOT, "fixtures", "programs", "seed_estimator", n) for n in ("original.py", "migrated.py")]


def _timed(args, env=None):
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stderr.decode()[-2000:]}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    direct, verify = [], []
    for _ in range(args.repeats):
        direct.append(sum(_timed([sys.executable, p], env) for p in PAIR))
        verify.append(_timed([sys.executable, "-m", "tf2migrate.cli.verify_cmd", *PAIR], env))
    d, v = statistics.median(direct), statistics.median(verify)
    print(f"direct (original then migrated): {d:.2f} s   runs: {', '.join(f'{x:.2f}' for x in direct)}")
    print(f"tf2migrate verify (seed pair):   {v:.2f} s   runs: {', '.join(f'{x:.2f}' for x in verify)}")
    print(f"ratio verify/direct: {v / d:.2f}x (target <= 1.3x)")


if __name__ == "__main__":
    main()
