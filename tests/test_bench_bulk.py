"""bench/bulk_jobs.py, issue 17's bulk benchmark, keeps working: it runs here with 300 passes
on SQLite (gunicorn, 2 workers, jobs in the web process, the fake APNs), and every pass is
issued, updated, upgraded and pushed. Its slice arithmetic is checked on its own."""

from __future__ import annotations

import pytest

from tests.support.gunicorn import require_gunicorn


def test_the_bulk_bench_runs_300_passes_through_every_step() -> None:
    require_gunicorn()
    from bench import bulk_jobs

    result = bulk_jobs.run("sqlite", None, passes=300, posts=3, baseline=50, timeout=300)
    for operation in ("issue", "update", "upgrade"):
        assert result.counts[operation] == {"total": 300, "succeeded": 300, "failed": 0,
                                            "canceled": 0, "pending": 0}, operation
        assert result.rates[operation] > 0
    assert result.pushes["update"][0] == 300
    assert result.pushes["upgrade"][0] == 300
    assert result.baseline_rate > 0
    assert {"gunicorn", "gunicorn worker 1", "gunicorn worker 2"} <= set(result.rss_mb)
    assert all(0 < mb < bulk_jobs.TARGET_RSS_MB for mb in result.rss_mb.values())
    assert result.slices[0][:2] == (0, 3) and result.slices[-1][1] == 300


def test_slices_are_the_first_percent_then_each_tenth() -> None:
    from bench.bulk_jobs import slices, trend

    samples = [(0.5, 0), (1.0, 10), (2.0, 100)] + [(2.0 + n, 100 * n) for n in range(2, 11)]
    cuts = slices(samples, 1000)
    assert [(lo, hi) for lo, hi, _ in cuts] == [(0, 10), (10, 100)] + [
        (100 * n, 100 * (n + 1)) for n in range(1, 10)]
    assert cuts[0][2] == 10.0  # 10 passes in the first second
    assert cuts[1][2] == 90.0
    assert [rate for _, _, rate in cuts[2:]] == [50.0] + [100.0] * 8
    assert trend(cuts) == 1.25  # the last three tenths over the first three (90, 50, 100)
    falling = cuts[:2] + [(lo, hi, 100.0 - 10 * n) for n, (lo, hi, _) in enumerate(cuts[2:])]
    assert trend(falling) == pytest.approx(90 / 280)  # (40 + 30 + 20) over (90 + 100 + 90)


def test_the_push_rate_is_that_after_the_jobs_completed_when_pushes_followed_them() -> None:
    from bench.bulk_jobs import Progress

    progress = Progress(None, None)  # type: ignore[arg-type]
    progress.push_samples = [(1.0, 0), (2.0, 0), (10.0, 100), (20.0, 1100), (30.0, 1100)]
    assert progress.push_rate(10.0) == (1100, 100.0, 20.0)  # 1,000 in the 10 s after
    # All of them before the jobs completed (in-process): from the first push to the last.
    assert progress.push_rate(40.0) == (1100, 1100 / 10, 20.0)
