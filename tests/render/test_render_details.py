"""What each output format shows beyond the goldens: colours of an error, a caret under
no token, a window at a long line's start, JUnit's count of unlisted test cases, a
hint's own line in a GitHub annotation, and JSON and SARIF written as UTF-8 text,
indented by two spaces.
"""

from __future__ import annotations

import io

import pytest

from holodeck_mt.model import Diagnostic, FileResult
from holodeck_mt.pipeline import validate_text
from holodeck_mt.render import github, json_format, junit, sarif, text


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _text(result: FileResult, colour: bool = False) -> list[str]:
    out = _Terminal() if colour else io.StringIO()
    text.render([result], out)
    return out.getvalue().splitlines()


def test_text_colours_an_error_red(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    d = Diagnostic("HMT102", "bad", 1, 4)
    assert _text(FileResult(path="a.yaml", diagnostics=[d], text="a: 1\n"), colour=True)[:3] == [
        "\x1b[1;31ma.yaml:1:4: error[HMT102] bad\x1b[0m",
        "\x1b[34m    1 | \x1b[0ma: 1",
        "\x1b[34m      | \x1b[0m   \x1b[31m^\x1b[0m",
    ]


def test_text_puts_one_caret_where_no_token_starts() -> None:
    d = Diagnostic("HMT001", "m", 1, 2)
    assert _text(FileResult(path="a.yaml", diagnostics=[d], text="a: b\n"))[1:3] == [
        "    1 | a: b",
        "      |  ^",
    ]


def test_text_shows_a_line_of_160_characters_whole() -> None:
    line = "k: " + "v" * 157
    d = Diagnostic("HMT103", "m", 1, 4)
    assert _text(FileResult(path="a.yaml", diagnostics=[d], text=line))[1:3] == [
        "    1 | " + line,
        "      |    ^" + "~" * 156,
    ]


def test_text_shows_the_start_of_a_long_line_without_a_leading_ellipsis() -> None:
    line = "k: " + "v" * 10 + " " + "w" * 300
    d = Diagnostic("HMT103", "m", 1, 4)
    assert _text(FileResult(path="a.yaml", diagnostics=[d], text=line))[1:3] == [
        "    1 | " + line[:160] + "…",
        "      |    ^" + "~" * 9,
    ]


def test_junit_counts_the_test_cases_past_a_thousand_it_does_not_list() -> None:
    cases = "".join(f"- name: c{i}\n  input: x\n" for i in range(1003))
    cases = cases.replace("- name: c1001\n  input: x\n", "- name: c1001\n  input: x\n  inptu: y\n")
    result = validate_text(cases, path="c.yaml", role="test-cases-file")
    suite = junit.report([result]).find("testsuite")
    assert suite is not None
    names = [c.get("name") for c in suite.findall("testcase")]
    assert names == ["(file)", *(f"c{i}" for i in range(1000)), "c1001"]
    notes = [e.text for e in suite if e.tag == "system-out"]
    assert notes == ["2 more test cases with no diagnostic shown are not listed\n"]


def test_junit_lists_every_warning_of_a_test_case_one_per_line() -> None:
    source = "- name: a\n  input: x\n  expected_tools: [t, t, t]\n"
    result = validate_text(source, path="c.yaml", role="test-cases-file")
    suite = junit.report([result]).find("testsuite")
    assert suite is not None
    out = suite.findall("testcase")[1].find("system-out")
    assert out is not None
    lines = (out.text or "").splitlines()
    assert len(lines) == 4 and lines[0].startswith("c.yaml:3:") and lines[2].startswith("c.yaml:3:")
    assert [line.split(" ", 2)[1] for line in lines[0::2]] == ["warning[HMT203]"] * 2
    assert all(line.startswith("  hint: ") for line in lines[1::2])


def test_github_keeps_a_hints_line_breaks_as_encoded_newlines() -> None:
    d = Diagnostic("HMT102", "bad", 1, 1, hint="first\nsecond")
    assert github.command("a.yaml", d).endswith("::bad%0Ahint: first%0Asecond")


def _named(name: str) -> FileResult:
    source = f"- name: {name}\n  input: x\n  inptu: y\n"
    return validate_text(source, path="c.yaml", role="test-cases-file")


def test_json_is_utf8_text_indented_by_two_spaces() -> None:
    out = io.StringIO()
    json_format.render([_named("café")], out)
    assert '"test_case": "café"' in out.getvalue()
    assert out.getvalue().startswith('{\n  "version": 1,\n')


def test_sarif_is_utf8_text_indented_by_two_spaces() -> None:
    out = io.StringIO()
    sarif.render([_named("café")], out)
    assert '"testCase": "café"' in out.getvalue()
    assert out.getvalue().startswith('{\n  "$schema": ')


def test_sarif_names_a_long_logical_location_in_full_up_to_400_characters() -> None:
    key = "k" * 50
    parts = ("test_cases", 0, "expected_tools", 0, "args", key, "regex")
    d = Diagnostic("HMT104", "m", 1, 1, pointer_parts=parts)
    full = f"test_cases[0].expected_tools[0].args.{key}.regex"
    assert sarif.logical_location(d) == {
        "name": full,
        "fullyQualifiedName": full,
        "kind": "property",
    }


def test_an_unknown_format_is_a_key_error_naming_it() -> None:
    from holodeck_mt.render import renderer

    with pytest.raises(KeyError) as raised:
        renderer("xml")
    assert raised.value.args == ("xml",)


def test_text_writes_plain_to_an_output_that_cannot_say_it_is_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)

    class Sink:
        def __init__(self) -> None:
            self.parts: list[str] = []

        def write(self, part: str) -> int:
            self.parts.append(part)
            return len(part)

    sink = Sink()
    d = Diagnostic("HMT102", "bad", 1, 4)
    text.render([FileResult(path="a.yaml", diagnostics=[d], text="a: 1\n")], sink)  # type: ignore[arg-type]
    assert "".join(sink.parts).splitlines()[0] == "a.yaml:1:4: error[HMT102] bad"
