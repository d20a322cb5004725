//! The writer: an ingest worker started on its own (`ui::writer`), never cancelled with imports,
//! that writes bundles as JSON and makes the import panel's runs (`wire::write`). It answers each
//! `ToWriter::Write` with a `FromWriter::Written` (`protocol::Written`: JSON texts, a merged
//! bundle in pieces and its JSON, a link's fragment or its size) or a `FromWriter::Error`.

use super::{bytes_to_js, scope};
use crate::protocol::{FromWriter, Written};
use crate::wire::write::{decode_request, respond, Answer};
use js_sys::Uint8Array;

pub(super) fn write(job: u32, request: &Uint8Array) {
    let bytes = request.to_vec();
    let request = decode_request(&bytes);
    // The bytes go before the answer is made: they are as large as the runs they carry.
    drop(bytes);
    let message = match request.and_then(respond) {
        Ok(Answer::Json(texts)) => {
            FromWriter::Written { job, answer: Written::Json(texts.iter().map(|t| bytes_to_js(t)).collect()) }
        }
        Ok(Answer::Merged { pieces, json }) => FromWriter::Written {
            job,
            answer: Written::Merged {
                data: bytes_to_js(&pieces.head),
                runs: pieces.runs.iter().map(|r| bytes_to_js(r)).collect(),
                json: vec![bytes_to_js(&json)],
            },
        },
        // No pieces: the page shows this bundle already (`ui::writer::merge`).
        Ok(Answer::Shown { json }) => FromWriter::Written {
            job,
            answer: Written::Merged {
                data: Uint8Array::new_with_length(0),
                runs: Vec::new(),
                json: vec![bytes_to_js(&json)],
            },
        },
        Ok(Answer::Link(Ok(fragment))) => FromWriter::Written { job, answer: Written::Fragment(fragment) },
        Ok(Answer::Link(Err(size))) => FromWriter::Written { job, answer: Written::Size(size) },
        Err(message) => FromWriter::Error { job, message },
    };
    // The page ends a writer that grew large once nothing waits on it (`ui::writer`).
    let _ = scope().post_message(&FromWriter::Memory { bytes: super::memory_bytes() }.to_js());
    let _ = scope().post_message_with_transfer(&message.to_js(), &message.transfer());
}
