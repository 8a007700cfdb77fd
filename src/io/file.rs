//! The file helpers below every reader and writer: reading an input whole
//! ([`read_file`], regular files only, capped at [`MAX_FILE_BYTES`]), opening one to read
//! it in parts, JSON errors with their place, atomic writes ([`write_atomic`]) and the
//! hidden temporary names they use.

use std::path::{Path, PathBuf};

use super::{IoError, IoErrorKind, MAX_FILE_BYTES, text};

/// A path's extension in lower case (`""` without one).
pub(crate) fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The operating system's error about `path` as an [`IoError`].
pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> IoError + '_ {
    move |e| IoError::new(path, IoErrorKind::Io(e))
}

/// What a file type is, in words, when it is not a regular file.
pub(crate) fn not_a_file(ft: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_file() {
        None
    } else if ft.is_dir() {
        Some("a directory")
    } else if ft.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if ft.is_char_device() {
        Some("a character device")
    } else if ft.is_block_device() {
        Some("a block device")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Reads a whole input file, refusing anything but a regular file of at most
/// [`MAX_FILE_BYTES`]. The type is checked before the file is opened (opening a FIFO
/// blocks until someone writes to it) and again on the open file, and no more than the
/// cap is ever read (a file that grows while being read is caught too).
///
/// # Errors
/// [`IoErrorKind::Io`] (missing, permissions), [`IoErrorKind::NotAFile`],
/// [`IoErrorKind::TooLarge`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, IoError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let meta = file.metadata().map_err(io_err(path))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(IoError::new(
            path,
            IoErrorKind::TooLarge { bytes: meta.len() },
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(IoError::new(
            path,
            IoErrorKind::TooLarge {
                bytes: bytes.len() as u64,
            },
        ));
    }
    Ok(bytes)
}

/// Opens a regular file for reading: the type is checked before the file is opened
/// (opening a FIFO blocks until someone writes to it) and again on the open file.
///
/// # Errors
/// [`IoErrorKind::Io`] (missing, permissions), [`IoErrorKind::NotAFile`].
pub(crate) fn open_regular(path: &Path) -> Result<std::fs::File, IoError> {
    let meta = std::fs::metadata(path).map_err(io_err(path))?;
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(IoError::new(path, IoErrorKind::NotAFile(what)));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        // O_NONBLOCK: if the path was swapped for a FIFO since the check, opening it
        // returns at once instead of waiting for a writer.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0o4000);
    }
    let file = options.open(path).map_err(io_err(path))?;
    let meta = file.metadata().map_err(io_err(path))?;
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(IoError::new(path, IoErrorKind::NotAFile(what)));
    }
    Ok(file)
}

/// A JSON error as an [`IoError`]: where (line and column), what serde found wrong, and
/// the text at that place with invisible characters named; a number beyond the largest
/// double is named as such (serde only says "number out of range").
pub(crate) fn json_error(path: &Path, bytes: &[u8], e: &serde_json::Error) -> IoError {
    let at = format!("line {} column {}", e.line(), e.column());
    let line = bytes
        .split(|&b| b == b'\n')
        .nth(e.line().saturating_sub(1))
        .unwrap_or(&[]);
    let col = e.column().min(line.len());
    let is_num = |b: u8| b.is_ascii_digit() || b"+-.eE".contains(&b);
    let mut start = col;
    while start > 0 && is_num(line[start - 1]) {
        start -= 1;
    }
    let mut end = col;
    while end < line.len() && is_num(line[end]) {
        end += 1;
    }
    let message = e.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map(|(m, _)| m.to_string())
        .unwrap_or(message);
    if message.contains("number out of range") && end > start {
        let token = String::from_utf8_lossy(&line[start..end]);
        return IoError::parse(
            path,
            at,
            format!(
                "`{}` is beyond the largest double-precision number (about 1.8e308)",
                text::show(&token)
            ),
        );
    }
    let from = col.saturating_sub(24);
    let to = (col + 12).min(line.len());
    let near = String::from_utf8_lossy(&line[from..to]);
    let near = near.trim();
    if near.is_empty() {
        IoError::parse(path, at, message)
    } else {
        IoError::parse(path, at, format!("{message}, near `{}`", text::show(near)))
    }
}

/// Writes `bytes` to `path` atomically: into a temporary file beside it, then renamed
/// over it, so that a reader never sees a half-written file and a failed write leaves
/// the old file (or nothing) in place. `path` may not be a directory; its folder must
/// exist.
///
/// # Errors
/// [`IoErrorKind::Io`] with what the file system reports (the temporary file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    use std::io::Write;
    if path.is_dir() {
        return Err(IoError::new(path, IoErrorKind::NotAFile("a directory")));
    }
    let tmp = temporary_sibling(path, "tmp");
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(IoError::new(path, IoErrorKind::Io(e)));
    }
    Ok(())
}

/// A hidden name beside `path` for a temporary file or folder: `.NAME.nonsmooth-TAG-PID`.
pub(crate) fn temporary_sibling(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_string());
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    dir.join(format!(".{name}.nonsmooth-{tag}-{}", std::process::id()))
}

/// `true` if `dir/name` exists in any form (a file, a folder, a pipe, a dangling link):
/// the folder is then meant as a problem of that format, and reading `name` says what is
/// wrong with it rather than the folder being skipped.
pub(crate) fn has_entry(dir: &Path, name: &str) -> bool {
    std::fs::symlink_metadata(dir.join(name)).is_ok()
}
