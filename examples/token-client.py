"""Writes to a module that has a token, the token sent as HTTP Digest (requests' HTTPDigestAuth: the
token is the password, any user name). DEVICE is the server's address; TOKEN the module's token."""
import os

import requests
from requests.auth import HTTPDigestAuth

DEVICE = os.environ.get("DEVICE", "http://127.0.0.1:9005")
TOKEN = os.environ.get("TOKEN", "lab-secret")
B = f"{DEVICE}/api/v1/device"
s = requests.Session()
s.auth = HTTPDigestAuth("admin", TOKEN)

# The first write meets the module's 401 and is sent again with the digest
r = s.put(f"{B}/system/0/hbinterval", json={"value": 20})
print("hbinterval:", r.json()["response"]["value"])

# The next one goes with the digest at once: the same nonce, the next count
r = s.put(f"{B}/system/0/hbinterval", json={"value": 21})
print("hbinterval:", r.json()["response"]["value"])
