#!/bin/bash
# The emulated Pico W on a network of its own: run inside a fresh network namespace
# (`unshare -n`, as `make pico-emu-net` does). Makes a TAP device pico0 (socat's TUN address,
# carrying frames to the emulator as UDP on loopback) at 192.168.77.1/24, a DHCP server on it
# (dnsmasq) that gives the board's MAC 192.168.77.50, boots the image with the CYW43439 model, and
# asks it with curl (every 2 s until it first answers, then every 10 s). Nothing leaves the namespace.
#   tools/pico-emu/netns.sh SECONDS run.mjs-arguments...
# PICO_EMU_BROWSE=1: once the board answers, browse DNS-SD for 30 s with python-zeroconf.
# PICO_EMU_RUNNER: another script to run in place of run.mjs (one that wraps it, to look inside).
# PICO_EMU_CURL=0: no curl (the runner asks the board itself: run.mjs --figures).
# PICO_EMU_CLIENT: a command run in the namespace in place of curl, with PICO_EMU_LOG (a file with the
# runner's output so far), PICO_EMU_PID (the runner: SIGUSR1 takes the access point away, or brings
# it back) and PICO_EMU_CUT_FILE (a TCP port written there is dropped from the link both ways); the
# run ends when the command does, with its exit status.
set -u
seconds=$1; shift
mac=28:cd:c1:00:00:01
prev=
for a in "$@"; do [ "$prev" = --mac ] && mac=$a; prev=$a; done
here=$(dirname "$0")
work=$(mktemp -d /tmp/pico-emu-net.XXXXXX)
# socat's own complaints (a frame the TAP refused ends it) are shown with the run's output
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; sed "s/^/socat: /" "$work/socat.log" 2>/dev/null; rm -rf "$work"' EXIT
export PICO_EMU_CUT_FILE="$work/cut" # a client writes its TCP port there to vanish (run.mjs)
ip link set lo up
socat TUN:192.168.77.1/24,tun-type=tap,tun-name=pico0,iff-up,iff-no-pi \
  UDP-DATAGRAM:127.0.0.1:47001,bind=127.0.0.1:47000 2>"$work/socat.log" &
for _ in $(seq 50); do ip link show pico0 >/dev/null 2>&1 && break; sleep 0.1; done
ip route add 224.0.0.0/4 dev pico0 2>/dev/null # multicast (mDNS) goes to the board's link
# PICO_EMU_DNS=1: dnsmasq answers DNS too, pool.ntp.org (the module's SNTP server) as 192.168.77.1, where
# run.mjs --soak answers SNTP; otherwise no DNS at all
dns=(--port=0)
[ "${PICO_EMU_DNS:-}" = 1 ] && dns=(--port=53 --no-resolv --no-hosts --address=/pool.ntp.org/192.168.77.1)
dnsmasq --keep-in-foreground --conf-file=/dev/null --user=root "${dns[@]}" --interface=pico0 \
  --bind-interfaces --dhcp-range=192.168.77.50,192.168.77.99,1h --dhcp-host="$mac,192.168.77.50" \
  --dhcp-leasefile="$work/leases" --log-facility=- --log-dhcp 2>&1 | sed -u 's/^/dnsmasq: /' &
runner=("${PICO_EMU_RUNNER:-$here/run.mjs}" --seconds "$seconds" --link 47001:47000 "$@")
if [ -n "${PICO_EMU_CLIENT:-}" ]; then
  node "${runner[@]}" > >(tee "$work/board.log") 2>&1 &
  PICO_EMU_LOG="$work/board.log" PICO_EMU_PID=$! sh -c "$PICO_EMU_CLIENT"
  exit
fi
[ "${PICO_EMU_CURL:-1}" = 0 ] || (
  # every 2 s until the board first answers (its "timestamp" is its time since reset), then every 10 s
  pause=2
  for _ in $(seq "$((seconds / 2))"); do
    sleep $pause
    if out=$(curl -sS -m 20 -w ' (HTTP %{http_code}, %{time_total} s)' http://192.168.77.50/api/v1/device/system/0/serialnumber 2>&1); then
      echo "curl: $out"
      # once it answers, what a DNS-SD browser (python-zeroconf) sees of it for 30 s
      [ $pause = 2 ] && [ -n "${PICO_EMU_BROWSE:-}" ] && /usr/bin/python3 "$here/dnssd-browse.py" 30 &
      pause=10
    elif [ $pause = 10 ]; then
      echo "curl: failed: $out"
    fi
  done
) &
node "${runner[@]}"
