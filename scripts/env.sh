# Sourced by the scripts: puts cargo's and npm's tools first on PATH (Trunk finds wasm-opt there).
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# The browser and ChromeDriver scripts/setup.sh found (CHROME, CHROMEDRIVER, the webdriver.json).
if [ -f "$PWD/.tools/browser.env" ]; then source "$PWD/.tools/browser.env"; fi
