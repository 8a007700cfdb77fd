//! Where the program's files go: never onto an input, never half written.
//!
//! Every output is checked against every input before anything is opened (the same file
//! under another spelling, a link, or a folder that holds an input all count), and files
//! are written whole: into a temporary file beside the target, renamed over it at the end
//! ([`crate::io::write_atomic`]; NumPy folders are replaced as a whole by
//! [`crate::io::npy::write`]).

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::Failure;

/// `(device, inode)` of an existing path, following links.
fn identity(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// Refuses `output` when it is one of `inputs`, or a folder that holds one of them, under
/// any spelling. `what` names the output in the message (`"history file"`).
///
/// # Errors
/// [`Failure::Usage`] naming both paths.
pub fn refuse_inputs(output: &Path, inputs: &[PathBuf], what: &str) -> Result<(), Failure> {
    let Some(out) = identity(output) else {
        return Ok(()); // does not exist yet: cannot be an input
    };
    for input in inputs {
        let full = std::fs::canonicalize(input).unwrap_or_else(|_| input.clone());
        for p in full.ancestors() {
            if identity(p) == Some(out) {
                let how = if p == full {
                    "is"
                } else {
                    "is a folder that holds"
                };
                return Err(Failure::Usage(format!(
                    "{}: the {what} {how} the input {}; writing it would destroy the input, \
                     so choose another path",
                    output.display(),
                    input.display()
                )));
            }
        }
    }
    Ok(())
}

/// Checks that a file can be written at `path`: not a folder, and its folder exists.
///
/// # Errors
/// [`Failure::Usage`] saying which.
pub fn check_writable_file(path: &Path, what: &str) -> Result<(), Failure> {
    if path.is_dir() {
        return Err(Failure::Usage(format!(
            "{}: the {what} is a folder; give a file name",
            path.display()
        )));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(Failure::Usage(format!(
            "{}: the {what} cannot be written: the folder {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

/// A text file written line by line into a temporary file beside `path` and renamed over
/// it by [`Streamed::finish`]; dropped unfinished, the temporary file is removed and
/// `path` is untouched.
pub struct Streamed {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<File>>,
}

impl Streamed {
    /// Opens the temporary file.
    ///
    /// # Errors
    /// [`Failure::Usage`] if it cannot be created.
    pub fn create(path: &Path, what: &str) -> Result<Self, Failure> {
        check_writable_file(path, what)?;
        let tmp = crate::io::temporary_sibling(path, "tmp");
        let file = File::create(&tmp).map_err(|e| {
            Failure::Usage(format!(
                "{}: the {what} cannot be written: {e}",
                path.display()
            ))
        })?;
        Ok(Streamed {
            path: path.to_path_buf(),
            tmp,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    /// Appends one line.
    ///
    /// # Errors
    /// [`Failure::Input`] with what the file system reports.
    pub fn line(&mut self, text: &str) -> Result<(), Failure> {
        let f = self.file.as_mut().expect("open until finished");
        writeln!(f, "{text}").map_err(|e| Failure::Input(format!("{}: {e}", self.path.display())))
    }

    /// Flushes and renames the temporary file over the target.
    ///
    /// # Errors
    /// [`Failure::Input`] with what the file system reports.
    pub fn finish(mut self) -> Result<(), Failure> {
        let f = self.file.take().expect("finished once");
        let err = |e: std::io::Error| Failure::Input(format!("{}: {e}", self.path.display()));
        let file = f.into_inner().map_err(|e| err(e.into_error()))?;
        file.sync_all().map_err(err)?;
        std::fs::rename(&self.tmp, &self.path).map_err(err)
    }
}

impl Drop for Streamed {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
