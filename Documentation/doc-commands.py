#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep every command shown in Documentation/ exercised by a test.

Each literal block that shows commands (``.. code-block:: console``) or a
file an admin is told to write (``.. code-block:: ini`` / ``python`` / ...)
is preceded by a comment naming the test group that runs it::

    .. doc-test: vm-select

    .. code-block:: console

       # modprobe tcp_bbr2

Tests do not copy the commands: they ask this script for them, so a command
changed in the documentation is the command the test runs.

A block no test can run here (a package manager of another distribution,
a firmware prompt, a benchmark that boots kernels for an hour) is tagged
``not-run`` with the reason, which the page shows nowhere else::

    .. doc-test: not-run (dnf: this test bed is Debian)

  doc-commands.py list                 every tagged block: file, line, tag
  doc-commands.py commands TAG         the shell commands of TAG's console
                                       blocks, one per line (prompt removed,
                                       backslash continuations joined into
                                       one line);
                                       output lines (no prompt) are skipped
  doc-commands.py block TAG N          the text of TAG's N-th non-console
                                       block (0-based), e.g. a sysctl.d file
  doc-commands.py check                fail if a block has no tag, a tag is
                                       not used by any test in selftests/, or
                                       a not-run tag gives no reason
  doc-commands.py not-run              every not-run block and its reason
"""
import pathlib
import re
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
DOCS = TOP / "Documentation"
PROMPT = re.compile(r"^(?:[#$]) (.*)$")
# The tag comment, then the block directive: blank lines only in between.
TAG = re.compile(r"^\.\. doc-test: ([\w-]+)(?: \((.*)\))?\s*$")
NOT_RUN = "not-run"
DIRECTIVE = re.compile(r"^\.\. code-block:: (\w+)\s*$")
# Shown output that means the command before it fails, as the page intends
ERROR = re.compile(r"error|Invalid argument|in use|not permitted", re.I)


class Block:
    def __init__(self, path, line, lang, tag, text, reason=None):
        self.path, self.line, self.lang = path, line, lang
        self.tag, self.text, self.reason = tag, text, reason

    def where(self):
        return f"{self.path.relative_to(TOP)}:{self.line}"


def blocks():
    found = []
    for path in sorted(DOCS.rglob("*.rst")):
        lines = path.read_text().splitlines()
        tag = reason = None
        i = 0
        while i < len(lines):
            line = lines[i]
            m = TAG.match(line)
            if m:
                tag, reason = m.group(1), m.group(2)
                i += 1
                continue
            m = DIRECTIVE.match(line)
            if m:
                start = i + 1
                j = i + 1
                body = []
                # options (":linenos:") and the blank line, then the
                # indented body up to the first unindented line
                while j < len(lines) and (lines[j].strip() == "" or
                                          lines[j].startswith("   :")):
                    j += 1
                while j < len(lines) and (lines[j].strip() == "" or
                                          lines[j].startswith("   ")):
                    body.append(lines[j][3:])
                    j += 1
                while body and body[-1].strip() == "":
                    body.pop()
                found.append(Block(path, start, m.group(1), tag,
                                   "\n".join(body) + "\n", reason))
                tag = reason = None
                i = j
                continue
            if line.strip():
                tag = reason = None	# a tag binds only to the next block
            i += 1
    return found


def commands(block):
    """The block's commands in order.  A command whose first line of shown
    output is an error is prefixed with "! ", so that a shell running it
    expects the failure the page shows."""
    cmds = []
    pending = ""
    output_lines = 0	# output lines seen since the last command
    for line in block.text.splitlines():
        if pending:
            # a continued line: one line, as the shell reads it
            pending = pending[:-1].rstrip() + " " + line.strip()
        else:
            m = PROMPT.match(line)
            if not m:
                if cmds and output_lines == 0 and ERROR.search(line):
                    cmds[-1] = "! " + cmds[-1]
                output_lines += 1
                continue	# example output
            pending = m.group(1)
        if not pending.endswith("\\"):
            cmds.append(pending)
            pending = ""
            output_lines = 0
    if pending:
        sys.exit(f"doc-commands: {block.where()}: dangling continuation")
    return cmds


def users():
    """Tags named by a call of this script from a test."""
    used = set()
    # "doc-commands.py commands TAG", "... block TAG N", or a test's own
    # wrapper (run_doc, doc_cmds, install_doc_file) with a literal TAG
    pat = re.compile(
        r"\b(?:commands|block|run_doc|doc_cmds|install_doc_file) \"?([a-z]+-[\w-]+)")
    for path in (TOP / "selftests").rglob("*"):
        if path.is_file() and path.suffix in ("", ".sh", ".py", ".mk") \
                or path.name == "Makefile":
            try:
                used.update(pat.findall(path.read_text()))
            except (UnicodeDecodeError, OSError):
                pass
    return used


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    every = blocks()
    cmd = argv[1]
    if cmd == "list":
        for b in every:
            print(f"{b.where()}\t{b.lang}\t{b.tag or '-'}")
    elif cmd == "not-run":
        for b in every:
            if b.tag == NOT_RUN:
                print(f"{b.where()}\t{b.reason}")
    elif cmd == "commands" and len(argv) == 3:
        chosen = [b for b in every if b.tag == argv[2] and b.lang == "console"]
        if not chosen:
            sys.exit(f"doc-commands: no console block tagged {argv[2]}")
        for b in chosen:
            for c in commands(b):
                print(c)
    elif cmd == "block" and len(argv) == 4:
        chosen = [b for b in every if b.tag == argv[2] and b.lang != "console"]
        n = int(argv[3])
        if n >= len(chosen):
            sys.exit(f"doc-commands: {argv[2]} has {len(chosen)} file blocks")
        sys.stdout.write(chosen[n].text)
    elif cmd == "check":
        used = users()
        bad = 0
        for b in every:
            if b.tag is None:
                print(f"{b.where()}: {b.lang} block has no '.. doc-test:' tag")
                bad += 1
            elif b.tag == NOT_RUN:
                if not (b.reason or "").strip():
                    print(f"{b.where()}: not-run block gives no reason")
                    bad += 1
            elif b.tag not in used:
                print(f"{b.where()}: tag {b.tag} is run by no test in selftests/")
                bad += 1
            elif b.lang == "console" and not commands(b):
                print(f"{b.where()}: console block shows no command")
                bad += 1
        skipped = sum(1 for b in every if b.tag == NOT_RUN)
        print(f"doc-commands: {len(every)} blocks, {skipped} not run "
              f"(with the reason), {bad} untested")
        return 1 if bad else 0
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
