"""The pipeline says the whole path: each stage entered once, in order, none climbing back.

``tests/support/call_path.py`` follows a document with one fault through ``validate_text``
and the text renderer; its spine is what a reader of ``pipeline.py`` follows.
"""

from __future__ import annotations

import sys

from tests.support import call_path

STAGES = ["read.document", "contract.verdict", "rules.running", "text.report"]


def test_the_pipeline_enters_each_stage_once_in_order() -> None:
    spine = call_path.path_of(call_path.FIXTURE)
    assert [m for m in spine if m in STAGES] == STAGES
    assert spine[-1] == "render.text"


def test_no_stage_climbs_back_into_the_pipeline() -> None:
    spine = call_path.path_of(call_path.FIXTURE)
    assert spine.count("pipeline") <= 2  # validate_text, then the path it hands over to
    assert call_path.returns(spine) <= 1
    assert sys.getprofile() is None


def test_the_renderer_never_enters_the_pipeline() -> None:
    every = call_path.path_of(call_path.FIXTURE, spine=False)
    after = every[every.index("render.text") :]
    assert "pipeline" not in after
