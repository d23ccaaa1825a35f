"""The insights benchmark runs end to end at a tiny scale (the figure itself is in
docs/benchmarks.md): loading, the rollup, every query shape and the recording cost."""

from __future__ import annotations

import pytest

from bench import insights


@pytest.mark.slow
def test_the_benchmark_runs_at_a_tiny_scale(capsys: pytest.CaptureFixture[str]) -> None:
    insights.main(passes=300, facts=1200, runs=3)  # its 0/1 is the target: not this test's
    out = capsys.readouterr().out
    assert "loaded 300 passes and 1,200 facts" in out
    for label in ("default (30 days by day)", "30 days by template", "30 days by platform",
                  "30 days, one template, apple", "366 days by day", "366 days by template",
                  "recording a page view", "default 30 days p50"):
        assert label in out
    assert "(issued 300)" in out  # the year's shapes see every pass loaded
