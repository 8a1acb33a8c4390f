"""What a user reads, pinned word for word: paths, pointers, value phrases, order, escapes.

The fixture corpus pins each code's message and hint on real files; these tests pin
the small phrases those messages are built from, and the renderers' escaping, where
a wrong character would still leave every fixture's code, path and line right.
"""

from __future__ import annotations

import dataclasses
import io
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from holodeck_mt.model import (
    Diagnostic,
    Fault,
    FileResult,
    JsonPath,
    format_path,
    make,
    to_pointer,
    under,
)
from holodeck_mt.model import unmarked as plain
from holodeck_mt.pipeline import validate_text
from holodeck_mt.render import github, junit, sarif, text
from holodeck_mt.rules import (
    Context,
    files_exist,
    graders_import,
    ineffective_flags,
)
from holodeck_mt.rules.registry import rules_to_run
from holodeck_mt.selection import Options
from holodeck_mt.text import safe_text
from holodeck_mt.wording import hints

# --- paths and pointers -----------------------------------------------------------------


def test_a_path_joins_keys_with_dots_and_indices_in_brackets() -> None:
    assert format_path(("turns", 2, "expected_tools", 1, "args", "a")) == (
        "turns[2].expected_tools[1].args.a"
    )
    assert format_path((0, "input")) == "[0].input"
    assert format_path(()) == ""


def test_a_path_writes_odd_keys_in_brackets_and_quotes() -> None:
    assert format_path(("args", "a b")) == 'args["a b"]'
    assert format_path(("args", 'q"\\')) == 'args["q\\"\\\\"]'
    assert format_path(("a-b",)) == '["a-b"]'


def test_a_pointer_escapes_tilde_then_slash() -> None:
    assert to_pointer(("a~b", "c/d", 0)) == "/a~0b/c~1d/0"
    assert to_pointer(("~1",)) == "/~01"
    assert to_pointer(()) == ""


def test_under_is_the_path_itself_or_below_it() -> None:
    reported: set[JsonPath] = {("test_cases", 0, "turns")}
    assert under(("test_cases", 0, "turns"), reported)
    assert under(("test_cases", 0, "turns", 1, "input"), reported)
    assert not under(("test_cases", 0), reported)
    assert not under(("test_cases", 1, "turns"), reported)
    assert under(("anything",), {()})


# --- the diagnostic record ------------------------------------------------------------------


def test_diagnostics_sort_by_line_then_column_then_code_then_message() -> None:
    ds = [
        Diagnostic("HMT103", "b", 2, 1),
        Diagnostic("HMT102", "z", 1, 9),
        Diagnostic("HMT103", "a", 2, 1),
        Diagnostic("HMT100", "z", 2, 1),
        Diagnostic("HMT100", "z", 1, 10),
    ]
    ordered = [(d.line, d.column, d.code, d.message) for d in sorted(ds, key=Diagnostic.sort_key)]
    assert ordered == [
        (1, 9, "HMT102", "z"),
        (1, 10, "HMT100", "z"),
        (2, 1, "HMT100", "z"),
        (2, 1, "HMT103", "a"),
        (2, 1, "HMT103", "b"),
    ]


def test_a_diagnostics_severity_comes_from_its_code() -> None:
    d = make("HMT201", "m", 3, 4, pointer_parts=["test_cases", 1, "name"], hint="h")
    assert (d.severity, d.line, d.column, d.pointer, d.hint) == (
        "warning",
        3,
        4,
        "/test_cases/1/name",
        "h",
    )
    assert make("HMT100", "m", 1, 1).severity == "error"


def test_the_json_record_has_every_field_in_the_documented_order() -> None:
    d = Diagnostic(
        "HMT100",
        "m",
        3,
        4,
        pointer_parts=("test_cases", 0, "a/b"),
        test_case="t",
        test_case_index=0,
        path='["a/b"]',
        hint="h",
    )
    assert list(d.to_json().items()) == [
        ("severity", "error"),
        ("code", "HMT100"),
        ("message", "m"),
        ("test_case", "t"),
        ("test_case_index", 0),
        ("path", '["a/b"]'),
        ("pointer", "/test_cases/0/a~1b"),
        ("line", 3),
        ("column", 4),
        ("end_line", 3),
        ("end_column", 4),
        ("hint", "h"),
    ]


def test_a_fault_is_located_at_its_value_unless_it_says_key() -> None:
    fault = Fault("HMT103", "m", ("a",))
    assert (fault.at, fault.hint) == ("value", None)


# --- value phrases (hints.py) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (None, "null"),
        (True, "boolean"),
        (3, "integer"),
        (1.5, "number"),
        ("x", "string"),
        ({}, "mapping"),
        ([], "list"),
        (b"x", "bytes"),
    ],
)
def test_kind_of_names_a_value_as_a_yaml_author_would(value: object, kind: str) -> None:
    assert hints.kind_of(value) == kind


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "null"),
        (True, "true"),
        (False, "false"),
        (206588, "206588"),
        (-3, "-3"),
        (10**39, "1" + "0" * 39),
        (10**40, "an integer of 41+ digits"),
        (10**70, "an integer of 61+ digits"),
        (0.5, "0.5"),
        (float("nan"), ".nan"),
        (float("inf"), ".inf"),
        (float("-inf"), "-.inf"),
        ("a\nb", "'a\\nb'"),
        ("x" * 40, repr("x" * 40)),
        ("x" * 41, repr("x" * 39 + "…")),
        ({"a": 1}, "a mapping of 1 key"),
        ({"a": 1, "b": 2}, "a mapping of 2 keys"),
        ([1], "a list of 1 item"),
        ([], "a list of 0 items"),
        (b"x", "bytes"),
    ],
)
def test_show_renders_a_value_briefly(value: object, shown: str) -> None:
    assert plain(hints.show(value)) == shown


def test_show_takes_its_limit() -> None:
    assert plain(hints.show("abcdef", limit=4)) == "'abc…'"
    assert plain(hints.show("abcd", limit=4)) == "'abcd'"


@pytest.mark.parametrize(
    ("value", "phrase"),
    [
        (206588, "integer 206588"),
        ("yes", "string 'yes'"),
        (True, "boolean true"),
        (None, "null"),
        ({"a": 1}, "a mapping of 1 key"),
        ([1, 2], "a list of 2 items"),
    ],
)
def test_got_names_the_kind_and_the_value(value: object, phrase: str) -> None:
    assert plain(hints.show_with_kind(value)) == phrase


@pytest.mark.parametrize(
    ("schema_type", "name"),
    [
        ("string", "a string"),
        ("integer", "an integer"),
        ("number", "a number"),
        ("boolean", "a boolean"),
        ("object", "a mapping"),
        ("array", "a list"),
        ("null", "null"),
        ("other", "other"),
    ],
)
def test_type_name_says_what_a_schema_type_is_called(schema_type: str, name: str) -> None:
    assert hints.type_name(schema_type) == name


def test_did_you_mean_finds_a_close_or_differently_cased_name() -> None:
    assert hints.did_you_mean("ground_truht", ["input", "ground_truth"]) == "ground_truth"
    assert hints.did_you_mean("TURNS", ["turns", "input"]) == "turns"
    assert hints.did_you_mean("zzz", ["turns", "input"]) is None
    # Ties go to the first in sorted order, whatever order the choices come in.
    assert hints.did_you_mean("ab", ["ac", "aa"]) == hints.did_you_mean("ab", ["aa", "ac"])


@pytest.mark.parametrize(
    ("key", "value", "hint"),
    [
        ("ground_truth", 25587, 'quote it: ground_truth: "25587"'),
        ("input", True, 'quote it: input: "true"'),
        ("x", 1.5, 'quote it: x: "1.5"'),
        ("x", float("nan"), 'quote it: x: ".nan"'),
        (None, 3, 'quote it: "3"'),
        (0, 3, 'quote it: "3"'),
        ("x", "text", None),
        ("x", None, None),
        ("x", [1], None),
    ],
)
def test_quote_hint_shows_the_scalar_quoted(
    key: str | int | None, value: object, hint: str
) -> None:
    fix = hints.quote_fix(key, value)
    assert (plain(fix.hint()) if fix is not None else None) == hint


# --- renderers ------------------------------------------------------------------------------


def test_github_escapes_percent_carriage_return_and_line_feed_in_a_message() -> None:
    assert safe_text.escape_command_data("50%\r\nx") == "50%25%0D%0Ax"


def test_github_escapes_colon_and_comma_in_a_property_too() -> None:
    assert safe_text.escape_command_property("a:b,c%\r\n") == "a%3Ab%2Cc%25%0D%0A"


def test_github_annotation_names_the_test_case_and_path() -> None:
    named = Diagnostic("HMT100", "m", 1, 1, test_case="t", test_case_index=2, path="input")
    assert github.command("a.yaml", named).endswith("::m (test case 't' (#2), input)")
    unnamed = Diagnostic("HMT100", "m", 1, 1, test_case_index=0)
    assert github.command("a.yaml", unnamed).endswith("::m (test case #0)")
    evaluations = Diagnostic("HMT100", "m", 1, 1, path="evaluations")
    assert github.command("a.yaml", evaluations).endswith("::m (evaluations)")
    assert github.command("a.yaml", Diagnostic("HMT100", "m", 1, 1)).endswith("unknown-key::m")


def test_github_command_of_a_warning_without_location_or_hint() -> None:
    d = Diagnostic("HMT202", "unknown key", 4, 1, severity="warning")
    assert github.command("a.yaml", d) == (
        "::warning file=a.yaml,line=4,col=1,title=HMT202 unknown-top-level-key::unknown key"
    )
    assert github.command("a.yaml", Diagnostic("HMT999", "m", 1, 1)) == (
        "::error file=a.yaml,line=1,col=1,title=HMT999::m"
    )


def test_github_command_gives_the_end_column_when_known() -> None:
    d = Diagnostic("HMT100", "m", 1, 2, end_column=7)
    assert github.command("a.yaml", d) == (
        "::error file=a.yaml,line=1,col=2,endColumn=7,title=HMT100 unknown-key::m"
    )


def test_text_headline_forms() -> None:
    named = Diagnostic(
        "HMT102", "bad", 5, 23, test_case="c", test_case_index=0, path="turns[0].input"
    )
    assert text.headline("a.yaml", named) == (
        "a.yaml:5:23: error[HMT102] test case 'c' (#0) turns[0].input: bad"
    )
    unnamed = Diagnostic("HMT201", "dup", 2, 3, test_case_index=4, severity="warning")
    assert text.headline("a.yaml", unnamed) == "a.yaml:2:3: warning[HMT201] test case #4 dup"
    assert text.headline("a.yaml", Diagnostic("HMT001", "syntax", 1, 1)) == (
        "a.yaml:1:1: error[HMT001] syntax"
    )


def _text(results: list[FileResult], colour: bool = False) -> str:
    class Out(io.StringIO):
        def isatty(self) -> bool:
            return colour

    out = Out()
    text.render(results, out)
    return out.getvalue()


def test_text_shows_the_line_with_a_caret_under_the_token_and_the_hint() -> None:
    d = Diagnostic("HMT102", "bad", 2, 6, hint="quote it")
    result = FileResult(path="a.yaml", diagnostics=[d], text="x: 1\n  a:\tfoo bar\n")
    assert _text([result]).splitlines() == [
        "a.yaml:2:6: error[HMT102] bad",
        "    2 |   a: foo bar",
        "      |      ^~~",
        "  hint: quote it",
        "Found 1 error and 0 warnings in 1 of 1 file.",
    ]


def test_text_shows_a_window_of_a_long_line() -> None:
    line = "k: " + "a" * 100 + " " + "b" * 200
    d = Diagnostic("HMT103", "long", 1, 105)
    shown = _text([FileResult(path="a.yaml", diagnostics=[d], text=line)]).splitlines()
    assert shown[1] == "    1 | …" + line[64 : 64 + 160] + "…"
    assert shown[2] == "      | " + " " * 41 + "^" + "~" * 119


def test_text_has_no_excerpt_for_a_line_outside_the_file() -> None:
    d = Diagnostic("HMT001", "m", 9, 1)
    assert _text([FileResult(path="a.yaml", diagnostics=[d], text="a: 1\n")]).splitlines() == [
        "a.yaml:9:1: error[HMT001] m",
        "Found 1 error and 0 warnings in 1 of 1 file.",
    ]


def test_text_colours_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    d = Diagnostic("HMT201", "dup", 1, 1, severity="warning", hint="h")
    coloured = _text([FileResult(path="a.yaml", diagnostics=[d], text="a: 1\n")], colour=True)
    assert coloured.splitlines()[:4] == [
        "\x1b[1;33ma.yaml:1:1: warning[HMT201] dup\x1b[0m",
        "\x1b[34m    1 | \x1b[0ma: 1",
        "\x1b[34m      | \x1b[0m\x1b[33m^\x1b[0m",
        "  \x1b[36mhint\x1b[0m: h",
    ]
    monkeypatch.setenv("TERM", "dumb")
    assert "\x1b[" not in _text([FileResult(path="a.yaml", diagnostics=[d])], colour=True)


def test_text_summary_forms() -> None:
    def result(*codes: str) -> FileResult:
        return FileResult(path="a", diagnostics=[make(c, "m", 1, 1) for c in codes])

    assert text.summary([]) == "No files validated."
    assert text.summary([result()]) == "All 1 file valid."
    assert text.summary([result(), result("HMT201")]) == "All 2 files valid (1 warning)."
    assert text.summary([result("HMT201", "HMT201")]) == "All 1 file valid (2 warnings)."
    assert text.summary([result("HMT100"), result("HMT100", "HMT201")]) == (
        "Found 2 errors and 1 warning in 2 of 2 files."
    )


def test_junit_labels_unnamed_and_shared_names_by_index() -> None:
    assert junit._labels(["a", None, "a", "b"]) == ["a (#0)", "#1", "a (#2)", "b"]


def test_junit_puts_warnings_in_system_out_and_errors_in_one_failure() -> None:
    source = "- name: a\n  input: x\n  inptu: y\n- name: a\n  input: z\n"
    result = validate_text(source, path="c.yaml", role="test-cases-file")
    root = junit.report([result])
    suite = root.find("testsuite")
    assert suite is not None
    assert {k: suite.get(k) for k in ("name", "tests", "failures", "errors", "skipped")} == {
        "name": "c.yaml",
        "tests": "3",
        "failures": "1",
        "errors": "0",
        "skipped": "0",
    }
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "0")
    cases = suite.findall("testcase")
    assert [(c.get("name"), c.get("classname"), c.get("file")) for c in cases] == [
        ("(file)", "c.yaml", "c.yaml"),
        ("a (#0)", "c.yaml", "c.yaml"),
        ("a (#1)", "c.yaml", "c.yaml"),
    ]
    failure = cases[1].find("failure")
    assert failure is not None
    assert failure.get("type") == "HMT100"
    assert failure.get("message") == "[HMT100] unknown key 'inptu' in single-turn test case"
    assert failure.text == (
        "c.yaml:3:3: error[HMT100] test case 'a' (#0) inptu: "
        "unknown key 'inptu' in single-turn test case\n  hint: did you mean 'input'?\n"
    )
    out = cases[2].find("system-out")
    assert out is not None and (out.text or "").startswith("c.yaml:4:9: warning[HMT201]")
    assert cases[2].find("failure") is None


def test_junit_replaces_what_xml_cannot_hold_with_the_replacement_character() -> None:
    assert junit._clean("a\x01b\x1bc\td\n\ud800") == "a\ufffdb\ufffdc\td\n\ufffd"


def test_sarif_result_joins_message_and_hint_and_locates_it_twice() -> None:
    d = Diagnostic(
        "HMT102",
        "bad",
        5,
        23,
        pointer_parts=("test_cases", 0, "turns", 1),
        test_case="c",
        test_case_index=0,
        path="turns[1]",
        hint="quote it",
    )
    entry = sarif.result("a.yaml", d, {"HMT102": 3})
    assert entry["ruleIndex"] == 3
    assert entry["level"] == "error"
    assert entry["message"] == {"text": "bad. Hint: quote it"}
    location = entry["locations"][0]
    assert location["physicalLocation"]["region"] == {"startLine": 5, "startColumn": 23}
    assert location["logicalLocations"] == [
        {"name": "turns[1]", "fullyQualifiedName": "test_cases[0].turns[1]", "kind": "element"}
    ]
    assert entry["properties"] == {
        "testCase": "c",
        "testCaseIndex": 0,
        "path": "turns[1]",
        "pointer": "/test_cases/0/turns/1",
    }


def test_sarif_logical_location_kinds() -> None:
    top = Diagnostic("HMT202", "m", 1, 1, pointer_parts=("tset_cases",), path="tset_cases")
    assert sarif.logical_location(top) == {
        "name": "tset_cases",
        "fullyQualifiedName": "tset_cases",
        "kind": "property",
    }
    case = Diagnostic("HMT105", "m", 1, 1, pointer_parts=(), test_case_index=2)
    assert sarif.logical_location(case) == {
        "name": "#2",
        "fullyQualifiedName": "",
        "kind": "object",
    }
    assert sarif.logical_location(Diagnostic("HMT001", "m", 1, 1)) is None
    unnamed = Diagnostic("HMT103", "m", 1, 1, pointer_parts=(0,))
    assert sarif.logical_location(unnamed) == {
        "name": "[0]",
        "fullyQualifiedName": "[0]",
        "kind": "element",
    }


def test_sarif_result_of_an_unknown_code_has_no_rule_index_and_end_column_when_known() -> None:
    entry = sarif.result("a.yaml", Diagnostic("HMT999", "m", 1, 2, end_column=5), {})
    assert "ruleIndex" not in entry
    region = entry["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 2, "endColumn": 5}
    assert entry["message"] == {"text": "m"}
    assert "logicalLocations" not in entry["locations"][0]


# --- the guards of the semantic checks ---------------------------------------------------


def _faults(data: object, reported: set[tuple[str | int, ...]], **options: bool) -> list[Fault]:
    chosen = Options(
        import_graders=options.get("import_graders", False),
        check_files=options.get("check_files", False),
    )
    context = Context(data=data, base_dir=Path("."), options=chosen, reported=reported)
    checks = [rule for rule in rules_to_run(context.options) if rule.runs != "runtime"]
    return [f for rule in checks for f in rule.check(context)]


def test_checks_skip_what_the_schema_already_reported() -> None:
    data = {
        "test_cases": [
            {
                "input": "x",
                "expected_tools": [{"name": "t", "args": {"a": {"regex": "("}}}],
                "evaluations": [
                    {"metric": "numeric", "threshold": float("nan")},
                    {"type": "code", "grader": "no_such_module_anywhere:g"},
                ],
                "files": [{"path": "no/such/file.pdf", "type": "pdf"}],
            }
        ]
    }
    case = ("test_cases", 0)
    every = {f.code for f in _faults(data, set(), import_graders=True, check_files=True)}
    assert every == {"HMT104", "HMT109", "HMT111", "HMT112"}
    reported = {
        (*case, "expected_tools", 0, "args", "a", "regex"),
        (*case, "evaluations", 0, "threshold"),
        (*case, "evaluations", 1, "grader"),
        (*case, "files", 0, "path"),
    }
    assert _faults(data, reported, import_graders=True, check_files=True) == []


def _shown(faults: Iterable[Fault]) -> list[Fault]:
    """The faults' words as a file without a reference shows them (their marks out)."""
    return [
        dataclasses.replace(f, message=plain(f.message), hint=f.hint and plain(f.hint), fix=None)
        for f in faults
    ]


def test_check_files_reports_a_folder_as_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    data = {"test_cases": [{"input": "x", "files": [{"path": "data", "type": "pdf"}]}]}
    context = Context(data=data, base_dir=tmp_path, options=Options(check_files=True))
    assert _shown(files_exist.check(context)) == [
        Fault(
            "HMT112",
            "'data' is a folder, not a file",
            ("test_cases", 0, "files", 0, "path"),
        )
    ]


def test_a_metric_without_type_is_standard_for_ineffective_flags() -> None:
    data = [
        {"input": "x", "evaluations": [{"metric": "numeric", "case_insensitive": True}]},
        {
            "input": "x",
            "evaluations": [{"type": "geval", "metric": "numeric", "strip_whitespace": 1}],
        },
        {"input": "x", "evaluations": [{"metric": "equality", "case_insensitive": True}]},
    ]
    context = Context(data=data, base_dir=Path("."))
    assert _shown(ineffective_flags.check(context)) == [
        Fault(
            "HMT200",
            "`case_insensitive` has no effect on the `numeric` metric (it applies to `equality`)",
            (0, "evaluations", 0, "case_insensitive"),
            at="key",
            hint="remove it, or use `metric: equality`",
        )
    ]


def test_grader_import_leaves_sys_path_as_it_found_it(tmp_path: Path) -> None:
    (tmp_path / "graders_for_path_test.py").write_text("def g(): pass\n", encoding="utf-8")
    (tmp_path / "raising_grader_for_path_test.py").write_text(
        "raise ValueError('broken\\nsecond line')\n", encoding="utf-8"
    )
    data = [
        {"input": "x", "evaluations": [{"grader": "graders_for_path_test:g"}]},
        {"input": "x", "evaluations": [{"grader": "raising_grader_for_path_test:g"}]},
        {"input": "x", "evaluations": [{"grader": "graders_for_path_test:missing"}]},
    ]
    before = list(sys.path)
    context = Context(data=data, base_dir=tmp_path, options=Options(import_graders=True))
    faults = list(graders_import.check(context))
    assert sys.path == before
    assert [plain(f.message) for f in faults] == [
        "grader 'raising_grader_for_path_test:g': importing 'raising_grader_for_path_test' "
        "raised ValueError: broken",
        "grader 'graders_for_path_test:missing': module 'graders_for_path_test' has no "
        "attribute 'missing'",
    ]


def test_a_keyword_without_a_message_of_its_own_names_itself() -> None:
    from jsonschema import Draft202012Validator

    from holodeck_mt.contract.messages import faults_of

    errors = Draft202012Validator({"multipleOf": 2}).iter_errors(3)
    assert faults_of(errors) == [
        Fault("HMT103", "the document is not allowed here (multipleOf)", ())
    ]


def test_a_number_or_environment_reference_says_so() -> None:
    source = (
        "evaluations:\n"
        "  model: {provider: openai, name: gpt-4o, temperature: hot}\n"
        "  metrics: [{type: standard, metric: equality}]\n"
        "test_cases:\n"
        "  - {name: a, input: x, ground_truth: y}\n"
    )
    (d,) = validate_text(source).diagnostics
    assert (d.code, d.path, d.message) == (
        "HMT103",
        "evaluations.model.temperature",
        "`temperature` must be a number or an ${ENV_VAR} reference, got 'hot'",
    )
    (d,) = validate_text(source.replace("temperature: hot", "max_tokens: many")).diagnostics
    assert d.message == "`max_tokens` must be an integer or an ${ENV_VAR} reference, got 'many'"


def _args_data(*values: object) -> list[dict[str, object]]:
    """A test case whose one expected tool asserts ``values`` as arguments a0, a1, ..."""
    args = {f"a{i}": value for i, value in enumerate(values)}
    return [{"input": "x", "expected_tools": [{"name": "t", "args": args}]}]


def _check_faults(module: object, data: object) -> list[Fault]:
    check = module.check  # type: ignore[attr-defined]
    return _shown(check(Context(data=data, base_dir=Path("."))))


def test_a_literal_that_looks_like_a_matcher_names_the_matcher_meant() -> None:
    from holodeck_mt.rules import literal_like_matcher

    data = _args_data(
        {"REGEXP": "^a$"},  # an alias, in any case
        {"fuzy": "1"},  # a near miss
        {"pattern": "x", "other": 1},  # two keys: a literal mapping, nothing to say
        {"fuzzy": "1"},  # a real matcher
        {"colour": "red"},  # nothing like a matcher
        "plain",
    )
    args = (0, "expected_tools", 0, "args")
    assert _check_faults(literal_like_matcher, data) == [
        Fault(
            "HMT204",
            "'REGEXP' is not a matcher key, so this is a literal mapping that the actual "
            "argument must equal",
            (*args, "a0", "REGEXP"),
            at="key",
            hint="did you mean 'regex'?",
        ),
        Fault(
            "HMT204",
            "'fuzy' is not a matcher key, so this is a literal mapping that the actual "
            "argument must equal",
            (*args, "a1", "fuzy"),
            at="key",
            hint="did you mean 'fuzzy'?",
        ),
    ]


def test_a_regex_that_does_not_compile_says_why_and_where() -> None:
    from holodeck_mt.rules import regex_compiles

    data = _args_data({"regex": "(a"}, {"regex": "a{2"}, {"regex": "ok"}, {"regex": 3})
    args = (0, "expected_tools", 0, "args")
    assert _check_faults(regex_compiles, data) == [
        Fault(
            "HMT104",
            "cannot compile regex: missing ), unterminated subpattern at position 0",
            (*args, "a0", "regex"),
        ),
    ]


def test_a_non_finite_metric_number_is_shown_as_yaml_writes_it() -> None:
    from holodeck_mt.rules import non_finite_numbers

    metric = {"metric": "numeric", "threshold": float("-inf"), "absolute_tolerance": 0.5}
    data = [{"input": "x", "evaluations": [metric]}]
    assert _check_faults(non_finite_numbers, data) == [
        Fault(
            "HMT109",
            "`threshold` must be a finite number, got -.inf",
            (0, "evaluations", 0, "threshold"),
        )
    ]
