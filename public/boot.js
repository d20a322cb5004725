// Starts runlens. The page's Content-Security-Policy allows no inline script, so instead of the
// inline module Trunk would write, index.html loads this file (Trunk's `pattern_script`, see
// Trunk.toml), which reads the names of the hashed module and wasm from its own data attributes.
const me = document.querySelector("script[data-runlens-js][data-runlens-wasm]");
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
