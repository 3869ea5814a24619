#!/usr/bin/env python3
"""Runs the command transcripts in the guides and checks that the tool still prints what they say.

A ```console block in README.md or Documentation/*.md is a transcript: each `$ COMMAND` line is
followed by what the command prints (standard output and standard error, as a terminal shows
them). The line `Exit status N.` after the block, if there is one, is the exit status of its last
command. Every command of a guide runs in one scratch folder, in order, so a guide can write a
file in one block and read it in the next. The folder starts with a copy of Fixtures/ and the
files of Fixtures/Docs/ at its top (the inputs the transcripts name, such as recording.har).
`understudy` is the debug build (`swift build --product understudy` first).

A block whose preceding line is `<!-- not run: REASON -->` is skipped; the reason must not be
empty. Durations (`0.01 s`, `120.5 ms`) may differ from the documented ones.

    python3 .ci/check-outputs.py            # exits 1 and shows a diff for each transcript that differs
    python3 .ci/check-outputs.py --update   # rewrites the transcripts with what the tool prints now

Python standard library only.
"""

import difflib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = ROOT / ".build" / "debug"
SKIP = re.compile(r"^<!--\s*not run:\s*(\S.*?)\s*-->$")
EXIT = re.compile(r"^Exit status (\d+)\.$")
# Durations measured on the machine (`0.01 s`, `120.5 ms`) differ from run to run.
DURATION = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s)\b")


def transcripts(path):
    """Yields (first line index, last line index, commands, skip reason, exit line index)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```console":
            index += 1
            continue
        start = index
        index += 1
        while index < len(lines) and lines[index].strip() != "```":
            index += 1
        end = index
        index += 1
        previous = next((l.strip() for l in reversed(lines[:start]) if l.strip()), "")
        skip = SKIP.match(previous)
        following = next((i for i in range(end + 1, len(lines)) if lines[i].strip()), None)
        exit_line = following if following is not None and EXIT.match(lines[following]) else None
        commands = []
        for line in lines[start + 1 : end]:
            if line.startswith("$ "):
                commands.append([line[2:], []])
            elif commands:
                commands[-1][1].append(line)
        yield start, end, commands, skip.group(1) if skip else None, exit_line


def run(command, folder):
    environment = dict(os.environ, PATH=f"{BINARY}:{os.environ['PATH']}", NO_COLOR="1", COLUMNS="100")
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    output = [line.rstrip() for line in result.stdout.splitlines()]
    while output and not output[-1]:
        output.pop()
    return output, result.returncode


def normalized(lines):
    return [DURATION.sub("<duration>", line) for line in lines]


def check(path, update):
    problems = []
    lines = path.read_text(encoding="utf-8").splitlines()
    replacements = []
    count = 0
    with tempfile.TemporaryDirectory(prefix="understudy-docs-") as folder:
        shutil.copytree(ROOT / "Fixtures", pathlib.Path(folder) / "Fixtures")
        for extra in (ROOT / "Fixtures" / "Docs").glob("*"):
            shutil.copy(extra, folder)
        for start, end, commands, skip, exit_line in transcripts(path):
            if skip is not None or not commands:
                continue
            count += 1
            block = []
            status = 0
            for command, expected in commands:
                output, status = run(command, folder)
                block.append(f"$ {command}")
                block += output
                if normalized(output) != normalized([l.rstrip() for l in expected]):
                    diff = "\n".join(
                        difflib.unified_diff(expected, output, "documented", "printed", lineterm="")
                    )
                    problems.append(f"{path.relative_to(ROOT)}:{start + 1}: `{command}` prints\n{diff}")
            if exit_line is not None:
                documented = int(EXIT.match(lines[exit_line]).group(1))
                if documented != status:
                    problems.append(
                        f"{path.relative_to(ROOT)}:{exit_line + 1}: exit status {status}, "
                        f"documented {documented}"
                    )
                    replacements.append((exit_line, exit_line + 1, [f"Exit status {status}."]))
            replacements.append((start + 1, end, block))
    if update and problems:
        for first, last, new in sorted(replacements, reverse=True):
            lines[first:last] = new
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return count, problems


def main():
    update = "--update" in sys.argv[1:]
    if not (BINARY / "understudy").exists():
        print("check-outputs: build the tool first: swift build --product understudy")
        return 1
    files = [ROOT / "README.md"] + sorted((ROOT / "Documentation").glob("*.md"))
    total, problems = 0, []
    for path in files:
        count, found = check(path, update)
        total += count
        problems += found
    for problem in problems:
        print(f"error: {problem}")
    verb = "updated" if update else "differ"
    print(f"check-outputs: {total} transcripts run, {len(problems)} {verb}")
    return 0 if update or not problems else 1


if __name__ == "__main__":
    sys.exit(main())
