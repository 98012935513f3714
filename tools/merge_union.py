#!/usr/bin/env python3
"""Resolve git conflict blocks in the given files by keeping both sides (ours, then theirs).

For append-only files (docs tables, module lists) where two branches each added lines.
"""
import re
import sys

for path in sys.argv[1:]:
    text = open(path).read()
    pattern = re.compile(r"<<<<<<< [^\n]*\n(.*?)=======\n(.*?)>>>>>>> [^\n]*\n", re.S)
    text = pattern.sub(lambda m: m.group(1) + m.group(2), text)
    open(path, "w").write(text)
