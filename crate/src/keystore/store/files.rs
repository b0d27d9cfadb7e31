//! The store's file operations: names, listing, capped reads, atomic writes, directory
//! syncs and erasure.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

use super::super::Error;
use super::{STATE_FILE, TMP_SUFFIX};

pub(super) fn generation_file_name(generation: u64) -> String {
    alloc::format!("gen-{generation:020}.qsnp")
}

/// The generation named by `gen-<20 digits>.qsnp`, exactly.
pub(super) fn parse_generation_file_name(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("gen-")?.strip_suffix(".qsnp")?;
    if digits.len() != 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

pub(super) fn io_error(op: &'static str, path: &Path, e: &io::Error) -> Error {
    Error::Io {
        op,
        kind: alloc::format!("{:?}", e.kind()),
        path: path.display().to_string(),
    }
}

pub(super) fn create_dir(dir: &Path) -> Result<(), Error> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| io_error("create directory", dir, &e))
}

/// File names in `dir` (entries that are not valid UTF-8 are skipped).
fn file_names(dir: &Path) -> Result<Vec<String>, Error> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io_error("list", dir, &e))? {
        let entry = entry.map_err(|e| io_error("list", dir, &e))?;
        if let Ok(name) = entry.file_name().into_string() {
            names.push(name);
        }
    }
    Ok(names)
}

pub(super) fn list_generations(dir: &Path) -> Result<Vec<u64>, Error> {
    let mut generations: Vec<u64> = file_names(dir)?
        .iter()
        .filter_map(|n| parse_generation_file_name(n))
        .collect();
    generations.sort_unstable();
    Ok(generations)
}

/// Deletes temp files left by a crash before their rename.
pub(super) fn clean_temp_files(dir: &Path) -> Result<(), Error> {
    let mut removed = false;
    for name in file_names(dir)? {
        let Some(stem) = name.strip_suffix(TMP_SUFFIX) else {
            continue;
        };
        if stem != STATE_FILE && parse_generation_file_name(stem).is_none() {
            continue;
        }
        let path = dir.join(&name);
        match fs::remove_file(&path) {
            Ok(()) => removed = true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_error("remove", &path, &e)),
        }
    }
    if removed {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Reads a whole file of at most `cap` bytes; `None` if it does not exist.
pub(super) fn read_capped(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, Error> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error("open", path, &e)),
    };
    let too_large = |len: u64| Error::FileTooLarge {
        path: path.display().to_string(),
        len,
        max: cap,
    };
    let len = file.metadata().map_err(|e| io_error("stat", path, &e))?.len();
    if len > cap {
        return Err(too_large(len));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error("read", path, &e))?;
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// Writes `bytes` to `dir/name` atomically: `name.tmp`, write, fsync, rename, fsync dir.
pub(super) fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    let tmp = dir.join(alloc::format!("{name}{TMP_SUFFIX}"));
    let path = dir.join(name);
    match fs::remove_file(&tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error("remove", &tmp, &e)),
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let result = options
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        })
        .map_err(|e| io_error("write", &tmp, &e));
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    if let Err(e) = fs::rename(&tmp, &path) {
        let _ = fs::remove_file(&tmp);
        return Err(io_error("rename", &path, &e));
    }
    sync_dir(dir)
}

/// Makes directory entries (renames, deletions) durable.
pub(super) fn sync_dir(dir: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io_error("sync directory", dir, &e))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Erases the file at `path`: overwrites every byte with zeros, syncs, unlinks it and
/// syncs the directory, so the old ciphertext survives neither in the file system's view
/// nor (on storage that writes in place) in the file's blocks. A missing file is fine.
pub(super) fn erase(dir: &Path, path: &Path) -> Result<(), Error> {
    // In a block so the file is closed before it is unlinked (required on Windows).
    {
        let file = match OpenOptions::new().write(true).open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(io_error("open for erasure", path, &e)),
        };
        let len = file.metadata().map_err(|e| io_error("stat", path, &e))?.len();
        let zeros = [0u8; 4096];
        let mut left = len;
        let mut w = io::BufWriter::new(&file);
        while left > 0 {
            // At most the buffer's 4096 bytes: the conversion is exact.
            let n = usize::try_from(left).map_or(zeros.len(), |l| l.min(zeros.len()));
            w.write_all(&zeros[..n])
                .map_err(|e| io_error("overwrite", path, &e))?;
            left -= n as u64;
        }
        w.flush().map_err(|e| io_error("overwrite", path, &e))?;
        file.sync_all().map_err(|e| io_error("sync", path, &e))?;
    }
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error("remove", path, &e)),
    }
    sync_dir(dir)
}
