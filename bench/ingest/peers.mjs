// In-browser peers of runlens for scripts/bench-ingest.sh: the same JTL held as a File, turned into
// the exact per-label table (count, errors, min, max, mean, p50/p90/p95/p99 by nearest rank,
// sorted[ceil(p*n/100) - 1]); and the floor under them all, the File read and dropped (read-1w,
// read-2w); and the floor under a `?src=` load (stream-url): the file's URL fetched in a worker and
// its body read to the end and dropped (run.py --src).
// URL: peers.html?peer=duckdb-wasm-eh|papaparse|read-1w|read-2w|stream-url&file=F&run=ID&settle=MS
//
// Adapted from the shared research harness (shared/research/browser-perf-harness/bench.mjs and
// peers.mjs: the DuckDB-Wasm set-up, the GROUP BY with quantile_disc, Papa Parse's `step` peer and
// the nearest-rank finish); changed here: the clock starts with the File in hand (reading it is
// timed, as runlens' time includes reading the dropped file), errors and min are counted, DuckDB's
// column types are pinned, and POST /mark brackets the timed part as in drop.js.
//
// - duckdb-wasm-eh: DuckDB-Wasm's eh bundle (one thread; the threaded bundle needs cross-origin
//   isolation, which a page inside a wiki's iframe never has). Loading and instantiating DuckDB
//   happens before the clock starts (init_s), as an app would do at start-up.
// - papaparse: Papa Parse on the main thread, `step` per row over the decoded text, then sorted
//   arrays per label: what a web developer would write.
const q = new URLSearchParams(location.search);
const peer = q.get('peer'), file = q.get('file'), run = q.get('run');
const settle = +(q.get('settle') || 0);
const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const post = (path, obj) => fetch(path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(obj)})
  .then((r) => r.json()).catch(() => ({}));
const longtasks = [];
try {
  new PerformanceObserver((l) => { for (const e of l.getEntries()) longtasks.push({start: e.startTime, duration: e.duration}); })
    .observe({type: 'longtask', buffered: true});
} catch (e) { /* no Long Tasks API */ }

const nearestRank = (sorted, p) => sorted[Math.floor((p * sorted.length + 99) / 100) - 1];

// groups: Map label -> {vals: number[], errors}; values sorted numerically, then read by rank.
function finish(groups) {
  const out = [];
  for (const [label, g] of groups) {
    const v = Float64Array.from(g.vals).sort();
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum += v[i];
    out.push({label, count: v.length, errors: g.errors, min: v[0], max: v[v.length - 1], mean: sum / v.length,
              p50: nearestRank(v, 50), p90: nearestRank(v, 90), p95: nearestRank(v, 95), p99: nearestRank(v, 99)});
  }
  return out;
}

function papa(Papa, buf) {
  const text = new TextDecoder().decode(buf);
  let iE = -1, iL = -1, iS = -1, first = true;
  const groups = new Map();
  Papa.parse(text, {
    worker: false, header: false, skipEmptyLines: true,
    step(res) {
      const row = res.data;
      if (first) { first = false; iE = row.indexOf('elapsed'); iL = row.indexOf('label'); iS = row.indexOf('success'); return; }
      let g = groups.get(row[iL]);
      if (g === undefined) groups.set(row[iL], g = {vals: [], errors: 0});
      g.vals.push(+row[iE]);
      if (row[iS].toLowerCase() === 'false') g.errors++;
    },
  });
  return finish(groups);
}

const DUCK = '/node_modules/@duckdb/duckdb-wasm/dist/';
export const SQL = `SELECT label, count(*) AS count, count(*) FILTER (WHERE lower(success) = 'false') AS errors,
  min(elapsed) AS min, max(elapsed) AS max, avg(elapsed) AS mean,
  quantile_disc(elapsed, 0.5) AS p50, quantile_disc(elapsed, 0.9) AS p90,
  quantile_disc(elapsed, 0.95) AS p95, quantile_disc(elapsed, 0.99) AS p99
FROM read_csv('jtl.csv', header = true, types = {'elapsed': 'BIGINT', 'label': 'VARCHAR', 'success': 'VARCHAR'})
GROUP BY label`;

async function duckInit(result) {
  let t = now();
  const duckdb = await import(DUCK + 'duckdb-browser.mjs');
  const worker = new Worker(DUCK + 'duckdb-browser-eh.worker.js');
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(DUCK + 'duckdb-eh.wasm');
  const conn = await db.connect();
  result.init_s = (now() - t) / 1000;
  result.version = await db.getVersion();
  return {db, conn};
}

async function duck({db, conn}, buf) {
  await db.registerFileBuffer('jtl.csv', new Uint8Array(buf));
  const res = await conn.query(SQL);
  return res.toArray().map((r) => ({label: r.label, count: Number(r.count), errors: Number(r.errors), min: Number(r.min),
    max: Number(r.max), mean: Number(r.mean), p50: Number(r.p50), p90: Number(r.p90), p95: Number(r.p95), p99: Number(r.p99)}));
}

// The floor under every in-tab tool: the File's bytes read in workers and dropped, no parsing.
// Read as runlens reads a range (src/worker/stream.rs): a BYOB reader on `slice().stream()` into
// one reused 1 MiB buffer; with two workers, each reads one half at the same time.
const READER = `onmessage = async (e) => {
  const {file, start, end} = e.data;
  const reader = file.slice(start, end).stream().getReader({mode: 'byob'});
  let buf = new ArrayBuffer(1 << 20), bytes = 0;
  for (;;) {
    const {value, done} = await reader.read(new Uint8Array(buf));
    if (done) break;
    bytes += value.byteLength;
    buf = value.buffer;
  }
  postMessage({bytes});
};`;

function readInit(n) {
  const url = URL.createObjectURL(new Blob([READER], {type: 'text/javascript'}));
  return Array.from({length: n}, () => new Worker(url));
}

async function readAll(workers, f) {
  const half = Math.floor(f.size / workers.length);
  const parts = await Promise.all(workers.map((w, i) => new Promise((resolve) => {
    w.onmessage = (e) => resolve(e.data.bytes);
    w.postMessage({file: f, start: i * half, end: i === workers.length - 1 ? f.size : (i + 1) * half});
  })));
  const bytes = parts.reduce((a, b) => a + b, 0);
  if (bytes !== f.size) throw new Error(`read ${bytes} of ${f.size} bytes`);
  return null;
}

// A download read to the end and dropped, in a worker as runlens downloads (src/worker/download.rs).
const STREAMER = `onmessage = async (e) => {
  const resp = await fetch(e.data.url);
  const reader = resp.body.getReader();
  let bytes = 0;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  postMessage({bytes});
};`;

function streamUrl(url) {
  const w = new Worker(URL.createObjectURL(new Blob([STREAMER], {type: 'text/javascript'})));
  return () => new Promise((resolve) => {
    w.onmessage = (e) => resolve(e.data.bytes);
    w.postMessage({url});
  });
}

// Where the time of a `?src=` load went before decision 0059, without the parsing: the body
// gathered in chunks, glued into one Blob in the worker (as `Input::into_blob` did), and the two
// halves of that Blob read by two workers (BYOB streams, as a range is read). Diagnosis only.
const GLUER = `onmessage = async (e) => {
  const t0 = performance.now();
  const reader = (await fetch(e.data.url)).body.getReader();
  const chunks = [];
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const t1 = performance.now();
  const blob = new Blob(chunks);
  postMessage({blob, chunks: chunks.length, download_s: (t1 - t0) / 1000, glue_s: (performance.now() - t1) / 1000});
};`;

async function blobGlue(url, result) {
  const gluer = new Worker(URL.createObjectURL(new Blob([GLUER], {type: 'text/javascript'})));
  const readers = readInit(2);
  return async () => {
    const t0 = now();
    const glued = await new Promise((resolve) => { gluer.onmessage = (e) => resolve(e.data); gluer.postMessage({url}); });
    const t1 = now();
    await readAll(readers, glued.blob);
    Object.assign(result, {chunks: glued.chunks, download_s: glued.download_s, glue_s: glued.glue_s,
                           read_halves_s: (now() - t1) / 1000, until_glued_s: (t1 - t0) / 1000});
    return null;
  };
}

function loadScript(src) {
  return new Promise((res, rej) => {
    const el = document.createElement('script');
    el.src = src; el.onload = res; el.onerror = () => rej(new Error('load ' + src));
    document.head.appendChild(el);
  });
}

async function main() {
  const result = {run, peer, file, ok: false, longtask_max_ms: null};
  try {
    let compute = null, read = null, f = null;
    if (peer === 'stream-url') {
      const stream = streamUrl(new URL('/data/' + file, location.href).href);
      result.version = 'fetch, body read and dropped';
      read = async () => { result.bytes = await stream(); return null; };
    } else if (peer === 'blob-glue') {
      read = await blobGlue(new URL('/data/' + file, location.href).href, result);
      result.version = 'fetch, chunks glued into a Blob, its halves read';
    } else {
      const t = now();
      const blob = await (await fetch('/data/' + file)).blob();
      result.fetch_s = (now() - t) / 1000;
      f = new File([blob], file);
    }
    if (peer === 'stream-url' || peer === 'blob-glue') {
      /* set up above */
    } else if (peer === 'duckdb-wasm-eh') {
      const d = await duckInit(result);
      compute = (buf) => duck(d, buf);
    } else if (peer === 'papaparse') {
      await loadScript('/node_modules/papaparse/papaparse.min.js');
      result.version = window.Papa.VERSION;
      compute = async (buf) => papa(window.Papa, buf);
    } else if (peer === 'read-1w' || peer === 'read-2w') {
      const workers = readInit(peer === 'read-1w' ? 1 : 2);
      result.version = 'BYOB stream';
      read = () => readAll(workers, f);
    } else throw new Error('unknown peer ' + peer);
    await sleep(settle);
    await post('/mark', {run, phase: 'before'});
    const t0 = now();
    let table;
    if (compute) {
      const buf = await f.arrayBuffer();
      result.read_s = (now() - t0) / 1000;
      table = await compute(buf);
    } else {
      table = await read();
    }
    const t1 = now();
    result.file_to_table_s = (t1 - t0) / 1000;
    await post('/mark', {run, phase: 'after'});
    await sleep(50);
    if (PerformanceObserver.supportedEntryTypes.includes('longtask')) {
      result.longtask_max_ms = longtasks.filter((e) => e.start + e.duration >= t0 && e.start <= t1).reduce((m, e) => Math.max(m, e.duration), 0);
    }
    result.table = table;
    result.ok = true;
  } catch (e) {
    result.error = String((e && e.stack) || e);
  }
  document.getElementById('out').textContent = JSON.stringify({...result, table: undefined}, null, 1);
  await post('/result', result);
}
main();
