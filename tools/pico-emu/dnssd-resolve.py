"""Resolves one _brainstem._tcp instance with python-zeroconf, as a client that knows the module's name
does (SRV, TXT and address queries): prints one line, dns-sd: NAME ADDRESSES PORT serial=..., or
dns-sd: NAME not resolved.   dnssd-resolve.py INSTANCE [SECONDS]"""
import sys

from zeroconf import Zeroconf

TYPE = "_brainstem._tcp.local."
name = f"{sys.argv[1]}.{TYPE}"
zc = Zeroconf()
info = zc.get_service_info(TYPE, name, int(float(sys.argv[2] if len(sys.argv) > 2 else 10) * 1000))
if info is None:
    print(f"dns-sd: {name} not resolved", flush=True)
else:
    serial = info.properties.get(b"serial", b"").decode()
    print(f"dns-sd: {name} {','.join(info.parsed_addresses())} {info.port} serial={serial}", flush=True)
zc.close()
