"""Browses DNS-SD with python-zeroconf for SECONDS and prints each _brainstem._tcp and _http._tcp
service found, one line each: dns-sd: NAME ADDRESSES PORT serial=... (tools/pico-emu/netns.sh); on
standard error, "dnssd-browse: browsing" once the browse has started."""
import sys
import time

from zeroconf import ServiceBrowser, ServiceListener, Zeroconf


class Printer(ServiceListener):
    def add_service(self, zc, type_, name):
        info = zc.get_service_info(type_, name, 3000)
        if info is None:
            print(f"dns-sd: {name} (no answer to its SRV/TXT query)", flush=True)
            return
        serial = info.properties.get(b"serial", b"").decode()
        print(f"dns-sd: {name} {','.join(info.parsed_addresses())} {info.port} serial={serial}", flush=True)

    def update_service(self, zc, type_, name):
        pass

    def remove_service(self, zc, type_, name):
        print(f"dns-sd: {name} removed", flush=True)


zc = Zeroconf()
ServiceBrowser(zc, ["_brainstem._tcp.local.", "_http._tcp.local."], Printer())
# when the browse starts, for a caller that times it by its own clock (soak-clients.mjs)
print("dnssd-browse: browsing", file=sys.stderr, flush=True)
time.sleep(float(sys.argv[1]))
zc.close()
