//! Keeping `--max-memory` a bound on resident memory. glibc serves a large
//! block from its own mapping and unmaps it when freed, but after the first
//! such free it raises the size it maps (up to 32 MiB) and serves the rest
//! from the heap, which it keeps, so a parallel build's freed arrays stayed
//! resident. Fixing the threshold at 1 MiB keeps `--max-memory` a bound on
//! the peak (docs/perf/tree-build.md, "Memory of a large build").

/// Blocks of this size and more are mapped on their own and returned to
/// the system when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 1 << 20;

/// Fixes glibc's mmap threshold (see the module doc); a no-op elsewhere.
/// The one `unsafe` of the workspace: a call into the C allocator.
#[allow(unsafe_code)]
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called at the
    // start of main, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
