//! Reading a source file whole, never more than a limit: a hostile or broken
//! source (a gzip bomb, a runaway file) is refused with its name instead of
//! taking the machine's memory. Files named `*.gz` or `*.dz` (dictzip is gzip
//! with a random-access header) are decompressed while they are read, and
//! the limit applies to the decompressed bytes; other files are read as they
//! are, under the same limit.

use flate2::read::MultiGzDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The default limit on one source file's (decompressed) size: ten times the
/// largest file of the benchmark corpus, far below what would exhaust memory.
pub const DEFAULT_MAX_SOURCE_BYTES: u64 = 1 << 30;

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: corrupt or truncated gzip data after {after} bytes: {source}")]
    Corrupt {
        path: PathBuf,
        after: usize,
        source: std::io::Error,
    },
    #[error("{path}: {} more than {limit} bytes, the limit for one source file: refused (a genuine file needs a larger --max-source-bytes)", if *.compressed { "decompresses to" } else { "holds" })]
    TooLarge {
        path: PathBuf,
        limit: u64,
        compressed: bool,
    },
}

/// Whether a file is read through gzip.
pub fn is_compressed(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("gz" | "dz"))
}

/// The bytes of `path`, decompressed if it is `*.gz` or `*.dz`; an error
/// naming the file as soon as it goes over `max_bytes`. At most
/// `max_bytes + 1` bytes are ever read.
pub fn read(path: &Path, max_bytes: u64) -> Result<Vec<u8>, SourceError> {
    let file = std::fs::File::open(path).map_err(|source| SourceError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let compressed = is_compressed(path);
    let reader: Box<dyn Read> = if compressed {
        Box::new(MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut data = Vec::new();
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut data)
        .map_err(|source| {
            if compressed {
                SourceError::Corrupt {
                    path: path.to_path_buf(),
                    after: data.len(),
                    source,
                }
            } else {
                SourceError::Io {
                    path: path.to_path_buf(),
                    source,
                }
            }
        })?;
    if data.len() as u64 > max_bytes {
        return Err(SourceError::TooLarge {
            path: path.to_path_buf(),
            limit: max_bytes,
            compressed,
        });
    }
    Ok(data)
}

#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{0:?} is not a size above zero (for example 1073741824, 1GiB, 512MiB, 64KiB, 500MB)")]
pub struct BadSize(pub String);

/// A size as an operator writes it: `1073741824`, `512MiB`, `1GiB`, `64KiB`,
/// or decimal `500MB`, `2GB`, `10kB`.
pub fn parse_size(text: &str) -> Result<u64, BadSize> {
    let bad = || BadSize(text.to_string());
    let trimmed = text.trim();
    let digits = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    let (number, unit) = trimmed.split_at(digits);
    let number: u64 = number.parse().map_err(|_| bad())?;
    let factor: u64 = match unit.trim() {
        "" | "B" => 1,
        "KiB" | "K" => 1 << 10,
        "MiB" | "M" => 1 << 20,
        "GiB" | "G" => 1 << 30,
        "kB" | "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        _ => return Err(bad()),
    };
    number
        .checked_mul(factor)
        .filter(|&n| n > 0)
        .ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("source-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn a_decompression_bomb_is_refused_by_name_without_inflating_it() {
        let dir = temp_dir("bomb");
        // 64 MiB of zeros: about 64 KiB compressed.
        let bomb = gzip(&vec![0u8; 64 << 20]);
        assert!(bomb.len() < 100_000, "{}", bomb.len());
        let path = dir.join("bomb.dict.dz");
        std::fs::write(&path, &bomb).unwrap();
        let err = read(&path, 1 << 20).unwrap_err();
        assert!(
            matches!(err, SourceError::TooLarge { limit, compressed: true, .. } if limit == 1 << 20)
        );
        let message = err.to_string();
        assert!(
            message.starts_with(&path.display().to_string()),
            "{message}"
        );
        assert!(
            message.contains("decompresses to more than 1048576 bytes"),
            "{message}"
        );
        // Under a limit it fits, it is read whole.
        assert_eq!(read(&path, 64 << 20).unwrap().len(), 64 << 20);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_limit_is_exact_and_applies_to_plain_files_too() {
        let dir = temp_dir("plain");
        let path = dir.join("data.noun");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(&path, 10).unwrap(), b"0123456789");
        let err = read(&path, 9).unwrap_err().to_string();
        assert!(err.contains("holds more than 9 bytes"), "{err}");
        let gz = dir.join("th_en_US_v2.dat.gz");
        std::fs::write(&gz, gzip(b"0123456789")).unwrap();
        assert_eq!(read(&gz, 10).unwrap(), b"0123456789");
        assert!(read(&gz, 9).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn concatenated_gzip_members_are_read_like_gzip_does() {
        let dir = temp_dir("members");
        let path = dir.join("x.dict.dz");
        let mut bytes = gzip(b"first ");
        bytes.extend(gzip(b"second"));
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(read(&path, 100).unwrap(), b"first second");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_gzip_says_where_it_broke() {
        let dir = temp_dir("corrupt");
        let path = dir.join("x.dict.dz");
        let whole = gzip(
            &(0..200_000u32)
                .flat_map(|n| n.to_le_bytes())
                .collect::<Vec<_>>(),
        );
        std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
        let err = read(&path, 1 << 30).unwrap_err().to_string();
        assert!(
            err.contains("corrupt or truncated gzip data after"),
            "{err}"
        );
        let missing = read(&dir.join("absent.dict.dz"), 10)
            .unwrap_err()
            .to_string();
        assert!(missing.contains("absent.dict.dz"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("1073741824"), Ok(1 << 30));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("10 kB"), Ok(10_000));
        assert!(parse_size("0").is_err());
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5 parsecs").is_err());
        assert!(parse_size("99999999999999999999GiB").is_err());
    }
}
