#!/usr/bin/env python3
"""Writes the DocC catalog's articles from the guides in Documentation/, so the guides have one source.

Each Documentation/NAME.md becomes Sources/Understudy/Understudy.docc/Articles/NAME.md with the
changes DocC needs and nothing else:

- links to another guide, `[text](Other.md#anchor)`, become `<doc:Other>` (DocC shows the
  guide's title); links to a heading of the same page keep only their text;
- links to files of the repository outside Documentation/ keep their text, in code voice;
- code spans in double backticks (they hold a backtick) lose their inner backticks, since DocC
  reads a double-backtick span as a symbol link;
- a public top-level type of the Understudy module written in code voice (`StubRegistry`)
  becomes a symbol link (``StubRegistry``), so the article links to its reference page.

Code blocks are copied as they are. Edit the guide, never the article:

    python3 .ci/docc-articles.py           # writes the articles
    python3 .ci/docc-articles.py --check   # exits 1 if an article differs from its guide

The check also fails when the landing page (Understudy.md) does not list an article, so a new
guide cannot be left out of the documentation's table of contents. Python standard library only.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUIDES = ROOT / "Documentation"
CATALOG = ROOT / "Sources" / "Understudy" / "Understudy.docc"
ARTICLES = CATALOG / "Articles"
LANDING = CATALOG / "Understudy.md"
SOURCES = ROOT / "Sources" / "Understudy"

FENCE = re.compile(r"^\s*```")
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"(?<!`)`([A-Z][A-Za-z0-9]*)`(?!`)")
DOUBLE_SPAN = re.compile(r"``(.+?)``")
DECLARATION = re.compile(
    r"^\s*(?:public|open)\s+(?:final\s+)?(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"
)
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def public_types():
    """The names of the module's public top-level types: those declared outside every brace."""
    names = set()
    for path in SOURCES.rglob("*.swift"):
        depth = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            code = STRING.sub('""', line).split("//", 1)[0]
            match = DECLARATION.match(code)
            if match and depth == 0:
                names.add(match.group(1))
            depth += code.count("{") - code.count("}")
    return names


def rewrite_link(match, guide_names):
    text, target = match.groups()
    if target.startswith(("http://", "https://", "mailto:")):
        return match.group(0)
    if target.startswith("#"):
        return text
    page = target.split("#", 1)[0]
    name = pathlib.PurePosixPath(page).stem
    if page.endswith(".md") and "/" not in page and name in guide_names:
        return f"<doc:{name}>"
    # A file of the repository: DocC has no page for it, so keep the words and the path.
    return f"{text} (`{page.lstrip('./')}`)"


def single_span(match):
    """A Markdown code span in double backticks (one that holds a backtick) as DocC can show it.

    DocC reads every double-backtick span as a symbol link, and a single-backtick span cannot
    hold a backtick, so the inner backticks go.
    """
    return "`" + match.group(1).replace("`", "").strip() + "`"


def article(guide, guide_names, types):
    lines = guide.read_text(encoding="utf-8").splitlines()
    out = []
    in_code = False
    for index, line in enumerate(lines):
        if FENCE.match(line):
            in_code = not in_code
            out.append(line)
            continue
        if in_code:
            out.append(line)
            continue
        line = LINK.sub(lambda m: rewrite_link(m, guide_names), line)
        line = DOUBLE_SPAN.sub(single_span, line)
        line = CODE_SPAN.sub(
            lambda m: f"``{m.group(1)}``" if m.group(1) in types else m.group(0), line
        )
        out.append(line)
        if index == 0:
            out.append("")
            out.append(
                f"<!-- Generated from Documentation/{guide.name} by .ci/docc-articles.py; "
                "edit that file. -->"
            )
    return "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    guides = sorted(GUIDES.glob("*.md"))
    names = {g.stem for g in guides}
    types = public_types()
    expected = {g.stem + ".md": article(g, names, types) for g in guides}
    problems = []
    present = {p.name: p for p in ARTICLES.glob("*.md")} if ARTICLES.exists() else {}
    if check:
        for name, text in expected.items():
            path = ARTICLES / name
            if name not in present:
                problems.append(f"{path}: missing; run python3 .ci/docc-articles.py")
            elif present[name].read_text(encoding="utf-8") != text:
                problems.append(
                    f"{path}: differs from Documentation/{name}; edit the guide, then run "
                    "python3 .ci/docc-articles.py"
                )
        for name in present.keys() - expected.keys():
            problems.append(f"{ARTICLES / name}: no guide Documentation/{name}; delete it")
    else:
        ARTICLES.mkdir(exist_ok=True)
        for name in present.keys() - expected.keys():
            present[name].unlink()
        for name, text in expected.items():
            path = ARTICLES / name
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
    landing = LANDING.read_text(encoding="utf-8")
    for name in sorted(names):
        if f"<doc:{name}>" not in landing:
            problems.append(f"{LANDING}: does not list <doc:{name}> in a Topics group")
    for problem in problems:
        print(f"error: {problem}")
    print(f"docc-articles: {len(expected)} guides, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
