//! Room in the heap made ahead of a big answer, in one step. In wasm the allocator (dlmalloc)
//! grows the linear memory by what each allocation lacks, often 64 KiB at a time, and every
//! `memory.grow` costs V8 a while: reading a 50 MB bundle's runs on the page grew it 888 times
//! (64 ms of the page's thread, a Chromium trace). Memory taken once and handed back stays with
//! the allocator (wasm memory never shrinks), so later allocations find it without growing.

/// Makes sure about `bytes` of heap are free (a single growth when they are not); when the
/// memory cannot grow that far, nothing happens and allocations grow it as usual.
pub fn reserve(bytes: u64) {
    let Ok(bytes) = usize::try_from(bytes.min(MAX_RESERVE)) else { return };
    let mut room: Vec<u8> = Vec::new();
    if room.try_reserve_exact(bytes).is_ok() {
        // Kept from being optimized away: the point is the allocation itself.
        std::hint::black_box(&mut room);
    }
}

/// The most reserved at once (a bundle that big grows the heap further as it is read).
const MAX_RESERVE: u64 = 512 << 20;

#[cfg(test)]
mod tests {
    #[test]
    fn reserving_more_than_the_machine_has_does_not_fail() {
        super::reserve(u64::MAX);
        super::reserve(0);
        let v: Vec<u8> = vec![1; 1000];
        assert_eq!(v.len(), 1000);
    }
}
