# python-zeroconf (Debian python3-zeroconf), an independent DNS-SD implementation: browses
# _brainstem._tcp.local. until EXPECTED instances are resolved (host, port, TXT) or SECONDS pass, then
# prints one JSON line: {"found": {name: {...}}, "ms": milliseconds until the last was resolved}.
# Usage: python3 zeroconf-browse.py EXPECTED SECONDS
import json
import sys
import threading
import time

from zeroconf import ServiceBrowser, ServiceStateChange, Zeroconf, IPVersion

TYPE = "_brainstem._tcp.local."
expected = int(sys.argv[1])
seconds = float(sys.argv[2])
found = {}
lock = threading.Lock()
done = threading.Event()
t0 = time.monotonic()
last = [0.0]


def resolve(zc, name):
    info = zc.get_service_info(TYPE, name, timeout=3000)
    if info is None:
        return
    txt = {k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()}
    with lock:
        found[name] = {"host": info.server, "port": info.port, "addresses": info.parsed_addresses(), "txt": txt}
        last[0] = time.monotonic() - t0
        if len(found) >= expected:
            done.set()


def changed(zeroconf, service_type, name, state_change):
    if state_change is ServiceStateChange.Added:
        threading.Thread(target=resolve, args=(zeroconf, name), daemon=True).start()


zc = Zeroconf(ip_version=IPVersion.V4Only)
browser = ServiceBrowser(zc, TYPE, handlers=[changed])
done.wait(seconds)
with lock:
    print(json.dumps({"found": found, "ms": int(last[0] * 1000)}), flush=True)
zc.close()
