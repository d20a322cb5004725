//! Remembers files the user opened (or pasted) so that a reload keeps the workspace; bundles from
//! `src` URLs are fetched again from the link instead. "Close all" forgets them.
//!
//! They live in IndexedDB (through the `idb` crate, https://docs.rs/idb), not localStorage: on
//! GitHub Pages the origin is `<owner>.github.io`, shared by every Pages project of that owner,
//! and localStorage holds about 5 MB for all of them, as text. IndexedDB stores Blobs as they are
//! (the browser keeps large ones on disk; nothing passes through wasm memory), up to the quota the
//! browser grants the origin; when it refuses, `remember` says so.
//! The database is named after the page's directory (`runlens:/runlens/`), so another project on
//! the same origin, or a second runlens deployment under another path, never shares the store.

use idb::{Database, DatabaseEvent, Factory, KeyPath, ObjectStoreParams, TransactionMode};
use wasm_bindgen::{JsCast, JsValue};

const DB_VERSION: u32 = 1;
const STORE: &str = "files";
/// Where earlier versions kept bundles (localStorage, JSON); moved into IndexedDB once.
const LEGACY_KEY: &str = "runlens.recent.v1";

/// `runlens:` and the directory of the page (`/runlens/` for `/runlens/index.html` too).
fn db_name() -> String {
    let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
    let dir = path.rfind('/').map_or("/", |i| &path[..=i]);
    format!("runlens:{dir}")
}

/// An IndexedDB failure in words; a full quota is named as such.
fn describe(e: idb::Error) -> String {
    let s = e.to_string();
    if s.contains("QuotaExceeded") {
        "the browser refused to store it: this site's storage quota is used up (free space, or close other bundles)".into()
    } else if s.contains("SecurityError") || s.contains("IndexedDbNotFound") || s.contains("not found") {
        "the browser does not allow this page to store files (private mode, a sandboxed frame or blocked site data)".into()
    } else {
        format!("the browser could not store it ({s})")
    }
}

async fn open() -> Result<Database, String> {
    let factory = Factory::new().map_err(describe)?;
    let mut request = factory.open(&db_name(), Some(DB_VERSION)).map_err(describe)?;
    request.on_upgrade_needed(|event| {
        if let Ok(db) = event.database() {
            if !db.store_names().iter().any(|n| n == STORE) {
                let mut params = ObjectStoreParams::new();
                params.key_path(Some(KeyPath::new_single("name")));
                let _ = db.create_object_store(STORE, params);
            }
        }
    });
    request.await.map_err(describe)
}

fn record(name: &str, blob: &web_sys::Blob) -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"name".into(), &name.into());
    let _ = js_sys::Reflect::set(&o, &"blob".into(), blob);
    let _ = js_sys::Reflect::set(&o, &"at".into(), &js_sys::Date::now().into());
    o.into()
}

/// Writes one record and waits for its transaction: the request's outcome is the transaction's
/// (a full quota aborts it).
async fn put(db: &Database, name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let tx = db.transaction(&[STORE], TransactionMode::ReadWrite).map_err(describe)?;
    let store = tx.object_store(STORE).map_err(describe)?;
    store.put(&record(name, blob), None).map_err(describe)?;
    match tx.await.map_err(describe)? {
        idb::TransactionResult::Committed => Ok(()),
        idb::TransactionResult::Aborted => {
            Err("the browser refused to store it: this site's storage quota is used up, or storing is blocked".into())
        }
    }
}

/// Remembers a file under its name (a later file of the same name replaces it).
pub async fn remember(name: &str, blob: web_sys::Blob) -> Result<(), String> {
    let db = open().await?;
    let result = put(&db, name, &blob).await;
    db.close();
    result
}

fn blob_of(text: &str) -> Option<web_sys::Blob> {
    web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&text.into())).ok()
}

/// Every remembered file, oldest first, as (name, blob).
pub async fn load() -> Vec<(String, web_sys::Blob)> {
    let Ok(db) = open().await else { return vec![] };
    let mut files = read_all(&db).await.unwrap_or_default();
    // Bundles remembered by an earlier version in localStorage move over once.
    for (name, text) in take_legacy() {
        let Some(blob) = blob_of(&text) else { continue };
        if put(&db, &name, &blob).await.is_ok() {
            files.push((js_sys::Date::now(), name, blob));
        }
    }
    db.close();
    crate::order::sort_by(&mut files, |a, b| a.0.total_cmp(&b.0));
    files.into_iter().map(|(_, n, b)| (n, b)).collect()
}

async fn read_all(db: &Database) -> Result<Vec<(f64, String, web_sys::Blob)>, String> {
    let tx = db.transaction(&[STORE], TransactionMode::ReadOnly).map_err(describe)?;
    let store = tx.object_store(STORE).map_err(describe)?;
    let values = store.get_all(None, None).map_err(describe)?.await.map_err(describe)?;
    let field = |v: &JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).ok();
    Ok(values
        .iter()
        .filter_map(|v| {
            let name = field(v, "name")?.as_string()?;
            // Records of the first IndexedDB version held bytes; later ones hold the Blob.
            let blob = match field(v, "blob").and_then(|b| b.dyn_into::<web_sys::Blob>().ok()) {
                Some(b) => b,
                None => web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&field(v, "bytes")?)).ok()?,
            };
            let at = field(v, "at").and_then(|a| a.as_f64()).unwrap_or(0.0);
            Some((at, name, blob))
        })
        .collect())
}

fn take_legacy() -> Vec<(String, String)> {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else { return vec![] };
    let Ok(Some(text)) = storage.get_item(LEGACY_KEY) else { return vec![] };
    let _ = storage.remove_item(LEGACY_KEY);
    // `[{name, json}]`, read through the `Value` the page parses JSON into anyway (a typed parse
    // would compile a second JSON reader into the page).
    let list = serde_json::from_str::<serde_json::Value>(&text).unwrap_or_default();
    let text_of = |v: &serde_json::Value, k: &str| v.get(k).and_then(|s| s.as_str()).map(str::to_string);
    list.as_array().map_or_else(Vec::new, |l| l.iter().filter_map(|v| Some((text_of(v, "name")?, text_of(v, "json")?))).collect())
}

/// Forgets the file remembered under `name`.
pub async fn forget_name(name: &str) {
    let Ok(db) = open().await else { return };
    if let Ok(tx) = db.transaction(&[STORE], TransactionMode::ReadWrite) {
        if let Ok(store) = tx.object_store(STORE) {
            let _ = store.delete(idb::Query::Key(JsValue::from_str(name)));
        }
        let _ = tx.await;
    }
    db.close();
}

/// Forgets every remembered file.
pub async fn forget() {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.remove_item(LEGACY_KEY);
    }
    let Ok(db) = open().await else { return };
    if let Ok(tx) = db.transaction(&[STORE], TransactionMode::ReadWrite) {
        if let Ok(store) = tx.object_store(STORE) {
            let _ = store.clear();
        }
        let _ = tx.await;
    }
    db.close();
}
