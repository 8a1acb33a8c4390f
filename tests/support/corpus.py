"""Generate ConvFinQA-shaped HoloDeck test-cases files for benchmarks and tests.

The output imitates the shape of the real ConvFinQA conversions (a first turn
carrying a 2-3 KB filing excerpt with a Markdown table, follow-up questions,
quoted numeric ground truths, ``turn_config.turn_program``) and sprinkles in
every construct the schema knows: matchers of every kind, metrics of every
kind with and without ``type``, per-turn files and retrieval context, and a
few single-turn test cases. About 3 KB per conversation.

The same arguments always give the same bytes. Planted faults (``--errors K``)
never change the rest of the file: the corpus with K faults differs from the
clean one only in the K faulty test cases.

    python -m tests.support.corpus --conversations 3500 --out corpus.yaml
    python -m tests.support.corpus --conversations 3500 --errors 35 --out bad.yaml
    python -m tests.support.corpus --agent-yaml --conversations 10 --out agent.yaml
    python -m tests.support.corpus --style authors --agent-yaml --conversations 875 --out a.yaml

``--style authors`` writes the file as people write it by hand, warnings and all:
multi-line inputs as ``|`` block scalars, per-turn ``numeric`` overrides whose
settings differ from the agent's (they leak to every turn), some turns without a
``ground_truth``, a tool listed twice.

YAML text is written directly (no dumper): plain scalars only where they
cannot be read as anything but the same string, single-quoted (folded like a
dumper would) otherwise, double-quoted with escapes when single quotes cannot
hold the text.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from scripts.repo import write_atomically

__all__ = [
    "FAULT_KINDS",
    "STYLES",
    "Fault",
    "agent_yaml",
    "corpus",
    "dump",
    "main",
    "plan_faults",
    "quote",
]

#: How a corpus is written: ``clean`` (no diagnostic at all) or as ``authors`` write it.
STYLES = ("clean", "authors")

# --- YAML writing --------------------------------------------------------------

WIDTH = 80

_PLAIN = re.compile(r"[A-Za-z](?:[A-Za-z0-9_.,()%?/$&' -]*[A-Za-z0-9_.)%?/$])?\Z")
_SPECIAL_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})
# What YAML (1.1 and 1.2) lets stand unescaped inside quotes, minus the characters
# a 1.1 parser takes as line breaks (NEL, LS, PS) and the byte-order mark.
_UNSAFE = re.compile(
    "[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_ESCAPES = {
    "\x00": "\\0",
    "\x07": "\\a",
    "\x08": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\x0b": "\\v",
    "\x0c": "\\f",
    "\r": "\\r",
    "\x1b": "\\e",
    '"': '\\"',
    "\\": "\\\\",
    "\x85": "\\N",
    "\u2028": "\\L",
    "\u2029": "\\P",
}
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]')
_NEWLINES = re.compile(r"(\n+)")


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _double_quoted(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


_BREAK = re.compile(r"(?<=[^ \t]) (?=[A-Za-z0-9])")


def _fold(text: str, first: int, indent: str) -> str:
    """Break ``text`` at single spaces to keep lines within ``WIDTH`` columns.

    A break is made only at a space between a non-blank character and a letter or
    digit, so that reading the lines back folds each break into that one space.
    ``first`` is the column of ``text[0]``; continuation lines start with ``indent``.
    """
    if first + len(text) <= WIDTH:
        return text
    parts: list[str] = []
    start = 0
    column = first
    previous = -1  # the last break that still fitted on the current line
    for match in _BREAK.finditer(text):
        space = match.start()
        if column + (space - start) <= WIDTH:
            previous = space
            continue
        cut = previous if previous > start else space
        parts.append(text[start:cut])
        start = cut + 1
        column = len(indent)
        previous = space if cut != space else -1
    if column + (len(text) - start) > WIDTH and previous > start:
        parts.append(text[start:previous])
        start = previous + 1
    parts.append(text[start:])
    return ("\n" + indent).join(parts)


def quote(text: str, first: int = 0, indent: str = "  ") -> str:
    """``text`` as a YAML scalar that reads back as the same string.

    ``first`` is the column where the scalar starts and ``indent`` the indentation
    of its continuation lines (deeper than the key that holds it).
    """
    if not text:
        return "''"
    if _UNSAFE.search(text) or "\r" in text:
        return _double_quoted(text)
    if "\n" not in text:
        if _PLAIN.match(text) and text.lower() not in _SPECIAL_WORDS:
            return _fold(text, first, indent)
        return "'" + _fold(text.replace("'", "''"), first + 1, indent) + "'"
    segments = _NEWLINES.split(text)
    if not segments[0] or not segments[-1]:
        return _double_quoted(text)  # leading or trailing line break
    for index in range(0, len(segments), 2):
        segment = segments[index]
        if (index > 0 and segment[0] in " \t") or (
            index < len(segments) - 1 and segment[-1] in " \t"
        ):
            return _double_quoted(text)  # folding would eat that blank
    out: list[str] = ["'"]
    column = first + 1
    for index, segment in enumerate(segments):
        if index % 2:  # a run of line breaks: one break, then one empty line per "\n"
            out.append("\n" * (len(segment) + 1) + indent)
            column = len(indent)
        else:
            folded = _fold(segment.replace("'", "''"), column, indent)
            out.append(folded)
    out.append("'")
    return "".join(out)


def _float(value: float) -> str:
    if value != value:
        return ".nan"
    if value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        sign = exponent[0] if exponent[0] in "+-" else "+"
        text = f"{mantissa}e{sign}{exponent.lstrip('+-')}"
    return text


_BLOCK_SAFE = re.compile(r"[^ \n][^\n]*(?:\n[^\n]*)*")


def _block(value: str, indent: str) -> str | None:
    """``value`` as a literal block scalar (``|``), when it reads back the same."""
    if "\n" not in value.rstrip("\n") or not _BLOCK_SAFE.fullmatch(value):
        return None
    lines = value.split("\n")
    if any(line != line.rstrip() or _UNSAFE.search(line) for line in lines):
        return None
    if value.endswith("\n\n") or "\t" in value:
        return None
    head = "|" if value.endswith("\n") else "|-"
    body = lines[:-1] if value.endswith("\n") else lines
    return head + "".join("\n" + (indent + line if line else "") for line in body)


def _scalar(value: Any, first: int, indent: str) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        block = _block(value, indent) if _BLOCKS else None
        return block if block is not None else quote(value, first, indent)
    raise TypeError(f"cannot write {type(value).__name__}")


def _mapping(data: dict[str, Any], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for key, value in data.items():
        head = f"{pad}{key}:"
        if isinstance(value, dict) and value:
            out.append(head)
            _mapping(value, indent + 2, out)
        elif isinstance(value, list) and value:
            out.append(head)
            _sequence(value, indent, out)
        elif isinstance(value, (dict, list)):
            out.append(head + (" {}" if isinstance(value, dict) else " []"))
        else:
            out.append(f"{head} {_scalar(value, len(head) + 1, pad + '  ')}")


def _sequence(data: list[Any], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for item in data:
        if isinstance(item, (dict, list)) and item:
            start = len(out)
            if isinstance(item, dict):
                _mapping(item, indent + 2, out)
            else:
                _sequence(item, indent + 2, out)
            out[start] = pad + "- " + out[start][indent + 2 :]
        elif isinstance(item, (dict, list)):
            out.append(pad + ("- {}" if isinstance(item, dict) else "- []"))
        else:
            out.append(f"{pad}- {_scalar(item, indent + 2, pad + '  ')}")


_BLOCKS = False  # set while dump(..., blocks=True) writes


def dump(data: Any, *, blocks: bool = False) -> str:
    """Block-style YAML of JSON-shaped ``data`` (sequences indented like a dumper's);
    ``blocks`` writes multi-line strings as ``|`` block scalars, as authors do."""
    global _BLOCKS
    _BLOCKS = blocks
    try:
        return _dump(data)
    finally:
        _BLOCKS = False


def _dump(data: Any) -> str:
    out: list[str] = []
    if isinstance(data, dict) and data:
        _mapping(data, 0, out)
    elif isinstance(data, list) and data:
        _sequence(data, 0, out)
    else:
        out.append(_scalar(data, 0, "  ") if not isinstance(data, (dict, list)) else str(data))
    return "\n".join(out) + "\n"


# --- vocabulary -------------------------------------------------------------------

COMPANIES = [
    ("AAL", "American Airlines Group"),
    ("AAP", "Advance Auto Parts"),
    ("AAPL", "Apple"),
    ("ABMD", "Abiomed"),
    ("ADBE", "Adobe"),
    ("ADI", "Analog Devices"),
    ("AES", "AES Corporation"),
    ("AMT", "American Tower"),
    ("AON", "Aon"),
    ("APD", "Air Products"),
    ("BLK", "BlackRock"),
    ("C", "Citigroup"),
    ("CME", "CME Group"),
    ("ETR", "Entergy"),
    ("GIS", "General Mills"),
    ("HUM", "Humana"),
    ("IPG", "Interpublic Group"),
    ("JPM", "JPMorgan Chase"),
    ("MRO", "Marathon Oil"),
    ("PNC", "PNC Financial"),
    ("RSG", "Republic Services"),
    ("SLB", "Schlumberger"),
    ("UNP", "Union Pacific"),
    ("UPS", "United Parcel Service"),
    ("V", "Visa"),
    ("ZBH", "Zimmer Biomet"),
]

_VOCABULARY = (
    "the company our net cash operating activities provided by used in investing financing "
    "revenue revenues expense expenses income total consolidated fiscal year ended december "
    "million billion thousands percent increase decrease compared primarily due to as a result "
    "of share repurchase program dividends declared interest rate fuel price per gallon "
    "aircraft pension plan obligations fair value goodwill impairment intangible assets "
    "amortization depreciation capital expenditures long-term debt credit facility notes "
    "maturities lease payments operating leases restructuring charges tax benefit effective "
    "segment results backlog inventories lifo method cost of sales market risk sensitivity "
    "hedging derivative instruments currency exchange contracts subsidiaries acquisition "
    "merger purchase agreement stock options granted weighted average exercise outstanding "
    "commitments contingencies litigation reserves allowance for doubtful accounts gross "
    "margin backlog customers contracts deferred revenue recognized period quarter annual"
)
_WORDS = _VOCABULARY.split()

_METRIC_ROWS = [
    "net revenue",
    "operating income",
    "net income",
    "total assets",
    "long-term debt",
    "cash and cash equivalents",
    "capital expenditures",
    "interest expense",
    "depreciation and amortization",
    "shares outstanding",
    "aircraft fuel expense",
    "minimum lease payments",
]

_FOLLOW_UPS = [
    "what about in {year}?",
    "and what was it in {year}?",
    "what is the difference?",
    "what percentage change does this represent?",
    "what is the sum?",
    "and what was that total in the beginning of the year?",
    "how much, then, does that change represent in relation to this total, in percentage?",
    "what is the ratio of {row} to the total?",
    "what was the change in {row} from {year} to {year2}?",
    "what portion of the total does this represent?",
    "what is the average of those two years?",
]

_OPERATIONS = ["subtract", "divide", "add", "multiply"]

# Each accepts the float form of the number it matches (an argument written 2009
# may arrive as 2009.0, and a regex is matched against str(value)).
_REGEXES = [
    r"^181001(\.0+)?$",
    r"(?P<year>\d{4})(\.0+)?",
    r"-?\d+(\.\d+)?%?",
    r"(?i)nan|-?[0-9,]+(\.[0-9]+)?",
    r"[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?",
    r"\d+(?:\.\d*)?",
]

_GRADERS = [
    "my_benchmarks.convfinqa:program_equivalence",
    "graders.numeric:close_enough",
    "pkg.mod:func",
]

# --- content ----------------------------------------------------------------------


def _number(rng: random.Random) -> float:
    magnitude = rng.choice([10.0, 100.0, 1000.0, 10000.0, 100000.0])
    return round(rng.uniform(0.5, 9.99) * magnitude, rng.choice([0, 1, 2]))


def _num_text(value: float) -> str:
    return f"{value:.1f}" if value == int(value) else f"{value}"


def _prose(rng: random.Random, size: int) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        if rng.random() < 0.08:
            word = rng.choice(
                [",", ".", "$ " + _num_text(_number(rng)), str(rng.randint(2002, 2018))]
            )
        else:
            word = rng.choice(_WORDS)
        words.append(word)
        length += len(word) + 1
    return " ".join(words) + " ."


def _table(rng: random.Random, year: int) -> tuple[str, list[list[float]], list[str], list[int]]:
    columns = rng.sample(_METRIC_ROWS, rng.randint(3, 4))
    years = [year - i for i in range(rng.randint(3, 4))]
    values = [[_number(rng) for _ in columns] for _ in years]
    lines = ["| metric | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 1)]
    for row_year, row in zip(years, values, strict=True):
        cells = " | ".join(_num_text(v) for v in row)
        lines.append(f"| {row_year} | {cells} |")
    return "\n".join(lines), values, columns, years


def _ground_truth(value: float) -> str:
    return f"{value:.5f}".rstrip("0").rstrip(".") if abs(value) < 1 else f"{value:.1f}"


_METRIC_NAMES: dict[str, list[str]] = {
    "equality": ["equality"],
    "numeric": ["numeric"],
    "llm": ["groundedness", "relevance", "coherence", "fluency", "rouge"],
    "geval": ["Helpfulness", "Cites the filing", "Unit correctness"],
    "rag": [
        "faithfulness",
        "contextual_relevancy",
        "contextual_precision",
        "contextual_recall",
        "answer_relevancy",
    ],
    "code": _GRADERS,
}


def _settings(kind: str, name: str) -> dict[str, Any]:
    """The settings of one metric, the same wherever the metric recurs.

    The platform builds one evaluator per metric name and gives it the last
    definition's settings, so a file whose definitions of a name differ draws
    run-time warnings; a clean corpus must not. The optional settings are
    drawn from a generator seeded by the name, not from the corpus's stream.
    """
    pick = random.Random(f"{kind}/{name}")
    metric: dict[str, Any]
    if kind == "equality":
        metric = {"type": "standard", "metric": name, "case_insensitive": True}
        metric["strip_whitespace"] = True
        metric["strip_punctuation"] = pick.random() < 0.5
    elif kind == "numeric":
        metric = {"type": "standard", "metric": name, "absolute_tolerance": 1e-6}
        metric["relative_tolerance"] = 0.01
        metric["accept_percent"] = True
        metric["accept_thousands_separators"] = True
    elif kind == "llm":
        metric = {"type": "standard", "metric": name}
        if pick.random() < 0.4:
            metric["model"] = {"provider": "openai", "name": "gpt-4o", "temperature": 0.0}
            metric["retry_on_failure"] = 2
            metric["timeout_ms"] = 30000
    elif kind == "geval":
        metric = {
            "type": "geval",
            "name": name,
            "criteria": "The answer states the figure from the filing with its unit.",
        }
        if pick.random() < 0.7:
            metric["evaluation_steps"] = ["Check the figure", "Check the unit"]
            metric["evaluation_params"] = ["input", "actual_output", "expected_output"]
            metric["strict_mode"] = False
    elif kind == "rag":
        metric = {"type": "rag", "metric_type": name}
        if pick.random() < 0.5:
            metric["include_reason"] = True
    else:
        metric = {"type": "code", "grader": name}
        if pick.random() < 0.5:
            metric["name"] = "program_equivalence"
    return metric


def _metric(rng: random.Random, kind: str | None = None) -> dict[str, Any]:
    kind = kind or rng.choice(["equality", "numeric", "llm", "geval", "rag", "code"])
    metric = _settings(kind, rng.choice(_METRIC_NAMES[kind]))
    if kind in ("llm", "geval", "rag") or (kind == "code" and "name" in metric):
        metric["threshold"] = rng.choice([0.5, 0.7, 0.8, 1.0])  # may differ per level
    if kind == "numeric" and rng.random() < 0.3:
        metric["response_path"] = rng.choice(["answer", "result.value", "items[0].score"])
    if rng.random() < 0.5:
        del metric["type"]  # the kind is told by its fields
    return metric


def _arg(rng: random.Random, value: float) -> Any:
    roll = rng.random()
    if roll < 0.3:
        return int(value) if value == int(value) else value
    if roll < 0.55:
        return {"fuzzy": f"{value:,}" if rng.random() < 0.5 else _num_text(value)}
    if roll < 0.8:
        return {"regex": rng.choice(_REGEXES)}
    if roll < 0.9:
        return [int(value), rng.randint(1, 99)]
    return {"mode": rng.choice(["fast", "exact"]), "unit": "millions"}


def _expected_tools(rng: random.Random, operation: str, a: float, b: float) -> list[Any]:
    roll = rng.random()
    if roll < 0.5:
        return [operation]
    call: dict[str, Any] = {"name": operation, "args": {"a": _arg(rng, a), "b": _arg(rng, b)}}
    if rng.random() < 0.3:
        call["count"] = rng.randint(1, 2)
    tools: list[Any] = [call]
    if rng.random() < 0.3:
        tools.insert(0, "convfinqa_archive")
    return tools


def _files(rng: random.Random, ticker: str, year: int) -> list[dict[str, Any]]:
    roll = rng.random()
    if roll < 0.5:
        return [{"path": f"./data/{ticker}/{year}/filing.pdf", "type": "pdf", "pages": [1, 2]}]
    if roll < 0.8:
        return [
            {
                "path": f"./data/{ticker}/{year}/figures.xlsx",
                "type": "excel",
                "sheet": "Q4",
                "range": "A1:E100",
                "description": "Quarterly figures",
            }
        ]
    return [
        {"url": f"https://example.com/{ticker}/{year}/chart.png", "type": "image", "cache": True}
    ]


def _retrieval_context(rng: random.Random) -> list[str]:
    return [_prose(rng, rng.randint(150, 350)) for _ in range(rng.randint(1, 3))]


def _question(rng: random.Random, row: str, year: int) -> str:
    return rng.choice(
        [
            f"what was the {row} in {year}?",
            f"what was the {row} in millions in {year}?",
            f"what is the {row} for {year}?",
        ]
    )


def _conversation(rng: random.Random, index: int, used: set[str]) -> dict[str, Any]:
    ticker, company = rng.choice(COMPANIES)
    year = rng.randint(2004, 2018)
    style = rng.random()
    prefix = "Double" if rng.random() < 0.5 else "Single"
    name = f"{prefix}_{ticker}/{year}/page_{rng.randint(10, 120)}.pdf"
    if prefix == "Single" and rng.random() < 0.5:
        name += f"-{rng.randint(1, 4)}"
    if name in used:
        name += f"-{index}"
    used.add(name)
    table, values, columns, years = _table(rng, year)
    column = rng.randrange(len(columns))
    row = columns[column]
    first_question = _question(rng, row, years[0])
    retrieval = style < 0.1
    if retrieval:
        first_input = f"In {company} ({ticker})'s {year} annual report, {first_question}"
    else:
        # 2-3 KB in all: the prose before the table fills what the rest leaves.
        size = rng.randint(2048, 2600)
        tail = _prose(rng, rng.randint(200, 500))
        head = _prose(rng, size - len(table) - len(tail) - len(first_question) - 60)
        first_input = (
            f"Filing excerpt:\n\n{head}\n\n{table}\n\n{tail}\n\n"
            f"Using the filing above, answer: {first_question}"
        )
    document = name
    first: dict[str, Any] = {
        "input": first_input,
        "ground_truth": _ground_truth(values[0][column]),
    }
    if retrieval:
        first["expected_tools"] = ["convfinqa_archive"]
        first["retrieval_context"] = _retrieval_context(rng)
    first["turn_config"] = {"turn_program": _num_text(values[0][column]).removesuffix(".0")}
    if retrieval:
        first["turn_config"]["expected_document"] = document

    if style > 0.95:  # a legacy single-turn test case
        case: dict[str, Any] = {
            "name": name,
            "input": first_input,
            "ground_truth": first["ground_truth"],
        }
        if rng.random() < 0.5:
            case["expected_tools"] = _expected_tools(
                rng, rng.choice(_OPERATIONS), values[0][0], values[1][0]
            )
        if rng.random() < 0.3:
            case["files"] = _files(rng, ticker, year)
        if rng.random() < 0.3:
            case["retrieval_context"] = _retrieval_context(rng)
        if rng.random() < 0.5:
            case["evaluations"] = [_metric(rng)]
        return case

    turns = [first]
    count = rng.choices([2, 3, 4, 5], weights=[1, 2, 3, 4])[0]
    previous = values[0][column]
    for _ in range(count - 1):
        other_year = rng.choice(years)
        other = values[years.index(other_year)][rng.randrange(len(columns))]
        operation = rng.choice(_OPERATIONS)
        result = {
            "subtract": previous - other,
            "divide": previous / other if other else 0.0,
            "add": previous + other,
            "multiply": previous * other,
        }[operation]
        result = round(result, 5)
        turn: dict[str, Any] = {
            "input": rng.choice(_FOLLOW_UPS).format(
                year=other_year, year2=years[-1], row=rng.choice(columns)
            ),
            "ground_truth": _ground_truth(result),
        }
        if rng.random() < 0.35:
            turn["expected_tools"] = _expected_tools(rng, operation, previous, other)
        if rng.random() < 0.03:
            turn["files"] = _files(rng, ticker, year)
        if retrieval and rng.random() < 0.5:
            turn["retrieval_context"] = _retrieval_context(rng)
        if rng.random() < 0.08:
            turn["evaluations"] = [_metric(rng) for _ in range(rng.randint(1, 2))]
        turn["turn_config"] = {
            "turn_program": f"{operation}({'#0' if len(turns) > 1 else _num_text(previous)}, "
            f"{_num_text(other)})"
        }
        if retrieval:
            turn["turn_config"]["expected_document"] = document
        turns.append(turn)
        previous = result
    conversation: dict[str, Any] = {"name": name, "turns": turns}
    if rng.random() < 0.1:
        conversation["evaluations"] = [_metric(rng) for _ in range(rng.randint(1, 2))]
    return conversation


def _conversations(seed: int, count: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    used: set[str] = set()
    for index in range(count):
        yield _conversation(rng, index, used)


# --- faults ----------------------------------------------------------------------

Fault = tuple[int, str]  # (test-case index, kind)


def _target(case: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The mapping a fault goes into: a turn of a conversation, or the test case."""
    turns = case.get("turns")
    if isinstance(turns, list) and turns:
        turn: dict[str, Any] = turns[rng.randrange(len(turns))]
        return turn
    return case


def _rename(data: dict[str, Any], old: str, new: str) -> None:
    items = [(new if key == old else key, value) for key, value in data.items()]
    data.clear()
    data.update(items)


def _number_for_string(case: dict[str, Any], rng: random.Random) -> None:
    target = _target(case, rng)
    target["ground_truth"] = float(target.get("ground_truth") or "25587.0")


def _unknown_key(case: dict[str, Any], rng: random.Random) -> None:
    target = _target(case, rng)
    if "ground_truth" in target:
        _rename(target, "ground_truth", "ground_truht")
    else:
        target["ground_truht"] = "25587"


def _input_beside_turns(case: dict[str, Any], rng: random.Random) -> None:
    if "turns" in case:
        items = list(case.items())
        case.clear()
        case.update([items[0], ("input", "what is the difference?"), *items[1:]])
    else:
        case["turns"] = [{"input": "what about in 2008?"}]


def _tool_fault(matcher: Any, count: Any = None) -> Callable[[dict[str, Any], random.Random], None]:
    def plant(case: dict[str, Any], rng: random.Random) -> None:
        call: dict[str, Any] = {"name": "subtract", "args": {"a": 206588, "b": matcher}}
        if count is not None:
            call["count"] = count
        _target(case, rng).setdefault("expected_tools", []).append(call)

    return plant


def _metric_fault(**fields: Any) -> Callable[[dict[str, Any], random.Random], None]:
    def plant(case: dict[str, Any], rng: random.Random) -> None:
        _target(case, rng).setdefault("evaluations", []).append(dict(fields))

    return plant


def _empty_turns(case: dict[str, Any], rng: random.Random) -> None:
    name = case.get("name")
    case.clear()
    case.update({"name": name, "turns": []})


def _files_on_conversation(case: dict[str, Any], rng: random.Random) -> None:
    if "turns" in case:
        case["files"] = [{"path": "./data/chart.png", "type": "image"}]
    else:
        case["files"] = [
            {"path": "./data/chart.png", "url": "https://example.com/c.png", "type": "image"}
        ]


def _empty_input(case: dict[str, Any], rng: random.Random) -> None:
    _target(case, rng)["input"] = ""


#: Every kind of planted fault, in the order they are dealt to faulty test cases.
FAULT_KINDS: dict[str, Callable[[dict[str, Any], random.Random], None]] = {
    "unknown_key": _unknown_key,
    "number_for_string": _number_for_string,
    "input_beside_turns": _input_beside_turns,
    "fuzzy_and_regex": _tool_fault({"fuzzy": "181001", "regex": "^181001$"}),
    "count_zero": _tool_fault({"fuzzy": "181001"}, count=0),
    "bad_regex": _tool_fault({"regex": "^(181001"}),
    "negative_tolerance": _metric_fault(type="standard", metric="numeric", absolute_tolerance=-0.5),
    "empty_turns": _empty_turns,
    "unknown_metric": _metric_fault(type="standard", metric="numerical"),
    "bad_grader": _metric_fault(type="code", grader="convfinqa.program_equivalence"),
    "files_on_conversation": _files_on_conversation,
    "empty_input": _empty_input,
}

#: Faults that the schema alone cannot see (the validator's semantic checks do).
SEMANTIC_ONLY = frozenset({"bad_regex"})


def plan_faults(conversations: int, errors: int, seed: int) -> list[Fault]:
    """Which test cases get which fault: ``errors`` distinct indices, kinds dealt in turn."""
    if errors > conversations:
        raise ValueError(f"cannot plant {errors} faults in {conversations} test cases")
    rng = random.Random(f"faults-{seed}")
    indices = sorted(rng.sample(range(conversations), errors))
    kinds = list(FAULT_KINDS)
    return [(index, kinds[n % len(kinds)]) for n, index in enumerate(indices)]


def _as_authors_write(cases: list[dict[str, Any]], seed: int) -> None:
    """What hand-written files hold and draw warnings for (never an error): a turn's own
    ``numeric`` with a looser tolerance (its settings leak to every turn), turns whose
    ground truth is left for later, a tool listed twice."""
    rng = random.Random(f"authors-{seed}")
    for case in cases:
        turns = case.get("turns")
        if not isinstance(turns, list) or len(turns) < 2:
            continue
        turn = turns[rng.randrange(1, len(turns))]
        roll = rng.random()
        if roll < 0.25:
            turn["evaluations"] = [
                {"metric": "numeric", "relative_tolerance": 0.05, "accept_percent": False}
            ]
        elif roll < 0.6:
            turn.pop("ground_truth", None)
        elif roll < 0.75:
            tools = turn.setdefault("expected_tools", [])
            tools.extend([rng.choice(_OPERATIONS)] * 2)


def corpus(
    conversations: int = 3500, *, errors: int = 0, seed: int = 0, style: str = "clean"
) -> tuple[list[dict[str, Any]], list[Fault]]:
    """The test cases, and the faults planted in them."""
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    faults = plan_faults(conversations, errors, seed)
    cases = list(_conversations(seed, conversations))
    if style == "authors":
        _as_authors_write(cases, seed)
    fault_rng = random.Random(f"fault-targets-{seed}")
    for index, kind in faults:
        FAULT_KINDS[kind](cases[index], fault_rng)
    return cases, faults


def agent_yaml(
    conversations: int = 5, *, errors: int = 0, seed: int = 0, style: str = "clean"
) -> dict[str, Any]:
    """A small agent.yaml with inline test cases."""
    cases, _ = corpus(conversations, errors=errors, seed=seed, style=style)
    return {
        "name": f"financial-assistant-{seed}",
        "description": "ConvFinQA-driven financial analyst",
        "model": {"provider": "anthropic", "name": "claude-sonnet-4-6", "temperature": 0.0},
        "instructions": {"file": "instructions/system-prompt.md"},
        "tools": [
            {
                "name": operation,
                "type": "function",
                "description": f"Compute {operation}(a, b) of two numeric strings.",
                "file": "tools/financial_tools.py",
                "function": operation,
            }
            for operation in _OPERATIONS
        ],
        "evaluations": {
            "model": {"provider": "openai", "name": "gpt-4o", "temperature": 0.0},
            "metrics": [
                {
                    "type": "standard",
                    "metric": "numeric",
                    "response_path": "answer",
                    "relative_tolerance": 0.01,
                    "absolute_tolerance": 1e-6,
                    "accept_percent": True,
                    "accept_thousands_separators": True,
                },
                {"type": "geval", "name": "Helpfulness", "criteria": "The answer is useful."},
            ],
        },
        "execution": {"parallel_test_cases": 4, "llm_timeout": 180},
        "test_cases": cases,
    }


# --- command line -----------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Generate a ConvFinQA-shaped HoloDeck test-cases file (deterministic)."
    )
    parser.add_argument(
        "--conversations",
        type=int,
        default=None,
        help="number of test cases (default 3500; 5 with --agent-yaml)",
    )
    parser.add_argument(
        "--errors", type=int, default=0, help="plant this many faults, in distinct test cases"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", default="-", help="output file (default: stdout)")
    parser.add_argument(
        "--agent-yaml", action="store_true", help="write an agent.yaml with inline test cases"
    )
    parser.add_argument(
        "--format",
        choices=["list", "mapping"],
        default="list",
        help="test-cases file as a list (default) or as a mapping {test_cases: [...]}",
    )
    parser.add_argument(
        "--style",
        choices=STYLES,
        default="clean",
        help="clean (default: no diagnostic) or as authors write (block scalars, warnings)",
    )
    parser.add_argument(
        "--list-faults", action="store_true", help="print the planted faults on stderr"
    )
    args = parser.parse_args(argv)
    conversations = args.conversations
    if conversations is None:
        conversations = 5 if args.agent_yaml else 3500
    if conversations < 0 or args.errors < 0:
        parser.error("--conversations and --errors must be >= 0")
    if args.errors > conversations:
        parser.error(f"--errors {args.errors} exceeds --conversations {conversations}")
    blocks = args.style == "authors"
    if args.agent_yaml:
        agent = agent_yaml(conversations, errors=args.errors, seed=args.seed, style=args.style)
        text = dump(agent, blocks=blocks)
        faults = plan_faults(conversations, args.errors, args.seed)
    else:
        cases, faults = corpus(conversations, errors=args.errors, seed=args.seed, style=args.style)
        text = dump(cases if args.format == "list" else {"test_cases": cases}, blocks=blocks)
    if args.list_faults:
        for index, kind in faults:
            print(f"test case {index}: {kind}", file=sys.stderr)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        write_atomically(Path(args.out), text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
