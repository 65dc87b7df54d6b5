"""The README stays a short front page and the docs stay connected: the README is at most 200
lines and opens with the two commands, its test command is the one CI runs, and every relative
link in README.md and docs/*.md names a file that exists and, after a #, a heading of it
(anchors as GitHub makes them)."""

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_CODE = re.compile(r"(`+).+?\1")
# [text](target) and [text](target "title"); ![alt](target) too.
INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
LINE_ANCHOR = re.compile(r"^L\d+(-L\d+)?$")  # GitHub's anchors to lines of a source file


def prose_lines(text: str) -> list[str]:
    """The lines of a Markdown page outside fenced code blocks."""
    lines, fence = [], None
    for line in text.splitlines():
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and marker:
            fence = marker[1]
        elif fence is not None and marker and marker[1].startswith(fence):
            fence = None
        elif fence is None:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lowercased, punctuation and symbols dropped
    (hyphens and underscores stay), each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor GitHub makes for the headings of `page`: a repeated one gets -1, -2..."""
    found, seen = set(), Counter()
    for line in prose_lines(page.read_text()):
        if heading := HEADING.match(line):
            base = slug(heading[2])
            found.add(f"{base}-{seen[base]}" if seen[base] else base)
            seen[base] += 1
    return found


def links(page: Path) -> list[str]:
    """The relative link targets of `page`, outside code."""
    targets = []
    for line in prose_lines(page.read_text()):
        line = INLINE_CODE.sub("", line)
        targets += INLINE_LINK.findall(line) + REFERENCE_LINK.findall(line)
    return [target for target in targets if not SCHEME.match(target)]


def broken_links(page: Path) -> list[str]:
    """Each relative link of `page` whose file or heading does not exist, with the reason."""
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no file {linked}")
        elif anchor and linked.suffix == ".md":
            if anchor not in anchors(linked):
                broken.append(f"{target}: no heading of {linked.name} has the anchor #{anchor}")
        elif anchor and not LINE_ANCHOR.match(anchor):
            broken.append(f"{target}: #{anchor} in a file that has no headings")
    return broken


def test_the_readme_is_at_most_200_lines():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move the detail into docs/"


def test_the_readme_opens_with_the_two_commands_and_ci_runs_its_test_command():
    text = README.read_text()
    first_section = text.split("\n## ")[1]
    (commands,) = re.findall(r"^The two commands\n\n```sh\n(.*?)```", first_section, re.S)
    serve, test = (line.split("#")[0].strip() for line in commands.splitlines())
    assert serve == "uv run manage.py serve"
    assert test == "uv run pytest"
    assert test in (ROOT / ".ci" / "run").read_text().splitlines()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_names_a_file_and_heading_that_exist(page):
    assert broken_links(page) == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [  # as GitHub renders these headings of docs/
        ("Serving: `manage.py serve`", "serving-managepy-serve"),
        ("/metrics", "metrics"),
        ("The hot path to the floor (issue 14)", "the-hot-path-to-the-floor-issue-14"),
        (
            "`manage.py bench` (`--server gunicorn-sync` is the old server, for comparison)",
            "managepy-bench---server-gunicorn-sync-is-the-old-server-for-comparison",
        ),
        ("Playing with curl: a match, a table", "playing-with-curl-a-match-a-table"),
        ("The [admin](admin.md) for_staff", "the-admin-for_staff"),
    ],
)
def test_anchors_follow_githubs_rules(heading, anchor):
    assert slug(heading) == anchor


def test_a_missing_file_heading_or_repeated_anchor_is_reported(tmp_path):
    other = "# Other\n\n## Twice\n\n## Twice\n\n```sh\n# not a heading\n```\n"
    (tmp_path / "other.md").write_text(other)
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[ok](other.md#twice-1) [self](#page) `[in code](gone.md)` [site](https://example.com)\n"
        "[gone](gone.md) [no heading](other.md#not-a-heading) [third](other.md#twice-2)\n"
        "```md\n[inside a fence](gone.md)\n```\n"
        "[ref]: missing/\n"
    )
    assert [reason.split(":")[0] for reason in broken_links(page)] == [
        "gone.md",
        "other.md#not-a-heading",
        "other.md#twice-2",
        "missing/",
    ]
