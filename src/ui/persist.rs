//! Remembers bundles opened from local files or pasted text in localStorage, so a reload keeps
//! the workspace (bundles from `src` URLs are fetched again from the link instead). "Close all"
//! forgets them.

use serde::{Deserialize, Serialize};

const KEY: &str = "runlens.recent.v1";
/// localStorage holds about 5 MB per site; larger bundles are not remembered.
const MAX_TOTAL_BYTES: usize = 4 << 20;

#[derive(Serialize, Deserialize)]
pub struct Stored {
    pub name: String,
    pub json: String,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn load() -> Vec<Stored> {
    storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Adds a bundle; returns false when it is too large (or storage is unavailable).
pub fn remember(name: &str, json: String) -> bool {
    let Some(s) = storage() else { return false };
    let mut all = load();
    all.retain(|x| x.name != name);
    all.push(Stored { name: name.to_string(), json });
    if all.iter().map(|x| x.json.len()).sum::<usize>() > MAX_TOTAL_BYTES {
        return false;
    }
    serde_json::to_string(&all).is_ok_and(|t| s.set_item(KEY, &t).is_ok())
}

pub fn forget() {
    if let Some(s) = storage() {
        let _ = s.remove_item(KEY);
    }
}
