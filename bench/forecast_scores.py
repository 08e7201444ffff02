# The scores a step-time forecast is held to against measured runs (issues 24 and 37):
# MAPE, the worst row, and the order agreement over pairs whose measured times differ by
# more than 10%. Shared by bench/time_model_bench and bench/published_bench. Python 3
# standard library only.
import itertools
import statistics


def summary(rows):
    """rows: (label, forecast, measured) triples, measured > 0."""
    errs = [abs(f - m) / m for _, f, m in rows]
    worst = max(range(len(rows)), key=lambda i: errs[i])
    agree = total = 0
    for (_, fa, ma), (_, fb, mb) in itertools.combinations(rows, 2):
        if abs(ma - mb) / min(ma, mb) > 0.10:
            total += 1
            agree += (fa - fb) * (ma - mb) > 0
    return {"rows": len(rows), "mape": 100 * statistics.mean(errs), "worst": rows[worst][0],
            "worst_err": 100 * errs[worst], "pairs": total,
            "agreement": 100 * agree / total if total else float("nan")}
