"""WCAG 2 contrast: luminance, ratio and the pass's colour pairs below AA."""

from __future__ import annotations

import pytest

from webapp.domain import contrast


def test_luminance_of_black_white_and_a_grey() -> None:
    assert contrast.luminance("#000000") == 0.0
    assert contrast.luminance("#FFFFFF") == pytest.approx(1.0)
    assert contrast.luminance("#777777") == pytest.approx(0.184474, abs=1e-6)


@pytest.mark.parametrize(("first", "second", "expected"), [
    ("#000000", "#ffffff", 21.0),
    ("#ffffff", "#ffffff", 1.0),
    ("#767676", "#ffffff", 4.54),   # the lightest grey that passes AA on white
    ("#777777", "#ffffff", 4.48),   # one step lighter fails
    ("#3b5bdb", "#667085", 1.14),   # the dashboard's link blue on its muted grey
    ("#b8c4ff", "#1d2b53", 8.13),   # the starter design's labels
])
def test_ratio_matches_published_values(first: str, second: str, expected: float) -> None:
    assert contrast.ratio(first, second) == pytest.approx(expected, abs=0.005)
    assert contrast.ratio(second, first) == contrast.ratio(first, second)


@pytest.mark.parametrize("bad", ["", "#fff", "ffffff", "#gggggg", "#1234567", "red"])
def test_a_malformed_colour_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a colour like #1a2b3c"):
        contrast.ratio(bad, "#ffffff")


def test_weak_pairs_names_each_pair_below_aa() -> None:
    weak = contrast.weak_pairs({"background": "#ffffff", "foreground": "#777777",
                                "label": "#cccccc"})
    assert [(front, back) for front, back, _ in weak] == [("foreground", "background"),
                                                          ("label", "background")]
    assert weak[0][2] == pytest.approx(4.48, abs=0.005)
    assert weak[1][2] == pytest.approx(1.61, abs=0.005)


def test_weak_pairs_passes_aa_and_skips_what_it_cannot_measure() -> None:
    assert contrast.weak_pairs({"background": "#ffffff", "foreground": "#767676"}) == []
    # no label colour (the wallets choose one), or a malformed one: nothing to say here
    assert contrast.weak_pairs({"background": "#ffffff", "foreground": "#000000",
                                "label": "white"}) == []
    assert contrast.weak_pairs({"background": None, "foreground": "#ffffff"}) == []
    assert contrast.weak_pairs({}) == []
