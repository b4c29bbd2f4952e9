#!/usr/bin/env python3
"""A minimal diagnostics-IPC client: start an EventPipe session in a running .NET
process, asking for a given serialization format, and write the stream to a file.

  ipc_collect.py PID FORMAT PROVIDERS OUT [GO_FILE]

FORMAT is the CollectTracing2 `format` field: 0 NetPerf (V3), 1 NetTrace (V4); anything
higher is what a client would send to ask for a newer nettrace version. PROVIDERS is
NAME:KEYWORDS:LEVEL[,...]. GO_FILE, when given, is created once the session is running
(the workload waits for it: GCWORKLOAD_GO). The stream is read until the process ends.
Exit status: 0 the session ran and OUT holds its bytes; 3 the runtime refused the request
(its HRESULT is printed); 2 no diagnostics socket or a protocol error.

Hand-written because the only client library is managed (Microsoft.Diagnostics.NETCore.Client
validates the format against its own enum before sending, so it cannot ask a runtime what it
would do with a format it does not know). The protocol is dotnet/diagnostics'
documentation/design-docs/ipc-protocol.md: a 20-byte header (magic "DOTNET_IPC_V1\\0",
uint16 total size, command set, command id, uint16 reserved), little-endian payload.
"""
import glob
import os
import socket
import struct
import sys
import time

MAGIC = b"DOTNET_IPC_V1\0"
EVENTPIPE, COLLECT_TRACING2 = 0x02, 0x03
SERVER, OK, ERROR = 0xFF, 0x00, 0xFF


def ipc_string(s):
    if not s:
        return struct.pack("<I", 0)
    data = (s + "\0").encode("utf-16-le")
    return struct.pack("<I", len(s) + 1) + data


def collect_tracing2(fmt, providers, buffer_mb=256, rundown=False):
    body = struct.pack("<IIB", buffer_mb, fmt, 1 if rundown else 0)
    body += struct.pack("<I", len(providers))
    for name, keywords, level in providers:
        body += struct.pack("<QI", keywords, level) + ipc_string(name) + ipc_string("")
    return MAGIC + struct.pack("<HBBH", 20 + len(body), EVENTPIPE, COLLECT_TRACING2, 0) + body


def socket_path(pid, wait=10.0):
    tmp = os.environ.get("TMPDIR", "/tmp")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = glob.glob(os.path.join(tmp, f"dotnet-diagnostic-{pid}-*-socket"))
        if found:
            return found[0]
        time.sleep(0.05)
    return None


def read_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise EOFError("connection closed")
        buf += chunk
    return buf


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pid, fmt, spec, out = int(argv[1]), int(argv[2]), argv[3], argv[4]
    providers = []
    for p in spec.split(","):
        name, kw, level = p.split(":")
        providers.append((name, int(kw, 16), int(level)))
    path = socket_path(pid)
    if path is None:
        print(f"ipc_collect: no diagnostics socket for pid {pid}", file=sys.stderr)
        return 2
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    sock.sendall(collect_tracing2(fmt, providers))
    try:
        head = read_exact(sock, 20)
    except EOFError:
        print("ipc_collect: the runtime closed the connection without answering", file=sys.stderr)
        return 2
    if head[:14] != MAGIC or head[16] != SERVER:
        print(f"ipc_collect: not a server response: {head!r}", file=sys.stderr)
        return 2
    size = struct.unpack_from("<H", head, 14)[0]
    payload = read_exact(sock, size - 20)
    if head[17] == ERROR:
        hr = struct.unpack_from("<I", payload)[0] if len(payload) >= 4 else 0
        print(f"refused hresult=0x{hr:08x}")
        return 3
    if head[17] != OK:
        print(f"ipc_collect: unexpected response id {head[17]:#x}", file=sys.stderr)
        return 2
    session = struct.unpack_from("<Q", payload)[0]
    print(f"session=0x{session:x}")
    sys.stdout.flush()
    if len(argv) == 6:
        open(argv[5], "w").close()
    with open(out + ".tmp", "wb") as f:
        while True:
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            f.write(chunk)
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
