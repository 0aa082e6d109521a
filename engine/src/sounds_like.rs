//! Sounds-like keys: a word written as the sounds its language's spelling
//! gives it, so that `fizicks` and `physics`, or French `farmasi` and
//! `pharmacie`, meet. A key has one symbol per sound: a consonant as an
//! upper-case ASCII letter (its meaning is the language's: `C` is English
//! `ch`, `H` German `ch`), a vowel as a lower-case letter or one of `ø`
//! `ã` `õ` `ẽ` `æ` `œ`; silent letters write nothing, doubled ones one
//! symbol, and `z` is `S` (few respellings keep the voicing of an `s`).
//!
//! The [`SoundKey::coarse`] key writes every run of vowels as one `a`: the
//! vowels of a word are what a respelling changes most (`ee`, `ea`, `ie`),
//! so words are found by it, within [`edit_budget`] edits that keep its
//! first symbol, and ranked by the fine key's distance next.
//!
//! The rules are each language's common spellings of its sounds, ordered
//! so that the longest spelling that applies wins; like a phonetic
//! algorithm (Metaphone, Kölner Phonetik, the French Phonex) they know
//! nothing of a word's origin, so `psychology`'s `ch` is English `ch`, one
//! edit from the `k` of `sikology`.

/// The languages with keys.
pub const LANGUAGES: [&str; 4] = ["de", "en", "es", "fr"];

/// The longest word (in characters) given a key: a sounds-like query is a
/// word, and its key's edits are walked.
pub const MAX_WORD_CHARS: usize = 40;

/// Where in the word a rule may apply, around its spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    Anywhere,
    Start,
    End,
    /// Before `e`, `i` or `y`.
    BeforeFront,
    BeforeVowel,
    /// Before a consonant or at the end: French nasal vowels.
    NotBeforeVowel,
    AfterVowel,
    /// At the start, before a vowel: English `y` in `yes`.
    StartBeforeVowel,
    /// At the end, with a vowel earlier in the word: the silent final `e`
    /// of `table`, not the one of `be`.
    EndAfterSyllable,
}

#[derive(Debug, Clone, Copy)]
struct Rule {
    spelling: &'static str,
    sound: &'static str,
    /// The spelling's other common sound, if it has one: a word gets a key
    /// with each ([`MAX_KEYS`]).
    other: Option<&'static str>,
    at: At,
}

const fn r(spelling: &'static str, sound: &'static str, at: At) -> Rule {
    Rule {
        spelling,
        sound,
        other: None,
        at,
    }
}

/// A spelling with two common sounds: English `ch` in `church` and in
/// `chaos`.
const fn either(spelling: &'static str, sound: &'static str, other: &'static str, at: At) -> Rule {
    Rule {
        spelling,
        sound,
        other: Some(other),
        at,
    }
}

use At::{
    AfterVowel, Anywhere, BeforeFront, BeforeVowel, End, EndAfterSyllable, NotBeforeVowel, Start,
    StartBeforeVowel,
};

/// English: silent first letters (`kn`, `ps`, `wr`), the digraphs, the
/// endings that are one sound (`tion`, `ture`), soft `c` and `g`, the
/// vowel digraphs by their commonest sound, and the silent final `e`.
const ENGLISH: &[Rule] = &[
    r("kn", "N", Start),
    r("gn", "N", Start),
    r("pn", "N", Start),
    r("ps", "S", Start),
    r("pt", "T", Start),
    r("wr", "R", Start),
    r("wh", "W", Start),
    r("rh", "R", Start),
    r("x", "S", Start),
    r("eu", "Yu", Start),
    r("tch", "C", Anywhere),
    r("sch", "SK", Anywhere),
    r("chr", "KR", Anywhere),
    r("chl", "KL", Anywhere),
    either("ch", "C", "K", Anywhere),
    r("sh", "X", Anywhere),
    r("ph", "F", Anywhere),
    r("th", "T", Anywhere),
    r("ght", "T", Anywhere),
    r("gh", "G", Start),
    r("ought", "oT", Anywhere),
    either("ough", "uF", "o", End),
    r("alk", "oK", Anywhere),
    r("alm", "aM", Anywhere),
    r("alf", "aF", Anywhere),
    r("ould", "uD", Anywhere),
    r("augh", "aF", End),
    r("gh", "", Anywhere),
    r("gue", "G", End),
    r("gu", "G", BeforeVowel),
    r("gn", "N", End),
    r("bt", "T", End),
    r("stle", "SaL", End),
    r("sten", "SeN", End),
    r("scle", "SaL", End),
    r("sc", "S", BeforeFront),
    r("dge", "Q", Anywhere),
    r("dg", "Q", Anywhere),
    r("tion", "XaN", Anywhere),
    r("cean", "XaN", Anywhere),
    r("cian", "XaN", Anywhere),
    r("sion", "XaN", Anywhere),
    r("cial", "XaL", Anywhere),
    r("tial", "XaL", Anywhere),
    r("cious", "XaS", Anywhere),
    r("tious", "XaS", Anywhere),
    r("ture", "CaR", Anywhere),
    r("ck", "K", Anywhere),
    r("cc", "KS", BeforeFront),
    r("qu", "KW", Anywhere),
    r("q", "K", Anywhere),
    r("x", "KS", Anywhere),
    r("c", "S", BeforeFront),
    r("c", "K", Anywhere),
    r("gg", "G", Anywhere),
    either("g", "Q", "G", BeforeFront),
    r("j", "Q", Anywhere),
    r("mb", "M", End),
    r("mn", "M", End),
    r("le", "aL", EndAfterSyllable),
    r("e", "", EndAfterSyllable),
    r("w", "W", BeforeVowel),
    r("w", "", Anywhere),
    r("h", "H", BeforeVowel),
    r("h", "", Anywhere),
    r("y", "Y", StartBeforeVowel),
    r("y", "i", Anywhere),
    r("eigh", "e", Anywhere),
    r("igh", "i", Anywhere),
    r("ee", "i", Anywhere),
    r("ea", "i", Anywhere),
    r("ie", "i", Anywhere),
    r("ei", "i", Anywhere),
    r("ey", "e", Anywhere),
    r("ai", "e", Anywhere),
    r("ay", "e", Anywhere),
    r("oo", "u", Anywhere),
    r("ou", "u", Anywhere),
    r("ew", "u", Anywhere),
    r("ue", "u", Anywhere),
    r("oa", "o", Anywhere),
    r("ow", "o", Anywhere),
    r("oe", "o", Anywhere),
    r("au", "o", Anywhere),
    r("aw", "o", Anywhere),
];

/// French: the vowel spellings (`eau`, `ou`, `oi`, `ai`), the nasal vowels
/// before a consonant or at the end, `ch`, `gn`, `qu`, soft `c` and `g`,
/// the silent `h`, and the silent final consonants and `e`.
const FRENCH: &[Rule] = &[
    r("eaux", "o", End),
    r("eau", "o", Anywhere),
    r("au", "o", Anywhere),
    r("oin", "Wẽ", NotBeforeVowel),
    r("oi", "Wa", Anywhere),
    r("oua", "Wa", Anywhere),
    r("ou", "W", BeforeVowel),
    r("ou", "u", Anywhere),
    r("ain", "ẽ", NotBeforeVowel),
    r("aim", "ẽ", NotBeforeVowel),
    r("ein", "ẽ", NotBeforeVowel),
    r("ien", "Yẽ", NotBeforeVowel),
    r("in", "ẽ", NotBeforeVowel),
    r("im", "ẽ", NotBeforeVowel),
    r("un", "ẽ", NotBeforeVowel),
    r("an", "ã", NotBeforeVowel),
    r("am", "ã", NotBeforeVowel),
    r("en", "ã", NotBeforeVowel),
    r("em", "ã", NotBeforeVowel),
    r("on", "õ", NotBeforeVowel),
    r("om", "õ", NotBeforeVowel),
    r("aill", "aY", Anywhere),
    r("ail", "aY", End),
    r("eill", "eY", Anywhere),
    r("eil", "eY", End),
    r("ouill", "uY", Anywhere),
    r("euil", "øY", Anywhere),
    r("ai", "e", Anywhere),
    r("ei", "e", Anywhere),
    r("eu", "ø", Anywhere),
    r("œu", "ø", Anywhere),
    r("œ", "ø", Anywhere),
    r("ill", "Y", AfterVowel),
    r("il", "Y", End),
    r("gn", "NY", Anywhere),
    r("mn", "N", Anywhere),
    r("ï", "Y", AfterVowel),
    r("ph", "F", Anywhere),
    r("th", "T", Anywhere),
    r("sch", "X", Anywhere),
    r("tch", "X", Anywhere),
    r("ch", "X", Anywhere),
    r("qu", "K", Anywhere),
    r("q", "K", Anywhere),
    r("gt", "", End),
    r("pt", "T", End),
    r("gu", "G", BeforeFront),
    r("ge", "J", BeforeVowel),
    r("g", "J", BeforeFront),
    r("j", "J", Anywhere),
    r("ç", "S", Anywhere),
    r("cc", "KS", BeforeFront),
    r("ck", "K", Anywhere),
    r("c", "S", BeforeFront),
    r("c", "K", Anywhere),
    r("x", "KS", Anywhere),
    r("h", "", Anywhere),
    r("y", "Y", BeforeVowel),
    r("y", "i", Anywhere),
    either("er", "e", "eR", End),
    r("ez", "e", End),
    r("et", "e", End),
    r("es", "", End),
    r("ts", "", End),
    r("ds", "", End),
    r("s", "", End),
    r("t", "", End),
    r("d", "", End),
    r("x", "", End),
    r("z", "", End),
    r("p", "", End),
    r("e", "", EndAfterSyllable),
    r("é", "e", Anywhere),
    r("è", "e", Anywhere),
    r("ê", "e", Anywhere),
];

/// Spanish: one sound per letter but for `ch`, `ll` and `y` (yeísmo), the
/// glides of a first `ie` and `ue` (with or without their silent `h`),
/// `qu`/`gu`, `c` and `z` (seseo), `g` and `j` before `e` and `i`, `b`
/// and `v`, and the silent `h`.
const SPANISH: &[Rule] = &[
    r("hie", "Ye", Start),
    r("hue", "We", Start),
    r("ie", "Ye", Start),
    r("ue", "We", Start),
    r("ch", "C", Anywhere),
    r("ll", "Y", Anywhere),
    r("rr", "R", Anywhere),
    r("qu", "K", Anywhere),
    r("gu", "G", BeforeFront),
    r("gü", "GW", Anywhere),
    r("ñ", "NY", Anywhere),
    r("c", "S", BeforeFront),
    r("c", "K", Anywhere),
    r("z", "S", Anywhere),
    r("g", "H", BeforeFront),
    r("j", "H", Anywhere),
    r("h", "", Anywhere),
    r("v", "B", Anywhere),
    r("x", "KS", Anywhere),
    r("y", "Y", BeforeVowel),
    r("y", "i", Anywhere),
];

/// German: `sch`, `ch`, `z` as `ts`, `v` as `f` and `w` as `v`, `sp` and
/// `st` at the start, the vowel spellings (`ie`, `ei`, `eu`, umlauts
/// written out), the lengthening `h`, final `-er` and the hardened final
/// `b`, `d`, `g`.
const GERMAN: &[Rule] = &[
    r("sp", "XP", Start),
    r("st", "XT", Start),
    r("tsch", "C", Anywhere),
    r("dsch", "X", Anywhere),
    r("sch", "X", Anywhere),
    r("chs", "KS", Anywhere),
    either("ch", "K", "X", Start),
    r("ch", "H", Anywhere),
    r("eau", "o", Anywhere),
    r("ou", "u", Anywhere),
    r("ph", "F", Anywhere),
    r("th", "T", Anywhere),
    r("dt", "T", Anywhere),
    r("tz", "TS", Anywhere),
    r("z", "TS", Anywhere),
    r("ck", "K", Anywhere),
    r("qu", "KV", Anywhere),
    r("x", "KS", Anywhere),
    either("v", "F", "V", Anywhere),
    r("w", "V", Anywhere),
    r("ß", "S", Anywhere),
    either("j", "Y", "X", Anywhere),
    r("c", "TS", BeforeFront),
    r("c", "K", Anywhere),
    r("ie", "i", Anywhere),
    r("ei", "æ", Anywhere),
    r("ai", "æ", Anywhere),
    r("ey", "æ", Anywhere),
    r("ay", "æ", Anywhere),
    r("eu", "œ", Anywhere),
    r("äu", "œ", Anywhere),
    r("ae", "e", Anywhere),
    r("ä", "e", Anywhere),
    r("oe", "ø", Anywhere),
    r("ö", "ø", Anywhere),
    r("ue", "y", Anywhere),
    r("ü", "y", Anywhere),
    r("h", "", AfterVowel),
    r("er", "a", End),
    r("ig", "iH", End),
    r("b", "P", End),
    r("d", "T", End),
    r("g", "K", End),
];

fn rules(lang: &str) -> Option<&'static [Rule]> {
    match lang {
        "de" => Some(GERMAN),
        "en" => Some(ENGLISH),
        "es" => Some(SPANISH),
        "fr" => Some(FRENCH),
        _ => None,
    }
}

fn is_vowel_letter(c: char) -> bool {
    matches!(
        c,
        'a' | 'e'
            | 'i'
            | 'o'
            | 'u'
            | 'y'
            | 'à'
            | 'â'
            | 'á'
            | 'ä'
            | 'é'
            | 'è'
            | 'ê'
            | 'ë'
            | 'í'
            | 'î'
            | 'ï'
            | 'ó'
            | 'ô'
            | 'ö'
            | 'ú'
            | 'ù'
            | 'û'
            | 'ü'
            | 'œ'
    )
}

/// A key symbol is a vowel if it is not an upper-case ASCII letter.
fn is_vowel_symbol(c: char) -> bool {
    !c.is_ascii_uppercase()
}

/// The sound of a letter no rule spelled: a vowel as its plain letter, a
/// consonant as its upper-case letter, `z` as `S`; anything else (a
/// hyphen, a space, an apostrophe, a digit) none.
fn letter_sound(c: char) -> Option<char> {
    let plain = match c {
        'à' | 'â' | 'á' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'î' | 'ï' => 'i',
        'ó' | 'ô' | 'ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ç' => 's',
        'ñ' => 'n',
        c => c,
    };
    match plain {
        'a' | 'e' | 'i' | 'o' | 'u' | 'y' => Some(plain),
        'z' => Some('S'),
        c if c.is_ascii_lowercase() => Some(c.to_ascii_uppercase()),
        _ => None,
    }
}

fn applies(rule: &Rule, word: &[char], i: usize) -> bool {
    let len = rule.spelling.chars().count();
    if i + len > word.len() || !rule.spelling.chars().eq(word[i..i + len].iter().copied()) {
        return false;
    }
    let next = word.get(i + len).copied();
    let vowel_before = i > 0 && is_vowel_letter(word[i - 1]);
    match rule.at {
        Anywhere => true,
        Start => i == 0,
        End => next.is_none(),
        BeforeFront => matches!(next, Some('e' | 'i' | 'y' | 'é' | 'è' | 'ê' | 'í' | 'ï')),
        BeforeVowel => next.is_some_and(is_vowel_letter),
        // `bonheur`'s `h` is silent, so its `on` is before a vowel.
        NotBeforeVowel => !next.is_some_and(|c| is_vowel_letter(c) || matches!(c, 'n' | 'm' | 'h')),
        AfterVowel => vowel_before,
        StartBeforeVowel => i == 0 && next.is_some_and(is_vowel_letter),
        EndAfterSyllable => next.is_none() && word[..i].iter().any(|&c| is_vowel_letter(c)),
    }
}

/// A word's sounds by its language's spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundKey {
    fine: String,
}

impl SoundKey {
    /// Every sound, the vowels by their quality.
    pub fn fine(&self) -> &str {
        &self.fine
    }

    /// Every consonant, and each run of vowels as one `a`: what the index
    /// is keyed by.
    pub fn coarse(&self) -> String {
        let mut out = String::with_capacity(self.fine.len());
        let mut in_vowels = false;
        for c in self.fine.chars() {
            if is_vowel_symbol(c) {
                if !in_vowels {
                    out.push('a');
                }
                in_vowels = true;
            } else {
                out.push(c);
                in_vowels = false;
            }
        }
        out
    }
}

/// The most keys a word has: each spelling with two sounds
/// ([`Rule::other`]) doubles them, up to this many, and the later ones
/// keep their first sound only.
pub const MAX_KEYS: usize = 4;

/// The keys of `word` in `lang`, the first by each spelling's commonest
/// sound: none if `lang` has no rules, the word is longer than
/// [`MAX_WORD_CHARS`] or it has no sound.
pub fn keys(lang: &str, word: &str) -> Vec<SoundKey> {
    let Some(rules) = rules(lang) else {
        return Vec::new();
    };
    let word: Vec<char> = word.chars().flat_map(char::to_lowercase).collect();
    if word.len() > MAX_WORD_CHARS {
        return Vec::new();
    }
    let mut keys = vec![String::new()];
    let mut i = 0;
    while i < word.len() {
        match rules.iter().find(|rule| applies(rule, &word, i)) {
            Some(rule) => {
                if let Some(other) = rule.other.filter(|_| keys.len() * 2 <= MAX_KEYS) {
                    let mut others = keys.clone();
                    others.iter_mut().for_each(|key| push_sounds(key, other));
                    keys.iter_mut().for_each(|key| push_sounds(key, rule.sound));
                    keys.extend(others);
                } else {
                    keys.iter_mut().for_each(|key| push_sounds(key, rule.sound));
                }
                i += rule.spelling.chars().count();
            }
            None => {
                if let Some(symbol) = letter_sound(word[i]) {
                    keys.iter_mut().for_each(|key| push_sound(key, symbol));
                }
                i += 1;
            }
        }
    }
    let mut unique: Vec<SoundKey> = Vec::with_capacity(keys.len());
    for fine in keys.into_iter().filter(|key| !key.is_empty()) {
        if !unique.iter().any(|key| key.fine == fine) {
            unique.push(SoundKey { fine });
        }
    }
    unique
}

fn push_sounds(key: &mut String, sounds: &str) {
    sounds.chars().for_each(|symbol| push_sound(key, symbol));
}

/// A doubled letter, or two spellings of one sound side by side, is one
/// sound.
fn push_sound(key: &mut String, symbol: char) {
    if !key.ends_with(symbol) {
        key.push(symbol);
    }
}

/// What a coarse key is anchored by: its first symbol, with `H` and the
/// glides `Y` and `W` one of the vowels (`onest` is `honest`, Spanish
/// `ielo` is `hielo`); a word's first sound is otherwise kept by nearly
/// every respelling.
pub fn first_sound(coarse: &str) -> Option<char> {
    coarse.chars().next().map(|c| {
        if matches!(c, 'H' | 'Y' | 'W') || is_vowel_symbol(c) {
            'a'
        } else {
            c
        }
    })
}

/// The edits a coarse key of `len` symbols may be from the query's: one
/// for a key of up to four symbols (`kat`), two above.
pub fn edit_budget(len: usize) -> usize {
    if len <= 4 {
        1
    } else {
        2
    }
}

/// Levenshtein distance over characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// How far a word's keys are from a query's: the fewest edits between a
/// coarse key of each with the same [`first_sound`], then between their
/// fine keys; `None` if no pair is within [`edit_budget`] of the query's
/// key.
pub fn nearness(query: &[SoundKey], word: &[SoundKey]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for q in query {
        let q_coarse = q.coarse();
        let budget = edit_budget(q_coarse.chars().count());
        for w in word {
            let w_coarse = w.coarse();
            if first_sound(&q_coarse) != first_sound(&w_coarse) {
                continue;
            }
            let coarse = distance(&q_coarse, &w_coarse);
            if coarse <= budget {
                let pair = (coarse, distance(q.fine(), w.fine()));
                best = Some(best.map_or(pair, |b| b.min(pair)));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(lang: &str, word: &str) -> Option<SoundKey> {
        keys(lang, word).into_iter().next()
    }

    fn fine(lang: &str, word: &str) -> String {
        key(lang, word).unwrap().fine().to_string()
    }

    #[test]
    fn respellings_by_sound_share_a_key() {
        for (lang, respelling, word) in [
            ("en", "fizicks", "physics"),
            ("en", "nolij", "knowledge"),
            ("en", "nuclius", "nucleus"),
            ("fr", "farmasi", "pharmacie"),
            ("fr", "ekol", "école"),
            ("es", "jente", "gente"),
            ("es", "ielo", "hielo"),
            ("de", "Filosofi", "Philosophie"),
            ("de", "Fogel", "Vogel"),
        ] {
            let (q, w) = (key(lang, respelling).unwrap(), key(lang, word).unwrap());
            assert_eq!(q.coarse(), w.coarse(), "{lang} {respelling} {word}");
        }
    }

    #[test]
    fn keys_spell_sounds() {
        assert_eq!(fine("en", "knowledge"), "NoLeQ");
        assert_eq!(fine("en", "nation"), "NaXaN");
        assert_eq!(fine("fr", "pharmacie"), "FaRMaSi");
        assert_eq!(fine("fr", "bonjour"), "BõJuR");
        assert_eq!(fine("fr", "parler"), "PaRLe");
        assert_eq!(fine("es", "llave"), "YaBe");
        assert_eq!(fine("de", "Schnee"), "XNe");
        assert_eq!(fine("de", "Hund"), "HuNT");
        assert_eq!(fine("de", "Vater"), "FaTa");
    }

    #[test]
    fn coarse_keys_write_each_run_of_vowels_once() {
        assert_eq!(key("fr", "oiseau").unwrap().coarse(), "WaSa");
        assert_eq!(key("de", "Feuer").unwrap().coarse(), "Fa");
    }

    #[test]
    fn only_languages_with_rules_and_words_with_a_sound_have_keys() {
        assert!(key("it", "casa").is_none());
        assert!(key("en", "-'").is_none());
        assert!(key("en", &"a".repeat(MAX_WORD_CHARS + 1)).is_none());
        assert!(key("en", "a").is_some());
    }

    #[test]
    fn the_budget_grows_with_the_key_and_reach_keeps_the_first_sound() {
        assert_eq!(edit_budget(3), 1);
        assert_eq!(edit_budget(5), 2);
        let cat = keys("en", "cat");
        assert_eq!(nearness(&keys("en", "kat"), &cat), Some((0, 0)));
        assert_eq!(nearness(&keys("en", "kit"), &cat), Some((0, 1)));
        assert_eq!(nearness(&keys("en", "bat"), &cat), None);
        assert_eq!(nearness(&keys("en", "kast"), &cat), Some((1, 1)));
        assert_eq!(nearness(&keys("en", "kaster"), &cat), None);
    }

    /// The committed respellings (data/sounds-like/README.md).
    const TABLES: [(&str, &str); 4] = [
        ("de", include_str!("../../data/sounds-like/de.tsv")),
        ("en", include_str!("../../data/sounds-like/en.tsv")),
        ("es", include_str!("../../data/sounds-like/es.tsv")),
        ("fr", include_str!("../../data/sounds-like/fr.tsv")),
    ];

    /// Being within reach is what lets the index find a word at all (its
    /// rank among the words found is the black-box test's).
    #[test]
    fn the_tables_respellings_reach_their_words() {
        let (mut all, mut missed) = (0, Vec::new());
        for (lang, table) in TABLES {
            for line in table.lines() {
                let (respelling, word) = line.split_once('\t').expect("two columns");
                all += 1;
                if nearness(&keys(lang, respelling), &keys(lang, word)).is_none() {
                    missed.push(format!("{lang} {respelling} {word}"));
                }
            }
        }
        assert!(all >= 400, "{all} respellings");
        assert!(
            missed.len() * 100 <= all * 2,
            "{} of {all}: {missed:?}",
            missed.len()
        );
    }

    #[test]
    fn nearness_is_the_closest_pair_of_keys_with_one_first_sound() {
        let chaos = keys("en", "chaos");
        assert_eq!(chaos.len(), 2, "ch as in church and as in chaos");
        assert_eq!(nearness(&keys("en", "kaos"), &chaos), Some((0, 0)));
        assert_eq!(
            nearness(&keys("en", "onest"), &keys("en", "honest")),
            Some((1, 1))
        );
        assert_eq!(nearness(&keys("en", "dog"), &keys("en", "cat")), None);
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("ãb", "ab"), 1);
    }
}
