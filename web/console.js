'use strict';
// The module console: reads the device description, builds one row per operation, watches values
// through the event stream, runs bulk captures. Plain DOM, no framework, same origin only.

const $ = (id) => document.getElementById(id);
const MODELS = { 4: 'USBStem', 5: 'EtherStem', 14: 'MTM-PM-1', 17: 'USBHub2x4', 19: 'USBHub3p', 21: 'USBC-Switch', 24: 'USBHub3c', 26: 'PD3M', 27: 'USBExt3c' };
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

function unitText(unit) { return NICE_UNIT[unit] || unit || ''; }

function show(value, unit) {
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

function headers(extra) {
  const h = Object.assign({}, extra);
  if (token) h.Authorization = 'Bearer ' + token;
  return h;
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
    const init = { method, headers: headers(method === 'PUT' ? { 'Content-Type': 'application/json' } : {}), cache: 'no-store' };
    if (method === 'PUT') init.body = JSON.stringify({ value });
    const r = await fetch(path.startsWith('/') ? path : base + path, init);
    if (r.status === 401) {
      await askToken(token ? 'The token was refused; enter the right one.' : 'This module needs a token for changes.');
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

// ---- the device and its entities ----------------------------------------------------------------

async function start() {
  try {
    const list = await call('GET', '/api/v1/device');
    const sel = $('devices');
    if (list.length > 1) {
      sel.hidden = false;
      for (const d of list) sel.append(el('option', { value: d.serialNumber }, d.serialNumber + ' ' + (MODELS[d.model] || 'model ' + d.model)));
      sel.onchange = () => load(sel.value);
    }
    await load(list[0].serialNumber);
  } catch (e) {
    $('ident').textContent = 'cannot reach the module: ' + e.message;
    $('ident').className = 'err';
  }
}

async function load(serial) {
  base = '/api/v1/device/' + serial + '/';
  stopStream();
  watched.clear();
  rows.length = 0;
  drawCharts();
  const d = await call('GET', base.slice(0, -1));
  let firmware = '';
  try {
    const v = (await call('GET', 'system/0/version')).rawValue;
    firmware = ', firmware ' + (v >>> 28) + '.' + ((v >>> 24) & 15) + '.' + (v & 0xffffff);
  } catch (e) { /* no version on this module */ }
  $('title').textContent = (MODELS[d.model] || 'model ' + d.model) + ' ' + d.serialNumber;
  $('ident').textContent = 'serial ' + d.serialNumber + ', model ' + d.model + ', module ' + d.module + firmware;
  const list = $('list');
  list.textContent = '';
  for (const name of Object.keys(d.entities).sort()) list.append(entityBlock(name, d.entities[name]));
  const analog = d.entities.analog;
  $('capture').hidden = !(analog && ops(analog).bulkcapture);
  if (analog) $('capChan').max = analog.count - 1;
}

// operations: the object of DECISIONS §Self-description, or (older servers) a list of names.
function ops(entity) {
  const o = entity.operations;
  if (!Array.isArray(o)) return o;
  const out = {};
  for (const n of o) out[n] = { get: '?', put: '?', type: '', unit: '', params: [] };
  return out;
}

function entityBlock(name, entity) {
  const all = ops(entity);
  const index = el('select', { 'aria-label': name + ' instance' });
  for (let i = 0; i < entity.count; i++) index.append(el('option', { value: i }, String(i)));
  const body = el('div');
  const block = el('details', { 'data-entity': name, 'data-ops': Object.keys(all).join(' ') },
    el('summary', null, name + ' ', el('small', null, entity.count + (entity.count === 1 ? ' instance' : ' instances'))));
  let built = false;
  block.addEventListener('toggle', () => {
    if (!block.open) return;
    if (!built) {
      built = true;
      for (const op of Object.keys(all)) body.append(opRow(name, index, op, all[op]));
      applyFilter();
    }
    for (const r of body.children) r.read && r.read();
  });
  index.onchange = () => { for (const r of body.children) r.read && r.read(); };
  block.append(entity.count > 1 ? el('label', null, 'instance ', index) : '', body);
  return block;
}

// One operation: an input that fits its type, Read / Set / Run buttons, a watch box, a message.
function opRow(entity, index, op, d) {
  const params = (d.params || []).map((p) => el('input', {
    type: 'number', min: p.min, max: p.max >= 0 ? p.max : undefined, value: p.min || 0, title: p.name, 'aria-label': p.name,
  }));
  const msg = el('span', { class: 'msg' });
  const path = () => entity + '/' + index.value + '/' + op + params.map((p) => '/' + p.value).join('');
  const input = makeInput(d);
  const ctl = el('span', { class: 'ctl' }, ...params.map((p) => el('label', null, p.title + ' ', p)));
  const row = el('div', { class: 'op', 'data-op': op }, el('b', null, op, d.unit ? el('small', null, unitText(d.unit)) : null), ctl);
  const report = (p) => p.then((text) => { msg.className = 'msg'; msg.textContent = text; },
    (e) => { msg.className = 'msg err'; msg.textContent = e.message; });
  const readable = d.get && d.get !== '-' && d.get !== 'none' && d.get !== 'bytes';
  if (readable) {
    row.read = () => report(call('GET', path()).then((r) => { fill(input, d, r); return '= ' + shown(r, d); }));
  }
  if (input) ctl.append(input);
  if (d.get === 'none') {
    ctl.append(el('button', { type: 'button', onclick: () => report(call('GET', path()).then((r) => 'done ' + JSON.stringify(r))) }, 'Run'));
  }
  if (readable) ctl.append(el('button', { type: 'button', onclick: row.read }, 'Read'));
  if (d.put && d.put !== '-' && d.put !== 'BYTES') {
    ctl.append(el('button', { type: 'button', onclick: () => report(call('PUT', path(), valueOf(input, d)).then((r) => 'set' + (r && 'value' in r ? ' = ' + shown(r, d) : ''))) }, 'Set'));
  }
  if (d.get === 'bytes') ctl.append(el('button', { type: 'button', onclick: () => report(slotDownload(path())) }, 'Download'));
  if ((d.get === 'int' || d.get === 'bool' || d.get === '?') && !params.length) {
    const box = el('input', { type: 'checkbox', onchange: () => watch(entity + '/' + index.value + '/' + op, d.unit, box.checked) });
    ctl.append(el('label', null, box, ' watch'));
  }
  ctl.append(msg);
  return row;
}

function makeInput(d) {
  const put = d.put;
  if (!put || put === '-' || put === 'BYTES') return null;
  const label = { 'aria-label': 'value' };
  if (put === 'BOOL') return el('input', Object.assign({ type: 'checkbox' }, label));
  if (Array.isArray(d.values)) {
    const s = el('select', label);
    for (const v of d.values) s.append(el('option', { value: v }, String(v)));
    return s;
  }
  if (put[0] === 'I') {
    const r = RANGES[d.type] || [];
    return el('input', Object.assign({ type: 'number', step: 1, min: d.min ?? r[0], max: d.max ?? r[1] }, label));
  }
  const hint = d.type === 'bytes:ipv4' ? '192.168.1.10' : put === 'L32' ? '1, 2, 3' : d.type === 'bytes:hex' ? '0a1b2c' : '';
  return el('input', Object.assign({ type: 'text', placeholder: hint, pattern: d.type === 'bytes:ipv4' ? '[0-9., ]+' : undefined }, label));
}

function fill(input, d, r) {
  if (!input || document.activeElement === input || !('value' in r)) return;
  if (input.type === 'checkbox') input.checked = !!r.value;
  else input.value = r.value;
}

function shown(r, d) {
  if (!('value' in r)) return JSON.stringify(r);
  return typeof r.value === 'number' ? show(r.value, d.unit) : String(r.value);
}

// The JSON value a PUT sends, by the operation's put code.
function valueOf(input, d) {
  if (!input) return null;
  if (input.type === 'checkbox') return input.checked;
  const text = input.value.trim();
  if (d.put === 'L32') return text === '' ? [] : text.split(/[\s,]+/).map(Number);
  if (d.put && d.put[0] === 'I' && /^-?\d+$/.test(text)) return Number(text);
  if (d.put === '?') return text === 'true' ? true : text === 'false' ? false : /^-?\d+$/.test(text) ? Number(text) : text;
  return text;
}

// ---- live values: one event stream for every watched key ----------------------------------------

function watch(key, unit, on) {
  if (on) watched.set(key, { unit, values: [], last: null });
  else watched.delete(key);
  rows.length = 0;
  for (const w of watched.values()) w.values.length = 0;
  drawCharts();
  clearTimeout(restartTimer);
  restartTimer = setTimeout(restartStream, 150); // several boxes ticked at once: one stream
}

function stopStream() {
  if (stream) stream.abort();
  stream = null;
}

async function restartStream() {
  stopStream();
  if (paused || !watched.size) {
    $('liveState').textContent = paused ? 'paused' : 'tick “watch” next to a measurement below';
    return;
  }
  const ctrl = new AbortController();
  stream = ctrl;
  const url = base + 'events?watch=' + [...watched.keys()].join(',') + '&interval=' + ($('interval').value || 1000);
  try {
    const r = await fetch(url, { headers: headers({ Accept: 'text/event-stream' }), signal: ctrl.signal, cache: 'no-store' });
    if (r.status === 401) { // reads closed by the operator: ask, then start again
      await askToken('This module needs a token to read values.');
      if (stream === ctrl) restartStream();
      return;
    }
    if (!r.ok) {
      const j = await r.json().catch(() => null);
      throw new Error(j && j.response ? j.response.error + ': ' + j.response.message : 'HTTP ' + r.status);
    }
    $('liveState').className = 'msg';
    $('liveState').textContent = 'live';
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buf += dec.decode(value, { stream: true });
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        for (const line of block.split('\n')) if (line.startsWith('data: ')) onEvent(JSON.parse(line.slice(6)));
      }
    }
  } catch (e) {
    if (stream !== ctrl) return; // stopped on purpose
    $('liveState').className = 'msg err';
    $('liveState').textContent = e.message + ' (retrying)';
    stream = null;
    restartTimer = setTimeout(restartStream, 3000);
  }
}

function onEvent(ev) {
  const row = [ev.timestamp];
  for (const [key, w] of watched) {
    const v = ev.values[key];
    const n = v && 'rawValue' in v ? Number(v.value) : NaN;
    row.push(Number.isFinite(n) ? n : '');
    w.last = v;
    if (Number.isFinite(n)) {
      w.values.push(n);
      if (w.values.length > POINTS) w.values.shift();
    }
  }
  rows.push(row);
  if (rows.length > 100000) rows.shift();
  drawCharts();
}

function drawCharts() {
  const box = $('charts');
  box.textContent = '';
  for (const [key, w] of watched) {
    const v = w.values;
    const last = w.last && w.last.error ? w.last.error + ': ' + w.last.message : v.length ? show(v[v.length - 1], w.unit) : '…';
    const lo = Math.min(...v), hi = Math.max(...v);
    box.append(el('div', { class: 'chart', 'data-key': key },
      el('div', null, el('span', null, key), el('b', { class: w.last && w.last.error ? 'err' : '' }, last)),
      plot(v, 300, 80),
      v.length ? el('div', null, el('small', null, 'min ' + show(lo, w.unit)), el('small', null, 'max ' + show(hi, w.unit))) : null));
  }
}

// An SVG polyline of `values` scaled to fill width x height (flat data drawn mid-height).
function plot(values, width, height, svg) {
  svg = svg || document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.textContent = '';
  if (!values.length) return svg;
  let lo = Infinity, hi = -Infinity;
  for (const x of values) { if (x < lo) lo = x; if (x > hi) hi = x; }
  const span = hi - lo || 1;
  const step = width / Math.max(values.length - 1, 1);
  const pts = [];
  for (let i = 0; i < values.length; i++) {
    const y = hi === lo ? height / 2 : height - 4 - ((values[i] - lo) / span) * (height - 8);
    pts.push((i * step).toFixed(1) + ',' + y.toFixed(1));
  }
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', pts.join(' '));
  svg.append(line);
  return svg;
}

$('pause').onclick = () => {
  paused = !paused;
  $('pause').textContent = paused ? 'Resume' : 'Pause';
  restartStream();
};
$('interval').onchange = restartStream;
$('clear').onclick = () => { rows.length = 0; for (const w of watched.values()) w.values.length = 0; drawCharts(); };
$('csv').onclick = () => {
  const head = ['timestamp', ...watched.keys()].join(',');
  const text = [head, ...rows.map((r) => r.join(','))].join('\n') + '\n';
  save(new Blob([text], { type: 'text/csv' }), 'values.csv');
};

function save(blob, name) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

// ---- bulk capture and store slots ---------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A slot's bytes as 16-bit little-endian samples, plotted; the link downloads them.
async function slotDownload(path) {
  const bytes = await call('GET', path, undefined, true);
  const samples = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) samples.push(bytes[i] | (bytes[i + 1] << 8));
  plot(samples, 600, 150, $('capPlot'));
  const link = $('slotLink');
  link.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  link.download = path.replace(/\//g, '-') + '.bin';
  link.textContent = 'save ' + bytes.length + ' bytes';
  link.hidden = false;
  $('capture').hidden = false;
  const lo = samples.length ? Math.min(...samples) : 0, hi = samples.length ? Math.max(...samples) : 0;
  return bytes.length + ' bytes, ' + samples.length + ' samples, min ' + lo + ', max ' + hi;
}

function capMsg(p) {
  const m = $('capMsg');
  m.className = 'msg';
  m.textContent = 'working…';
  return p.then((t) => { m.textContent = t; }, (e) => { m.className = 'msg err'; m.textContent = e.message; });
}

$('slotGet').onclick = () => capMsg(slotDownload('store/' + $('slotStore').value + '/slotdata/' + $('slotNum').value));
$('capRun').onclick = () => capMsg((async () => {
  const ch = 'analog/' + $('capChan').value + '/';
  await call('PUT', ch + 'bulkcapturesamplerate', Number($('capRate').value));
  await call('PUT', ch + 'bulkcapturenumberofsamples', Number($('capN').value));
  await call('GET', ch + 'bulkcapture');
  for (let i = 0; i < 300; i++) {
    const s = (await call('GET', ch + 'bulkcapturestate')).value;
    if (s === 2) return 'captured: ' + await slotDownload('store/' + $('slotStore').value + '/slotdata/' + $('slotNum').value);
    if (s === 3) throw new Error('the capture failed (bulkcapturestate 3)');
    await sleep(100);
  }
  throw new Error('the capture did not finish within 30 s');
})());

// The filter shows the entities whose name or one of whose operations contains the text, opened,
// with only the matching operations (an entity's rows are built when it is first opened).
function applyFilter() {
  const f = $('filter').value.toLowerCase();
  for (const d of document.querySelectorAll('details')) {
    const whole = !f || d.dataset.entity.includes(f);
    d.hidden = !whole && !d.dataset.ops.split(' ').some((op) => op.includes(f));
    if (f && !d.hidden && !d.open) d.open = true;
    for (const r of d.querySelectorAll('.op')) r.hidden = !whole && !r.dataset.op.includes(f);
  }
}
$('filter').oninput = applyFilter;

start();
