//! Where the program's files go: never onto an input, never half written.
//!
//! Every output is checked against every input before anything is opened (the same file
//! under another spelling, a link, or a folder that holds an input all count), and files
//! are written whole: into a temporary file beside the target, renamed over it at the end
//! ([`crate::io::write_atomic`]; NumPy folders are replaced as a whole by
//! [`crate::io::numpy::folder::write`]).

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

/// What a command writes: a file, or a folder it fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One file, written whole ([`crate::io::write_atomic`] or [`Streamed`]).
    File,
    /// A folder the command creates if missing and writes files into.
    Folder,
}

/// One output of a command: the option that names it (for messages), its path, and
/// whether it is a file or a folder.
#[derive(Debug, Clone)]
pub struct Output {
    /// What the output is, in the messages (`"trajectory (--out)"`).
    pub what: String,
    /// Its path as given.
    pub path: PathBuf,
    /// File or folder.
    pub target: Target,
}

impl Output {
    /// A file output; `None` when the option was not given or is `-` (standard output).
    pub fn file(path: Option<&Path>, what: &str) -> Option<Output> {
        Self::new(path, what, Target::File)
    }

    /// A folder output; `None` when the option was not given.
    pub fn folder(path: Option<&Path>, what: &str) -> Option<Output> {
        Self::new(path, what, Target::Folder)
    }

    fn new(path: Option<&Path>, what: &str, target: Target) -> Option<Output> {
        let path = path?;
        (path.as_os_str() != "-").then(|| Output {
            what: what.to_string(),
            path: path.to_path_buf(),
            target,
        })
    }
}

/// `path` made absolute with its existing part resolved (links followed), so that two
/// spellings of a file that does not exist yet compare equal (`d/x.svg`, `./d/x.svg`,
/// `d/../d/x.svg`).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("."))
            .join(path)
    };
    // resolve the longest existing ancestor, then append the rest lexically
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    let mut head = abs.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(head) {
            let mut out = real;
            for part in rest.iter().rev() {
                if part == ".." {
                    out.pop();
                } else if part != "." {
                    out.push(part);
                }
            }
            return out;
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return abs,
        }
    }
}

/// The one check every command runs before it reads or writes anything else: each output
/// against every input, against each other, and for being writable.
///
/// * No output may be an input, or a folder that holds an input, under any spelling or
///   link ([`refuse_inputs`]); a folder output may not be one that an input file sits in.
/// * No two outputs may be the same path (two options writing one file would leave only
///   one of them, or neither).
/// * A file output must not be a folder, and its folder must exist ([`check_writable_file`]);
///   a folder output must not be an existing file, and its parent must exist or be
///   creatable.
///
/// Every option that writes a file goes through it (the tests `cli_outputs` try each one
/// against its inputs and its sibling outputs).
///
/// # Errors
/// [`Failure::Usage`] naming the output, the option and the input or the other output.
pub fn plan(inputs: &[PathBuf], outputs: &[Option<Output>]) -> Result<(), Failure> {
    let outputs: Vec<&Output> = outputs.iter().flatten().collect();
    for o in &outputs {
        refuse_inputs(&o.path, inputs, &o.what)?;
        if o.target == Target::Folder {
            // a folder that does not exist yet cannot hold an input; one that exists is
            // checked by refuse_inputs above (an input inside it)
            if o.path.exists() && !o.path.is_dir() {
                return Err(Failure::Usage(format!(
                    "{}: the {} is a file, not a folder",
                    o.path.display(),
                    o.what
                )));
            }
        } else {
            check_writable_file(&o.path, &o.what)?;
        }
    }
    for (i, x) in outputs.iter().enumerate() {
        for y in &outputs[i + 1..] {
            let (rx, ry) = (resolved(&x.path), resolved(&y.path));
            let clash = rx == ry
                || (x.target == Target::Folder
                    && ry.starts_with(&rx)
                    && y.target == Target::Folder)
                || (y.target == Target::Folder
                    && rx.starts_with(&ry)
                    && x.target == Target::Folder);
            if clash {
                return Err(Failure::Usage(format!(
                    "{}: the {} and the {} are the same path; give each its own",
                    x.path.display(),
                    x.what,
                    y.what
                )));
            }
        }
    }
    Ok(())
}
