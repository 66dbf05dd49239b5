#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal of a given width and records what it wrote.

usage: pty_run.py OUT COLUMNS [RESIZE_AFTER_BYTES NEW_COLUMNS] -- COMMAND...

OUT gets the raw bytes the command wrote to the terminal; OUT.resize gets the byte offset at
which the terminal was resized (when asked). Exits with the command's status.
"""
import fcntl, os, struct, subprocess, sys, termios

def set_width(fd, columns):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))

def main():
    split = sys.argv.index("--")
    out, columns, *resize = sys.argv[1:split]
    command = sys.argv[split + 1:]
    master, slave = os.openpty()
    set_width(slave, int(columns))
    child = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    data = bytearray()
    resized = None
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not chunk:
            break
        data += chunk
        if resize and resized is None and len(data) >= int(resize[0]):
            set_width(master, int(resize[1]))  # the kernel sends the child SIGWINCH
            resized = len(data)
    status = child.wait()
    with open(out, "wb") as f:
        f.write(data)
    if resized is not None:
        with open(out + ".resize", "w") as f:
            f.write(str(resized))
    sys.exit(status if status >= 0 else 128 - status)

main()
