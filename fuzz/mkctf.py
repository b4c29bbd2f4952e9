#!/usr/bin/env python3
"""mkctf.py DIR [--packet-size BITS] [--content-size BITS] [--events N] [--tar FILE]

A minimal CTF 1.8 trace for the babeltrace2 harness's tests until gcgen
writes CTF: plain-text TSDL metadata and one stream file of one packet
(packet header: magic, stream id; packet context: content and packet size in
bits; events: a 32-bit id and one 32-bit field). The sizes can be set to
the values that hurt readers. --tar also writes DIR as a ustar archive, the
form bt2ctf's libFuzzer harness takes. Python standard library only.
"""
import argparse
import os
import struct
import tarfile

METADATA = """/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
stream {
	id = 0;
	packet.context := struct { uint64_t content_size; uint64_t packet_size; };
	event.header := struct { uint32_t id; };
};
event {
	name = "DotNETRuntime:GCEnd_V1";
	id = 0;
	stream_id = 0;
	fields := struct { uint32_t _Count; };
};
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--events", type=int, default=3)
    ap.add_argument("--packet-size", type=int)
    ap.add_argument("--content-size", type=int)
    ap.add_argument("--tar")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    with open(os.path.join(a.dir, "metadata"), "w") as f:
        f.write(METADATA)
    events = b"".join(struct.pack("<II", 0, i + 1) for i in range(a.events))
    size = (8 + 16 + len(events)) * 8
    content = size if a.content_size is None else a.content_size
    packet = size if a.packet_size is None else a.packet_size
    data = struct.pack("<IIQQ", 0xC1FC1FC1, 0, content, packet) + events
    with open(os.path.join(a.dir, "stream_0"), "wb") as f:
        f.write(data)
    if a.tar:
        with tarfile.open(a.tar, "w", format=tarfile.USTAR_FORMAT) as t:
            for name in ("metadata", "stream_0"):
                info = t.gettarinfo(os.path.join(a.dir, name), arcname=name)
                info.mtime = 0
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                with open(os.path.join(a.dir, name), "rb") as f:
                    t.addfile(info, f)


if __name__ == "__main__":
    main()
