// Pages for the browser test (tests/browser.test.ts): what a hostile web page on the lab LAN tries.

/** Everything a page from another origin can fire at the module without the user's help. */
export function attackerPage(target: string): string {
  return `<!doctype html><meta charset=utf-8><title>attacker</title>
<style>body{font:14px sans-serif;margin:12px} li{margin:2px 0} iframe{width:360px;height:60px}</style>
<h2>Attacker page at <span id=origin></span> against ${target}</h2>
<ol id=log></ol>
<iframe name=sink1></iframe><iframe name=sink2></iframe>
<form id=post method=POST target=sink1 enctype=text/plain><input name='{"value":77,"x":"' value='"}'></form>
<form id=get method=GET target=sink2></form>
<script>
const T = ${JSON.stringify(target)};
document.getElementById('origin').textContent = location.origin;
const log = (name, outcome) => {
  const li = document.createElement('li');
  li.textContent = name + ': ' + outcome;
  document.getElementById('log').append(li);
};
const img = (path) => new Promise((done) => {
  const i = new Image();
  i.onload = () => { log('<img> ' + path, 'loaded'); done(); };
  i.onerror = () => { log('<img> ' + path, 'error'); done(); };
  i.src = T + path;
});
async function tryFetch(name, path, init) {
  try {
    const r = await fetch(T + path, init);
    log(name, 'status ' + r.status + ' (' + r.type + ')');
  } catch (e) {
    log(name, 'blocked: ' + e.message);
  }
}
const submit = (id, path) => new Promise((done) => {
  const f = document.getElementById(id);
  const frame = document.getElementsByName(f.target)[0];
  frame.onload = () => { log('form ' + f.method + ' ' + path, 'submitted'); done(); };
  setTimeout(() => { log('form ' + f.method + ' ' + path, 'no load event'); done(); }, 3000);
  f.action = T + path;
  f.submit();
});
async function run() {
  await Promise.all([
    img('/system/0/reset'),
    img('/system/0/save'),
    tryFetch('fetch no-cors PUT hbinterval', '/system/0/hbinterval', { method: 'PUT', mode: 'no-cors', body: '{"value":77}' }),
    tryFetch('fetch cors PUT hbinterval', '/system/0/hbinterval',
      { method: 'PUT', body: '{"value":77}', headers: { 'Content-Type': 'application/json' } }),
    tryFetch('fetch no-cors GET save', '/system/0/save', { mode: 'no-cors' }),
    tryFetch('fetch no-cors GET reset', '/system/0/reset', { mode: 'no-cors' }),
    tryFetch('fetch no-cors POST hbinterval', '/system/0/hbinterval', { method: 'POST', mode: 'no-cors', body: '{"value":77}' }),
  ]);
  log('sendBeacon POST hbinterval', navigator.sendBeacon(T + '/system/0/hbinterval', '{"value":77}') ? 'queued' : 'refused');
  await submit('post', '/system/0/hbinterval');
  await submit('get', '/system/0/reset');
  document.title = 'done';
}
run();
</script>`;
}

/** A rebinding page: served under the attacker's name, it talks to "its own" origin, now the module. */
export function rebindingPage(): string {
  return `<!doctype html><meta charset=utf-8><title>rebinding</title>
<h2>DNS-rebinding page at <span id=origin></span></h2><ol id=log></ol>
<script>
document.getElementById('origin').textContent = location.origin;
const log = (t) => { const li = document.createElement('li'); li.textContent = t; document.getElementById('log').append(li); };
(async () => {
  for (const [name, path, init] of [
    ['PUT hbinterval', '/api/v1/device/system/0/hbinterval', { method: 'PUT', body: '{"value":88}' }],
    ['GET reset', '/api/v1/device/system/0/reset', {}],
    ['GET serialnumber', '/api/v1/device/system/0/serialnumber', {}],
  ]) {
    try {
      const r = await fetch(path, init);
      log(name + ': status ' + r.status + ' ' + (await r.text()).slice(0, 160));
    } catch (e) { log(name + ': blocked: ' + e.message); }
  }
  document.title = 'done';
})();
</script>`;
}
