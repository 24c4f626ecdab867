// A read, a write, an error and the event stream with fetch and EventSource (Node 20 or later:
// npm install eventsource@4; a browser has EventSource built in).
// DEVICE is the server's address: a module or the simulator (the default).
import { EventSource } from 'eventsource';

const DEVICE = process.env.DEVICE ?? 'http://127.0.0.1:9005';
const B = `${DEVICE}/api/v1/device`;

// Read a value
let r = await fetch(`${B}/system/0/serialnumber`);
console.log('serial number:', (await r.json()).response.value);

// Write a value: the answer is the value read back
r = await fetch(`${B}/system/0/hbinterval`, { method: 'PUT', body: JSON.stringify({ value: 20 }) });
console.log('hbinterval:', (await r.json()).response.value);

// An error: the HTTP status, and {error, message} in the answer
r = await fetch(`${B}/system/0/hbinterval`, { method: 'PUT', body: JSON.stringify({ value: 0 }) });
const { error, message } = (await r.json()).response;
console.log(`refused: ${r.status} ${error}: ${message}`);

// The event stream: three events of rail 0's voltage and current, 500 ms apart
const events = new EventSource(`${B}/events?watch=rail/0/voltage,rail/0/current&interval=500`);
let count = 0;
events.onmessage = (e) => {
  const values = JSON.parse(e.data).values;
  console.log('event:', Object.entries(values).map(([name, v]) => `${name}=${v.value}`).join(' '));
  if (++count === 3) events.close();
};
events.onerror = (e) => {
  console.error('event stream:', e.message);
  events.close();
};
