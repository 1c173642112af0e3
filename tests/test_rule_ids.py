"""Every rule id the code, the pages and the tests use is defined in docs/RULES.md.

The standard library only (no Flask, no app factory), so this runs wherever Python does; where
Flask is absent, skip the shared fixtures: `pytest --noconftest tests/test_rule_ids.py`.

What counts as a use of a rule id:
- anywhere in the text of app/**/*.py (RuleError codes, `rules=` declarations, docstrings,
  comments), app/translations (.po, .pot), templates/**/*.html, static/**/*.js and tests/**/*.py;
- the leading ids of a test's name, in lower case: test_m3_..., test_b3_b6_..., test_sg1_to_sg4_...

An id is a prefix of the rule book (S, P, SG, TL, ...) and a number without a leading zero, standing
on its own: not inside a word or a number (M4A, 22T21:30, S608), not after # . / or - (a hex colour
#B22, a file name, a CSS class h-H1), not before - or / unless a range follows (K1-K3 is K1 to K3).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve()
RULES = ROOT / "docs" / "RULES.md"
NOT_RULES_HEADING = "## Codes that are not rules"
UNTESTED = "*untested by design*"

# Where ids are used: (folder, file name patterns). Names of tests are read from tests/ as well.
SCANNED = [
    ("app", ("*.py", "*.po", "*.pot")),
    ("templates", ("*.html",)),
    ("static", ("*.js",)),
    ("tests", ("*.py",)),
]

RULE_LINE = re.compile(r"^- \*\*([A-Z]{1,2}[1-9][0-9]?)\*\* (.+)$", re.MULTILINE)
CODE_LINE = re.compile(r"^- `([a-z_]+)`:", re.MULTILINE)
SPLIT_ID = re.compile(r"([A-Za-z]+)([0-9]+)")


def rule_lines() -> dict[str, str]:
    """Each rule id of docs/RULES.md with its line."""
    text = RULES.read_text(encoding="utf-8")
    return {found[1]: found[2] for found in RULE_LINE.finditer(text)}


def not_rule_codes() -> set[str]:
    """The codes of RuleError and of the API that are not rules (input, stale, ...)."""
    text = RULES.read_text(encoding="utf-8")
    _, _, section = text.partition(NOT_RULES_HEADING)
    return set(CODE_LINE.findall(section.split("\n## ")[0]))


def prefixes(ids: set[str]) -> list[str]:
    """The rule book's prefixes, longest first so that SG4 is not read as S and G4."""
    return sorted({SPLIT_ID.fullmatch(rule)[1] for rule in ids}, key=lambda p: (-len(p), p))


def id_pattern(heads: list[str]) -> re.Pattern[str]:
    """An id (group 1) or a range of ids (groups 1 and 2) in text, upper case."""
    one = rf"(?:{'|'.join(heads)})[1-9][0-9]?"
    return re.compile(rf"(?<![\w#./-])({one})(?:-({one}))?(?![\w/-])")


def name_pattern(heads: list[str]) -> re.Pattern[str]:
    """The ids leading a test's name, lower case: test_b3_b6_..., test_sg1_to_sg4_..."""
    one = rf"(?:{'|'.join(head.lower() for head in heads)})[1-9][0-9]?"
    return re.compile(rf"test_({one}(?:_(?:to_)?{one})*)(?:_|$)")


def spread(first: str, last: str | None) -> list[str]:
    """K1-K3 is K1, K2, K3; two ids of different prefixes are just the two."""
    if last is None:
        return [first]
    (head, start), (last_head, end) = (
        SPLIT_ID.fullmatch(first).groups(),
        SPLIT_ID.fullmatch(last).groups(),
    )
    if head != last_head or int(start) >= int(end):
        return [first, last]
    return [f"{head}{number}" for number in range(int(start), int(end) + 1)]


SVG_PATH = re.compile(r'(?<=\sd=")[^"]*(?=")')  # drawing commands: "M8 1.5C8..." is no M8


def ids_in(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """(line, id) for every id in a text, ranges spread out."""
    text = SVG_PATH.sub(lambda path: re.sub(r"[^\n]", " ", path[0]), text)
    for found in pattern.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        for rule in spread(found[1], found[2]):
            yield line, rule


def ids_in_name(name: str, pattern: re.Pattern[str]) -> list[str]:
    """The upper case ids leading a test's name."""
    found = pattern.match(name)
    if not found:
        return []
    words = found[1].upper().split("_")
    ids: list[str] = []
    for index, word in enumerate(words):
        if word == "TO":
            ids.extend(spread(words[index - 1], words[index + 1])[1:-1])
        else:
            ids.append(word)
    return ids


def scanned_files() -> Iterator[Path]:
    for folder, globs in SCANNED:
        for glob in globs:
            for path in sorted((ROOT / folder).rglob(glob)):
                if path.resolve() != THIS and "__pycache__" not in path.parts:
                    yield path


def checks_in(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if is_function and node.name.startswith("test_"):
            yield node


def codes_given(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """RuleError("K1", ...) and {"rule": "http"}: the codes written as text in the code."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            callee = node.func
            name = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", None)
            first = node.args[0]
            if name == "RuleError" and isinstance(first, ast.Constant):
                yield first.lineno, str(first.value)
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                is_rule = isinstance(key, ast.Constant) and key.value == "rule"
                if is_rule and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.lineno, value.value


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_the_rule_book_defines_each_id_once_with_its_source():
    text = RULES.read_text(encoding="utf-8")
    ids = RULE_LINE.findall(text)
    assert len(ids) > 40, "docs/RULES.md lists its rules as lines '- **P1** ...'"
    assert len(ids) == len(set(ids)), (
        f"ids defined twice: {sorted(i for i in ids if ids.count(i) > 1)}"
    )
    lacking = [rule for rule, line in rule_lines().items() if "Source" not in line]
    assert not lacking, f"rules without a source (or 'Sources: none' and why): {lacking}"
    assert {"input", "not_found", "stale", "http"} <= not_rule_codes()


def test_every_rule_id_used_is_defined_in_docs_rules_md():
    defined = set(rule_lines())
    codes = defined | not_rule_codes()
    heads = prefixes(defined)
    in_text, in_names = id_pattern(heads), name_pattern(heads)
    undefined: list[str] = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8")
        uses = list(ids_in(text, in_text))
        if path.suffix == ".py":
            tree = ast.parse(text, filename=str(path))
            for test in checks_in(tree):
                uses += [(test.lineno, rule) for rule in ids_in_name(test.name, in_names)]
            if path.is_relative_to(ROOT / "app"):
                uses += [(line, code) for line, code in codes_given(tree) if code not in codes]
        undefined += [
            f"{where(path, line)}: {rule}" for line, rule in set(uses) if rule not in codes
        ]
    assert not undefined, "used but not defined in docs/RULES.md:\n" + "\n".join(sorted(undefined))


def test_every_rule_is_tested_unless_marked_untested_by_design():
    """A rule is tested when a test's name or docstring names it. Those no test names are listed;
    the test fails for any of them that docs/RULES.md does not mark *untested by design*, and for a
    rule so marked that a test now names (the mark is then out of date)."""
    lines = rule_lines()
    heads = prefixes(set(lines))
    in_text, in_names = id_pattern(heads), name_pattern(heads)
    tested: set[str] = set()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.resolve() == THIS:
            continue
        for test in checks_in(ast.parse(path.read_text(encoding="utf-8"))):
            tested.update(ids_in_name(test.name, in_names))
            tested.update(rule for _, rule in ids_in(ast.get_docstring(test) or "", in_text))
    untested = sorted(set(lines) - tested, key=list(lines).index)
    marked = [rule for rule, line in lines.items() if UNTESTED in line]
    assert untested == marked, (
        f"rules no test name or docstring mentions: {untested}; "
        f"marked {UNTESTED} in docs/RULES.md: {marked}"
    )


def test_the_id_pattern_ignores_look_alikes():
    pattern = id_pattern(["SG", "TL", "B", "C", "H", "K", "M", "P", "S", "T", "X"])
    uses = 'raise RuleError("K1", ...) (B5) SG4: rules="P2-P4, C2" K1-K3 X1-X3; B3-SG2 (H1).'
    assert [rule for _, rule in ids_in(uses, pattern)] == [
        *("K1", "B5", "SG4", "P2", "P3", "P4", "C2", "K1", "K2", "K3", "X1", "X2", "X3"),
        *("B3", "SG2", "H1"),
    ]
    look_alikes = (
        '<h1 class="H1x title-H1 H1-title"> #1b2b3b #B22 #b2b2b2 2026-11-22T21:30 T1Z M4A B2B'
        " noqa: S608 E731 BLE001 M04 M4_ P8/ SG41x static/H1.png page.B2 K9b"
        '<path d="M9.5 1 3 9h4.5L6 15l7-8.5H8.5z"/> <path d="M8 1.5C8 1.5 3 7.5 3 10.5"/>'
    )
    assert [rule for _, rule in ids_in(look_alikes, pattern)] == []
    names = name_pattern(["SG", "B", "M", "P"])
    assert ids_in_name("test_b3_b6_hotels_on_all_three_greens", names) == ["B3", "B6"]
    assert ids_in_name("test_sg1_to_sg4_a_short_game", names) == ["SG1", "SG2", "SG3", "SG4"]
    assert ids_in_name("test_p6_utility_rent_is_the_dice_times_4_or_10", names) == ["P6"]
    assert ids_in_name("test_m4a_nothing", names) == []
    assert ids_in_name("test_a_page_with_one_h1", names) == []
