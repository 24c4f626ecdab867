#!/bin/bash
# The emulated ESP32 on a wire of its own: run inside a fresh network namespace (`unshare -n`, as
# `make esp32-emu-net` does). Makes a TAP device esp0 at 192.168.77.1/24 (the emulated Pico W's
# addresses, so the same clients ask either board), a DHCP server on it (dnsmasq) that gives the
# board's Ethernet MAC 192.168.77.50, and boots the flash image on QEMU's esp32 machine with the
# OpenCores MAC on that TAP and an eFuse of its own (efuse.mjs: the base MAC ESP32_EMU_MAC, default
# 24:0a:c1:00:00:fe, whose Ethernet MAC ...:01 makes serial 0xC1000001). The console (UART0) is
# printed. Then asks the board with curl (every 2 s until it first answers, then every 10 s).
# Nothing leaves the namespace.
#   tools/esp32-emu/netns.sh SECONDS FLASH_IMAGE
# ESP32_QEMU: qemu-system-xtensa with the esp32 machine (default: the one on PATH).
# ESP32_EMU_FLASH: a flash file that outlives the run (copied from FLASH_IMAGE when missing); without
# it the board runs on a copy made for the run. Resets within a run keep the flash either way.
# ESP32_EMU_CLIENT: a command run in the namespace in place of curl, with BOARD_LOG (a file with the
# console so far), BOARD_GDB (QEMU's gdbstub port, on the namespace's loopback), BOARD_PID_FILE (QEMU's
# pid) and BOARD_POWER_CYCLE (a file: written, and QEMU ended, the board is powered again on the same
# flash); the run ends when the command does, with its exit status.
# ESP32_EMU_INSN_PLUGIN: insn-count.so (tools/esp32-emu/insn-count.c) loaded into QEMU; the client's
# BOARD_INSN_COUNT names the file where it keeps the count of instructions executed.
set -u
seconds=$1; image=$2
here=$(cd "$(dirname "$0")" && pwd)
qemu=${ESP32_QEMU:-qemu-system-xtensa}
work=$(mktemp -d /tmp/esp32-emu-net.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; kill "$(cat "$work/qemu.pid" 2>/dev/null)" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
flash=${ESP32_EMU_FLASH:-$work/flash.bin}
[ -f "$flash" ] || cp "$image" "$flash"
base=${ESP32_EMU_MAC:-24:0a:c1:00:00:fe}
node "$here/efuse.mjs" "$work/efuse.bin" "$base"
eth=$(node -e "import('$here/efuse.mjs').then((m) => console.log(m.ethernetMac('$base'.split(':').map((h) => parseInt(h, 16))).map((b) => b.toString(16).padStart(2, '0')).join(':')))")
ip link set lo up
ip tuntap add dev esp0 mode tap
ip addr add 192.168.77.1/24 dev esp0
ip link set esp0 up
ip route add 224.0.0.0/4 dev esp0 2>/dev/null # multicast (mDNS) goes to the board's link
dnsmasq --keep-in-foreground --conf-file=/dev/null --user=root --port=0 --interface=esp0 \
  --bind-interfaces --dhcp-range=192.168.77.50,192.168.77.99,1h --dhcp-host="$eth,192.168.77.50" \
  --dhcp-leasefile="$work/leases" --log-facility=- --log-dhcp 2>&1 | sed -u 's/^/dnsmasq: /' &
board=("$qemu" -nographic -machine esp32 -m 4M -drive "file=$flash,if=mtd,format=raw"
  -drive "file=$work/efuse.bin,if=none,format=raw,id=efuse" -global driver=nvram.esp32.efuse,property=drive,value=efuse
  -nic tap,ifname=esp0,script=no,downscript=no,model=open_eth -gdb tcp:127.0.0.1:1234 -pidfile "$work/qemu.pid"
  -accel tcg,thread=single)
[ -n "${ESP32_EMU_INSN_PLUGIN:-}" ] && board+=(-plugin "$ESP32_EMU_INSN_PLUGIN,out=$work/insn-count")
# The board, powered again each time a client asks for it (BOARD_POWER_CYCLE written, then QEMU ended):
# a power cycle on the same flash and eFuse.
powered() {
  while :; do
    "${board[@]}" < /dev/null
    [ -f "$work/power-cycle" ] || break
    rm -f "$work/power-cycle"
    echo "esp32-emu: power cycled"
  done
}
( sleep "$seconds"; kill -TERM $$ ) > /dev/null 2>&1 & # the time limit, holding none of the output
if [ -n "${ESP32_EMU_CLIENT:-}" ]; then
  powered > >(tee "$work/board.log") 2>&1 &
  BOARD_LOG="$work/board.log" BOARD_PID_FILE="$work/qemu.pid" BOARD_POWER_CYCLE="$work/power-cycle" BOARD_GDB=1234 \
    BOARD_INSN_COUNT="${ESP32_EMU_INSN_PLUGIN:+$work/insn-count}" \
    sh -c "$ESP32_EMU_CLIENT"
  exit
fi
(
  pause=2
  for _ in $(seq "$((seconds / 2))"); do
    sleep $pause
    if out=$(curl -sS -m 20 -w ' (HTTP %{http_code}, %{time_total} s)' http://192.168.77.50/api/v1/device/system/0/serialnumber 2>&1); then
      echo "curl: $out"
      pause=10
    elif [ $pause = 10 ]; then
      echo "curl: failed: $out"
    fi
  done
) &
powered
