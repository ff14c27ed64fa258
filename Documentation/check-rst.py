#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fail if any Documentation/**/*.rst has a reStructuredText warning or error.

Sphinx-only directives are not used, so plain docutils parses every page as
the kernel's documentation build would (code-block is a docutils alias).
"""
import pathlib
import sys

import docutils.core
import docutils.utils

bad = 0
DOC = pathlib.Path(__file__).resolve().parent
for path in sorted(DOC.rglob("*.rst")):
    try:
        docutils.core.publish_doctree(
            path.read_text(), source_path=str(path),
            settings_overrides={"halt_level": 2, "report_level": 2,
                                "warning_stream": sys.stdout})
    except docutils.utils.SystemMessage as err:
        print(err)
        bad += 1
    else:
        print(f"{path.relative_to(DOC)}: ok")
sys.exit(1 if bad else 0)
