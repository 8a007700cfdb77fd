//! A counting allocator (and the size of a problem's files) for the examples that measure
//! reader memory (`examples/reader_memory.rs`, `examples/exchange_sizes.rs`). The allocator
//! is the system allocator, counting the live and peak bytes allocated by the thread
//! inside [`peak_of`] (so that the test harness's own threads do not disturb the count).
//! Heap bytes are counted, not pages, so the numbers are the same on every run of the same
//! build.
//!
//! An example installs it with
//! `#[global_allocator] static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The counting allocator.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static TRACKED: Cell<bool> = const { Cell::new(false) };
}

fn tracked() -> bool {
    TRACKED.try_with(|t| t.get()).unwrap_or(false)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && tracked() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        if tracked() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && tracked() {
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                    - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

/// Peak heap bytes above the starting level while `f` runs on this thread (what `f`
/// returns is dropped after the peak is read, so it counts).
pub fn peak_of<T>(f: impl FnOnce() -> T) -> usize {
    TRACKED.with(|t| t.set(true));
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    let out = f();
    let peak = PEAK.load(Ordering::Relaxed);
    drop(out);
    TRACKED.with(|t| t.set(false));
    peak
}

/// Bytes on disk of a problem file, or of every file of a problem folder (NumPy,
/// OpenTissue): what a reader has to read.
pub fn file_bytes(p: &Path) -> u64 {
    if p.is_dir() {
        std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum()
    } else {
        std::fs::metadata(p).unwrap().len()
    }
}
