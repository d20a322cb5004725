// parse.html's script, and the Web Worker it starts (the same file). The worker fetches the
// module and the file and times five imports of it (parse_time.mjs, which the run in Node,
// parse_node.mjs, shares). The page posts the result to /result.
const q = new URLSearchParams(location.search);
if (typeof document !== 'undefined') {
  const post = (obj) => fetch('/result', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run: q.get('run'), ...obj }) });
  const w = new Worker('parse.js' + location.search);
  w.onmessage = (e) => post(e.data);
  w.onerror = (e) => post({ ok: false, error: String(e.message || e) });
} else {
  (async () => {
    try {
      const { instantiate, timeImports } = await import('./parse_time.mjs');
      const ex = await instantiate(await WebAssembly.compileStreaming(fetch('/data/parse.wasm')));
      const bytes = new Uint8Array(await (await fetch('/data/' + q.get('file'))).arrayBuffer());
      postMessage({ ok: true, ...timeImports(ex, bytes) });
    } catch (e) {
      postMessage({ ok: false, error: String((e && e.stack) || e) });
    }
  })();
}
