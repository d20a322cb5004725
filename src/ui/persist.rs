//! Remembers files the user opened (or pasted) so that a reload keeps the workspace; bundles from
//! `src` URLs are fetched again from the link instead. "Close all" forgets them.
//!
//! They live in IndexedDB (through `web_sys`' own bindings: docs/decisions/0015-indexeddb-through-web-sys.md says why not the `idb`
//! crate), not localStorage: on GitHub Pages the origin is `<owner>.github.io`, shared by every
//! Pages project of that owner, and localStorage holds about 5 MB for all of them, as text. IndexedDB stores Blobs as they are
//! (the browser keeps large ones on disk; nothing passes through wasm memory), up to the quota the
//! browser grants the origin; when it refuses, `remember` says so.
//! The database is named after the page's directory (`runlens:/runlens/`), so another project on
//! the same origin, or a second runlens deployment under another path, never shares the store.

use js_sys::{Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStore, IdbObjectStoreParameters, IdbRequest, IdbTransaction, IdbTransactionMode};

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

/// An IndexedDB failure (a `DOMException`, or nothing when IndexedDB is missing) in words; a full
/// quota is named as such.
fn describe(e: Option<&JsValue>) -> String {
    let text =
        |k: &str| e.and_then(|e| Reflect::get(e, &k.into()).ok()).and_then(|v| v.as_string()).unwrap_or_default();
    let name = text("name");
    if name == "QuotaExceededError" {
        "the browser refused to store it: this site's storage quota is used up (free space, or close other bundles)"
            .into()
    } else if e.is_none() || name == "SecurityError" || name == "InvalidStateError" {
        "the browser does not allow this page to store files (private mode, a sandboxed frame or blocked site data)"
            .into()
    } else {
        format!("the browser could not store it ({name}: {})", text("message"))
    }
}

/// The result of a request once it succeeds, or its error in words. Its `success` and `error`
/// events settle a promise directly (no Rust closure per request).
async fn done(request: &IdbRequest) -> Result<JsValue, String> {
    let settled = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    match JsFuture::from(settled).await {
        Ok(_) => request.result().map_err(|e| describe(Some(&e))),
        Err(_) => Err(describe(request.error().ok().flatten().map(JsValue::from).as_ref())),
    }
}

/// Waits for a transaction to commit: an abort (a full quota aborts it) or an error is its error
/// in words.
async fn committed(tx: &IdbTransaction) -> Result<(), String> {
    let settled = Promise::new(&mut |resolve, reject| {
        tx.set_oncomplete(Some(&resolve));
        tx.set_onabort(Some(&reject));
        tx.set_onerror(Some(&reject));
    });
    JsFuture::from(settled).await.map(drop).map_err(|_| match tx.error() {
        Some(e) => describe(Some(&e.into())),
        None => "the browser refused to store it: this site's storage quota is used up, or storing is blocked".into(),
    })
}

async fn open() -> Result<IdbDatabase, String> {
    let factory = web_sys::window().and_then(|w| w.indexed_db().ok().flatten()).ok_or_else(|| describe(None))?;
    let request = factory.open_with_u32(&db_name(), DB_VERSION).map_err(|e| describe(Some(&e)))?;
    let upgrading = request.clone();
    // Kept until the request is done (an upgrade comes before success), then dropped.
    let on_upgrade = Closure::once(move || {
        if let Some(db) = upgrading.result().ok().and_then(|r| r.dyn_into::<IdbDatabase>().ok()) {
            if !db.object_store_names().contains(STORE) {
                let params = IdbObjectStoreParameters::new();
                params.set_key_path(&"name".into());
                let _ = db.create_object_store_with_optional_parameters(STORE, &params);
            }
        }
    });
    request.set_onupgradeneeded(Some(on_upgrade.as_ref().unchecked_ref()));
    let opened = done(&request).await;
    request.set_onupgradeneeded(None);
    drop(on_upgrade);
    opened?.dyn_into::<IdbDatabase>().map_err(|e| describe(Some(&e)))
}

/// The store in a new transaction of `mode`.
fn store(db: &IdbDatabase, mode: IdbTransactionMode) -> Result<(IdbTransaction, IdbObjectStore), String> {
    let tx = db.transaction_with_str_and_mode(STORE, mode).map_err(|e| describe(Some(&e)))?;
    let store = tx.object_store(STORE).map_err(|e| describe(Some(&e)))?;
    Ok((tx, store))
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
async fn put(db: &IdbDatabase, name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let (tx, store) = store(db, IdbTransactionMode::Readwrite)?;
    store.put(&record(name, blob)).map_err(|e| describe(Some(&e)))?;
    committed(&tx).await
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

async fn read_all(db: &IdbDatabase) -> Result<Vec<(f64, String, web_sys::Blob)>, String> {
    let (_tx, store) = store(db, IdbTransactionMode::Readonly)?;
    let values: js_sys::Array =
        done(&store.get_all().map_err(|e| describe(Some(&e)))?).await?.dyn_into().map_err(|e| describe(Some(&e)))?;
    let field = |v: &JsValue, k: &str| Reflect::get(v, &k.into()).ok();
    Ok(values
        .iter()
        .filter_map(|v| {
            let name = field(&v, "name")?.as_string()?;
            // Records of the first IndexedDB version held bytes; later ones hold the Blob.
            let blob = match field(&v, "blob").and_then(|b| b.dyn_into::<web_sys::Blob>().ok()) {
                Some(b) => b,
                None => web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&field(&v, "bytes")?)).ok()?,
            };
            let at = field(&v, "at").and_then(|a| a.as_f64()).unwrap_or(0.0);
            Some((at, name, blob))
        })
        .collect())
}

fn take_legacy() -> Vec<(String, String)> {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else { return vec![] };
    let Ok(Some(text)) = storage.get_item(LEGACY_KEY) else { return vec![] };
    let _ = storage.remove_item(LEGACY_KEY);
    // `[{name, json}]`, read by the browser's `JSON.parse` (the page links no JSON reader).
    let list = crate::ui::browser::json_records(&text, &["name", "json"]).unwrap_or_default();
    list.into_iter()
        .flatten()
        .filter_map(|r| <[String; 2]>::try_from(r).ok())
        .map(|[name, json]| (name, json))
        .collect()
}

/// Forgets the file remembered under `name`.
pub async fn forget_name(name: &str) {
    let Ok(db) = open().await else { return };
    if let Ok((tx, store)) = store(&db, IdbTransactionMode::Readwrite) {
        let _ = store.delete(&JsValue::from_str(name));
        let _ = committed(&tx).await;
    }
    db.close();
}

/// Forgets every remembered file.
pub async fn forget() {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.remove_item(LEGACY_KEY);
    }
    let Ok(db) = open().await else { return };
    if let Ok((tx, store)) = store(&db, IdbTransactionMode::Readwrite) {
        let _ = store.clear();
        let _ = committed(&tx).await;
    }
    db.close();
}
