//! Every source parser on arbitrary bytes: no panic, no abort, and no single
//! allocation larger than a fixed multiple of its input. Sources come from
//! packages and mirrors the project does not control, so a count or a range
//! read from a file must never decide how much memory an import takes.
//!
//! The allocation bound is checked by this test binary's global allocator,
//! which records the largest request made on a thread while that thread is
//! inside [`measure`]; other tests running beside these are not counted.

use super::{dictd, freedict, gcide, mythes, thesaurus, wordnet};
use crate::formats::wordnet as wordnet_index;
use crate::lexicon::hunspell_forms;
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest allocation a parser may make: this many times its input,
/// plus a fixed allowance for tables and buffers of its own.
const ALLOCATION_PER_INPUT_BYTE: usize = 64;
const ALLOCATION_ALLOWANCE: usize = 1 << 20;

struct Recording;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}
static LARGEST: AtomicUsize = AtomicUsize::new(0);

fn note(size: usize) {
    if MEASURING.with(Cell::get) {
        LARGEST.fetch_max(size, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed on to the system allocator unchanged; the
// wrapper only records sizes.
unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Recording = Recording;

/// Runs `parse` on `input` and fails if it panicked or made an allocation
/// above the bound for an input of that size. Tests that measure run one at
/// a time (the largest request is one figure for the whole binary).
fn measure(name: &str, input: &[u8], parse: impl FnOnce(&[u8])) -> Result<(), TestCaseError> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    LARGEST.store(0, Ordering::Relaxed);
    MEASURING.with(|m| m.set(true));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse(input)));
    MEASURING.with(|m| m.set(false));
    prop_assert!(outcome.is_ok(), "{name} panicked on {:?}", lossy(input));
    let largest = LARGEST.load(Ordering::Relaxed);
    let bound = ALLOCATION_PER_INPUT_BYTE * input.len() + ALLOCATION_ALLOWANCE;
    prop_assert!(
        largest <= bound,
        "{name} allocated {largest} bytes at once for {} bytes of input",
        input.len()
    );
    Ok(())
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).chars().take(200).collect()
}

fn path() -> &'static Path {
    Path::new("fuzz")
}

/// Bytes shaped like the sources: mostly their own separators, digits and
/// letters (so counts, fields and ranges are reached), sometimes anything.
fn source_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: &[u8] = b"|\t\n\r ()[]{}<>/;:.,-_%0123456789ABab+=\\\"'#@!?";
    let shaped = prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(alphabet),
            1 => any::<u8>(),
        ],
        0..600,
    );
    prop_oneof![
        4 => shaped,
        1 => prop::collection::vec(any::<u8>(), 0..600),
        // Huge counts where a count is read.
        1 => "[a-z]{1,6}\\|9{1,14}\n(\\([a-z]{1,4}\\)\\|[a-z|]{0,20}\n){0,3}"
            .prop_map(String::into_bytes),
        1 => "0{8} 0[0-9] n ([0-9a-f]{1,16}) [a-z_]{1,8} 0 9{1,12} [@~!] 0{8} n 0000 \\| [a-z ;\"]{0,40}\n"
            .prop_map(String::into_bytes),
    ]
}

/// A dictd index: headword, base64 offset and length, some of them huge or
/// overlapping.
fn dictd_index() -> impl Strategy<Value = Vec<u8>> {
    let line = (
        "[a-z0-9 -]{0,8}",
        "[A-Za-z0-9+/]{0,11}",
        "[A-Za-z0-9+/]{0,11}",
    )
        .prop_map(|(h, o, l)| format!("{h}\t{o}\t{l}\n"));
    prop::collection::vec(line, 0..40).prop_map(|lines| lines.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn dictd_databases_parse_within_bounds(index in dictd_index(), data in source_bytes()) {
        measure("dictd", &[index.as_slice(), &data].concat(), |_| {
            if let Ok(db) = dictd::Database::from_bytes(
                PathBuf::from("fuzz.index"),
                &index,
                PathBuf::from("fuzz.dict"),
                data.clone(),
            ) {
                for line in db.articles() {
                    let _ = db.article(line);
                }
                let _ = db.metadata("00databaseinfo");
            }
        })?;
    }

    #[test]
    fn freedict_articles_parse_within_bounds(bytes in source_bytes()) {
        measure("freedict", &bytes, |b| {
            let text = String::from_utf8_lossy(b);
            for layout in [
                freedict::Layout::Plain,
                freedict::Layout::JMdict,
                freedict::Layout::WikDict,
            ] {
                let _ = freedict::parse_article_of(&text, layout);
            }
        })?;
    }

    #[test]
    fn gcide_articles_parse_within_bounds(bytes in source_bytes()) {
        measure("gcide", &bytes, |b| {
            let _ = gcide::parse_article(&String::from_utf8_lossy(b));
        })?;
    }

    #[test]
    fn mythes_files_parse_within_bounds(bytes in source_bytes()) {
        measure("mythes", &bytes, |b| {
            let _ = mythes::parse(path(), &mythes::decode(&[b"UTF-8\n".as_slice(), b].concat()));
        })?;
    }

    #[test]
    fn wordnet_lines_parse_within_bounds(bytes in source_bytes()) {
        measure("wordnet", &bytes, |b| {
            for line in String::from_utf8_lossy(b).lines() {
                let _ = wordnet::parse_data_line(line);
                let _ = wordnet::parse_tag_count_line(line);
                let _ = wordnet::split_gloss(line);
                let _ = wordnet_index::parse_index_line(line);
            }
        })?;
    }

    #[test]
    fn hunspell_output_and_thesaurus_items_parse_within_bounds(bytes in source_bytes()) {
        measure("hunspell and thesaurus", &bytes, |b| {
            let text = String::from_utf8_lossy(b);
            let _ = hunspell_forms::candidates(&text);
            let _ = hunspell_forms::stem_pairs(&text);
            for line in text.lines() {
                let _ = thesaurus::clean("synonym", line);
            }
        })?;
    }
}

/// The inputs the issue named: a MyThes count of 99,999,999,999 and a
/// WordNet line claiming as many words, refused with an error and without
/// asking for the memory their counts would need.
#[test]
fn counts_from_a_file_do_not_size_allocations() {
    measure("mythes", b"UTF-8\nword|99999999999\n(noun)|house\n", |b| {
        let parsed = mythes::parse(path(), &mythes::decode(b));
        assert!(
            parsed.is_err(),
            "a file that ends before its meanings is an error"
        );
    })
    .unwrap();
    let line = "00001740 03 n ffffffffff entity 0 001 @ 00001930 n 0000 | that which exists";
    measure("wordnet", line.as_bytes(), |_| {
        assert!(wordnet::parse_data_line(line).is_err());
    })
    .unwrap();
}

/// Index lines that each cover the whole data are refused before any
/// article is read.
#[test]
fn overlapping_dictd_ranges_are_refused() {
    let data = vec![b'x'; 1000];
    let index: String = (0..50)
        .map(|i| format!("w{i}\tA\tPo\n")) // offset 0, length 1000
        .collect();
    // Identical ranges are one article, so this is fine ...
    assert!(dictd::Database::from_bytes(
        "same.index".into(),
        index.as_bytes(),
        "same.dict".into(),
        data.clone()
    )
    .is_ok());
    // ... but ranges that differ by a byte are 50 articles over the data.
    let index: String = (0..50u8)
        .map(|i| {
            let offset =
                char::from(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[i as usize]);
            format!("w{i}\t{offset}\tPA\n") // offset i, length 960
        })
        .collect();
    let refused = dictd::Database::from_bytes(
        "overlap.index".into(),
        index.as_bytes(),
        "overlap.dict".into(),
        data,
    );
    assert!(
        matches!(refused, Err(super::ImportError::Overlapping { .. })),
        "{:?}",
        refused.err()
    );
}
