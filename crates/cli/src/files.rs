//! Files in and out. Inputs are read by [`read_input`] only: regular files up to a stated size,
//! nothing else (a directory, `/dev/zero`, a pipe) — so no input can make playfield read without
//! end. Outputs go through [`OutputFile`]: the destination is checked before any work starts, the
//! content goes to a temporary file in the same directory, and the temporary file is renamed over
//! the destination only once it is complete (a reader never sees half a file, and a failed run
//! leaves the old file).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The largest movie read (a movie is ~16 bytes a frame: 64 MiB is about 4 million frames,
/// 18 hours of play).
pub const MAX_MOVIE_BYTES: u64 = 64 << 20;

/// The largest piece-sequence file read (one byte a piece: 64 million pieces).
pub const MAX_PIECES_BYTES: u64 = 64 << 20;

/// Reads the regular file at `path`, at most `limit` bytes; `what` names it in errors.
pub fn read_input(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open {what} {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{what} {} is not a regular file ({}); playfield reads only regular files",
            path.display(),
            if meta.is_dir() {
                "a directory"
            } else {
                "a device, pipe or socket"
            }
        );
    }
    if meta.len() > limit {
        bail!(
            "{what} {} has {} bytes, more than the {limit} bytes playfield reads",
            path.display(),
            meta.len()
        );
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    if bytes.len() as u64 > limit {
        bail!(
            "{what} {} grew beyond {limit} bytes while being read",
            path.display()
        );
    }
    Ok(bytes)
}

/// Reads a text file with [`read_input`]; not UTF-8 is an error.
pub fn read_text(path: &Path, what: &str, limit: u64) -> Result<String> {
    let bytes = read_input(path, what, limit)?;
    String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{what} {} is not UTF-8 text: {e}", path.display()))
}

/// An output file written atomically: created (as a temporary file beside the destination) when
/// the command starts, renamed into place by [`OutputFile::commit`]. A destination that exists and
/// is not a regular file (`/dev/stdout`, a named pipe) is written directly instead, since it
/// cannot be replaced; a symbolic link to a regular file has its target replaced.
pub struct OutputFile {
    path: PathBuf,
    sink: Sink,
    what: &'static str,
}

/// Where an [`OutputFile`]'s bytes go.
enum Sink {
    /// A temporary file renamed over `target` on commit.
    Temp {
        temp: tempfile::NamedTempFile,
        target: PathBuf,
    },
    /// An existing device or pipe, written as is.
    Direct(std::fs::File),
}

/// The directory a path's file goes in.
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

impl OutputFile {
    /// Checks that `path` can be written and opens its temporary file. `what` names the option in
    /// errors (`--plot`).
    pub fn create(path: &Path, what: &'static str) -> Result<OutputFile> {
        if path.is_dir() {
            bail!("{what} {} is a directory", path.display());
        }
        // `dir/` names a directory: a file cannot be renamed to it (found only at the end).
        if path.as_os_str().to_string_lossy().ends_with('/') {
            bail!("{what} {} names a directory, not a file", path.display());
        }
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("{what}: cannot open {}", path.display()))?;
            return Ok(OutputFile {
                path: path.to_path_buf(),
                sink: Sink::Direct(file),
                what,
            });
        }
        // Replace what a symbolic link points to, not the link.
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let dir = parent_of(&target);
        let temp = tempfile::Builder::new()
            .prefix(".playfield-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .with_context(|| {
                format!(
                    "{what} {}: cannot create a file in {}",
                    path.display(),
                    dir.display()
                )
            })?;
        Ok(OutputFile {
            path: path.to_path_buf(),
            sink: Sink::Temp { temp, target },
            what,
        })
    }

    /// The destination.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file, to stream into.
    pub fn writer(&mut self) -> &mut std::fs::File {
        match &mut self.sink {
            Sink::Temp { temp, .. } => temp.as_file_mut(),
            Sink::Direct(file) => file,
        }
    }

    /// Writes all of `bytes` and renames the file into place.
    pub fn commit_bytes(mut self, bytes: &[u8]) -> Result<()> {
        let (what, path) = (self.what, self.path.clone());
        self.writer()
            .write_all(bytes)
            .with_context(|| format!("{what}: cannot write {}", path.display()))?;
        self.commit()
    }

    /// Flushes what was streamed to disk and renames the file into place.
    pub fn commit(self) -> Result<()> {
        let OutputFile { path, sink, what } = self;
        let (temp, target) = match sink {
            Sink::Temp { temp, target } => (temp, target),
            Sink::Direct(mut file) => {
                return file
                    .flush()
                    .with_context(|| format!("{what}: cannot write {}", path.display()));
            }
        };
        // Temporary files are private (0600); the result is an ordinary file like any other.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = temp
                .as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644));
        }
        temp.as_file()
            .sync_all()
            .with_context(|| format!("{what}: cannot write {}", path.display()))?;
        temp.persist(&target)
            .map_err(|e| e.error)
            .with_context(|| format!("{what}: cannot write {}", path.display()))?;
        Ok(())
    }
}

/// Checks before work starts that files can be created in the directory of `path` (for outputs
/// whose names are made later, such as one movie per game).
pub fn check_output_dir(path: &Path, what: &'static str) -> Result<()> {
    OutputFile::create(path, what).map(drop)
}

/// Whether `path` exists and is not a regular file or directory (`/dev/stdout`, a named pipe):
/// such an output is written directly, never replaced.
pub fn is_device(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// A key that two paths to the same file share: the canonical path where the file exists; else
/// its directory's canonical path and its name; else the absolute path with `.` and `..` resolved.
pub fn file_key(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut normal = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    match (normal.parent(), normal.file_name()) {
        (Some(dir), Some(name)) => {
            std::fs::canonicalize(dir).map_or(normal.clone(), |d| d.join(name))
        }
        _ => normal,
    }
}

/// Refuses, before any work, an output that would replace one of the command's inputs or
/// another of its outputs: each is `(option, path)`. Devices written directly replace nothing.
pub fn check_distinct(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<()> {
    let keyed = |files: &[(&str, &Path)]| -> Vec<(String, PathBuf, PathBuf)> {
        files
            .iter()
            .map(|(what, path)| ((*what).to_owned(), path.to_path_buf(), file_key(path)))
            .collect()
    };
    let (inputs, outputs) = (keyed(inputs), keyed(outputs));
    for (i, (what, path, key)) in outputs.iter().enumerate() {
        if is_device(path) {
            continue;
        }
        let earlier = outputs[..i].iter().map(|o| (o, "also written"));
        let read = inputs.iter().map(|o| (o, "read"));
        if let Some(((other, other_path, _), how)) =
            read.chain(earlier).find(|((_, _, k), _)| k == key)
        {
            return Err(crate::checks::usage(format!(
                "{what} {} is the same file as {other} {}, {how} by the same command: give \
                 another path",
                path.display(),
                other_path.display()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_directories_are_refused() {
        let e = read_input(Path::new("/dev/zero"), "movie", 10).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_input(Path::new("/"), "movie", 10).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    #[test]
    fn large_files_are_refused_and_small_ones_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_input(&path, "x", 10).unwrap(), b"0123456789");
        let e = read_input(&path, "x", 9).unwrap_err();
        assert!(e.to_string().contains("more than the 9 bytes"), "{e}");
    }

    #[test]
    fn output_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        std::fs::write(&path, b"old").unwrap();
        let out = OutputFile::create(&path, "--plot").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        out.commit_bytes(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // A link to a file stays a link; its target gets the content.
        let link = dir.path().join("link.svg");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        OutputFile::create(&link, "--plot")
            .unwrap()
            .commit_bytes(b"newer")
            .unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&path).unwrap(), b"newer");
        // A device is written, never replaced.
        OutputFile::create(Path::new("/dev/null"), "--trace")
            .unwrap()
            .commit_bytes(b"x")
            .unwrap();
        assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
        let e = OutputFile::create(&dir.path().join("no/such/dir/x"), "--plot")
            .err()
            .unwrap();
        assert!(e.to_string().contains("cannot create"), "{e}");
        let e = OutputFile::create(&dir.path().join("newdir/"), "--record")
            .err()
            .unwrap();
        assert!(e.to_string().contains("names a directory"), "{e}");
    }

    #[test]
    fn an_output_may_not_be_an_input_or_another_output() {
        let dir = tempfile::tempdir().unwrap();
        let movie = dir.path().join("g.fm2");
        std::fs::write(&movie, "x").unwrap();
        let same = dir.path().join("sub/../g.fm2");
        let e = check_distinct(&[("movie", &movie)], &[("--trace", &same)]).unwrap_err();
        assert!(crate::checks::is_usage(&e), "{e}");
        assert!(
            e.to_string().contains("--trace") && e.to_string().contains("movie"),
            "{e}"
        );
        // Not yet existing: compared by their normalized paths.
        let new = dir.path().join("new.svg");
        let also = dir.path().join("./new.svg");
        let e = check_distinct(&[], &[("--plot", &new), ("--out", &also)]).unwrap_err();
        assert!(
            e.to_string().contains("--out") && e.to_string().contains("--plot"),
            "{e}"
        );
        check_distinct(&[("movie", &movie)], &[("--plot", &new)]).unwrap();
        // A device replaces nothing.
        let null = Path::new("/dev/null");
        check_distinct(&[], &[("--plot", null), ("--trace", null)]).unwrap();
    }
}
