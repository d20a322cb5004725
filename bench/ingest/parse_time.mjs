// The timing both runs of bench/ingest/parse's wasm share (parse.js in a Chromium worker,
// parse_node.mjs in Node): the file copied into the module's memory, then five imports of it;
// the first is the cold figure (lazy compilation and V8's tier-up included, as a user's first
// file has them), the median of the other four the warm one. `ex` is the module's exports
// (`buf`, `run`, `table`, `memory`), `bytes` the file.
export function timeImports(ex, bytes) {
  const at = ex.buf(bytes.length);
  new Uint8Array(ex.memory.buffer, at, bytes.length).set(bytes);
  const times = [];
  let len = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    len = ex.run(bytes.length);
    times.push((performance.now() - t0) / 1000);
  }
  if (!len) throw new Error('the import failed');
  const table = JSON.parse(new TextDecoder().decode(new Uint8Array(ex.memory.buffer, ex.table(), len)));
  const warm = times.slice(1).sort((a, b) => a - b);
  return { file_to_table_s: times[0], warm_s: (warm[1] + warm[2]) / 2, table };
}

// wasm-bindgen's placeholders: the library links browser crates this code never calls.
export async function instantiate(module) {
  const imports = {};
  for (const i of WebAssembly.Module.imports(module)) {
    (imports[i.module] ||= {})[i.name] = () => { throw new Error(`${i.module}.${i.name} called`); };
  }
  return (await WebAssembly.instantiate(module, imports)).exports;
}
