"""A read, a write, an error and the event stream with requests (pip install requests, or Debian's
python3-requests). DEVICE is the server's address: a module or the simulator (the default)."""
import json
import os

import requests

DEVICE = os.environ.get("DEVICE", "http://127.0.0.1:9005")
B = f"{DEVICE}/api/v1/device"
s = requests.Session()  # one keep-alive connection for every request

# Read a value
r = s.get(f"{B}/system/0/serialnumber")
print("serial number:", r.json()["response"]["value"])

# Write a value: the answer is the value read back
r = s.put(f"{B}/system/0/hbinterval", json={"value": 20})
print("hbinterval:", r.json()["response"]["value"])

# An error: the HTTP status, and {error, message} in the answer
r = s.put(f"{B}/system/0/hbinterval", json={"value": 0})
err = r.json()["response"]
print(f"refused: {r.status_code} {err['error']}: {err['message']}")

# The event stream: three events of rail 0's voltage and current, 500 ms apart
url = f"{B}/events?watch=rail/0/voltage,rail/0/current&interval=500"
with requests.get(url, stream=True) as stream:
    count = 0
    for line in stream.iter_lines(chunk_size=1, decode_unicode=True):  # chunk_size=1: each line as it comes
        if line.startswith("data: "):
            values = json.loads(line[len("data: "):])["values"]
            print("event:", " ".join(f"{name}={v['value']}" for name, v in values.items()))
            count += 1
            if count == 3:
                break
