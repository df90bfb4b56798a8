"""The comparisons besides the per-step losses, each returning what it compared and what differs.

What `verify` makes deterministic it still compares (issue 9): the programs' own initial values (before
alignment), their dropouts, their input pipelines, the non-trainable state training leaves and their own
evaluate results. Each `check_*` returns (scope, causes): one line for the verdict's "compared" list, and
the differences that make the pair DIVERGED.
"""
from tf2migrate.harness.compare import compare, plain_state, sensitivity
from tf2migrate.harness.compare.optimizer_settings import check_optimizers
from tf2migrate.harness.compare.align import load_values
from tf2migrate.harness.compare.compare import rel_diff
from tf2migrate.harness.compare.eval_match import match, show_pair
from tf2migrate.harness.compare.vocabulary import BATCH_MEAN


def check_initial(original, migrated):
    from tf2migrate.harness.compare.inits import compare_initial

    own_o, own_m = load_values(original.own_initial), load_values(migrated.own_initial)
    if not own_o or not own_m:
        side = "original" if not own_o else "migrated"
        return f"initial values: not compared (the {side} program's own step-0 values were not seen)", []
    tally = {}
    checked, causes = compare_initial(own_o, own_m, original.initializers, migrated.initializers,
                                      original.init_laws, migrated.init_laws, tally)
    by = lambda key: len(tally.get(key, []))  # noqa: E731
    scope = (f"initial values: {checked} variables' own step-0 values compared before alignment: {by('by law')} by "
             f"their initializers' distributions, {by('against a law')} against the other side's initializer, the "
             f"rest by samples (constants exactly; random ones by mean, std and a Kolmogorov-Smirnov test)")
    if tally.get("inconclusive"):
        shown = ", ".join(tally["inconclusive"][:4]) + (", ..." if len(tally["inconclusive"]) > 4 else "")
        scope += (f"; inconclusive for {by('inconclusive')} (random, with no initializer known on either side: "
                  f"samples this small cannot tell initializers of equal variance apart): {shown}")
    if tally.get("notes"):
        scope += "; " + "; ".join(tally["notes"])
    return scope, [f"initial values differ: {c}" for c in causes]


def _show_dropout(d):
    rate = "a tensor rate" if d["rate"] is None else f"rate {d['rate']:g}"
    where = f" on [?, {', '.join(str(x) for x in d['input'])}]" if d.get("input") is not None else ""
    noise = f", noise_shape {d['noise_shape']}" if d.get("noise_shape") is not None else ""
    return f"{rate}{where}{noise}"


def check_dropouts(original, migrated, shared_masks):
    o, m = original.dropouts, migrated.dropouts
    how = ("active on both sides with the same masks (stateless, keyed by draw order)" if shared_masks
           else "switched off on both sides (parameter servers); compared by rate and shape")
    scope = f"dropout: {len(o)} in the original, {len(m)} in the migrated, {how}"
    if not o and not m:
        return "dropout: none in either program", []
    causes = []
    if len(o) != len(m):
        causes.append(f"dropouts differ: the original applies {len(o)} ({'; '.join(map(_show_dropout, o)) or '-'}), "
                      f"the migrated {len(m)} ({'; '.join(map(_show_dropout, m)) or '-'})")
        return scope, causes
    for i, (a, b) in enumerate(zip(o, m), start=1):
        same_rate = a["rate"] is None or b["rate"] is None or abs(a["rate"] - b["rate"]) <= 1e-6
        if not same_rate or a.get("noise_shape") != b.get("noise_shape") or a.get("input") != b.get("input"):
            causes.append(f"dropout {i} differs: original {_show_dropout(a)}, migrated {_show_dropout(b)}")
    return scope, causes


def check_pipeline(original, migrated):
    """Input pipelines are only a hint, and only their shuffles: a Keras program may build its eval pipeline
    before training, a TF1 Estimator after."""
    o, m = original.pipeline, migrated.pipeline
    none = "(no shuffle/batch/repeat)"
    scope = (f"input order: real shuffles, seeded alike on both sides; pipelines: original {' -> '.join(o) or none}; "
             f"migrated {' -> '.join(m) or none}")
    hint = ""
    if _shuffles(original) != _shuffles(migrated):  # batch/repeat calls also come from eval pipelines built before training
        hint = (f"the input shuffles differ: original {' -> '.join(o) or 'none'}; migrated "
                f"{' -> '.join(m) or 'none'}")
    free = [f"{side} {call}" for side, s in (("original", original), ("migrated", migrated))
            for call in s.uncontrolled]
    if free:  # queue shuffles: no seed makes them repeat, so no loss difference can be blamed on the migration
        scope = ("input order: NOT controlled (queue shuffles: their order depends on thread timing, no seed "
                 "fixes it): " + "; ".join(free) + "; " + scope.split("; ", 1)[1])
        hint = ("the input order is not controlled (" + "; ".join(free) + ": a queue shuffle): each run reads the "
                "examples in another order, so the losses may differ even for the same program; use tf.data")
    return scope, hint


def _shuffles(side):
    """The shuffles by structure (buffer, seed, reshuffle each iteration), never by how they were spelled."""
    return [(op.get("buffer"), op.get("seed"), op.get("reshuffle"))
            for op in getattr(side, "pipeline_ops", None) or [] if op.get("op") == "shuffle"]


def check_state(original, migrated, rtol, atol):
    from tf2migrate.harness.compare.inits import pair_up

    state_o, state_m = load_values(original.final_state), load_values(migrated.final_state)
    if not state_o and not state_m:
        return "non-trainable state: none in either program", []
    pairs = pair_up(state_o, state_m)
    causes, compared = [], len(pairs)
    for name, a, other, b in pairs:
        diff = float(abs(a.astype("float64") - b.astype("float64")).max()) if a.size else 0.0
        bound = max(atol, rtol * float(abs(a).max())) if a.size else atol
        if diff > bound:
            label = name if name == other else f"{name} (migrated {other})"
            causes.append(f"non-trainable state differs after training: {label}: max abs diff {diff:.3g} "
                          f"(original mean {float(a.mean()):.6g}, migrated {float(b.mean()):.6g})")
    only_o = [f"{n}{list(v.shape)}" for n, v in state_o if n not in {p[0] for p in pairs}]
    only_m = [f"{n}{list(v.shape)}" for n, v in state_m if n not in {p[2] for p in pairs}]
    if only_o or only_m:
        causes.append("non-trainable state differs: " + "; ".join(
            ([f"only in the original: {', '.join(only_o)}"] if only_o else [])
            + ([f"only in the migrated: {', '.join(only_m)}"] if only_m else [])))
    return f"non-trainable state: {compared} variables compared after training (rtol {rtol:g}, atol {atol:g})", causes


def check_eval(original, migrated, rtol, atol):
    o = original.eval_results[-1] if original.eval_results else None
    m = migrated.eval_results[-1] if migrated.eval_results else None
    if o is None or m is None:
        who = "neither program evaluates" if o is None and m is None else (
            f"only the {'migrated' if o is None else 'original'} program evaluates")
        return f"eval results: not compared ({who})", []
    found = match(o, m, getattr(original, "metric_kinds", None) or {}, getattr(migrated, "metric_kinds", None) or {})
    close = lambda a, b: abs(a - b) <= max(atol, rtol * abs(a))  # noqa: E731
    # the Estimator's loss is the mean of the batch losses, Keras' weights each batch by its size (capture_eval.py)
    common = {a for a, b, _ in found.pairs if a == b}
    averaging = {"loss", BATCH_MEAN} <= common and not close(o["loss"], m["loss"]) \
        and close(o["loss"], o[BATCH_MEAN]) and close(o[BATCH_MEAN], m[BATCH_MEAN])
    causes = []
    for key, other, _ in found.pairs:
        a, b = o[key], m[other]
        if not close(a, b) and not (key == "loss" and averaging):
            label = key if key == other else f"{key} (migrated {other})"
            causes.append(f"eval {label} differs: original {a:.6g}, migrated {b:.6g} (rel diff {rel_diff(a, b):.3g})")
    causes += [f"eval {name} computes another metric: original {a}, migrated {b}" for name, a, b in found.other_kind]
    causes += [f"eval metric {name} ({kind}) of the {side} program has no counterpart in the "
               f"{'migrated' if side == 'original' else 'original'} program (its metrics: "
               f"{', '.join(sorted(m if side == 'original' else o))})" for side, name, kind in found.missing]
    if not found.pairs:
        return f"eval results: not compared (no metric in common: {sorted(o)} vs {sorted(m)})", causes
    shown = ", ".join(show_pair(*p) for p in found.pairs)
    unknown = "".join(f"; {name}: only in the {side}, computing what is not known, not compared"
                      for side, name in found.unknown)
    if averaging:
        return (f"eval results: {shown} of the last evaluate compared; the loss as the Estimator averages "
                f"it, over batches ({o['loss']:.6g} on both sides): Keras weights each batch by its size, so the "
                f"migrated program reports {m['loss']:.6g} (the last batch is partial){unknown}"), causes
    return f"eval results: {shown} of the last evaluate compared{unknown}", causes


def compare_the_rest(result):
    """Everything besides the losses (issue 9): returns the differences found before training (initial
    values, dropouts, optimizer hyper-parameters: they explain a loss divergence), those found after it
    (state, eval results: they follow from one), and hints; fills `result.comparison.compared`, the scope of the proof that the reports
    print (`result`: report/result.VerifyResult)."""
    facts, c = result.facts, result.comparison
    o, m = result.sides.original, result.sides.migrated
    steps = (f"steps: {len(o.losses)} original, {len(m.losses)} migrated; per-step losses compared "
             + (f"exactly (first {compare.EXACT_ATOL_STEPS} within atol {c.atol:g}, then rtol {c.rtol:g})"
                if facts.mode == "exact" else f"statistically against {len(result.sides.original_runs)} original runs"))
    twin = result.sides.twin
    if twin is not None:
        steps += ("; the strict tolerance failed late, so the original ran again slightly off (its twin) "
                  + (f"and {sensitivity.FACTOR:g}x its distance from the original is the envelope of float drift"
                     if twin.status == "ok" and len(twin.losses) == len(o.losses)
                     else f"but that run {'failed' if twin.status != 'ok' else 'trained another number of steps'}"
                          f": the strict tolerance stands"))
    c.compared = [steps, f"variables: {c.alignment}"]
    before, after, hints = [], [], []
    for scope, found in (check_initial(o, m), check_dropouts(o, m, shared_masks=not facts.cluster.startswith("ps")),
                         check_optimizers(o, m)):
        c.compared.append(scope)
        before += found
    scope, hint = check_pipeline(o, m)
    c.compared.append(scope)
    hints += [hint] if hint else []
    if facts.mode == "exact":
        for scope, found in (check_state(o, m, c.rtol, c.atol),
                             plain_state.check_variables(o, m, c.rtol, c.atol),
                             check_eval(o, m, c.rtol, c.atol),
                             plain_state.check_metrics(o, m, c.rtol, c.atol)):
            c.compared.append(scope)
            after += found
    else:
        c.compared.append("non-trainable state, program variables and metrics, eval results: not compared "
                               "(asynchronous training "
                               "differs from run to run)")
    return before, after, hints
