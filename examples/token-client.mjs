// Writes to a module that has a token, the token sent as HTTP Digest with digest-fetch (npm install
// digest-fetch@3; SHA-256: the token is the password, any user name).
// DEVICE is the server's address; TOKEN the module's token.
import DigestClient from 'digest-fetch';

const DEVICE = process.env.DEVICE ?? 'http://127.0.0.1:9005';
const TOKEN = process.env.TOKEN ?? 'lab-secret';
const B = `${DEVICE}/api/v1/device`;
const client = new DigestClient('admin', TOKEN, { algorithm: 'SHA-256' });

// The first write meets the module's 401 and is sent again with the digest
let r = await client.fetch(`${B}/system/0/hbinterval`, { method: 'PUT', body: JSON.stringify({ value: 20 }) });
console.log('hbinterval:', (await r.json()).response.value);

// The next one goes with the digest at once: the same nonce, the next count
r = await client.fetch(`${B}/system/0/hbinterval`, { method: 'PUT', body: JSON.stringify({ value: 21 }) });
console.log('hbinterval:', (await r.json()).response.value);
