'use strict';
// Live values from the event stream as charts, with pause and CSV; bulk capture and store slots.

// show(value): the watched operation's row shows each value the stream brings, as the chart does.
function watch(key, unit, on, show) {
  if (on) watched.set(key, { unit, values: [], last: null, show });
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
    const r = await fetch(url, Object.assign(request('GET', url, { Accept: 'text/event-stream' }), { signal: ctrl.signal }));
    if (r.status === 401) { // reads closed by the operator: the token (asked for if need be), then start again
      await refused(r, 'This module needs a token to read values.');
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
    if (v && w.show) w.show(key, v);
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
      plot(v, 300, 80, null, floorOf(v, w.unit)),
      v.length ? el('div', null, el('small', null, 'min ' + show(lo, w.unit)), el('small', null, 'max ' + show(hi, w.unit))) : null));
  }
}

// The least span a chart's vertical scale shows: 2 % of the value, and no less than a small amount of
// its unit, so that noise on a steady 12 V stays a thin band instead of filling the chart.
const FLOORS = { uV: 10000, uA: 1000, mW: 10, mWh: 10, 'u°C': 100000, mOhm: 10 };
function floorOf(values, unit) {
  let big = 0;
  for (const x of values) big = Math.max(big, Math.abs(x));
  return Math.max(big * 0.02, FLOORS[unit] || 1);
}

// An SVG polyline of `values` scaled to fill width x height, the scale at least `floor` tall (centred
// on the data when the data spans less).
function plot(values, width, height, svg, floor) {
  svg = svg || document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.textContent = '';
  if (!values.length) return svg;
  let lo = Infinity, hi = -Infinity;
  for (const x of values) { if (x < lo) lo = x; if (x > hi) hi = x; }
  if (hi - lo < (floor || 0)) {
    const mid = (hi + lo) / 2;
    lo = mid - floor / 2;
    hi = mid + floor / 2;
  }
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
  // An svg element has no `hidden` property: the attribute goes.
  $('capPlot').removeAttribute('hidden');
  const link = $('slotLink');
  link.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  link.download = path.replace(/\//g, '-') + '.bin';
  link.textContent = 'save ' + bytes.length + ' bytes';
  link.hidden = false;
  $('capture').hidden = false;
  $('capture').open = true;
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
