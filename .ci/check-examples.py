#!/usr/bin/env python3
"""Checks that the Swift examples in the documentation are the code the test suite compiles.

Every ```swift block in README.md, Documentation/*.md and the DocC articles must appear in a
file under Tests/UnderstudyExamples (or, for the loopback server's guide, under
Tests/UnderstudyServerTests, which compiles with the Server trait in .ci/server.sh), line for line; only the indentation of the whole block may
differ (a snippet is usually the body of a test). A block whose preceding line is
`<!-- not compiled: REASON -->` is skipped; the reason must not be empty.

DocC tutorial steps (Resources/NAME-NN.swift) are checked too: the last step of each series must
be a file of Tests/UnderstudyExamples with the same text, and every earlier step must be the last
one with lines left out (steps only ever add code), so no step can drift from compiled code.

Package.swift fragments (marked `<!-- not compiled: a Package.swift fragment -->`) must name the
product as `.product(name: "Understudy", package: "Understudy")` and repeat the install line of
Documentation/GettingStarted.md exactly; attachment names in transcripts must be the names the
library writes.

Run from anywhere: `python3 .ci/check-examples.py`. Exits 1 and names each block that differs.
Python standard library only.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "Tests" / "UnderstudyExamples"
SERVER_EXAMPLES = ROOT / "Tests" / "UnderstudyServerTests"
CATALOG = ROOT / "Sources" / "Understudy" / "Understudy.docc"
SKIP = re.compile(r"^<!--\s*not compiled:\s*(\S.*?)\s*-->$")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


def markdown_files():
    files = [ROOT / "README.md"]
    files += sorted((ROOT / "Documentation").glob("*.md"))
    files += sorted(CATALOG.rglob("*.md"))
    return [f for f in files if f.exists()]


def swift_blocks(path):
    """Yields (line number, lines, skip reason) for each ```swift block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, language = opening.groups()
        start = index
        index += 1
        body = []
        while index < len(lines) and lines[index].strip() != "```":
            body.append(lines[index])
            index += 1
        index += 1
        if language != "swift":
            continue
        previous = next((l.strip() for l in reversed(lines[:start]) if l.strip()), "")
        skip = SKIP.match(previous)
        yield start + 1, dedent(body), skip.group(1) if skip else None


def dedent(lines):
    widths = [len(l) - len(l.lstrip(" ")) for l in lines if l.strip()]
    cut = min(widths, default=0)
    return [l[cut:] if l.strip() else "" for l in lines]


def occurs_in(block, lines):
    """Whether `block` is a run of `lines` with one extra indentation for the whole run."""
    first = next((i for i, l in enumerate(block) if l), None)
    if first is None:
        return False
    for start in range(len(lines) - len(block) + 1):
        candidate = lines[start + first]
        if not candidate.endswith(block[first]):
            continue
        prefix = candidate[: len(candidate) - len(block[first])]
        if prefix.strip():
            continue
        if all(
            (not want and not got.strip()) or (want and got == prefix + want)
            for want, got in zip(block, lines[start : start + len(block)])
        ):
            return True
    return False


def longest_prefix(block, sources):
    """The example file that holds the longest leading run of `block`, to point at the drift."""
    best = (0, None)
    for path, lines in sources.items():
        for length in range(len(block), 0, -1):
            if length > best[0] and occurs_in(block[:length], lines):
                best = (length, path)
                break
    return best


def check_markdown(sources, failures):
    checked = skipped = 0
    for path in markdown_files():
        for line, block, reason in swift_blocks(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            if reason is not None:
                skipped += 1
                continue
            checked += 1
            if not any(l for l in block):
                failures.append(f"{where}: the block is empty")
            elif not any(occurs_in(block, lines) for lines in sources.values()):
                length, near = longest_prefix(block, sources)
                hint = (
                    f"; its first {length} line(s) are in {near.relative_to(ROOT)}, then line "
                    f"{length + 1} differs: {block[length]!r}"
                    if near
                    else "; no file under Tests/UnderstudyExamples starts the same way"
                )
                failures.append(f"{where}: this ```swift block is not in the compiled examples{hint}")
    return checked, skipped


def is_subsequence(lines, whole):
    remaining = iter(whole)
    return all(any(line == other for other in remaining) for line in lines)


def check_tutorial_steps(sources, failures):
    series = {}
    for step in sorted((CATALOG / "Resources").glob("*.swift")):
        match = re.match(r"^(.*)-(\d+)\.swift$", step.name)
        if not match:
            failures.append(f"{step.relative_to(ROOT)}: name steps NAME-NN.swift")
            continue
        series.setdefault(match.group(1), []).append(step)
    for name, steps in series.items():
        final = steps[-1].read_text(encoding="utf-8").splitlines()
        if not any(final == lines for lines in sources.values()):
            failures.append(
                f"{steps[-1].relative_to(ROOT)}: the last step of {name} is not a file of "
                "Tests/UnderstudyExamples with the same text")
        for step in steps[:-1]:
            text = [l for l in step.read_text(encoding="utf-8").splitlines() if l.strip()]
            if not is_subsequence(text, final):
                failures.append(
                    f"{step.relative_to(ROOT)}: this step has lines the last step "
                    f"({steps[-1].name}) does not; steps may only add code")
    return sum(len(steps) for steps in series.values())


INSTALL_SOURCE = ROOT / "Documentation" / "GettingStarted.md"
PRODUCT = '.product(name: "Understudy", package: "Understudy")'


def check_package_fragments(failures):
    """Every Package.swift fragment names the product one way and installs the one documented version.

    The `.package(url:from:)` line of Documentation/GettingStarted.md is the install line; any
    other fragment that adds the package must repeat it exactly.
    """
    install = None
    fragments = []
    for path in markdown_files():
        for line, block, reason in swift_blocks(path):
            if reason != "a Package.swift fragment":
                continue
            fragments.append((path, line, block))
            if path == INSTALL_SOURCE:
                install = next((l.strip() for l in block if l.strip().startswith(".package(")), None)
    if install is None:
        failures.append(f"{INSTALL_SOURCE.relative_to(ROOT)}: no .package(url:from:) install line")
    for path, line, block in fragments:
        where = f"{path.relative_to(ROOT)}:{line}"
        text = "\n".join(block)
        if "Understudy" in text and PRODUCT not in text:
            failures.append(f"{where}: name the product as {PRODUCT}, as every guide does")
        for package_line in (l.strip() for l in block if l.strip().startswith(".package(")):
            if install and package_line.rstrip(",") != install.rstrip(","):
                failures.append(f"{where}: {package_line} differs from the install line {install}")
    return len(fragments)


def check_attachment_names(failures):
    """Attachment names in transcripts are the ones the library writes (`<test>-traffic.har`)."""
    writer = (ROOT / "Sources" / "Understudy" / "Testing" / "TrafficAttachmentWriter.swift").read_text(
        encoding="utf-8")
    suffix = re.search(r'\)(-[a-z]+\.har)"', writer).group(1)
    files = markdown_files() + sorted((CATALOG / "Resources").glob("*.txt"))
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in re.findall(r"Attached '([^']+)'", line):
                if not name.endswith(suffix):
                    failures.append(
                        f"{path.relative_to(ROOT)}:{number}: attachment {name!r}: the library names "
                        f"traffic attachments <test>{suffix}")


def check_example_client(failures):
    """The guides' shared client is shown whole in Getting Started, so pasted examples compile."""
    client = (EXAMPLES / "ExampleClient.swift").read_text(encoding="utf-8").splitlines()
    body = [l for l in client if not l.startswith("//")]
    while body and not body[0].strip():
        body.pop(0)
    guide = ROOT / "Documentation" / "GettingStarted.md"
    if not any(block == body for _, block, _ in swift_blocks(guide)):
        failures.append(
            f"{guide.relative_to(ROOT)}: no block shows Tests/UnderstudyExamples/ExampleClient.swift "
            "whole; the other guides' examples use all of it")


def main():
    sources = {
        path: path.read_text(encoding="utf-8").splitlines()
        for folder in (EXAMPLES, SERVER_EXAMPLES)
        for path in sorted(folder.rglob("*.swift"))
    }
    failures = []
    checked, skipped = check_markdown(sources, failures)
    steps = check_tutorial_steps(sources, failures)
    fragments = check_package_fragments(failures)
    check_attachment_names(failures)
    check_example_client(failures)
    for failure in failures:
        print(f"error: {failure}")
    print(
        f"check-examples: {checked} Swift blocks compiled, {skipped} marked not compiled, "
        f"{steps} tutorial steps, {fragments} Package.swift fragments; {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
