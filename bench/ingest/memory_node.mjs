// How much the importer's wasm memory grows while it imports a file (bench/ingest/parse's wasm,
// one thread, the bytes already in memory), run by Node: a wasm memory never shrinks, so what an
// ingest worker keeps after a file is at least this.
//
//     node memory_node.mjs PARSE.wasm FILE     prints {"file_mb", "growth_mb", "again_mb", "ok"}
//
// PARSE.wasm as scripts/bench-ingest.sh builds it (target/bench-ingest/parse.wasm), or straight
// from `cargo build --release --target wasm32-unknown-unknown --lib` in bench/ingest/parse.
import fs from 'fs';
import { instantiate } from './parse_time.mjs';

const [wasmPath, file] = process.argv.slice(2);
const ex = await instantiate(await WebAssembly.compile(fs.readFileSync(wasmPath)));
const bytes = fs.readFileSync(file);
const at = ex.buf(bytes.length);
new Uint8Array(ex.memory.buffer, at, bytes.length).set(bytes);
const size = () => ex.memory.buffer.byteLength;
const m0 = size();
const first = ex.run(bytes.length);
const m1 = size();
const second = ex.run(bytes.length);
const m2 = size();
console.log(JSON.stringify({
  file_mb: bytes.length / 1e6,
  growth_mb: (m1 - m0) / 1e6, // the first import
  again_mb: (m2 - m1) / 1e6, // a second import of the same file (reuse, or a leak)
  ok: first > 0 && second > 0,
}));
