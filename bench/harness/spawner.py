"""The process that starts every measured child: forked while the harness
is still small, it forks and execs each command, times it with
time.perf_counter_ns and reads its peak RSS from os.wait4.

Why a process of its own: Linux counts into a child's ru_maxrss the pages
its address space held when it called exec. A child of subprocess (vfork or
posix_spawn) execs on its parent's own address space, so it reports at
least the parent's high-water mark; a child of a plain fork reports at
least the resident pages it copied, about 13 MB for the harness with its
modules loaded: as much as the loader itself takes. Forked before anything
but os, marshal and time is imported (and run with python3 -I -S), this
process keeps that floor near 6 MB, below psql's and the loader's own peaks
(9 and 12 MB), so their figures are their own. common.rss_floor() measures
the floor on every run.

Only builtin modules here: importing anything would raise the floor.
"""

import marshal
import os
import time

_server = None  # (pid, request fd, reply fd) once started


def _send(fd, obj):
    data = marshal.dumps(obj)
    data = len(data).to_bytes(4, "big") + data
    while data:
        data = data[os.write(fd, data):]


def _receive(fd):
    def exactly(n):
        buf = b""
        while len(buf) < n:
            chunk = os.read(fd, n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    head = exactly(4)
    if head is None:
        return None
    return marshal.loads(exactly(int.from_bytes(head, "big")))


def _child(argv, env, out, err):
    """In the forked child: stdin /dev/null, stdout OUT, stderr ERR, exec
    (execve, not execvpe: searching PATH here costs 1.4 MB of floor)."""
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(os.open(out, flags, 0o644), 1)
        os.dup2(os.open(err, flags, 0o644), 2)
        os.execve(argv[0], argv, env)
    except BaseException as e:  # pylint: disable=broad-except
        os.write(2, ("bench: cannot run " + argv[0] + ": " + str(e) +
                     "\n").encode())
    os._exit(127)


def _serve(requests, replies):
    """The server's loop: one (argv, env, out, err) in, one (exit status,
    peak RSS in kB, wall ns) out; ends at the end of its requests."""
    try:
        while True:
            request = _receive(requests)
            if request is None:
                break
            t0 = time.perf_counter_ns()
            pid = os.fork()
            if pid == 0:
                _child(*request)
            _, status, usage = os.wait4(pid, 0)
            t1 = time.perf_counter_ns()
            _send(replies, (os.waitstatus_to_exitcode(status),
                            usage.ru_maxrss, t1 - t0))
    except BaseException:  # pylint: disable=broad-except
        pass
    os._exit(0)


def start():
    """Fork the server; call it first thing, while the process is small."""
    global _server  # pylint: disable=global-statement
    if _server is not None:
        return
    requests, to_server = os.pipe()  # (read end, write end)
    from_server, replies = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(to_server)
        os.close(from_server)
        _serve(requests, replies)
    os.close(requests)
    os.close(replies)
    _server = (pid, to_server, from_server)


def run(argv, env, out, err):
    """Run ARGV (argv[0] a path) with ENV, its output in the files OUT and
    ERR; returns
    (exit status as the shell shows it, peak RSS in kB, wall time in ns,
    fork to exit)."""
    start()
    _, to_server, from_server = _server
    _send(to_server, (list(argv), dict(env), str(out), str(err)))
    reply = _receive(from_server)
    if reply is None:
        raise OSError("the bench spawner process ended")
    return reply


def stop():
    global _server  # pylint: disable=global-statement
    if _server is not None:
        pid, to_server, from_server = _server
        os.close(to_server)
        os.close(from_server)
        os.waitpid(pid, 0)
        _server = None
