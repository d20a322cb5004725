// The benchmark's hand on runlens' page (scripts/bench-ingest.sh): bench/ingest/server.py puts this
// script into the release build's index.html when it serves it; the build itself never holds it.
// It runs only when the page's address has `#run=ID&file=NAME` (the app never reads the hash).
//
// As a user would: the JTL is held as a File, dropped on `.app` (the real drop path: the page hands
// it to the ingest workers), and the time runs from the drop to the first frame after the latency
// table is in the page. Times are real time (performance.now(); never --virtual-time-budget,
// which stalls the workers). Just before the drop and just after the table, POST /mark lets the
// runner reset and read the renderer's peak memory. The Long Tasks API gives the longest task the
// page's main thread ran meanwhile. Then, untimed: the exact table from the bundle the worker made
// (the page keeps it in IndexedDB for a reload) and the table as shown (its CSV export), posted
// to /result for the runner to check.
//
// With `mode=src` in the hash the page was opened with `?src=/data/FILE` (run.py --src): nothing is
// dropped; the clock starts when the page hands the download to the first ingest worker (its
// `fetch` message, or the worker's `ready` if that comes later: a drop's workers are warm), so the
// time is the download and the import, as a drop's is the import. `nav_s` is the time since the
// page's navigation, for reference. The page's Workers are wrapped to see those two moments, and
// in both modes to log when each worker said what (`messages`: seconds from the drop, worker, kind;
// e.g. when the import worker's `done` and the writer's `written` came, beside the busy bar's times;
// and what the page posted to each, as `to:` and its kind, e.g. `to:write` when it asked the writer).
(() => {
  const h = new URLSearchParams(location.hash.slice(1));
  const run = h.get('run');
  if (!run) return;
  const srcMode = h.get('mode') === 'src';
  const seen = {fetch: null, ready: new Map(), workers: 0, log: []};
  {
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(...args) {
        super(...args);
        const index = seen.workers++;
        this.runlensIndex = index;
        this.addEventListener('message', (e) => {
          if (e.data && e.data.type === 'ready' && !seen.ready.has(this)) seen.ready.set(this, performance.now());
          // For diagnosis: when each worker said what (progress: its bytes and records so far).
          if (e.data && e.data.type !== 'ready') {
            const entry = [+(performance.now() / 1000).toFixed(3), index, e.data.type, e.data.bytes, e.data.records];
            // A part's last fields (borsh, little-endian): records, lines, start, stop, a flag, dropped warnings.
            if (e.data.type === 'part' && e.data.data && e.data.data.length >= 41) {
              const d = e.data.data, v = new DataView(d.buffer, d.byteOffset, d.length), at = d.length - 41;
              entry.push(['records', 'lines', 'start', 'stop'].map((k, i) => [k, Number(v.getBigUint64(at + 8 * i, true))]));
            }
            seen.log.push(entry);
          }
        });
      }
      postMessage(m, t) {
        if (m && m.type === 'fetch' && !seen.fetch) seen.fetch = {at: performance.now(), worker: this};
        // What the page asked of a worker, and when (e.g. the writer's `write`): `to:` and its kind.
        if (m && m.type) seen.log.push([+(performance.now() / 1000).toFixed(3), this.runlensIndex, 'to:' + m.type]);
        return t === undefined ? super.postMessage(m) : super.postMessage(m, t);
      }
    };
  }
  const file = h.get('file'), name = h.get('name') || file;
  const again = !!h.get('again');
  // The notice saying that the file named `n` was read.
  const readNotice = (n) => [...document.querySelectorAll('.notice')].some((e) => e.textContent.includes(n + ': read as'));
  // How long after the table the renderer's memory is read again: the writer's work, and the
  // ending of workers that grew large (the import workers when their job ends, the writer 2 s
  // after its last answer) are done within it.
  const KEEP_AFTER_MS = 5000;
  const settle = +(h.get('settle') || 0), timeout = +(h.get('timeout') || 600) * 1000;
  const now = () => performance.now();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const post = (path, obj) => fetch(path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(obj)})
    .then((r) => r.json()).catch(() => ({}));
  const longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push({start: e.startTime, duration: e.duration});
    }).observe({type: 'longtask', buffered: true});
  } catch (e) { /* no Long Tasks API: longtask_max_ms stays null */ }

  // Resolves with fn()'s first truthy value, checked at once and after every change of the DOM.
  const whenDom = (fn, ms) => new Promise((resolve, reject) => {
    const first = fn();
    if (first) return resolve(first);
    const timer = setTimeout(() => { mo.disconnect(); reject(new Error(`nothing after ${ms / 1000} s`)); }, ms);
    const mo = new MutationObserver(() => {
      const v = fn();
      if (v) { mo.disconnect(); clearTimeout(timer); resolve(v); }
    });
    mo.observe(document.documentElement, {childList: true, subtree: true, characterData: true});
  });

  // The bundle runlens made of the file, as it keeps it in IndexedDB (src/ui/persist.rs).
  async function storedTable() {
    const db = `runlens:${location.pathname.slice(0, location.pathname.lastIndexOf('/') + 1)}`;
    for (let i = 0; i < 600; i++) {
      // Open only a database the app made: opening a missing one would create it without its store.
      if ((await indexedDB.databases()).some((d) => d.name === db)) {
        const rec = await new Promise((resolve, reject) => {
          const open = indexedDB.open(db);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const conn = open.result;
            // A raw file is kept as the bundle the import panel made of it (src/ui/loader.rs, IMPORTED).
            const store = conn.transaction('files').objectStore('files');
            const get = store.get(name);
            get.onsuccess = () => {
              if (get.result) { conn.close(); return resolve(get.result); }
              const imported = store.get('Imported results');
              imported.onsuccess = () => { conn.close(); resolve(imported.result); };
              imported.onerror = () => { conn.close(); reject(imported.error); };
            };
            get.onerror = () => { conn.close(); reject(get.error); };
          };
        });
        if (rec) {
          const bundle = JSON.parse(await rec.blob.text());
          return bundle.runs.flatMap((r) => r.transactions).map((t) => ({
            label: t.name, count: t.samples, errors: t.errors, mean: t.mean_ms, min: t.min_ms, max: t.max_ms,
            p50: t.median_ms, p90: t.p90_ms, p95: t.p95_ms, p99: t.p99_ms,
          }));
        }
      }
      await sleep(100);
    }
    throw new Error(`the bundle of ${name} was not kept in IndexedDB ${db}`);
  }

  // The latency table as shown: its CSV export (Export › Copy CSV) with the clipboard stubbed.
  async function shownCsv() {
    let copied = null;
    navigator.clipboard.writeText = (t) => { copied = t; return Promise.resolve(); };
    const block = [...document.querySelectorAll('.table-block')].find((b) => b.querySelector('table[data-table=latency]'));
    block.querySelector('details.export summary').click();
    [...block.querySelectorAll('details.export button')].find((b) => b.textContent.trim() === 'Copy CSV').click();
    for (let i = 0; i < 300 && copied === null; i++) await sleep(20);
    return copied;
  }

  // A `?src=` load: from the download handed to a ready worker to the first frame with the table;
  // then its table as shown (a downloaded file is not kept in IndexedDB).
  async function srcLoad(result) {
    const outcome = await whenDom(() => document.querySelector('table[data-table=latency] tbody tr') ? 'table'
      : document.querySelector('.notice.error') ? 'error' : null, timeout);
    if (outcome === 'error') throw new Error(document.querySelector('.notice.error').textContent);
    await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => setTimeout(r, 0));
    const t1 = now();
    if (!seen.fetch) throw new Error('the page never handed a download to a worker');
    const ready = seen.ready.get(seen.fetch.worker) ?? seen.fetch.at;
    const t0 = Math.max(seen.fetch.at, ready);
    Object.assign(result, {src_to_table_s: (t1 - t0) / 1000, nav_s: t1 / 1000, fetch_posted_s: seen.fetch.at / 1000,
                           worker_ready_s: ready / 1000, messages: seen.log,
                           // The page's long tasks up to the table (seconds since navigation, ms): a
                           // worker's messages wait for them, the plan's hand-off to the others too.
                           page_longtasks: longtasks.filter((e) => e.start <= t1)
                             .map((e) => [+(e.start / 1000).toFixed(3), Math.round(e.duration)])});
    if (window.runlensIngest && window.runlensIngest.ms != null) result.worker = {ms: window.runlensIngest.ms, read_ms: window.runlensIngest.readMs};
    result.shown_csv = await shownCsv();
    result.ok = true;
    await post('/result', result);
  }

  async function main() {
    const result = {run, file, ok: false, longtask_max_ms: null};
    try {
      await whenDom(() => document.querySelector('.app'), 60000);
      if (srcMode) return await srcLoad(result);
      let t = now();
      const blob = await (await fetch('/data/' + file)).blob();
      result.fetch_s = (now() - t) / 1000;
      result.bytes = blob.size;
      const dt = new DataTransfer();
      dt.items.add(new File([blob], name));
      await sleep(settle);
      await post('/mark', {run, phase: 'before'});
      const t0 = now();
      // When the busy bar came and went, and what it said last (raw results only; for diagnosis).
      const busy = {};
      const watch = new MutationObserver(() => {
        const b = document.querySelector('.busy-text');
        if (b && busy.shown_s === undefined) busy.shown_s = (now() - t0) / 1000;
        if (b) busy.last_text = b.textContent;
        if (!b && busy.shown_s !== undefined && busy.gone_s === undefined) busy.gone_s = (now() - t0) / 1000;
        if (busy.chart_s === undefined && document.querySelector('.chart .main-svg')) busy.chart_s = (now() - t0) / 1000;
        if (again && busy.notice_s === undefined && readNotice(name)) busy.notice_s = (now() - t0) / 1000;
      });
      watch.observe(document.documentElement, {childList: true, subtree: true, characterData: true});
      document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
      const outcome = await whenDom(() => document.querySelector('table[data-table=latency] tbody tr') ? 'table'
        : document.querySelector('.notice.error') ? 'error' : null, timeout);
      if (outcome === 'error') throw new Error(document.querySelector('.notice.error').textContent);
      // For diagnosis: when the table was in the page, and when the frame that shows it began.
      busy.table_s = (now() - t0) / 1000;
      // After that frame: requestAnimationFrame runs before the paint, the task after it follows it.
      await new Promise((r) => requestAnimationFrame(() => { busy.frame_s = (now() - t0) / 1000; r(); }));
      await new Promise((r) => setTimeout(r, 0));
      const t1 = now();
      result.drop_to_table_s = (t1 - t0) / 1000;
      await post('/mark', {run, phase: 'after'});
      await sleep(50); // the observer gets the last task's entry after it ended
      // Untimed, for diagnosis: when the chart beside the table was drawn.
      await whenDom(() => document.querySelector('.chart .main-svg'), 10000).catch(() => null);
      watch.disconnect();
      result.busy = busy;
      result.messages = seen.log.map((e) => [+(e[0] - t0 / 1000).toFixed(3), ...e.slice(1, 3)]);
      result.chart_at_table = {plotly_loaded: !!window.Plotly, drawn: !!document.querySelector('.chart .main-svg')};
      const during = longtasks.filter((e) => e.start + e.duration >= t0 && e.start <= t1);
      result.longtask_list = during.map((e) => [+((e.start - t0) / 1000).toFixed(3), +e.duration.toFixed(1)]);
      if (PerformanceObserver.supportedEntryTypes.includes('longtask')) {
        result.longtask_max_ms = during.reduce((m, e) => Math.max(m, e.duration), 0);
        result.longtasks = during.length;
      }
      // One worker: the worker's own time for the import and the part of it spent reading the
      // file (src/worker: `runlensIngest`), so wasm parsing can be set beside the native importer.
      if (window.runlensIngest && window.runlensIngest.ms != null) result.worker = {ms: window.runlensIngest.ms, read_ms: window.runlensIngest.readMs};
      if (performance.memory) result.js_heap_mb = performance.memory.usedJSHeapSize / 2 ** 20;
      result.notice = [...document.querySelectorAll('.notice')].map((n) => n.textContent).find((s) => s.includes(name + ':')) || null;
      result.table = await storedTable();
      result.shown_csv = await shownCsv();
      // Untimed: what the tab still holds once the drop settled (the writer has made the JSON the
      // page keeps, and workers that grew large were ended), read by the runner as 'kept_mb'.
      // Garbage is collected first (the browser runs with --expose-gc, tools.py): left to V8's
      // timing, byte arrays already dropped moved the figure by about 10 MB either way
      // (docs/decisions/0052-timeline-buckets.md, sixth round).
      await sleep(KEEP_AFTER_MS);
      if (window.gc) { window.gc(); await sleep(200); }
      await post('/mark', {run, phase: 'settled'});
      // The workers' memory as they said it, and how many were ended for it (ui::ingest::pool).
      if (window.runlensWorkers) result.workers = {...window.runlensWorkers};
      // `again`: the same bytes dropped a second time, once the first drop settled (its workers
      // ended and started again, ui::ingest::pool), timed from the drop to the file's notice, as
      // the first drop is in `busy.notice_s`.
      if (again) {
        const second = 'again-' + name;
        const dt2 = new DataTransfer();
        dt2.items.add(new File([blob], second));
        const t2 = now();
        document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt2, bubbles: true, cancelable: true}));
        await whenDom(() => readNotice(second), timeout);
        result.again_notice_s = (now() - t2) / 1000;
      }
      result.ok = true;
    } catch (e) {
      result.error = String((e && e.stack) || e);
    }
    await post('/result', result);
  }
  main();
})();
