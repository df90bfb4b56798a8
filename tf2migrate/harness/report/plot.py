"""`--plot FILE.png`: both loss curves and their relative difference. matplotlib is an optional extra
(`tf2migrate[plot]`), imported here only, with the non-interactive Agg backend."""
import math

from tf2migrate.harness.compare.compare import rel_diff


def write_plot(result, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    o = result.original.losses if result.original else []
    m = result.migrated.losses if result.migrated else []
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    top.plot(range(1, len(o) + 1), o, "o-", label="original", color="tab:blue", linewidth=3, markersize=7)
    top.plot(range(1, len(m) + 1), m, "s--", label="migrated", color="tab:orange", linewidth=1.5, markersize=4)
    for extra in result.sides.original_runs[1:]:
        top.plot(range(1, len(extra.losses) + 1), extra.losses, color="tab:blue", alpha=0.3, linewidth=1)
    top.set_ylabel("loss")
    top.set_title(f"{result.verdict} on {result.facts.cluster} ({result.facts.mode})")
    top.legend()
    n = min(len(o), len(m))
    rel = [rel_diff(a, b) for a, b in zip(o[:n], m[:n])]
    rel = [r if math.isfinite(r) else float("nan") for r in rel]
    bottom.plot(range(1, n + 1), rel, ".-", color="tab:red")
    if any(r > 0 for r in rel):
        bottom.set_yscale("symlog", linthresh=1e-7)  # zero differences stay on the plot
    diverged = result.comparison.first_diverged_step
    if diverged:
        for ax in (top, bottom):
            ax.axvline(diverged, color="gray", linestyle=":")
    from matplotlib.ticker import MaxNLocator

    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.set_ylabel("relative difference")
    bottom.set_xlabel("training step")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
