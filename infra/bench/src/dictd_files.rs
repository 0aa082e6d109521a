//! Postings read straight from dictd `.index` files (no DynamoDB), so that
//! an index snapshot can be built in memory from the same headwords a dictd
//! server serves. The format is read by the importer's own reader
//! (`admin::import::dictd`).

use admin::import::dictd::{is_metadata, parse_index, IndexLine};
use shared::search::postings::{DictionaryRef, Posting};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Every article of one `.index` file as a posting: the dictionary is named
/// by the file (`freedict-deu-eng`: German to English, `de` to `en`), and an article is
/// one entry under the first headword that points at it. dictd's metadata
/// articles (`00-database-…`) are left out.
pub fn read_index(file: &Path, postings: &mut Vec<Posting>) -> std::io::Result<()> {
    let id = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    // The API's codes, as the importer writes them (`deu` is `de`), so that
    // each language's rules (sounds-like) apply.
    let mut langs = id
        .split('-')
        .skip(1)
        .map(|l| admin::import::of_iso639_3(l).map_or(l, |(code, _)| code));
    let dictionary = DictionaryRef {
        id: id.clone(),
        source_lang: langs.next().unwrap_or("und").to_string(),
        target_lang: langs.next().map(str::to_string),
    };
    let mut seen = HashSet::new();
    for line in index_lines(file)? {
        if is_metadata(&line.headword) || !seen.insert((line.offset, line.length)) {
            continue;
        }
        // The dictd comparison is of headword search only.
        let posting = Posting::headword(
            &line.headword,
            dictionary.clone(),
            postings.len().to_string(),
        );
        if posting.folded().is_empty() {
            continue;
        }
        postings.push(posting);
    }
    Ok(())
}

/// The headwords of one `.index` file as dictd matches them (its keys),
/// metadata left out: what queries are drawn from.
pub fn headwords(file: &Path) -> std::io::Result<Vec<String>> {
    Ok(index_lines(file)?
        .into_iter()
        .map(|line| line.headword)
        .filter(|w| !w.is_empty() && !is_metadata(w))
        .collect())
}

/// The lines of an `.index` file, read by the importer's reader.
fn index_lines(file: &Path) -> std::io::Result<Vec<IndexLine>> {
    let bytes = std::fs::read(file)?;
    parse_index(file, &bytes).map_err(std::io::Error::other)
}

/// Every article of every `.index` file of `dirs`, as a posting.
pub fn read_postings(dirs: &[PathBuf]) -> Vec<Posting> {
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "index"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .index files in {dirs:?}");
    let mut postings = Vec::new();
    for file in &files {
        read_index(file, &mut postings).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    }
    println!("{} dictionaries", files.len());
    postings
}
