#!/bin/sh
# A read, a write, an error and the event stream with curl.
# DEVICE is the server's address: a module (http://192.168.1.20) or the simulator (the default).
DEVICE=${DEVICE:-http://127.0.0.1:9005}
B=$DEVICE/api/v1/device

# Read a value
curl -s $B/system/0/serialnumber; echo

# Write a value: the answer is the value read back (the body is read as JSON whatever its Content-Type)
curl -s -X PUT -d '{"value": 20}' $B/system/0/hbinterval; echo

# An error: the HTTP status, and {error, message} in the answer
curl -s -w ' (HTTP %{http_code})\n' -X PUT -d '{"value": 0}' $B/system/0/hbinterval

# The event stream: rail 0's voltage and current every 500 ms, for 2 seconds
curl -s -N --max-time 2 "$B/events?watch=rail/0/voltage,rail/0/current&interval=500"; echo
