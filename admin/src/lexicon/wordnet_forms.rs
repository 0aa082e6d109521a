//! English inflected forms from WordNet 3.0's own morphology, the data and
//! rules of its `morphy` (WordNet's morphy(7WN)), run in the generating
//! direction:
//!
//! - the **exception lists** `noun.exc`, `verb.exc`, `adj.exc`, `adv.exc`
//!   (`form lemma [lemma…]`, `_` for a space) give the irregular forms as
//!   they are: `went go`, `geese goose`, `better good well`, and most
//!   doubled consonants (`running run`, `stopped stop`, `bigger big`);
//! - morphy's **detachment rules** (noun `s`→"", `ses`→`s`, `xes`→`x`,
//!   `zes`→`z`, `ches`→`ch`, `shes`→`sh`, `men`→`man`, `ies`→`y`; verb
//!   `s`→"", `ies`→`y`, `es`→`e`, `es`→"", `ed`→`e`, `ed`→"", `ing`→`e`,
//!   `ing`→""; adjective `er`→"", `est`→"", `er`→`e`, `est`→`e`) are
//!   applied backwards to every lemma of `index.noun`, `index.verb` and
//!   `index.adj`: a rule `suffix`→`ending` turns a lemma that ends in
//!   `ending` into a form that ends in `suffix`.
//!
//! Morphy analyses: it tries every rule on a word and keeps the results that
//! are lemmas. Generating has no such check, so each rule is applied only
//! where English spelling uses it (`RULES` says where): `box` takes `xes`,
//! not `s`; `carry` takes `ies`; `make` gives `making` by `ing`→`e`, not
//! `makeing`; `see` gives `seeing` by `ing`→"". Without that, every verb
//! would get `-es`, `-ed` and `-ing` forms of both kinds, half of them
//! non-words.
//!
//! Two extensions of morphy, for forms its rules cannot reach and its
//! exception lists leave out (both documented in data-model.md):
//!
//! - **doubled consonants** of one-syllable verbs (`blog` → `blogged`,
//!   `blogging`): `verb.exc` lists them for 560 verbs (every common one:
//!   `stop`, `run`, `plan`, also `refer`, `admit`), not for 29 rarer ones
//!   (`blog`, `spam`, `scam`, `gut`…). Adjectives get no such rule:
//!   `adj.exc` lists every gradable one (`big`, `hot`, `thin`, `wet`, `sad`,
//!   `slim`…), and the rest (`cut`, `set`, `top`) have no comparative: a
//!   rule would make `cutter` a form of `cut`. A word that doubles gets no
//!   undoubled `-ed`, `-ing`, `-er`, `-est` either (`runing`, `biger`);
//! - **`ied`** for the past of verbs in consonant + `y` (`party` →
//!   `partied`): morphy has `ies`→`y` but no `ied`→`y`, and `verb.exc`
//!   lists 229 of the 272 (`carried`, `tried`).
//!
//! Only lemmas whose inflected word (the last of a noun, the first of a
//! verb: `looks up`; adjectives of one word) is at least two lower-case
//! ASCII letters are inflected: `mother-in-law`, `a.m.` and `3d` have no
//! regular forms.

use super::{read_text, LexiconError, WordList};
use crate::formats::wordnet::parse_index_line;
use shared::search::lexicon::{LexiconKind, Pair};
use std::path::Path;

/// The parts of speech, as WordNet names their files.
const PARTS_OF_SPEECH: [Pos; 4] = [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pos {
    Noun,
    Verb,
    Adj,
    Adv,
}

impl Pos {
    fn file(self) -> &'static str {
        match self {
            Pos::Noun => "noun",
            Pos::Verb => "verb",
            Pos::Adj => "adj",
            Pos::Adv => "adv",
        }
    }
}

/// Where a detachment rule applies when it is run backwards, on the lemma.
#[derive(Debug, Clone, Copy)]
enum Where {
    /// Every lemma that ends in the rule's ending.
    Always,
    /// Not after what takes `-es` (`s`, `x`, `z`, `ch`, `sh`) nor after a
    /// consonant + `y` (which takes `-ies`).
    PlainS,
    /// Only after a consonant (`carry`, not `day`).
    AfterConsonant,
    /// Only after `s`, `x`, `z`, `ch`, `sh` or `o` (`passes`, `goes`).
    Sibilant,
    /// Neither after `e` nor after a consonant + `y`, nor where the last
    /// consonant doubles (`walked`; not `makeed`, `carryed`, `stoped`).
    PlainEd,
    /// After an `e` that is not `ee`, `ye`, `oe` or `ie` (`making`; not
    /// `seing`).
    DropE,
    /// Not after `e`, except `ee`, `ye`, `oe` (`walking`, `seeing`,
    /// `dyeing`), nor where the last consonant doubles (not `runing`).
    PlainIng,
    /// As `PlainEd` (`smaller`; not `biger`).
    PlainEr,
}

/// Morphy's detachment rules, `(part of speech, suffix, ending, where)`:
/// a form ending in `suffix` has the lemma that ends in `ending` instead.
const RULES: [(Pos, &str, &str, Where); 20] = [
    (Pos::Noun, "s", "", Where::PlainS),
    (Pos::Noun, "ses", "s", Where::Always),
    (Pos::Noun, "xes", "x", Where::Always),
    (Pos::Noun, "zes", "z", Where::Always),
    (Pos::Noun, "ches", "ch", Where::Always),
    (Pos::Noun, "shes", "sh", Where::Always),
    (Pos::Noun, "men", "man", Where::Always),
    (Pos::Noun, "ies", "y", Where::AfterConsonant),
    (Pos::Verb, "s", "", Where::PlainS),
    (Pos::Verb, "ies", "y", Where::AfterConsonant),
    (Pos::Verb, "es", "e", Where::Always),
    (Pos::Verb, "es", "", Where::Sibilant),
    (Pos::Verb, "ed", "e", Where::Always),
    (Pos::Verb, "ed", "", Where::PlainEd),
    (Pos::Verb, "ing", "e", Where::DropE),
    (Pos::Verb, "ing", "", Where::PlainIng),
    (Pos::Adj, "er", "", Where::PlainEr),
    (Pos::Adj, "est", "", Where::PlainEr),
    (Pos::Adj, "er", "e", Where::Always),
    (Pos::Adj, "est", "e", Where::Always),
];

const ORIGIN: &str =
    "Debian package wordnet-base (Princeton WordNet 3.0): exception lists and morphy's rules";
const LICENCE: &str = "WordNet";

/// The English forms of the WordNet database in `dir` (`*.exc` and
/// `index.*`, as `wordnet-base` installs them in /usr/share/wordnet).
pub fn read(dir: &Path) -> Result<WordList, LexiconError> {
    let mut pairs: Vec<Pair> = Vec::new();
    for pos in PARTS_OF_SPEECH {
        let path = dir.join(format!("{}.exc", pos.file()));
        pairs.extend(parse_exceptions(&path, &read_text(&path)?)?);
        let path = dir.join(format!("index.{}", pos.file()));
        for lemma in parse_index(&path, &read_text(&path)?)? {
            pairs.extend(
                inflect(pos, &lemma)
                    .into_iter()
                    .map(|form| (form, lemma.clone())),
            );
        }
    }
    Ok(WordList::new(
        LexiconKind::Forms,
        "en",
        ORIGIN.into(),
        LICENCE.into(),
        pairs,
    ))
}

/// The pairs of an exception list: `form lemma [lemma…]` per line.
fn parse_exceptions(path: &Path, text: &str) -> Result<Vec<Pair>, LexiconError> {
    let mut pairs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace().map(|f| f.replace('_', " "));
        let Some(form) = fields.next() else { continue };
        let lemmas: Vec<String> = fields.collect();
        if lemmas.is_empty() {
            return Err(LexiconError::Parse {
                path: path.to_path_buf(),
                line: n + 1,
                message: format!("{form:?} has no lemma"),
            });
        }
        pairs.extend(lemmas.into_iter().map(|lemma| (form.clone(), lemma)));
    }
    Ok(pairs)
}

/// The lemmas of an `index.<pos>` file (its licence header skipped).
fn parse_index(path: &Path, text: &str) -> Result<Vec<String>, LexiconError> {
    let mut lemmas = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match parse_index_line(line) {
            Ok(Some((lemma, _))) => lemmas.push(lemma),
            Ok(None) => {}
            Err(message) => {
                return Err(LexiconError::Parse {
                    path: path.to_path_buf(),
                    line: n + 1,
                    message,
                })
            }
        }
    }
    Ok(lemmas)
}

/// The regular forms of one lemma of a part of speech.
fn inflect(pos: Pos, lemma: &str) -> Vec<String> {
    let words: Vec<&str> = lemma.split(' ').collect();
    let at = match pos {
        Pos::Noun => words.len() - 1,
        Pos::Verb => 0,
        Pos::Adj if words.len() == 1 => 0,
        Pos::Adj | Pos::Adv => return Vec::new(),
    };
    let word = words[at];
    if word.len() < 2 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return Vec::new();
    }
    let mut forms: Vec<String> = RULES
        .iter()
        .filter(|(p, _, ending, place)| {
            *p == pos && word.ends_with(ending) && applies(*place, word)
        })
        .map(|(_, suffix, ending, _)| format!("{}{suffix}", &word[..word.len() - ending.len()]))
        .collect();
    if pos == Pos::Verb {
        if doubles_final_consonant(word) {
            let last = &word[word.len() - 1..];
            forms.push(format!("{word}{last}ed"));
            forms.push(format!("{word}{last}ing"));
        }
        if consonant_y(word) {
            forms.push(format!("{}ied", &word[..word.len() - 1]));
        }
    }
    forms.sort();
    forms.dedup();
    forms
        .into_iter()
        .map(|form| {
            let mut inflected = words.clone();
            inflected[at] = &form;
            inflected.join(" ")
        })
        .collect()
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Ends in a consonant + `y` (`carry`, not `day`).
fn consonant_y(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 2 && b[b.len() - 1] == b'y' && !is_vowel(b[b.len() - 2])
}

/// Takes `-es`: ends in `s`, `x`, `z`, `ch` or `sh`.
fn sibilant(word: &str) -> bool {
    ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| word.ends_with(e))
}

fn applies(place: Where, word: &str) -> bool {
    let e_not = |pairs: &[&str]| word.ends_with('e') && !pairs.iter().any(|p| word.ends_with(p));
    match place {
        Where::Always => true,
        Where::PlainS => !sibilant(word) && !consonant_y(word),
        Where::AfterConsonant => consonant_y(word),
        Where::Sibilant => sibilant(word) || word.ends_with('o'),
        Where::PlainEd | Where::PlainEr => {
            !word.ends_with('e') && !consonant_y(word) && !doubles_final_consonant(word)
        }
        Where::DropE => e_not(&["ee", "ye", "oe", "ie"]),
        Where::PlainIng => {
            !e_not(&["ee", "ye", "oe"]) && !word.ends_with("ie") && !doubles_final_consonant(word)
        }
    }
}

/// One syllable, ending in a single vowel letter and a single consonant
/// that English doubles (not `w`, `x`, `y`), after a consonant: `stop`,
/// `blog`, `spam`; not `rain`, `stay`, `box`, `help`.
fn doubles_final_consonant(word: &str) -> bool {
    let b = word.as_bytes();
    let n = b.len();
    if n < 3 || matches!(b[n - 1], b'w' | b'x' | b'y') || is_vowel(b[n - 1]) {
        return false;
    }
    // `qu` is a consonant sound (`quit` → `quitting`).
    let vowel = |i: usize| is_vowel(b[i]) && !(b[i] == b'u' && i > 0 && b[i - 1] == b'q');
    let vowels: Vec<usize> = (0..n).filter(|&i| vowel(i)).collect();
    vowels == [n - 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(pos: Pos, lemma: &str) -> Vec<String> {
        inflect(pos, lemma)
    }

    #[test]
    fn nouns_take_the_plural_their_spelling_asks_for() {
        assert_eq!(forms(Pos::Noun, "house"), ["houses"]);
        assert_eq!(forms(Pos::Noun, "cat"), ["cats"]);
        assert_eq!(forms(Pos::Noun, "box"), ["boxes"]);
        assert_eq!(forms(Pos::Noun, "church"), ["churches"]);
        assert_eq!(forms(Pos::Noun, "bus"), ["buses"]);
        assert_eq!(forms(Pos::Noun, "city"), ["cities"]);
        assert_eq!(forms(Pos::Noun, "day"), ["days"]);
        assert_eq!(forms(Pos::Noun, "woman"), ["womans", "women"]);
        assert_eq!(forms(Pos::Noun, "ice cream"), ["ice creams"]);
        assert!(forms(Pos::Noun, "mother-in-law").is_empty());
        assert!(forms(Pos::Noun, "a").is_empty());
    }

    #[test]
    fn verbs_take_s_ed_and_ing_as_spelled() {
        assert_eq!(forms(Pos::Verb, "walk"), ["walked", "walking", "walks"]);
        assert_eq!(forms(Pos::Verb, "make"), ["maked", "makes", "making"]);
        assert_eq!(forms(Pos::Verb, "see"), ["seed", "seeing", "sees"]);
        assert_eq!(forms(Pos::Verb, "pass"), ["passed", "passes", "passing"]);
        assert_eq!(forms(Pos::Verb, "go"), ["goed", "goes", "going", "gos"]);
        assert_eq!(
            forms(Pos::Verb, "carry"),
            ["carried", "carries", "carrying"]
        );
        assert_eq!(
            forms(Pos::Verb, "look up"),
            ["looked up", "looking up", "looks up"]
        );
    }

    #[test]
    fn one_syllable_verbs_double_their_last_consonant() {
        assert_eq!(forms(Pos::Verb, "blog"), ["blogged", "blogging", "blogs"]);
        assert!(doubles_final_consonant("stop"));
        assert!(doubles_final_consonant("quit"));
        assert!(!doubles_final_consonant("rain"));
        assert!(!doubles_final_consonant("stay"));
        assert!(!doubles_final_consonant("box"));
        assert!(!doubles_final_consonant("help"));
        assert!(!doubles_final_consonant("visit"));
        assert!(!doubles_final_consonant("go"));
    }

    #[test]
    fn adjectives_compare_with_er_and_est() {
        assert_eq!(forms(Pos::Adj, "small"), ["smaller", "smallest"]);
        assert_eq!(forms(Pos::Adj, "large"), ["larger", "largest"]);
        // Left to adj.exc (happier, bigger), and to no rule (cutter).
        assert!(forms(Pos::Adj, "happy").is_empty());
        assert!(forms(Pos::Adj, "big").is_empty());
        assert!(forms(Pos::Adj, "cut").is_empty());
        assert!(forms(Pos::Adj, "well known").is_empty());
        assert!(forms(Pos::Adv, "quickly").is_empty());
    }

    #[test]
    fn exception_lines_give_every_lemma() {
        let pairs = parse_exceptions(
            Path::new("adj.exc"),
            "better good well\nattorneys_general attorney_general\n",
        )
        .unwrap();
        let want = [
            ("better", "good"),
            ("better", "well"),
            ("attorneys general", "attorney general"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()));
        assert_eq!(pairs, want);
        let err = parse_exceptions(Path::new("verb.exc"), "went go\nalone\n").unwrap_err();
        assert_eq!(err.to_string(), "verb.exc line 2: \"alone\" has no lemma");
    }

    #[test]
    fn the_fixture_database_gives_the_forms_the_tests_name() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture/wordnet");
        let lexicon = read(&dir).unwrap();
        let has = |form: &str, lemma: &str| {
            lexicon
                .pairs
                .binary_search(&(form.to_string(), lemma.to_string()))
                .is_ok()
        };
        for (form, lemma) in [
            ("houses", "house"),
            ("went", "go"),
            ("better", "good"),
            ("better", "well"),
            ("geese", "goose"),
            ("mice", "mouse"),
            ("running", "run"),
            ("cats", "cat"),
            ("dogs", "dog"),
            ("books", "book"),
            ("banks", "bank"),
            ("bigger", "big"),
            ("smallest", "small"),
        ] {
            assert!(has(form, lemma), "{form} → {lemma} missing");
        }
        assert!(!has("runing", "run"), "a form no spelling makes");
        assert!(lexicon.pairs.iter().all(|(f, l)| f != l));
        assert!(lexicon.pairs.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(lexicon.list.lang, "en");
    }
}

/// What typos of inflected forms cost and find on real data (docs/benchmarks.md,
/// "Typos of inflected forms"): every lemma of WordNet as an English headword,
/// searched with and without WordNet's forms in the snapshot.
///
///   WORDNET=/usr/share/wordnet cargo test -p admin typo_forms_on_wordnet -- --ignored --nocapture
#[cfg(test)]
#[allow(clippy::print_stdout)] // A measurement: it prints what it measured.
mod typo_cost {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use shared::search::engine::Searcher;
    use shared::search::filters::Filters;
    use shared::search::lexicon::Lexicon;
    use shared::search::matching::{MatchRule, MatchType};
    use shared::search::postings::{DictionaryRef, Posting};
    use shared::search::snapshot::{build, Built, Index, Section};

    fn index(headwords: &[String], lexicon: &Lexicon) -> Index {
        built(headwords, lexicon)
            .index()
            .expect("a fresh build decodes")
    }

    fn searcher(headwords: &[String], lexicon: &Lexicon) -> Searcher {
        Searcher::new(index(headwords, lexicon))
    }

    fn built(headwords: &[String], lexicon: &Lexicon) -> Built {
        let postings = headwords
            .iter()
            .enumerate()
            .map(|(i, w)| {
                Posting::headword(
                    w,
                    DictionaryRef::new("wordnet-en", "en", None),
                    format!("{i}"),
                )
            })
            .collect();
        build(postings, lexicon)
    }

    fn edit(rng: &mut StdRng, word: &str, edits: usize) -> String {
        let mut q: Vec<char> = word.chars().collect();
        for _ in 0..edits {
            let at = rng.random_range(0..q.len());
            let c = char::from(b'a' + rng.random_range(0..26u8));
            match rng.random_range(0..4) {
                0 => q[at] = c,
                1 => q.insert(at, c),
                2 if q.len() > 1 => {
                    q.remove(at);
                }
                _ if at + 1 < q.len() => q.swap(at, at + 1),
                _ => q[at] = c,
            }
        }
        q.into_iter().collect()
    }

    fn percentiles(mut v: Vec<u64>) -> String {
        v.sort_unstable();
        let at = |p: usize| v[(v.len() - 1) * p / 100];
        format!("{} / {} / {}", at(50), at(99), v[v.len() - 1])
    }

    #[test]
    #[ignore = "needs WordNet's files: WORDNET=/usr/share/wordnet"]
    fn typo_forms_on_wordnet() {
        let dir = std::path::PathBuf::from(std::env::var("WORDNET").expect("WORDNET"));
        let forms = read(&dir).expect("WordNet forms");
        let mut headwords: Vec<String> = Vec::new();
        for pos in PARTS_OF_SPEECH {
            let path = dir.join(format!("index.{}", pos.file()));
            let text = read_text(&path).expect("index");
            for lemma in parse_index(&path, &text).expect("index") {
                headwords.push(shared::fold::fold(&lemma));
            }
        }
        headwords.sort_unstable();
        headwords.dedup();
        let mut lexicon = Lexicon::default();
        lexicon
            .add(LexiconKind::Forms, "en", forms.pairs.clone())
            .expect("forms");
        let plain = searcher(&headwords, &Lexicon::default());
        let with_forms = searcher(&headwords, &lexicon);
        // The grams hold only the headwords, so one copy serves both indexes.
        let grams = built(&headwords, &Lexicon::default())
            .grams()
            .expect("a fresh build decodes");
        // The forms' items are those the lexicon adds to the terms section.
        let terms_bytes = |lexicon: &Lexicon| -> usize {
            let built = built(&headwords, lexicon);
            built.section(Section::Terms).iter().map(Vec::len).sum()
        };
        let form_bytes = terms_bytes(&lexicon) - terms_bytes(&Lexicon::default());
        let snapshot_forms = with_forms.index().forms().expect("every block held");
        println!(
            "{} headwords, {} form pairs, {} forms in the snapshot; form blocks {form_bytes} bytes",
            headwords.len(),
            forms.pairs.len(),
            snapshot_forms.len(),
        );
        // Forms that are not headwords themselves, so that only the new
        // rule can reach their lemma.
        let pairs: Vec<&(String, String)> = forms
            .pairs
            .iter()
            .filter(|(f, _)| headwords.binary_search(f).is_err())
            .collect();
        let mut rng = StdRng::seed_from_u64(26);
        type Class = (&'static str, usize, usize, MatchType);
        let classes: [Class; 4] = [
            ("typo of a form, 5-7 letters, exact", 5, 7, MatchType::Exact),
            (
                "typo of a form, 5-7 letters, prefix",
                5,
                7,
                MatchType::Prefix,
            ),
            (
                "2 typos of a form, 8+ letters, exact",
                8,
                64,
                MatchType::Exact,
            ),
            (
                "2 typos of a form, 8+ letters, prefix",
                8,
                64,
                MatchType::Prefix,
            ),
        ];
        for (name, low, high, match_type) in classes {
            let (mut before, mut after, mut found, mut n) = (Vec::new(), Vec::new(), 0, 0);
            while n < 400 {
                let (form, lemma) = pairs[rng.random_range(0..pairs.len())];
                let len = form.chars().count();
                if !(low..=high).contains(&len) {
                    continue;
                }
                let q = edit(&mut rng, form, if low >= 8 { 2 } else { 1 });
                let rule = MatchRule::new(&q, match_type, true);
                let search = |searcher: &Searcher| {
                    searcher.search(Some(&grams), &rule, &Filters::default(), 0, 20)
                };
                let (Ok(a), Ok(b)) = (search(&plain), search(&with_forms)) else {
                    continue;
                };
                before.push(a.work);
                after.push(b.work);
                let mut words: Vec<String> = Vec::new();
                for &o in &b.ordinals {
                    let w = with_forms.index().word(o).expect("every block held");
                    if words.len() < 5 && !words.contains(&w) {
                        words.push(w);
                    }
                }
                found += usize::from(words.contains(lemma));
                n += 1;
            }
            println!(
                "{name}: nodes p50/p99/max without forms {}, with {}; lemma in the first 5 headwords {:.0}%",
                percentiles(before),
                percentiles(after),
                100.0 * found as f64 / n as f64
            );
        }
    }
}
