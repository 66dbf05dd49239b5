#!/usr/bin/env python3
"""Writes man pages (roff, section 1) from swift-argument-parser's `--experimental-dump-help`.

usage: gen-man.py HELP.json OUTDIR VERSION DATE

One page per command: buoy(1), and buoy-SUB(1) for each subcommand (nested ones joined with
'-'), each listing its options as the parser knows them, so the pages cannot drift from the
binary. Only options the parser shows in --help are listed.
"""
import json
import os
import sys


def roff(text):
    """Escapes text for a roff body: backslashes, hyphens, and control characters at line start."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def environment(block):
    """The ENVIRONMENT block of a discussion (a heading line, then "  NAME" lines each followed
    by their text indented further) as a man page section with one tagged paragraph per name."""
    out = [".SH ENVIRONMENT"]
    for line in block.split("\n")[1:]:
        if line.startswith("      "):
            out.append(roff(line.strip()))
        elif line.strip():
            out += [".TP", "\\fB" + roff(line.strip()) + "\\fR"]
    return out


def paragraphs(text):
    """Discussion text as roff paragraphs: blank lines separate them, indented lines stay as typed."""
    out = []
    for block in text.strip().split("\n\n"):
        block_lines = block.split("\n")
        if any(l.startswith("  ") for l in block_lines):
            out += [".PP", ".nf", roff(block), ".fi"]
        else:
            out += [".PP", roff(" ".join(l.strip() for l in block_lines))]
    return out


def name_text(name):
    prefix = {"long": "--", "short": "-", "longWithSingleDash": "-"}.get(name.get("kind"), "--")
    return prefix + name["name"]


def argument_label(arg):
    names = arg.get("names") or []
    value = arg.get("valueName") or "value"
    if arg.get("kind") == "positional":
        return "\\fI" + roff(value) + "\\fR" + ("..." if arg.get("isRepeating") else "")
    label = ", ".join("\\fB" + roff(name_text(n)) + "\\fR" for n in names)
    if arg.get("kind") == "option":
        label += " \\fI" + roff(value) + "\\fR"
    return label


def synopsis_item(arg):
    item = argument_label(arg) if arg.get("kind") == "positional" else None
    if item is None:
        preferred = arg.get("preferredName") or (arg.get("names") or [{"kind": "long", "name": "?"}])[0]
        item = "\\fB" + roff(name_text(preferred)) + "\\fR"
        if arg.get("kind") == "option":
            item += " \\fI" + roff(arg.get("valueName") or "value") + "\\fR"
    if arg.get("isRepeating") and arg.get("kind") != "positional":
        item += " ..."
    return "[" + item + "]" if arg.get("isOptional", True) else item


def page(command, path, version, date, root_name):
    title = "-".join(path)
    args = [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    subs = [s for s in command.get("subcommands") or [] if s.get("shouldDisplay", True)]
    out = [
        f'.TH "{title.upper()}" "1" "{date}" "{root_name} {version}" "User Commands"',
        ".SH NAME",
        f"{roff(title)} \\- {roff(command.get('abstract') or 'part of ' + root_name)}",
        ".SH SYNOPSIS",
        ".B " + roff(" ".join(path)),
    ]
    if subs:
        out.append("\\fIsubcommand\\fR [\\fIoptions\\fR]")
    out += [synopsis_item(a) for a in args]
    out += [".SH DESCRIPTION", ".PP", roff(command.get("abstract") or "")]
    blocks = (command.get("discussion") or "").strip().split("\n\n")
    environment_blocks = [b for b in blocks if b.startswith("ENVIRONMENT\n")]
    discussion = "\n\n".join(b for b in blocks if not b.startswith("ENVIRONMENT\n"))
    if discussion:
        out += paragraphs(discussion)
    if args:
        out.append(".SH OPTIONS")
        for a in args:
            out += [".TP", argument_label(a)]
            text = a.get("abstract") or ""
            if a.get("allValues"):
                text += " (one of: " + ", ".join(a["allValues"]) + ")"
            if a.get("defaultValue") not in (None, ""):
                text += f" (default: {a['defaultValue']})"
            out.append(roff(text.strip()) or "\\&")
            if a.get("discussion") and isinstance(a["discussion"], str):
                out += paragraphs(a["discussion"])[1:]
    if subs:
        out.append(".SH COMMANDS")
        for s in subs:
            sub_page = "-".join(path + [s["commandName"]])
            out += [".TP", f"\\fB{roff(s['commandName'])}\\fR", roff(s.get("abstract") or "") +
                    f" See \\fB{roff(sub_page)}\\fR(1)."]
    for block in environment_blocks:
        out += environment(block)
    out.append(".SH SEE ALSO")
    related = ["-".join(path[:-1])] if len(path) > 1 else []
    related += ["-".join(path + [s["commandName"]]) for s in subs]
    out.append(", ".join(f"\\fB{roff(r)}\\fR(1)" for r in related) if related
               else "/usr/share/doc/buoy/buoy.toml.example")
    return title, "\n".join(out) + "\n"


def walk(command, path, version, date, root_name, outdir):
    title, text = page(command, path, version, date, root_name)
    with open(os.path.join(outdir, title + ".1"), "w") as f:
        f.write(text)
    written = [title]
    for sub in command.get("subcommands") or []:
        if sub.get("shouldDisplay", True) and sub.get("commandName") != "help":
            written += walk(sub, path + [sub["commandName"]], version, date, root_name, outdir)
    return written


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    help_path, outdir, version, date = sys.argv[1:]
    with open(help_path) as f:
        tool = json.load(f)
    command = tool.get("command")
    if not isinstance(command, dict) or "commandName" not in command:
        sys.exit(f"gen-man: {help_path}: no command in the help dump")
    written = walk(command, [command["commandName"]], version, date, command["commandName"], outdir)
    print(f"gen-man: {len(written)} pages: {' '.join(written)}", file=sys.stderr)


if __name__ == "__main__":
    main()
