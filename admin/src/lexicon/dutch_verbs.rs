//! Dutch verbs' lemmas from their stems. The Dutch Hunspell dictionary
//! (OpenTaal) makes a verb's finite forms from its stem, listed as a word of
//! its own (`kom`, which is also a noun, "bowl"), and lists the infinitive,
//! the lemma, apart: `hunspell -m` analyses `komt` as `st:kom ts:VB3`. The
//! infinitive is made back from the stem by the spelling rules here; which
//! of the spellings is a verb, the dictionary decides: it makes a present
//! participle of infinitives only (`komend` `st:komen ts:PPn`, by their
//! flag `Vi`), so a spelling is a verb when its participle is analysed so
//! (`hunspell_forms` runs `hunspell -m` on them). Being a word is not
//! enough: `bennen` is the plural of `ben`, "basket". A stem is also a form
//! of its own, the first person (`ik heb`, `ik weet`), which the dictionary
//! lists as a bare word (`heb  st:heb`): it gets its infinitive too.

use super::hunspell_analysis::Analysis;
use std::collections::HashSet;

/// The present participles (`komend`) of every spelling of the
/// infinitives of `analyses`' finite verb forms and bare words, sorted and
/// distinct.
pub fn participles_to_check(analyses: &[Analysis]) -> Vec<String> {
    let mut participles: Vec<String> = analyses
        .iter()
        .filter(|a| a.tag.as_deref().is_some_and(is_stem_tag) || is_bare(a))
        .flat_map(|a| infinitives(&a.stem))
        .map(|infinitive| format!("{infinitive}d"))
        .collect();
    participles.sort_unstable();
    participles.dedup();
    participles
}

/// The verbs whose present participle `analyses` analyse as such
/// (`komend  st:komen ts:PPn`).
pub fn verbs_of_participles(analyses: Vec<Analysis>) -> HashSet<String> {
    analyses
        .into_iter()
        .filter(|a| a.tag.as_deref() == Some("PPn") && a.form.strip_suffix('d') == Some(&a.stem))
        .map(|a| a.stem)
        .collect()
}

/// `analyses` with each finite verb form's stem replaced by the first
/// spelling of its infinitive that `is_verb` (`komt` → `komen`, `balt` →
/// `ballen` although `balen` is a verb too). A form with none is dropped,
/// never left with the stem. A bare word that is a verb's stem keeps its
/// analysis and gains one to that infinitive (`heb` → `hebben`; not `ben`,
/// whose only spelling `bennen` is no verb); other analyses are kept as
/// they are.
pub fn with_infinitives(analyses: Vec<Analysis>, is_verb: impl Fn(&str) -> bool) -> Vec<Analysis> {
    let infinitive = |stem: &str| infinitives(stem).into_iter().find(|s| is_verb(s));
    let mut out = Vec::with_capacity(analyses.len());
    for mut analysis in analyses {
        if analysis.tag.as_deref().is_some_and(is_stem_tag) {
            if let Some(verb) = infinitive(&analysis.stem) {
                analysis.stem = verb;
                out.push(analysis);
            }
        } else if is_bare(&analysis) {
            let verb = infinitive(&analysis.stem);
            let form = analysis.form.clone();
            out.push(analysis);
            if let Some(verb) = verb {
                out.push(Analysis {
                    form,
                    stem: verb,
                    tag: None,
                });
            }
        } else {
            out.push(analysis);
        }
    }
    out
}

/// A word the dictionary lists as it is (`heb  st:heb`), with no tag: a
/// noun, an infinitive, or a verb's stem used as its first person.
fn is_bare(analysis: &Analysis) -> bool {
    analysis.tag.is_none() && analysis.form == analysis.stem
}

/// Whether an analysis's `ts:` tag is of a finite verb form, whose `st:` is
/// the verb's stem: `VB3` (`komt`), `VBh1` (`werkte`), `VBh` (`werkten`).
/// Participles' tags (`VBpe`: `gezakte` `st:gezakt`) name the participle,
/// a word of its own.
pub fn is_stem_tag(tag: &str) -> bool {
    tag.starts_with("VB") && !tag.starts_with("VBp")
}

/// The spellings a stem's infinitive may have, the one the regular rules
/// give first: the vowel of a stem's last, closed syllable is written
/// differently in the infinitive's open one, and no rule of spelling tells a
/// short vowel from a long one written single (`heb` → `hebben` but `kom` →
/// `komen`), nor a voiced `v`, `z` from `f`, `s` (`leef` → `leven`, `ruis` →
/// `ruisen`).
pub fn infinitives(stem: &str) -> Vec<String> {
    let chars: Vec<char> = stem.chars().collect();
    let n = chars.len();
    let Some(&last) = chars.last() else {
        return Vec::new();
    };
    let before = |i: usize| n.checked_sub(i).map(|i| chars[i]);
    let vowel_before = |i: usize| before(i).is_some_and(is_vowel);
    if is_vowel(last) {
        return vec![if matches!(last, 'a' | 'o' | 'u') && !vowel_before(2) {
            // A single vowel is doubled in the closed syllable: `ga` → `gaan`.
            format!("{stem}{last}n")
        } else if last == 'e' && vowel_before(2) {
            // `doe` → `doen`, `zie` → `zien`; `neurie` → `neuriën`.
            let head = &stem[..stem.len() - 1];
            return [format!("{stem}n"), format!("{head}ën")]
                .into_iter()
                .take(if before(2) == Some('i') { 2 } else { 1 })
                .collect();
        } else {
            // `gooi` → `gooien`.
            format!("{stem}en")
        }];
    }
    let head: String = chars[..n - 1].iter().collect();
    let voiced = match last {
        'f' => Some('v'),
        's' => Some('z'),
        _ => None,
    };
    let mut spellings = Vec::new();
    if vowel_before(2) && before(2).map(plain) == before(3).map(plain) {
        // A long vowel written double in the closed syllable is written
        // single in the open one: `maak` → `maken`, `leef` → `leven`,
        // `creëer` → `creëren`; where it then follows a vowel, maybe with a
        // diaeresis: `kopieer` → `kopiëren`, but `construeer` → `construeren`.
        let mut undoubled: Vec<String> = vec![chars[..n - 2].iter().collect()];
        if vowel_before(4) && before(3) == Some('e') {
            let head: String = chars[..n - 3].iter().collect();
            undoubled.insert(0, format!("{head}ë"));
        }
        for undoubled in undoubled {
            spellings.extend(voiced.map(|v| format!("{undoubled}{v}en")));
            spellings.push(format!("{undoubled}{last}en"));
        }
    } else if vowel_before(2) && !vowel_before(3) && !matches!(last, 'w' | 'x' | 'h') {
        // A short vowel keeps its syllable closed by doubling the consonant
        // (`heb` → `hebben`). Not so an unstressed `e` or `-ig`, which only a
        // stem of more syllables ends in (`wandel` → `wandelen`, `eindig` →
        // `eindigen`), and `kom`, whose
        // vowel is long (`komen`). Any other single vowel is short: `ben`
        // (of `zijn`) and `kan` (of `kunnen`) are not `benen`'s or `kanen`'s.
        spellings.push(format!("{stem}{last}en"));
        let unstressed = (before(2) == Some('e') || stem.ends_with("ig"))
            && chars[..n - 2].iter().any(|&c| is_vowel(c));
        if unstressed || stem.ends_with("kom") {
            spellings.push(format!("{stem}en"));
        }
    } else {
        // After a diphthong or a consonant: `reis` → `reizen`, `durf` →
        // `durven`, `werk` → `werken`, `dans` → `dansen`.
        spellings.extend(voiced.map(|v| format!("{head}{v}en")));
        spellings.push(format!("{stem}en"));
    }
    spellings
}

/// A vowel without its diaeresis: the `ë` of `creëer` is the `e` doubled.
fn plain(c: char) -> char {
    match c {
        'ë' => 'e',
        'ï' => 'i',
        'ö' => 'o',
        'ü' => 'u',
        _ => c,
    }
}

fn is_vowel(c: char) -> bool {
    matches!(
        c,
        'a' | 'e'
            | 'i'
            | 'o'
            | 'u'
            | 'y'
            | 'á'
            | 'é'
            | 'í'
            | 'ó'
            | 'ú'
            | 'ä'
            | 'ë'
            | 'ï'
            | 'ö'
            | 'ü'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(stem: &str) -> String {
        infinitives(stem).into_iter().next().unwrap()
    }

    #[test]
    fn the_regular_spelling_comes_first() {
        for (stem, infinitive) in [
            ("werk", "werken"),
            ("word", "worden"),
            ("maak", "maken"),
            ("loop", "lopen"),
            ("neem", "nemen"),
            ("duur", "duren"),
            ("studeer", "studeren"),
            ("heb", "hebben"),
            ("zeg", "zeggen"),
            ("stop", "stoppen"),
            ("leef", "leven"),
            ("lees", "lezen"),
            ("reis", "reizen"),
            ("schrijf", "schrijven"),
            ("ga", "gaan"),
            ("sta", "staan"),
            ("sla", "slaan"),
            ("doe", "doen"),
            ("zie", "zien"),
            ("gooi", "gooien"),
            ("bouw", "bouwen"),
        ] {
            assert_eq!(first(stem), infinitive, "{stem}");
        }
    }

    #[test]
    fn the_other_spellings_follow() {
        assert_eq!(infinitives("kom"), ["kommen", "komen"]);
        assert_eq!(infinitives("bekom"), ["bekommen", "bekomen"]);
        assert_eq!(infinitives("wandel"), ["wandellen", "wandelen"]);
        assert_eq!(infinitives("ruis"), ["ruizen", "ruisen"]);
        assert_eq!(infinitives("dans"), ["danzen", "dansen"]);
        assert_eq!(infinitives("leef"), ["leven", "lefen"]);
        assert_eq!(infinitives("eindig"), ["eindiggen", "eindigen"]);
        assert_eq!(infinitives("kopieer"), ["kopiëren", "kopieren"]);
        assert_eq!(infinitives("construeer"), ["construëren", "construeren"]);
        assert_eq!(infinitives("creëer"), ["creëren"]);
        assert_eq!(infinitives("neurie"), ["neurien", "neuriën"]);
    }

    #[test]
    fn never_the_stem_nor_a_double_vowel_in_an_open_syllable() {
        for stem in ["kom", "maak", "werk", "ga", "doe", "lees", "heb"] {
            let spellings = infinitives(stem);
            assert!(
                !spellings.iter().any(|s| s == stem),
                "{stem}: {spellings:?}"
            );
        }
        assert!(!infinitives("maak").contains(&"maaken".to_string()));
        assert_eq!(infinitives("fax"), ["faxen"]);
        // A short vowel is doubled only.
        assert_eq!(infinitives("ben"), ["bennen"]);
        assert_eq!(infinitives("kan"), ["kannen"]);
        assert_eq!(infinitives("stop"), ["stoppen"]);
        assert!(infinitives("").is_empty());
    }

    fn analysis(form: &str, stem: &str, tag: Option<&str>) -> Analysis {
        Analysis {
            form: form.into(),
            stem: stem.into(),
            tag: tag.map(Into::into),
        }
    }

    #[test]
    fn verb_forms_get_the_infinitive_the_dictionary_lists() {
        let words = [
            "komen", "maken", "hebben", "worden", "werken", "gaan", "ballen", "balen", "mens",
        ];
        let analysed = vec![
            analysis("komt", "kom", Some("VB3")),
            analysis("maakt", "maak", Some("VB3")),
            analysis("hebt", "heb", Some("VB3")),
            analysis("wordt", "word", Some("VB3")),
            analysis("werkte", "werk", Some("VBh1")),
            analysis("gaat", "ga", Some("VB3")),
            analysis("balden", "bal", Some("VBh")),
            // No spelling of its infinitive is a word: dropped.
            analysis("xyzt", "xyz", Some("VB3")),
            // Not finite verb forms: as they are.
            analysis("mensen", "mens", Some("NN2")),
            analysis("gezakte", "gezakt", Some("VBpe")),
            analysis("kom", "kom", None),
            // No verb of that spelling, and not bare: as they are.
            analysis("ben", "ben", None),
            analysis("huizen", "huis", None),
        ];
        let want = vec![
            analysis("komt", "komen", Some("VB3")),
            analysis("maakt", "maken", Some("VB3")),
            analysis("hebt", "hebben", Some("VB3")),
            analysis("wordt", "worden", Some("VB3")),
            analysis("werkte", "werken", Some("VBh1")),
            analysis("gaat", "gaan", Some("VB3")),
            analysis("balden", "ballen", Some("VBh")),
            analysis("mensen", "mens", Some("NN2")),
            analysis("gezakte", "gezakt", Some("VBpe")),
            // A bare stem, the first person, gains its infinitive.
            analysis("kom", "kom", None),
            analysis("kom", "komen", None),
            analysis("ben", "ben", None),
            analysis("huizen", "huis", None),
        ];
        assert_eq!(with_infinitives(analysed, |w| words.contains(&w)), want);
    }

    #[test]
    fn a_verb_is_a_spelling_whose_present_participle_is_analysed_so() {
        let analysed = vec![
            analysis("komt", "kom", Some("VB3")),
            analysis("gaat", "ga", Some("VB3")),
            analysis("mensen", "mens", Some("NN2")),
            analysis("heb", "heb", None),
        ];
        assert_eq!(
            participles_to_check(&analysed),
            ["gaand", "hebbend", "komend", "kommend"]
        );
        let verbs = verbs_of_participles(vec![
            analysis("komend", "komen", Some("PPn")),
            analysis("gaand", "gaan", Some("PPn")),
            // A word, but no verb's participle.
            analysis("bennen", "bennen", None),
            analysis("wordende", "worden", Some("PPe")),
        ]);
        assert_eq!(
            verbs,
            HashSet::from(["komen".to_string(), "gaan".to_string()])
        );
    }

    #[test]
    fn finite_verb_tags_name_a_stem_and_others_do_not() {
        for tag in ["VB3", "VBh1", "VBh"] {
            assert!(is_stem_tag(tag), "{tag}");
        }
        for tag in ["VBpe", "PPn", "PPe", "NN2", "AJe", "DT", "i"] {
            assert!(!is_stem_tag(tag), "{tag}");
        }
    }
}
