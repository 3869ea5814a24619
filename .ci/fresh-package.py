#!/usr/bin/env python3
"""Follows Documentation/GettingStarted.md word for word in a new package, as a newcomer would.

The new package `App` is made only of the guide's blocks: its Package.swift is the install
fragment (with the package URL pointing at a clone of this repository, tagged with the version
the fragment asks for), `Sources/App/UserClient.swift` is the client block, and the tests are the
import blocks followed by the Swift Testing test and the XCTest test case. Then `swift test` must
pass both tests. The clone is of the committed HEAD: commit before running this locally.

    python3 .ci/fresh-package.py

Python standard library only; needs git and a Swift toolchain.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUIDE = ROOT / "Documentation" / "GettingStarted.md"
FENCE = re.compile(r"^```(\S*)\s*$")


def blocks():
    """The guide's ```swift blocks, in order, each as its text."""
    found, current, language = [], [], None
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        fence = FENCE.match(line)
        if fence and language is None:
            language, current = fence.group(1), []
        elif line.strip() == "```" and language is not None:
            if language == "swift":
                found.append("\n".join(current) + "\n")
            language = None
        elif language is not None:
            current.append(line)
    return found


def pick(all_blocks, description, predicate):
    matches = [b for b in all_blocks if predicate(b)]
    if not matches:
        sys.exit(f"fresh-package: {GUIDE.relative_to(ROOT)} has no block with {description}")
    return matches


def run(command, cwd):
    print(f"$ {' '.join(command)}", flush=True)
    result = subprocess.run(command, cwd=cwd, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        print(result.stdout)
        sys.exit(f"fresh-package: `{' '.join(command)}` failed (exit {result.returncode})")
    return result.stdout


def main():
    all_blocks = blocks()
    install = pick(all_blocks, "the .package(url:from:) install line", lambda b: ".package(url:" in b)[0]
    client = pick(all_blocks, "the client", lambda b: "struct UserClient" in b)[0]
    imports = pick(all_blocks, "the test imports", lambda b: "@testable import App" in b)
    testing = pick(all_blocks, "the Swift Testing test", lambda b: b.startswith("@Test("))[0]
    xctest = pick(all_blocks, "the XCTest test case", lambda b: ": StubbedTestCase {" in b)[0]
    testing_imports = next(b for b in imports if "import Testing" in b)
    xctest_imports = next(b for b in imports if "import XCTest" in b)
    version = re.search(r'from: "([^"]+)"', install).group(1)

    with tempfile.TemporaryDirectory(prefix="understudy-fresh-") as folder:
        folder = pathlib.Path(folder)
        clone = folder / "Understudy"
        run(["git", "clone", "--quiet", str(ROOT), str(clone)], folder)
        run(["git", "tag", "--force", version], clone)
        url = re.search(r'url: "([^"]+)"', install).group(1)
        fragment = install.replace(url, clone.as_uri())

        app = folder / "App"
        (app / "Sources" / "App").mkdir(parents=True)
        (app / "Tests" / "AppTests").mkdir(parents=True)
        (app / "Package.swift").write_text(
            "// swift-tools-version: 6.1\nimport PackageDescription\n\n"
            'let package = Package(\n  name: "App",\n' + fragment + ")\n",
            encoding="utf-8",
        )
        (app / "Sources" / "App" / "UserClient.swift").write_text(client, encoding="utf-8")
        (app / "Tests" / "AppTests" / "UserTests.swift").write_text(
            testing_imports + "\n" + testing, encoding="utf-8"
        )
        (app / "Tests" / "AppTests" / "UserXCTests.swift").write_text(
            xctest_imports + "\n" + xctest, encoding="utf-8"
        )
        output = run(["swift", "test"], app)
        swift_testing = re.search(r"Test run with (\d+) tests? .*passed", output)
        xctests = re.search(r"Executed (\d+) tests?, with 0 failures", output)
        if not swift_testing or swift_testing.group(1) != "1" or not xctests or xctests.group(1) != "1":
            print(output)
            sys.exit("fresh-package: expected 1 Swift Testing test and 1 XCTest test to pass")
        print(f"fresh-package: a new package built from {GUIDE.relative_to(ROOT)} passed 1 Swift "
              "Testing test and 1 XCTest test")


if __name__ == "__main__":
    main()
