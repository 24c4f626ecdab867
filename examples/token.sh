#!/bin/sh
# Writes to a module that has a token, the token sent as HTTP Digest (never in clear), with curl.
# DEVICE is the server's address; TOKEN the module's token (the simulator: --token lab-secret).
DEVICE=${DEVICE:-http://127.0.0.1:9005}
TOKEN=${TOKEN:-lab-secret}
B=$DEVICE/api/v1/device

# A write: curl answers the module's 401 with the digest (the token is the password, any user name)
curl -s --digest -u "admin:$TOKEN" -X PUT -d '{"value": 20}' $B/system/0/hbinterval; echo

# A wrong token: 401 (ten within a minute lock this address out for a minute: 429)
curl -s -o /dev/null -w 'wrong token: HTTP %{http_code}\n' --digest -u "admin:wrong" -X PUT -d '{"value": 21}' $B/system/0/hbinterval
