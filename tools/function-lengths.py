#!/usr/bin/env python3
"""Lists the functions in Sources/ longer than a limit (80 lines by default), longest first.

A function runs from the line of its `func`, `init`, `deinit` or computed-property-free
declaration to the line of its closing brace; braces in strings, characters and comments do
not count. Exit status 1 when any function is over the limit.

usage: tools/function-lengths.py [--limit N] [PATH ...]   (default: Sources)
"""
import argparse, os, re, sys

DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|open|static|class|final|"
                         r"override|mutating|nonmutating|convenience|required|@inlinable|@discardableResult)\s+)*"
                         r"(func\s+[^\s(<]+|init[?!]?|deinit)\b")


def skip_string(line, i):
    """The index after the string literal whose body starts at `i`; interpolations (which
    may hold strings and braces of their own) are skipped whole."""
    while i < len(line):
        if line.startswith("\\(", i):
            i += 2
            depth = 1
            while i < len(line) and depth > 0:
                if line[i] == '"':
                    i = skip_string(line, i + 1)
                    continue
                depth += {"(": 1, ")": -1}.get(line[i], 0)
                i += 1
        elif line[i] == "\\":
            i += 2
        elif line[i] == '"':
            return i + 1
        else:
            i += 1
    return i


def code_only(line, state):
    """The line with strings and comments blanked; `state` carries a block comment or a
    multi-line string across lines."""
    out = []
    i = 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"] = False
            i = end + 2
        elif state["multiline"]:
            end = line.find('"""', i)
            if end < 0:
                return "".join(out)
            state["multiline"] = False
            i = end + 3
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            state["block"] = True
            i += 2
        elif line.startswith('"""', i):
            state["multiline"] = True
            i += 3
        elif line[i] == '"':
            i = skip_string(line, i + 1)
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, length) of every function in the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    state = {"block": False, "multiline": False}
    code = [code_only(line, state) for line in lines]
    found = []
    for start, text in enumerate(code):
        m = DECLARATION.match(text)
        if not m:
            continue
        depth, opened = 0, False
        for end in range(start, len(code)):
            for ch in code[end]:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
            if opened and depth <= 0:
                found.append((m.group(1), start + 1, end - start + 1))
                break
            if not opened and end > start and code[end].strip() == "":
                break  # a protocol requirement: no body
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("paths", nargs="*", default=["Sources"])
    args = ap.parse_args()
    over = []
    files = []
    for root in args.paths:
        if os.path.isfile(root):
            files.append(root)
        for directory, _, names in os.walk(root):
            files += [os.path.join(directory, name) for name in sorted(names) if name.endswith(".swift")]
    for path in files:
        over += [(length, path, line, fn) for fn, line, length in functions(path) if length > args.limit]
    for length, path, line, fn in sorted(over, reverse=True):
        print(f"{path}:{line}: {fn} is {length} lines")
    print(f"{len(over)} functions over {args.limit} lines", file=sys.stderr)
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
