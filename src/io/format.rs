//! The table of formats: every format the crate reads or writes is one entry of
//! [`FORMATS`], which gives its name, its file extensions, how it is recognised (a folder
//! test, a binary signature, the first byte of a text format), its reader and, if it is
//! written, its writer. [`load`](super::load), [`discover`](super::discover),
//! [`DISCOVERED`](super::DISCOVERED) (a test checks its text against the table) and
//! `nonsmooth convert` all read this table, so that a new format is one file (its reader
//! and writer) plus one entry here.
//!
//! [`read`] decides in this order, as the entries allow:
//!
//! 1. a folder: the first folder format whose test it passes (OpenTissue, then NumPy);
//! 2. a file with a folder format's member extension (`A.dlm`) inside such a folder: the
//!    folder;
//! 3. anything but a regular file is refused; a file named with the extension of a format
//!    read in parts (`.npz`, `.hdf5`, `.h5`) goes to that reader, whatever its size;
//! 4. other files are read whole (at most [`MAX_FILE_BYTES`]): a binary signature (HDF5,
//!    zip) picks its format; a UTF-8 byte-order mark is refused; the first non-blank byte
//!    of a text format (`{`: JSON), then the extension, pick the next; anything else is
//!    read as [`FALLBACK`] (Siconos `.dat`).

use std::path::Path;

use super::file::{extension, io_err, not_a_file, read_file};
use super::{
    AnyProblem, IoError, IoErrorKind, LoadedProblem, MAX_FILE_BYTES, json, mujoco, numpy,
    opentissue, siconos,
};

/// File formats the crate knows (each described by its entry in [`FORMATS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The project's own JSON ([`json`]).
    Json,
    /// Siconos numerics text `.dat` ([`siconos`]).
    Siconos,
    /// FCLIB HDF5 (`fclib`, feature `hdf5`).
    Fclib,
    /// An OpenTissue `.dlm` folder ([`opentissue`]).
    OpenTissue,
    /// A MuJoCo JSON export ([`mujoco`]).
    MuJoCo,
    /// A folder of NumPy `.npy` arrays ([`numpy::folder`]).
    Numpy,
    /// A NumPy `.npz` archive, sparse matrices as CSR arrays ([`numpy::npz`]).
    Npz,
}

impl Format {
    /// Human-readable name (the entry's [`FormatEntry::name`]).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The format's entry in [`FORMATS`].
    pub fn entry(self) -> &'static FormatEntry {
        FORMATS
            .iter()
            .find(|e| e.format == self)
            .expect("every format has an entry in FORMATS")
    }
}

/// A reader of a problem at a path (a folder, or a file read in parts).
pub type ReadPath = fn(&Path) -> Result<LoadedProblem, IoError>;

/// A reader of a problem from the bytes of a file (`path` names it in messages).
pub type ReadBytes = fn(&Path, &[u8]) -> Result<LoadedProblem, IoError>;

/// How [`read`] reaches a format's reader.
#[derive(Clone, Copy)]
pub enum Reader {
    /// A folder of files.
    Folder {
        /// Whether a folder holds a problem of this format ([`discover`](super::discover)
        /// lists such a folder as one problem and does not look inside).
        holds: fn(&Path) -> bool,
        /// The reader.
        read: ReadPath,
        /// What such a folder is, for [`DISCOVERED`](super::DISCOVERED).
        marks: &'static str,
        /// An extension of the folder's files that stands for the folder (`dlm`: the
        /// path of `A.dlm` reads its folder).
        member: Option<&'static str>,
    },
    /// A file read from its path in parts (array by array, member by member), so not
    /// capped as a whole at [`MAX_FILE_BYTES`], when it is named with one of the
    /// format's extensions; read from memory when its signature gives it away.
    Parts {
        /// The reader of the path.
        path: ReadPath,
        /// The reader of the bytes.
        bytes: ReadBytes,
    },
    /// A file read whole.
    Whole(ReadBytes),
    /// Read by another format's reader, which tells the two apart (a MuJoCo export goes
    /// through the JSON reader, which looks at the keys).
    Through(Format),
}

/// How a format is written by `nonsmooth convert`.
#[derive(Clone, Copy)]
pub enum Writer {
    /// Text, to a file or standard output. `Err` says why this problem cannot be
    /// written this way (after the input's name).
    Text(fn(&LoadedProblem) -> Result<String, String>),
    /// One binary file; the flag asks for compression.
    File(fn(&Path, &LoadedProblem, bool) -> Result<(), IoError>),
    /// A folder of files.
    Folder(fn(&Path, &LoadedProblem) -> Result<(), IoError>),
}

/// A written format, as `nonsmooth convert --to` offers it.
#[derive(Clone, Copy)]
pub struct Write {
    /// The value of `--to`.
    pub to: &'static str,
    /// What the output keeps (the help of that value).
    pub help: &'static str,
    /// The writer.
    pub writer: Writer,
    /// Whether the file states the friction law (a CCP problem is refused otherwise: it
    /// would be read back as Coulomb).
    pub keeps_law: bool,
    /// Whether `--compress` applies.
    pub compresses: bool,
    /// The format's name in messages (`"Siconos .dat"`).
    pub title: &'static str,
}

/// One format: everything the crate does with it.
pub struct FormatEntry {
    /// Which format.
    pub format: Format,
    /// Human-readable name ([`Format::name`]; `LoadedProblem::format` printed).
    pub name: &'static str,
    /// File extensions, lower case, without the dot: [`discover`](super::discover) lists
    /// such files, [`read`] and `convert` choose the format by them.
    pub extensions: &'static [&'static str],
    /// First bytes that mark the format whatever the file's name.
    pub magic: &'static [&'static [u8]],
    /// The first non-blank byte of a file of this text format.
    pub opens_with: Option<u8>,
    /// How it is read.
    pub reader: Reader,
    /// How it is written, if it is.
    pub write: Option<Write>,
    /// For a format that is read only: what to write instead, said to a user who names
    /// an output with one of its extensions (empty: nothing to say).
    pub write_instead: &'static str,
}

/// The HDF5 signature.
const HDF5_MAGIC: &[u8] = b"\x89HDF\r\n\x1a\n";

/// Every format, in the order [`DISCOVERED`](super::DISCOVERED) names them.
pub const FORMATS: &[FormatEntry] = &[
    FormatEntry {
        format: Format::Siconos,
        name: "siconos-dat",
        extensions: &["dat"],
        magic: &[],
        opens_with: None,
        reader: Reader::Whole(siconos::from_bytes),
        write: Some(Write {
            to: "siconos",
            help: "Siconos numerics text `.dat` (the problem only)",
            writer: Writer::Text(siconos_text),
            keeps_law: false,
            compresses: false,
            title: "Siconos .dat",
        }),
        write_instead: "",
    },
    FormatEntry {
        format: Format::Json,
        name: "nonsmooth-json",
        extensions: &["json"],
        magic: &[],
        opens_with: Some(b'{'),
        reader: Reader::Whole(load_json),
        write: Some(Write {
            to: "json",
            help: "The project's JSON (keeps the answer and provenance)",
            writer: Writer::Text(json_text),
            keeps_law: true,
            compresses: false,
            title: "JSON",
        }),
        write_instead: "",
    },
    FormatEntry {
        format: Format::MuJoCo,
        name: "mujoco-json",
        extensions: &["json"],
        magic: &[],
        opens_with: Some(b'{'),
        reader: Reader::Through(Format::Json),
        write: None,
        write_instead: "",
    },
    FormatEntry {
        format: Format::Npz,
        name: "numpy-npz",
        extensions: &["npz"],
        magic: &numpy::npz::ZIP_MAGIC,
        opens_with: None,
        reader: Reader::Parts {
            path: numpy::npz::load,
            bytes: numpy::npz::from_bytes,
        },
        write: Some(Write {
            to: "npz",
            help: "A NumPy `.npz` archive: sparse matrices as CSR arrays, answer and \
                   provenance kept",
            writer: Writer::File(npz_file),
            keeps_law: true,
            compresses: true,
            title: "a NumPy .npz archive",
        }),
        write_instead: "",
    },
    FormatEntry {
        format: Format::Fclib,
        name: "fclib-hdf5",
        extensions: &["hdf5", "h5"],
        magic: &[HDF5_MAGIC],
        opens_with: None,
        reader: Reader::Parts {
            path: load_hdf5,
            bytes: |path, _| load_hdf5(path),
        },
        write: None,
        write_instead: "FCLIB HDF5 is read, not written, by nonsmooth; write .npz (sparse, \
                        binary, read by numpy.load) or .json instead",
    },
    FormatEntry {
        format: Format::OpenTissue,
        name: "opentissue-dlm",
        extensions: &[],
        magic: &[],
        opens_with: None,
        reader: Reader::Folder {
            holds: opentissue::is_problem_folder,
            read: opentissue::load,
            marks: "OpenTissue folders (A.dlm)",
            member: Some("dlm"),
        },
        write: None,
        write_instead: "",
    },
    FormatEntry {
        format: Format::Numpy,
        name: "numpy-folder",
        extensions: &[],
        magic: &[],
        opens_with: None,
        reader: Reader::Folder {
            holds: numpy::folder::is_problem_folder,
            read: numpy::folder::load,
            marks: "NumPy folders (W.npy, A.npy or M.npy)",
            member: None,
        },
        write: Some(Write {
            to: "numpy",
            help: "A folder of NumPy `.npy` arrays (keeps the answer as `r.npy`); dense, so \
                   refused beyond 2^27 entries per matrix",
            writer: Writer::Folder(numpy_folder),
            keeps_law: true,
            compresses: false,
            title: "a NumPy folder",
        }),
        write_instead: "",
    },
];

/// What is read when nothing else matches: Siconos text, whose files have no signature.
pub const FALLBACK: Format = Format::Siconos;

/// The written formats, in table order.
pub fn writable() -> impl Iterator<Item = (Format, &'static Write)> {
    FORMATS
        .iter()
        .filter_map(|e| e.write.as_ref().map(|w| (e.format, w)))
}

/// The folder formats' tests and readers, in table order.
fn folders() -> impl Iterator<Item = (fn(&Path) -> bool, ReadPath, Option<&'static str>)> {
    FORMATS.iter().filter_map(|e| match e.reader {
        Reader::Folder {
            holds,
            read,
            member,
            ..
        } => Some((holds, read, member)),
        _ => None,
    })
}

/// `true` if `dir` is a problem folder of some format ([`discover`](super::discover)
/// lists it as one problem).
pub fn is_problem_folder(dir: &Path) -> bool {
    folders().any(|(holds, _, _)| holds(dir))
}

/// `true` if [`discover`](super::discover) lists a file named like `path`: one of the
/// extensions of [`FORMATS`].
pub fn is_listed_file(path: &Path) -> bool {
    let ext = extension(path);
    FORMATS.iter().any(|e| e.extensions.contains(&ext.as_str()))
}

/// The text of [`DISCOVERED`](super::DISCOVERED), made from the table.
pub fn discovered_text() -> String {
    let mut exts: Vec<String> = Vec::new();
    for e in FORMATS {
        for x in e.extensions {
            let x = format!(".{x}");
            if !exts.contains(&x) {
                exts.push(x);
            }
        }
    }
    let folders: Vec<&str> = FORMATS
        .iter()
        .filter_map(|e| match e.reader {
            Reader::Folder { marks, .. } => Some(marks),
            _ => None,
        })
        .collect();
    let and = |v: &[String]| match v {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let mut parts = vec![format!("{} files", and(&exts))];
    parts.extend(folders.iter().map(|f| f.to_string()));
    and(&parts)
}

/// The reader of a whole file's bytes for `format` (following [`Reader::Through`]).
fn bytes_reader(format: Format) -> Option<ReadBytes> {
    match format.entry().reader {
        Reader::Whole(read) => Some(read),
        Reader::Parts { bytes, .. } => Some(bytes),
        Reader::Through(other) if other != format => bytes_reader(other),
        _ => None,
    }
}

/// `true` if [`load`](super::load) would hand `path` to the FCLIB (HDF5) reader: a
/// regular file named `.hdf5` or `.h5`, or one that starts with the HDF5 signature. Reads
/// at most 8 bytes.
pub fn is_hdf5_file(path: &Path) -> bool {
    use std::io::Read;
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let fclib = Format::Fclib.entry();
    if fclib.extensions.contains(&extension(path).as_str()) {
        return true;
    }
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| fclib.magic.iter().any(|m| head.starts_with(m)))
}

/// Reads the problem at `path` with the reader the table picks (see the [module
/// docs](self) for the order), without the data warnings [`load`](super::load) adds.
///
/// # Errors
/// As [`load`](super::load).
pub fn read(path: &Path) -> Result<LoadedProblem, IoError> {
    let meta = std::fs::metadata(path).map_err(io_err(path))?;
    if meta.is_dir() {
        if let Some((_, read, _)) = folders().find(|(holds, _, _)| holds(path)) {
            return read(path);
        }
        return Err(IoError::new(path, IoErrorKind::UnknownFormat));
    }
    let ext = extension(path);
    for (holds, read, member) in folders() {
        if member == Some(ext.as_str()) {
            if let Some(dir) = path.parent().filter(|d| holds(d)) {
                return read(dir);
            }
        }
    }
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(IoError::new(path, IoErrorKind::NotAFile(what)));
    }
    let by_name = FORMATS
        .iter()
        .find(|e| e.extensions.contains(&ext.as_str()));
    if let Some(Reader::Parts { path: read, .. }) = by_name.map(|e| e.reader) {
        // Read in parts; each part is capped, not the file (see [`numpy::npz`]).
        return read(path);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(IoError::new(
            path,
            IoErrorKind::TooLarge { bytes: meta.len() },
        ));
    }
    let bytes = read_file(path)?;
    let signed = FORMATS
        .iter()
        .find(|e| e.magic.iter().any(|m| bytes.starts_with(m)));
    if let Some(read) = signed.and_then(|e| bytes_reader(e.format)) {
        return read(path, &bytes);
    }
    if bytes.starts_with(b"\xef\xbb\xbf") {
        return Err(IoError::parse(
            path,
            "byte 0",
            "the file starts with a UTF-8 byte-order mark (bytes EF BB BF, U+FEFF), which \
             none of the text formats allow; remove it (for example `sed -i '1s/^\\xEF\\xBB\\xBF//'`)",
        ));
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let text = FORMATS
        .iter()
        .find(|e| first.is_some() && e.opens_with == first)
        .or(by_name);
    let read = text
        .and_then(|e| bytes_reader(e.format))
        .or_else(|| bytes_reader(FALLBACK))
        .expect("the fallback format is read from bytes");
    read(path, &bytes)
}

#[cfg(feature = "hdf5")]
fn load_hdf5(path: &Path) -> Result<LoadedProblem, IoError> {
    super::fclib::read(path)
}

#[cfg(not(feature = "hdf5"))]
fn load_hdf5(path: &Path) -> Result<LoadedProblem, IoError> {
    Err(IoError::new(path, IoErrorKind::FeatureDisabled("hdf5")))
}

/// Reads JSON bytes as the project's format or a MuJoCo export.
///
/// # Errors
/// A JSON syntax error (at its line and column), a JSON value that is not an object,
/// [`IoErrorKind::UnknownFormat`] for an object of neither kind, else the reader's error.
pub fn load_json(path: &Path, bytes: &[u8]) -> Result<LoadedProblem, IoError> {
    // Which keys are present, without building the document: the values are skipped
    // (a `serde_json::Value` of a large file costs hundreds of bytes per number).
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case, dead_code)]
    struct Keys {
        format: Option<serde::de::IgnoredAny>,
        A: Option<serde::de::IgnoredAny>,
        b: Option<serde::de::IgnoredAny>,
        mu: Option<serde::de::IgnoredAny>,
        n_contacts: Option<serde::de::IgnoredAny>,
    }
    let json_error = super::file::json_error;
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{') {
        // Let serde report a syntax error first; a well-formed non-object is named.
        serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
            .map_err(|e| json_error(path, bytes, &e))?;
        return Err(IoError::parse(
            path,
            "line 1",
            "a JSON problem file holds one object `{...}`; this one holds another JSON value",
        ));
    }
    let keys: Keys = serde_json::from_slice(bytes).map_err(|e| json_error(path, bytes, &e))?;
    if keys.format.is_some() {
        return json::from_bytes(path, bytes);
    }
    if keys.A.is_some() && keys.b.is_some() && keys.mu.is_some() && keys.n_contacts.is_some() {
        return Ok(mujoco::from_bytes(path, bytes)?.into_loaded(path));
    }
    Err(IoError::new(path, IoErrorKind::UnknownFormat))
}

// ---------------------------------------------------------------------------------------
// The writers of the table.

fn json_text(lp: &LoadedProblem) -> Result<String, String> {
    Ok(json::to_string(
        &lp.name,
        &lp.problem,
        lp.answer.as_ref(),
        &lp.provenance,
    ))
}

fn siconos_text(lp: &LoadedProblem) -> Result<String, String> {
    match &lp.problem {
        AnyProblem::Lcp(p) => Ok(siconos::lcp_to_string(p)),
        AnyProblem::Friction(p) => Ok(siconos::fc3d_to_string(p)),
        AnyProblem::Global(p) => Ok(siconos::gfc3d_to_string(p)),
        AnyProblem::Boxed(_) => Err(
            "a boxed LCP cannot be written as Siconos .dat (Siconos has no boxed-LCP file \
             format); use --to json, --to numpy or --to npz"
                .into(),
        ),
        AnyProblem::Generic(_) => Err(
            "a generic mechanical problem cannot be written as Siconos .dat (the Siconos \
             formats hold LCPs and fc3d/gfc3d problems); use --to json, --to npz or --to numpy"
                .into(),
        ),
    }
}

fn npz_file(path: &Path, lp: &LoadedProblem, compress: bool) -> Result<(), IoError> {
    use numpy::npz::Compression;
    numpy::npz::write(
        path,
        &lp.name,
        &lp.problem,
        lp.answer.as_ref(),
        &lp.provenance,
        if compress {
            Compression::Deflated
        } else {
            Compression::Stored
        },
    )
}

fn numpy_folder(dir: &Path, lp: &LoadedProblem) -> Result<(), IoError> {
    numpy::folder::write_with_provenance(
        dir,
        &lp.name,
        &lp.problem,
        lp.answer.as_ref(),
        &lp.provenance,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`DISCOVERED`](super::super::DISCOVERED) says what the table lists.
    #[test]
    fn discovered_is_the_table() {
        assert_eq!(super::super::DISCOVERED, discovered_text());
    }

    /// Every format has one entry, its name is unique, and every reader ends in bytes or a
    /// path.
    #[test]
    fn one_entry_per_format() {
        let all = [
            Format::Json,
            Format::Siconos,
            Format::Fclib,
            Format::OpenTissue,
            Format::MuJoCo,
            Format::Numpy,
            Format::Npz,
        ];
        assert_eq!(FORMATS.len(), all.len());
        for f in all {
            assert_eq!(FORMATS.iter().filter(|e| e.format == f).count(), 1, "{f:?}");
            assert_eq!(
                FORMATS.iter().filter(|e| e.name == f.name()).count(),
                1,
                "{f:?}"
            );
            let folder = matches!(f.entry().reader, Reader::Folder { .. });
            assert!(folder || bytes_reader(f).is_some(), "{f:?}");
        }
        assert!(bytes_reader(FALLBACK).is_some());
        let to: Vec<&str> = writable().map(|(_, w)| w.to).collect();
        assert_eq!(to, ["siconos", "json", "npz", "numpy"]);
    }
}
