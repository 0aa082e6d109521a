//! Inflected forms of a language from a Hunspell dictionary (`.aff` + `.dic`),
//! by Hunspell itself (Debian's `hunspell` and `hunspell-tools` 1.7, which
//! infra/scripts/lib.sh `hunspell_tools` unpacks into `.tools/hunspell`):
//!
//! 1. `unmunch <dic> <aff>` expands every stem by its affix flags into the
//!    word forms they make: the **candidates**;
//! 2. `hunspell -s -d <dictionary>` stems every candidate with Hunspell's
//!    own engine (twofold affixes, circumfixes, `NEEDAFFIX`, compounding
//!    rules and all): each line it prints is `form stem`, and those are the
//!    pairs.
//!
//! So Hunspell decides every pair; `unmunch` only proposes words. `unmunch`
//! is an old tool: it reads flags one character at a time (French's
//! `FLAG long` comes out wrong) and prints the continuation flags it does
//! not expand after a `/` (`chevaux/D'Q'`). Its lines are therefore cut at
//! the first `/` or `|`, and candidates with an apostrophe (French elisions
//! such as `l'allée`, which are not headword forms) are left out; whatever
//! it proposes that is not a word, Hunspell rejects. Measured on the French
//! dictionary, the pairs agree with those of the same stemming run on the
//! forms of another expander (the `zspell` crate, which mishandles
//! continuation classes differently): 361,285 shared, 1,149 only here (units
//! with SI prefixes), 5 only there (`résolu` of `résoudre`).
//!
//! A word list (`word<TAB>…` lines, wordfreq's as infra/scripts/wordfreq.sh
//! writes them) may propose more candidates: `unmunch` expands few of the
//! Dutch dictionary's flags (`wordt`, `komt`, `werkte` never come out of it).
//! A listed word may be a compound Hunspell accepts but does not list
//! (`grondlijn`), which `hunspell -s` stems to its first part (`grond`); so
//! the list's words are analysed with `hunspell -m` instead, and its analyses
//! of compounds (those with `pa:` parts) give no pair.
//!
//! Dutch's candidates are all analysed so: the dictionary gives a finite
//! verb form its verb's stem (`komt` `st:kom`, a noun too), and
//! `dutch_verbs` tells those by their tag and puts the infinitive in the
//! stem's place, one the dictionary lists as a verb (`komen`).
//!
//! Candidates are stemmed by as many `hunspell` processes as there are
//! cores (at most four), each given an equal share.

use super::hunspell_analysis::{analyses, Analysis};
use super::{dutch_verbs, LexiconError, WordList};
use crate::formats::source::{self, DEFAULT_MAX_SOURCE_BYTES};
use shared::search::lexicon::{LexiconKind, Pair};
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The expander, from Debian's `hunspell-tools`.
const UNMUNCH: &str = "unmunch";
/// The spell checker, from Debian's `hunspell`.
const HUNSPELL: &str = "hunspell";
const MAX_PROCESSES: usize = 4;
const INSTALL_HINT: &str = "Debian's hunspell and hunspell-tools are needed on PATH (infra/scripts/lib.sh hunspell_tools unpacks them into .tools/hunspell)";

/// The forms of `lang` in the Hunspell dictionary `aff` + `dic`, stemming
/// also the words of the list `words` when given.
pub fn read(
    lang: &str,
    aff: &Path,
    dic: &Path,
    words: Option<&Path>,
    origin: String,
    licence: String,
) -> Result<WordList, LexiconError> {
    for path in [aff, dic] {
        if !path.is_file() {
            return Err(LexiconError::Input {
                path: path.to_path_buf(),
                message: "no such file".into(),
            });
        }
    }
    let expanded = run(Command::new(UNMUNCH).arg(dic).arg(aff), None)?;
    let candidates = candidates(&String::from_utf8_lossy(&expanded));
    let dictionary = Dictionary::new(aff, dic)?;
    let base = &dictionary.base;
    let dutch = lang == "nl";
    let (mut pairs, mut analysed) = if dutch {
        (Vec::new(), analyse(base, &candidates)?)
    } else {
        (
            stem_pairs(&hunspell_all(base, &candidates, "-s")?),
            Vec::new(),
        )
    };
    if let Some(path) = words {
        let bytes = source::read(path, DEFAULT_MAX_SOURCE_BYTES)?;
        let mut listed = listed(&String::from_utf8_lossy(&bytes));
        listed.retain(|word| candidates.binary_search(word).is_err());
        analysed.extend(analyse(base, &listed)?);
    }
    if dutch {
        let participles = dutch_verbs::participles_to_check(&analysed);
        let verbs = dutch_verbs::verbs_of_participles(analyse(base, &participles)?);
        analysed = dutch_verbs::with_infinitives(analysed, |word| verbs.contains(word));
    }
    pairs.extend(analysed.into_iter().map(|a| (a.form, a.stem)));
    Ok(WordList::new(
        LexiconKind::Forms,
        lang,
        origin,
        licence,
        pairs,
    ))
}

/// The candidate words of `unmunch`'s output: each line up to its first
/// `/` or `|`, trimmed; no empty ones, none with an apostrophe or inner
/// whitespace; sorted and distinct.
pub fn candidates(unmunched: &str) -> Vec<String> {
    let mut distinct: HashSet<&str> = HashSet::new();
    let mut previous = "";
    for line in unmunched.lines() {
        // Single-character searches run as memchr, fast even in the debug
        // build that `make up` uses.
        let word = line.split('/').next().unwrap_or("");
        let word = word.split('|').next().unwrap_or("").trim();
        // unmunch prints a form once per flag that makes it, often in a row.
        if word != previous && is_candidate(word) {
            distinct.insert(word);
        }
        previous = word;
    }
    let mut words: Vec<String> = distinct.into_iter().map(str::to_string).collect();
    words.sort_unstable();
    words
}

/// The candidate words of a word list: the first field of each line.
pub fn listed(list: &str) -> Vec<String> {
    list.lines()
        .map(|line| line.split('\t').next().unwrap_or("").trim())
        .filter(|word| is_candidate(word))
        .map(str::to_string)
        .collect()
}

/// A word to stem: not empty, no apostrophe (French elisions), no inner
/// whitespace, and not a compound's fragment (`-Aachen`, `Haus-`, which
/// German's affixes make for compounding).
fn is_candidate(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with('-')
        && !word.ends_with('-')
        && !word.contains('\'')
        && !word.contains('’')
        && !word.contains(' ')
        && !word.contains('\t')
}

/// The pairs of `hunspell -s`'s output: `form stem` lines. A line of one
/// word (a word Hunspell does not know) and the empty line after each
/// word give none.
pub fn stem_pairs(stemmed: &str) -> Vec<Pair> {
    stemmed
        .lines()
        .filter_map(|line| {
            let (form, stem) = line.trim().split_once(' ')?;
            let stem = stem.trim();
            (!stem.is_empty() && !stem.contains(' ')).then(|| (form.to_string(), stem.to_string()))
        })
        .collect()
}

/// The dictionary as `hunspell -d` names it: the path without extension of
/// an `.aff` and a `.dic` side by side. When the two files given are not
/// named so, links to them are made in a temporary directory (removed on
/// drop).
struct Dictionary {
    base: PathBuf,
    linked: Option<PathBuf>,
}

impl Dictionary {
    fn new(aff: &Path, dic: &Path) -> Result<Self, LexiconError> {
        let base = dic.with_extension("");
        if dic.extension().is_some_and(|e| e == "dic") && base.with_extension("aff") == aff {
            return Ok(Self { base, linked: None });
        }
        static LINKED: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "dictadmin-hunspell-{}-{}",
            std::process::id(),
            LINKED.fetch_add(1, Ordering::Relaxed)
        ));
        let io = |path: &Path, e: std::io::Error| LexiconError::Input {
            path: path.to_path_buf(),
            message: format!("linking for hunspell: {e}"),
        };
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let base = dir.join("dictionary");
        for (from, ext) in [(aff, "aff"), (dic, "dic")] {
            let link = base.with_extension(ext);
            let _ = std::fs::remove_file(&link);
            let target = std::path::absolute(from).map_err(|e| io(from, e))?;
            std::os::unix::fs::symlink(target, &link).map_err(|e| io(&link, e))?;
        }
        Ok(Self {
            base,
            linked: Some(dir),
        })
    }
}

impl Drop for Dictionary {
    fn drop(&mut self) {
        if let Some(dir) = &self.linked {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Every candidate analysed by `hunspell -m`.
fn analyse(base: &Path, candidates: &[String]) -> Result<Vec<Analysis>, LexiconError> {
    Ok(analyses(&hunspell_all(base, candidates, "-m")?))
}

/// The output of `hunspell <flag>` (`-s` stems, `-m` analyses) given every
/// candidate, run in parallel shares.
fn hunspell_all(base: &Path, candidates: &[String], flag: &str) -> Result<String, LexiconError> {
    let processes = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_PROCESSES);
    let share = candidates.len().div_ceil(processes).max(1);
    let outputs: Vec<Result<Vec<u8>, LexiconError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = candidates
            .chunks(share)
            .map(|words| {
                scope.spawn(move || {
                    let mut input = words.join("\n");
                    input.push('\n');
                    run(
                        Command::new(HUNSPELL)
                            // No personal dictionary: only the one given.
                            .args([flag, "-i", "utf-8", "-p", "/dev/null", "-d"])
                            .arg(base),
                        Some(input.into_bytes()),
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a stemming thread panicked"))
            .collect()
    });
    let mut all = String::new();
    for output in outputs {
        all.push_str(&String::from_utf8_lossy(&output?));
    }
    Ok(all)
}

/// Runs a tool, feeding it `input` (from another thread, so that neither
/// side waits on a full pipe), and returns its standard output; an error
/// with the end of its standard error if it cannot start or fails.
fn run(command: &mut Command, input: Option<Vec<u8>>) -> Result<Vec<u8>, LexiconError> {
    let tool = command.get_program().to_string_lossy().into_owned();
    let failed = |message: String| LexiconError::Tool {
        tool: tool.clone(),
        message,
    };
    // Hunspell lower-cases by the locale: in the C locale it cuts `Häuser`
    // to `h`. The dictionaries are UTF-8 (`SET UTF-8`).
    let mut child = command
        .env("LC_ALL", "C.UTF-8")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => failed(format!("not found: {INSTALL_HINT}")),
            _ => failed(format!("cannot start: {e}")),
        })?;
    let stdin = child.stdin.take();
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (out, err) = std::thread::scope(|scope| {
        if let (Some(mut stdin), Some(input)) = (stdin, input) {
            // A tool that exits early closes the pipe; its status says why.
            scope.spawn(move || stdin.write_all(&input));
        }
        let err = scope.spawn(move || {
            let mut buf = Vec::new();
            stderr.read_to_end(&mut buf).map(|_| buf)
        });
        let mut out = Vec::new();
        let read = stdout.read_to_end(&mut out);
        (
            read.map(|_| out),
            err.join().expect("stderr reader panicked"),
        )
    });
    let status = child.wait().map_err(|e| failed(e.to_string()))?;
    let out = out.map_err(|e| failed(format!("reading its output: {e}")))?;
    if !status.success() {
        let err = err.unwrap_or_default();
        let text = String::from_utf8_lossy(&err);
        let tail: Vec<&str> = text.lines().rev().take(5).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(failed(format!("{status}: {}", tail.join(" / "))));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_unmunch_words_without_flags_or_elisions() {
        let unmunched = "cheval\ncheval0/L'D'Q'|\nchevaux/D'Q'|\nl'allée/q'|\nallées\n\
                         aujourd’hui\nAscope \nDD.HH.\nchevaux\n-Aachen\nHaus-/zocf\n\n";
        assert_eq!(
            candidates(unmunched),
            ["Ascope", "DD.HH.", "allées", "cheval", "cheval0", "chevaux"]
        );
    }

    #[test]
    fn a_word_list_proposes_its_first_column() {
        let list = "wordt\t6.41\nkomt\t6.30\n\nl'eau\t3.1\n-jes\t2.0\nwerkte\n";
        assert_eq!(listed(list), ["wordt", "komt", "werkte"]);
    }

    #[test]
    fn stem_lines_are_pairs_and_unknown_words_none() {
        let stemmed = "chevaux cheval\n\nallées allée\nallées aller\n\nxyzzy\n\nHäuser Haus\n";
        let want = [
            ("chevaux", "cheval"),
            ("allées", "allée"),
            ("allées", "aller"),
            ("Häuser", "Haus"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()));
        assert_eq!(stem_pairs(stemmed), want);
    }

    #[test]
    fn a_dictionary_named_apart_is_linked_side_by_side() {
        let dir = std::env::temp_dir().join(format!("lexicon-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (aff, dic) = (dir.join("a.aff"), dir.join("b.dic"));
        std::fs::write(&aff, "SET UTF-8\n").unwrap();
        std::fs::write(&dic, "1\nword\n").unwrap();
        let same = Dictionary::new(&dir.join("b.aff"), &dic).unwrap();
        assert_eq!(same.base, dir.join("b"));
        let linked = Dictionary::new(&aff, &dic).unwrap();
        assert_eq!(
            std::fs::read_to_string(linked.base.with_extension("aff")).unwrap(),
            "SET UTF-8\n"
        );
        let link_dir = linked.linked.clone().unwrap();
        drop(linked);
        assert!(!link_dir.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_tool_is_named_with_where_to_get_it() {
        let err = run(&mut Command::new("no-such-unmunch-tool"), None).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("no-such-unmunch-tool: not found: Debian's hunspell"));
        let err = run(
            Command::new("sh").args(["-c", "echo broken >&2; exit 3"]),
            None,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "sh: exit status: 3: broken");
    }
}
