#!/usr/bin/env python3
"""Diagnostics latency of `galac lsp`: the time from a `didChange` sent to the
server to its `publishDiagnostics` read back, over standard input and output,
for one file edited RUNS times (a character added and removed in turn).

Usage: python3 bench/lsp_latency.py GALAC FILE.gala [RUNS]
Prints the median, 90th percentile and maximum in milliseconds.
"""
import json
import subprocess
import sys
import time


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("galac lsp closed its output")
        if line.startswith(b"Content-Length:"):
            length = int(line.split(b":")[1])
        elif line in (b"\r\n", b"\n") and length is not None:
            return json.loads(proc.stdout.read(length))


def diagnostics(proc):
    while True:
        message = receive(proc)
        if message.get("method") == "textDocument/publishDiagnostics":
            return message["params"]["diagnostics"]


def main():
    galac, path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    text = open(path, encoding="utf-8").read()
    uri = "file:///bench.gala"
    proc = subprocess.Popen([galac, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    receive(proc)
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    doc = {"uri": uri, "languageId": "gala", "version": 1, "text": text}
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": doc}})
    found = diagnostics(proc)
    times = []
    for version in range(2, runs + 2):
        edited = text + (" " if version % 2 else "")
        change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": edited}]}
        start = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change})
        diagnostics(proc)
        times.append((time.perf_counter() - start) * 1000)
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    receive(proc)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait()
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"{path}: {len(text)} bytes, {len(found)} diagnostics, {runs} edits: "
          f"median {pick(0.5):.1f} ms, p90 {pick(0.9):.1f} ms, max {times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
