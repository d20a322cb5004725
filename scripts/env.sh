# Sourced by the scripts: puts cargo's and npm's tools first on PATH (Trunk finds wasm-opt there).
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
