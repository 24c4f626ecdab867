'use strict';
// The module console, second of four scripts inlined in this order (digest.js, console.js, live.js,
// entities.js): shared helpers, the token form and the API calls. Plain DOM, no framework, same origin
// only. The token goes as HTTP Digest (digest.js), never in clear.

const $ = (id) => document.getElementById(id);
const RANGES = { u8: [0, 255], i8: [-128, 127], u16: [0, 65535], i16: [-32768, 32767], u32: [0, 4294967295], i32: [-2147483648, 2147483647] };
// Units shown also in a larger unit, the largest the value fills: 4999909 µV (5.000 V), 200003 µA (200.003 mA).
const SCALES = {
  uV: [['V', 1e6], ['mV', 1e3]], uA: [['A', 1e6], ['mA', 1e3]], mW: [['W', 1e3]], mWh: [['Wh', 1e3]],
  mOhm: [['Ω', 1e3]], 'u°C': [['°C', 1e6]], us: [['s', 1e6], ['ms', 1e3]], ns: [['ms', 1e6], ['µs', 1e3]],
};
const NICE_UNIT = { uV: 'µV', uA: 'µA', 'u°C': 'µ°C', us: 'µs', um: 'µm', udB: 'µdB', mOhm: 'mΩ' };
const POINTS = 300; // points kept per live chart

let base = '';           // /api/v1/device/{serial}/
let token = localStorage.getItem('token') || '';
let tokenWaiters = [];
let challenge = null;    // the module's last Digest challenge (its nonce and the count used)
const watched = new Map(); // key -> { unit, values: [], el }
const rows = [];           // CSV: [timestamp, ...values in watched order]
let stream = null;         // AbortController of the open event stream
let paused = false;
let restartTimer = 0;

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
    else if (attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k] === true ? '' : attrs[k]);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

// A unit that is a step size ("25.6ms"): the value counts steps, shown as a product.
function stepOf(unit) {
  const m = /^(\d+(?:\.\d+)?)(\D.*)$/.exec(unit || '');
  return m && [Number(m[1]), m[2]];
}

function unitText(unit) {
  const step = stepOf(unit);
  return step ? '× ' + step[0] + ' ' + step[1] : NICE_UNIT[unit] || unit || '';
}

function show(value, unit) {
  const step = stepOf(unit);
  if (step && typeof value === 'number') return value + ' × ' + step[0] + ' ' + step[1] + ' = ' + +(value * step[0]).toPrecision(6) + ' ' + step[1];
  const text = value + (unit ? ' ' + unitText(unit) : '');
  const scales = SCALES[unit];
  if (!scales || typeof value !== 'number') return text;
  const s = scales.find((x) => Math.abs(value) >= x[1]) || scales[scales.length - 1];
  return text + ' (' + (value / s[1]).toFixed(3) + ' ' + s[0] + ')';
}

// The token form: requests that got 401 wait here until the user gives a token.
function askToken(why) {
  $('tokenWhy').textContent = why || 'This module needs a token for changes.';
  $('tokenForm').hidden = false;
  $('token').focus();
  return new Promise((resolve) => tokenWaiters.push(resolve));
}
$('tokenForm').addEventListener('submit', (ev) => {
  ev.preventDefault();
  token = $('token').value.trim();
  localStorage.setItem('token', token);
  $('tokenForm').hidden = true;
  const waiting = tokenWaiters;
  tokenWaiters = [];
  for (const w of waiting) w();
});

// Request init for `method` on `url` (path and query): the token as Digest once a nonce is known. No
// credentials of the browser's own: a 401 then never opens its login prompt.
// Every request carries X-Requested-With: a page on another origin cannot send it without a CORS
// preflight, so the module runs a change a browser sends only with it (docs/security.md).
function request(method, url, extra) {
  const h = Object.assign({ 'X-Requested-With': 'brainstem-console' }, extra);
  if (token && challenge) h.Authorization = digestAuthorization(challenge, token, method, url);
  return { method, headers: h, cache: 'no-store', credentials: 'omit' };
}

// A 401: true when it is worth sending again at once (a first or stale nonce, the token known);
// otherwise the token form, then again.
async function refused(r, why) {
  const sentDigest = !!(token && challenge);
  const c = digestChallenge(r.headers.get('WWW-Authenticate'));
  if (c) challenge = c;
  if (token && c && (!sentDigest || c.stale)) return;
  await askToken(token ? 'The token was refused; enter the right one.' : why);
}

// One API call at a time (a module serves 4 connections; the event stream holds one of them):
// the envelope's `response`, or a thrown Error carrying its message.
let queue = Promise.resolve();
function call(method, path, value, raw) {
  const p = queue.then(() => send(method, path, value, raw));
  queue = p.catch(() => {});
  return p;
}

async function send(method, path, value, raw) {
  for (;;) {
    const url = path.startsWith('/') ? path : base + path;
    const init = request(method, url, method === 'PUT' ? { 'Content-Type': 'application/json' } : {});
    if (method === 'PUT') init.body = JSON.stringify({ value });
    const r = await fetch(url, init);
    if (r.status === 401) {
      await refused(r, 'This module needs a token for changes.');
      continue;
    }
    if (raw && r.ok) return new Uint8Array(await r.arrayBuffer());
    let j = null;
    try { j = await r.json(); } catch (e) { /* not JSON */ }
    const res = j && j.response;
    if (!res) throw new Error('HTTP ' + r.status);
    if (res.error) throw new Error(res.error + ': ' + res.message);
    return res;
  }
}
