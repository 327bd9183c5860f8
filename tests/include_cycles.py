#!/usr/bin/env python3
"""Fails when a header under one of the given folders includes one that includes it back.

Usage: include_cycles.py [--modules] SRC_DIR FOLDER...
       (folders relative to SRC_DIR, e.g. core app)

Reads the `#include "..."` lines of every .hpp under each folder, resolves them the way the
compiler does (the including file's folder first, then SRC_DIR, the include root of every
target) and looks for a cycle among the headers (directly or through others). With --modules a
.cpp joins the header of the same name (estimate.cpp with estimate.hpp): a source that includes
a header which includes its own header back is a cycle too. Prints each cycle found and
`N passed, N failed` (one check per folder); the exit status is 1 on a cycle.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def resolve(src_dir, including, name):
    for base in (os.path.dirname(including), src_dir):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None


def graph(src_dir, folder, modules):
    """Edges between the files (or, with modules, header+source pairs) of `folder`."""
    root = os.path.join(src_dir, folder)
    node = (lambda p: os.path.splitext(p)[0]) if modules else (lambda p: p)
    edges = {}
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            if not name.endswith(".hpp") and not (modules and name.endswith(".cpp")):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            targets = edges.setdefault(node(path), set())
            for included in INCLUDE.findall(text):
                target = resolve(src_dir, path, included)
                if target and target.startswith(root + os.sep) and node(target) != node(path):
                    targets.add(node(target))
    return edges


def cycles(edges):
    """Each cycle once, as the list of its nodes (depth-first search, colouring)."""
    found, state, stack = [], {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == "open":
                found.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = "done"

    for n in sorted(edges):
        if n not in state:
            visit(n)
    return found


def main(argv):
    modules = "--modules" in argv
    args = [a for a in argv if a != "--modules"]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    src_dir, folders = os.path.abspath(args[0]), args[1:]
    passed = failed = 0
    for folder in folders:
        if not os.path.isdir(os.path.join(src_dir, folder)):
            print(f"{folder}: no such folder under {src_dir}")
            failed += 1
            continue
        found = cycles(graph(src_dir, folder, modules))
        for cycle in found:
            print("include cycle: " + " -> ".join(os.path.relpath(n, src_dir) for n in cycle))
        if found:
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
