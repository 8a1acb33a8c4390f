"""The pipeline says the whole path: each stage entered once, in order, none climbing back.

``tests/support/call_path.py`` follows a document with one fault (so that locate runs)
through ``validate_text`` and the text renderer; its spine is what a reader of
``pipeline.py`` follows, its stages every call made meanwhile, read by stage.
"""

from __future__ import annotations

import sys

from tests.support import call_path

STAGES = ["read.document", "contract.verdict", "rules.running", "locate.report"]


def test_the_pipeline_enters_each_stage_once_in_order() -> None:
    spine = call_path.path_of(call_path.FIXTURE)
    assert [m for m in spine if m in STAGES] == STAGES
    assert spine[-1] == "render.text"


def test_every_call_enters_read_contract_rules_and_locate_once_in_that_order() -> None:
    staged = call_path.stage_path(call_path.path_of(call_path.FIXTURE, spine=False))
    assert call_path.stages_entered(staged) == ["read", "contract", "rules", "locate"]
    assert len(call_path.stage_returns(staged)) <= 15
    assert sys.getprofile() is None


def test_a_stage_return_is_a_call_back_from_another_stage() -> None:
    stops = ["read.document", "contract.verdict", "contract.messages", "contract.verdict"]
    assert call_path.stage_returns(stops) == []  # the stage's own
    stops += ["locate.report", "read.substitution", "locate.report"]
    assert call_path.stage_returns(stops) == ["locate.report"]  # back from a call into read
    assert call_path.stage_returns([*stops, "read.document"]) == ["locate.report", "read.document"]
    assert call_path.stages_entered(stops) == ["read", "contract", "locate", "read", "locate"]
    assert call_path.stage_of("text.ranges") is None  # a primitive every stage calls down into
    assert call_path.stage_of("read.loader") is None  # the reader, the lazy index's too


def test_no_stage_climbs_back_into_the_pipeline() -> None:
    spine = call_path.path_of(call_path.FIXTURE)
    assert spine.count("pipeline") == 1  # validate_text, the whole path
    assert spine.count("locate.report") == 1  # located, then finished, in one go
    assert sys.getprofile() is None


def test_the_renderer_never_enters_the_pipeline() -> None:
    every = call_path.path_of(call_path.FIXTURE, spine=False)
    after = every[every.index("render.text") :]
    assert "pipeline" not in after
