//! The page's files, embedded in the binary at build time (every file under `src/serve/web/`,
//! listed by `build.rs`): `cargo install` gives a working board with no network and no
//! build step for the page. Only these files are served, by exact name: no path reaches the
//! file system.

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The contents and content type of the embedded file `name`.
pub fn file(name: &str) -> Option<(&'static [u8], &'static str)> {
    FILES.iter().find(|(n, _, _)| *n == name).map(|&(_, bytes, kind)| (bytes, kind))
}

/// The names of the embedded files.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|&(n, _, _)| n)
}
