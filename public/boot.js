// Starts runlens. The page's Content-Security-Policy allows no inline script, so instead of the
// inline module Trunk would write, index.html loads this file (Trunk's `pattern_script`, see
// Trunk.toml), which reads the names of the hashed module and wasm from its own data attributes.
const me = document.querySelector("script[data-runlens-js][data-runlens-wasm]");

// A Rust panic shows its own error box (src/ui/panic.rs: the hook runs before the abort). A trap
// that no hook sees (the wasm running out of memory, an `unreachable`) is a WebAssembly.RuntimeError:
// the same box is shown from here, with the browser's words, as text, and a reload link.
const stopped = (err) => {
  if (!(err instanceof WebAssembly.RuntimeError) || document.getElementById("panic")) return;
  const box = document.createElement("div");
  box.id = "panic";
  box.setAttribute("role", "alert");
  const title = document.createElement("strong");
  title.textContent = "runlens stopped because of an internal error. ";
  const msg = document.createElement("pre");
  msg.textContent = String(err);
  const a = document.createElement("a");
  a.setAttribute("href", "");
  a.textContent = "Reload the page";
  box.append(title, msg, a);
  document.body.prepend(box);
};
addEventListener("error", (e) => stopped(e.error));
addEventListener("unhandledrejection", (e) => stopped(e.reason));

try {
  const { default: init } = await import(me.dataset.runlensJs);
  await init({ module_or_path: me.dataset.runlensWasm });
} catch (e) {
  const p = document.createElement("p");
  p.setAttribute("role", "alert");
  p.textContent = "runlens could not start: " + e;
  document.body.append(p);
  throw e;
}
