#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fail unless every place that states tcp_bbr2's version states the same.

The module's BBR2_MODULE_VERSION (src/tcp_bbr2_main.c) is the version.
These must equal it:

  dkms.conf            PACKAGE_VERSION
  NEWS                 the first release heading ("tcp_bbr2 X.Y.Z ...")
  debian/changelog     the upstream part of the first entry's version
                       (when the file exists)
  rpm/**/*.spec*       each literal "Version:" (when such files exist)
  README.md and        every versioned name shown to an admin:
  Documentation/*.rst  tcp_bbr2/X.Y.Z (DKMS), tcp_bbr2-X.Y.Z (its source
                       tree), tcp-bbr2-dkms_X.Y.Z (the .deb),
                       tcp_bbr2-dkms-X.Y.Z (the RPM)

  one_version.py [DIR]   check the tree at DIR (default: this one)
"""
import pathlib
import re
import sys

VER = r"(\d+\.\d+\.\d+)"


def main(argv):
    top = pathlib.Path(argv[1] if len(argv) > 1 else
                       pathlib.Path(__file__).resolve().parents[2])
    bad = []
    found = []

    def read(rel):
        p = top / rel
        return p.read_text() if p.exists() else None

    src = read("src/tcp_bbr2_main.c") or ""
    m = re.search(r'^#define BBR2_MODULE_VERSION\s+"' + VER + '"', src, re.M)
    if not m:
        print("src/tcp_bbr2_main.c: no BBR2_MODULE_VERSION \"X.Y.Z\"")
        return 1
    version = m.group(1)
    print(f"module version (src/tcp_bbr2_main.c): {version}")

    def need(where, pattern, text, flags=re.M):
        if text is None:
            bad.append(f"{where}: missing")
            return
        m = re.search(pattern, text, flags)
        if not m:
            bad.append(f"{where}: no version found")
        else:
            found.append((where, m.group(1)))

    need("dkms.conf PACKAGE_VERSION", r'^PACKAGE_VERSION="?' + VER,
         read("dkms.conf"))
    need("NEWS, first release", r"^tcp_bbr2 " + VER, read("NEWS"))
    changelog = read("debian/changelog")
    if changelog is not None:
        need("debian/changelog, first entry",
             r"\A\S+ \((?:\d+:)?" + VER + r"[-~)]", changelog)
    for spec in sorted((top / "rpm").rglob("*.spec*")) \
            if (top / "rpm").is_dir() else []:
        rel = spec.relative_to(top)
        for n, line in enumerate(spec.read_text().splitlines(), 1):
            m = re.match(r"^Version:\s*(\S+)", line)
            if m and re.fullmatch(VER, m.group(1)):
                found.append((f"{rel}:{n} Version", m.group(1)))
            elif m and not m.group(1).startswith("%"):
                bad.append(f"{rel}:{n}: Version {m.group(1)} is not X.Y.Z")
    shown = re.compile(r"tcp_bbr2/" + VER + r"|tcp_bbr2-" + VER +
                       r"|tcp-bbr2-dkms_" + VER + r"|tcp_bbr2-dkms-" + VER)
    for doc in [top / "README.md"] + sorted((top / "Documentation").rglob("*.rst")):
        if not doc.exists():
            continue
        for n, line in enumerate(doc.read_text().splitlines(), 1):
            for m in shown.finditer(line):
                v = next(g for g in m.groups() if g)
                found.append((f"{doc.relative_to(top)}:{n}", v))

    for where, v in found:
        if v != version:
            bad.append(f"{where}: {v}, not {version}")
    for line in bad:
        print(line)
    print(f"one_version: {len(found)} places checked, {len(bad)} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
