//! Links that carry their data: a bundle of local files travels in the URL fragment
//! (`#bundle=<base64url of gzip JSON>`, as the Lighthouse viewer shares reports), so a link or an
//! embed shows the same comparison on any machine with nothing uploaded. The fragment never
//! reaches a server. The writer worker compresses and encodes the fragment (`wire::write`); this
//! module encodes, finds and sizes it.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The fragment key.
pub const KEY: &str = "bundle";

/// The fragment for gzip bytes: `bundle=…` (without `#`), or `None` when it would be longer than
/// `crate::limits::MAX_SHARE_FRAGMENT_BYTES`.
pub fn fragment(gzip: &[u8]) -> Option<String> {
    let encoded_len = gzip.len().div_ceil(3) * 4;
    if encoded_len + KEY.len() + 1 > crate::limits::MAX_SHARE_FRAGMENT_BYTES {
        return None;
    }
    Some(format!("{KEY}={}", URL_SAFE_NO_PAD.encode(gzip)))
}

/// The base64url text a location's fragment carries (`#bundle=…`), if any.
pub fn fragment_value(hash: &str) -> Option<&str> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    hash.split('&').find_map(|kv| kv.strip_prefix(KEY)?.strip_prefix('='))
}

/// What a damaged fragment is called (a link cut short by a chat tool, say).
pub const DAMAGED: &str = "the link's data is damaged or cut short; ask for the link again, or for the bundle file";

/// The gzip bytes a location's fragment carries (`#bundle=…`): `None` when it carries none, an
/// error in words when it is damaged. (The page decodes `fragment_value` with the browser's
/// `atob`, `ui::browser::base64url_bytes`.)
pub fn from_fragment(hash: &str) -> Option<Result<Vec<u8>, String>> {
    let value = fragment_value(hash)?;
    Some(URL_SAFE_NO_PAD.decode(value.trim_end_matches('=')).map_err(|e| format!("{DAMAGED} ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_too_long_or_damaged() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let f = fragment(&bytes).unwrap();
        let data = f.strip_prefix("bundle=").unwrap();
        assert!(!data.contains(['+', '/', '=', '#']), "{f}");
        assert_eq!(from_fragment(&format!("#{f}")), Some(Ok(bytes.clone())));
        assert_eq!(from_fragment(&format!("x=1&{f}")), Some(Ok(bytes)));
        assert_eq!(from_fragment("#view=latency"), None);
        assert!(from_fragment("#bundle=ab!cd").unwrap().unwrap_err().contains("damaged"));
        assert!(fragment(&vec![7u8; crate::limits::MAX_SHARE_FRAGMENT_BYTES]).is_none());
    }
}
