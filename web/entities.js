'use strict';
// The device description as one block per entity and one row per operation (loaded last: it starts the page).

// The entity a module is about, opened and listed first so the first screen shows its values.
const MAIN = ['rail', 'port', 'analog', 'system'];

async function start() {
  try {
    const list = await call('GET', '/api/v1/device');
    const sel = $('devices');
    if (list.length > 1) {
      sel.hidden = false;
      for (const d of list) sel.append(el('option', { value: d.serialNumber }, d.serialNumber + ' model ' + d.model));
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
  // The module's own name (the description's `name`), else its model number: never a guess.
  $('title').textContent = (d.name || 'model ' + d.model) + ' ' + d.serialNumber;
  document.title = (d.name || 'Module') + ' ' + d.serialNumber + ' – console';
  $('ident').textContent = 'serial ' + d.serialNumber + ', model ' + d.model + ', module ' + d.module + firmware;
  const list = $('list');
  list.textContent = '';
  const main = MAIN.find((n) => d.entities[n]);
  const names = Object.keys(d.entities).sort();
  if (main) names.unshift(names.splice(names.indexOf(main), 1)[0]);
  for (const name of names) list.append(entityBlock(name, d.entities[name]));
  if (main) list.firstChild.open = true;
  const analog = d.entities.analog;
  $('capture').hidden = !(analog && ops(analog).bulkcapture);
  if (analog) $('capChan').max = analog.count - 1;
}

// operations: the object of docs/api.md §What a module has and accepts, or (older servers) a list of names.
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
    for (const r of body.children) if (!r.hidden) r.read?.();
  });
  index.onchange = () => { for (const r of body.children) r.read?.(); };
  block.append(entity.count > 1 ? el('label', null, 'instance ', index) : '', body);
  return block;
}

// One operation: an input that fits its type, Read / Set / Run buttons, a watch box, a message. Each
// control is named after what it acts on ("system hbinterval", "Set system hbinterval"), for
// assistive technology and tests.
function opRow(entity, index, op, d) {
  const name = entity + ' ' + op;
  const button = (text, onclick) => el('button', { type: 'button', 'aria-label': text + ' ' + name, onclick }, text);
  const params = (d.params || []).map((p) => el('input', {
    type: 'number', min: p.min, max: p.max >= 0 ? p.max : undefined, value: p.min || 0, required: true, title: p.name, 'aria-label': name + ' ' + p.name,
  }));
  const msg = el('span', { class: 'msg', role: 'status' });
  const path = () => entity + '/' + index.value + '/' + op + params.map((p) => '/' + p.value).join('');
  const input = makeInput(d, name);
  const ctl = el('span', { class: 'ctl' }, ...params.map((p) => el('label', null, p.title + ' ', p)));
  const row = el('div', { class: 'op', 'data-op': op },
    el('b', null, op, d.unit ? el('small', null, unitText(d.unit)) : null), ctl);
  const report = (p) => p.then((text) => { msg.className = 'msg'; msg.textContent = text; },
    (e) => { msg.className = 'msg err'; msg.textContent = e.message; });
  const readable = d.get && d.get !== '-' && d.get !== 'none' && d.get !== 'bytes';
  if (readable) {
    row.read = () => report(call('GET', path()).then((r) => { fill(input, d, r); return '= ' + shown(r, d); }));
  }
  if (input) ctl.append(input);
  if (d.get === 'none') {
    ctl.append(button('Run', () => report(call('GET', path()).then((r) => 'done ' + JSON.stringify(r)))));
  }
  if (readable) ctl.append(button('Read', row.read));
  if (d.put && d.put !== '-' && d.put !== 'BYTES') {
    ctl.append(button('Set', () => report(set(path(), input, d, params))));
  }
  if (d.get === 'bytes') ctl.append(button('Download', () => report(slotDownload(path()))));
  if ((d.get === 'int' || d.get === 'bool' || d.get === '?') && !params.length) {
    const live = (key, v) => { if (key === path()) { msg.className = 'msg'; msg.textContent = '= ' + shown(v, d); } };
    const box = el('input', { type: 'checkbox', 'aria-label': 'watch ' + name, onchange: () => watch(path(), d.unit, box.checked, live) });
    ctl.append(el('label', null, box, ' watch'));
  }
  if (input && input.dataset.allowed) ctl.append(el('span', { class: 'hint' }, input.dataset.allowed));
  ctl.onkeydown = enterActs;
  row.append(msg);
  return row;
}

// Enter in a row's field does what its Set button does (Read or Run on a row with no Set).
function enterActs(ev) {
  if (ev.key !== 'Enter' || ev.target.tagName !== 'INPUT' || ev.target.type === 'checkbox') return;
  ev.preventDefault();
  const b = this.querySelector('button[aria-label^="Set "]') || this.querySelector('button');
  if (b) b.click();
}

// A Set sends only what the description allows: an empty or out-of-bounds field is refused here.
function set(path, input, d, params) {
  for (const f of [...params, input]) {
    if (f && !f.checkValidity()) {
      f.focus();
      return Promise.reject(new Error((f.value.trim() === '' ? 'enter a value' : f.value + ' is not allowed') + (f.dataset.allowed ? ': ' + f.dataset.allowed : '')));
    }
  }
  return call('PUT', path, valueOf(input, d)).then((r) => {
    if (input) delete input.dataset.edited; // set: reads may show the module's value again
    return 'set' + (r && 'value' in r ? ' = ' + shown(r, d) : '');
  });
}

// The field for a PUT, limited as the description publishes (min/max or values).
function makeInput(d, name) {
  const put = d.put;
  if (!put || put === '-' || put === 'BYTES') return null;
  // A field the user has edited is theirs: a read that lands later does not overwrite it (fill).
  const label = { 'aria-label': name, oninput: (e) => { e.target.dataset.edited = '1'; } };
  if (put === 'BOOL') return el('input', Object.assign({ type: 'checkbox' }, label));
  if (Array.isArray(d.values)) {
    const s = el('select', label);
    for (const v of d.values) s.append(el('option', { value: v }, String(v)));
    return s;
  }
  if (put[0] === 'I') {
    const r = RANGES[d.type] || [];
    const min = d.min ?? r[0], max = d.max ?? r[1];
    const allowed = min !== undefined ? 'integer ' + min + '..' + max : '';
    const i = el('input', Object.assign({ type: 'number', step: 1, min, max, required: true, placeholder: min !== undefined ? min + '..' + max : '', 'data-allowed': allowed }, label));
    return i;
  }
  const hint = d.type === 'bytes:ipv4' ? '192.168.1.10' : put === 'L32' ? '1, 2, 3' : d.type === 'bytes:hex' ? '0a1b2c' : '';
  const allowed = put === 'L32' && d.min !== undefined ? 'entries ' + d.min + '..' + d.max : put === 'STR' ? 'at most 32 bytes' : '';
  return el('input', Object.assign({ type: 'text', placeholder: hint, required: true, 'data-allowed': allowed, pattern: d.type === 'bytes:ipv4' ? '[0-9., ]+' : undefined }, label));
}

function fill(input, d, r) {
  if (!input || document.activeElement === input || input.dataset.edited || !('value' in r)) return;
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
  if (d.put === 'L32') return text.split(/[\s,]+/).map(Number);
  if (d.put && d.put[0] === 'I' && /^-?\d+$/.test(text)) return Number(text);
  if (d.put === '?') return text === 'true' ? true : text === 'false' ? false : /^-?\d+$/.test(text) ? Number(text) : text;
  return text;
}

// The filter matches operations: each word typed must be in "entity/operation". Only the matching
// operations are shown, their entities opened (and closed again when the filter is cleared).
function applyFilter() {
  const words = $('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  const match = (e, op) => words.every((w) => (e + '/' + op).includes(w));
  for (const d of document.querySelectorAll('#list details')) {
    const e = d.dataset.entity;
    // A block that opens reads its shown rows itself (the toggle listener); an open one reads each
    // row the filter shows again, whose value was not read while it was hidden.
    const wasOpen = d.open;
    d.hidden = words.length > 0 && !d.dataset.ops.split(' ').some((op) => match(e, op));
    if (words.length && !d.hidden && !d.open) { d.open = true; d.dataset.filtered = 1; }
    if (!words.length && d.dataset.filtered) { d.open = false; delete d.dataset.filtered; }
    for (const r of d.querySelectorAll('.op')) {
      const hide = !match(e, r.dataset.op);
      if (r.hidden && !hide && wasOpen && d.open) r.read?.();
      r.hidden = hide;
    }
  }
}
$('filter').oninput = applyFilter;

start();
