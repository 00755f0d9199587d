"""The rules page, ``docs/rules.md``, documents every game of the package, and the package cites only files it has.

Each game of the registry that lives in the package has a section headed by its title, and that section's
options table has one row per option of the game's ``option_specs``, no more, each showing the option's default
as Python writes it: a new, renamed or removed option, or a changed default, fails here until the page says so.
The games' docstrings point to the page (``docs/rules.md#<section>``); every repository file the package or the
page cites must exist, and every section a citation names must be a heading of the page.
"""

from __future__ import annotations

import re
from pathlib import Path

from cardlab.engine import GameSpec, game_specs

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "cardlab"
RULES = REPO / "docs" / "rules.md"
CITED = re.compile(r"\b((?:cardlab|docs|tests|benchmarks|notebooks|binder)/[\w./-]*\w\.(?:py|md|txt|ipynb))(#[\w-]+)?")
OPTION_ROW = re.compile(r"\| `(\w+)` \|")


def sections(text: str, level: int) -> dict[str, str]:
    """The body of each Markdown section of the given heading level, by its heading."""
    mark = "#" * level + " "
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith(mark):
            current = out.setdefault(line[len(mark):].strip(), [])
        elif re.match(rf"#{{1,{level}}} ", line):
            current = None
        elif current is not None:
            current.append(line)
    return {head: "\n".join(body) for head, body in out.items()}


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def option_rows(game_section: str) -> dict[str, list[str]]:
    """The cells of each row of the section's options table, by the option its first cell names."""
    table = sections(game_section, 3).get("Options", "")
    rows = {}
    for line in table.splitlines():
        if OPTION_ROW.match(line):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


def missing_citations(text: str, anchors: set[str]) -> list[str]:
    """Repository paths cited in ``text`` that are not in the repository, and ``docs/rules.md`` sections that
    are not headings of the page."""
    missing = []
    for path, anchor in CITED.findall(text):
        if not (REPO / path).is_file():
            missing.append(path)
        elif anchor and path == "docs/rules.md" and anchor[1:] not in anchors:
            missing.append(path + anchor)
    return missing


def _page() -> str:
    return RULES.read_text(encoding="utf-8")


def _anchors(page: str) -> set[str]:
    return {slug(line.lstrip("#")) for line in page.splitlines() if re.match(r"#{1,6} ", line)}


def _package_specs() -> list[GameSpec]:
    """The registered games of the package (a game a test module registers is not the page's to document)."""
    return [spec for spec in game_specs() if spec.rules.__module__.startswith("cardlab.")]


def _package_text_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.suffix in (".py", ".md", ".txt", ".js", ".css", ".html", ".json", ".toml"))


def test_the_scans_find_what_they_look_for() -> None:
    """The checks themselves: a table row, a section, a missing file and a missing section are all caught."""
    page = ("# T\n\n## Game One\n\n### Options\n\n| option | default |\n|---|---|\n| `speed` | `3` | fast |\n"
            "\n### Choices\n\n| `not_an_option` | x |\n\n## Game Two\n\ntext\n")
    assert set(sections(page, 2)) == {"Game One", "Game Two"}
    assert option_rows(sections(page, 2)["Game One"]) == {"speed": ["`speed`", "`3`", "fast"]}
    anchors = _anchors(page)
    assert anchors == {"t", "game-one", "options", "choices", "game-two"}
    cited = "see ``docs/rules.md#game-two``, ``docs/rules.md#game-three`` and docs/nowhere.md; tests/test_docs.py"
    assert missing_citations(cited, anchors) == ["docs/rules.md#game-three", "docs/nowhere.md"]


def test_every_game_of_the_package_has_a_section() -> None:
    specs = _package_specs()
    assert specs, "the registry lists no game of the package"
    titles = set(sections(_page(), 2))
    missing = [spec.rules.title for spec in specs if spec.rules.title not in titles]
    assert not missing, f"docs/rules.md has no '## <title>' section for {missing}"


def test_every_option_is_documented_with_its_default() -> None:
    """One row per option in the game's options table, the default cell equal to the option's default."""
    page = sections(_page(), 2)
    for spec in _package_specs():
        rows = option_rows(page[spec.rules.title])
        options = spec.rules.option_specs
        assert set(rows) == set(options), (
            f"docs/rules.md, {spec.rules.title}: options table lists {sorted(rows)}, the game has {sorted(options)}")
        for name, option in options.items():
            assert rows[name][1] == f"`{option.default!r}`", (
                f"docs/rules.md, {spec.rules.title}: option {name} shows default {rows[name][1]}, "
                f"the game's is {option.default!r}")
            assert len(rows[name]) == 4 and all(rows[name][2:]), (
                f"docs/rules.md, {spec.rules.title}: option {name} needs its accepted values and what it changes")


def test_no_file_of_the_package_cites_the_rules_texts_outside_the_repository() -> None:
    citing = [str(path.relative_to(REPO)) for path in _package_text_files()
              if re.search(r"shared/rules|RULES\.md", path.read_text(encoding="utf-8", errors="replace"))]
    assert not citing, f"{citing} cite shared/rules or RULES.md, which are not in the repository; cite docs/rules.md"


def test_every_file_the_package_and_the_rules_page_cite_exists() -> None:
    anchors = _anchors(_page())
    missing = {str(path.relative_to(REPO)): found for path in [*_package_text_files(), RULES]
               if (found := missing_citations(path.read_text(encoding="utf-8", errors="replace"), anchors))}
    assert not missing, f"citations of files or sections that are not in the repository: {missing}"
