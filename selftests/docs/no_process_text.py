#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fail if what the repository ships reads like a lab notebook.

What ships -- README.md, Documentation/, tools/README.md, every comment and
string of the code, tests and tools, and every file and folder name --
describes the product as it is.  The history of how it got there belongs in
the commit messages and, by release, in NEWS.  This check fails on:

  - numbered work sessions ("session <N>") and tracker references
    ("issue <N>") that no reader can open;
  - dates of work (ISO dates), except in NEWS (release dates) and in the
    results pages and their raw data (the date a measurement was taken);
  - paths to a sibling of the checkout (".." + "/shared/...");
  - anecdotes about past CI runs and notes addressed to the developers;
  - file or folder names that carry a session number ("-s12-", "session").

Raw data (tools/doc/, Documentation/results/data/) is checked by name
and by the header our scripts write over it (its leading "#" lines);
the recorded output below that says what the machine printed.

  no_process_text.py [DIR]    check the git tree at DIR (default: this one)

Prints one line per hit, "path:line: text", then a count; exit 1 on a hit.
"""
import pathlib
import re
import subprocess
import sys

TEXT = [
    ("work session", re.compile(r"\bsessions?[ -]?\d", re.I)),
    ("tracker issue", re.compile(r"\bissues? #?\d", re.I)),
    ("path outside the repository", re.compile(r"\.\./shared\b")),
    ("CI anecdote", re.compile(
        r"\bCI (saw|stayed|failed|once|run once)\b|\bgreen CI\b"
        r"|\bsank one CI\b|\bmet in CI\b|\bthe stop's\b", re.I)),
    ("developer aside", re.compile(
        r"\bas the mission\b|\ba developer's\b|\bnotes? to (the )?developers\b",
        re.I)),
]
DATE = ("date of work", re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b"))
# A number after "s" between separators: bench-foo-s12-report.txt
NAME = re.compile(r"(^|[-_.])s\d+([-_.]|$)|session|issue-?\d", re.I)

# Checked by name only: recorded data and the licence text.
DATA = ("tools/doc/", "Documentation/results/data/", "COPYING")
# Where a date is the date of a release or of a measurement.
DATED = ("NEWS", "Documentation/results/")
BINARY = (".png", ".xz", ".gz", ".svg", ".pdf")


def tracked(top):
    out = subprocess.run(["git", "-C", str(top), "ls-files", "-z"],
                         check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p]


def header(lines):
    """A raw data file's leading "#" lines: what our scripts wrote."""
    out = []
    for line in lines:
        if not line.startswith("#"):
            break
        out.append(line)
    return out


def main(argv):
    top = pathlib.Path(argv[1] if len(argv) > 1 else
                       pathlib.Path(__file__).resolve().parents[2])
    hits = 0
    for rel in tracked(top):
        for part in rel.split("/"):
            if NAME.search(part):
                print(f"{rel}: file name carries a session or issue: {part}")
                hits += 1
                break
        if rel.endswith(BINARY):
            continue
        path = top / rel
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        lines = text.splitlines()
        if rel.startswith(DATA):
            lines = header(lines)
        rules = TEXT if rel.startswith(DATED) else TEXT + [DATE]
        for n, line in enumerate(lines, 1):
            for what, pat in rules:
                if pat.search(line):
                    print(f"{rel}:{n}: {what}: {line.strip()[:120]}")
                    hits += 1
                    break
    print(f"no_process_text: {hits} hits")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
