// The importer on bytes in memory (bench/ingest/parse, the same parse.wasm that parse.js times in
// a Chromium worker) run by Node's V8 instead: with both beside the native run, the benchmark
// shows how much of "wasm against native" is the engine rather than the code.
//
//     node parse_node.mjs PARSE.wasm FILE     prints {"secs", "warm_s", "version", "table"}
//
// The timing is parse.js's (parse_time.mjs).
import fs from 'fs';
import { instantiate, timeImports } from './parse_time.mjs';

const [wasmPath, file] = process.argv.slice(2);
const ex = await instantiate(await WebAssembly.compile(fs.readFileSync(wasmPath)));
const { file_to_table_s: secs, warm_s, table } = timeImports(ex, fs.readFileSync(file));
console.log(JSON.stringify({ secs, warm_s, version: `Node ${process.version}, V8 ${process.versions.v8}`, table }));
