//! Rhymes from IPA: the part of a pronunciation that rhymes (its sounds
//! from the stressed vowel on), its vowels alone (near rhymes) and its
//! syllables (docs/api.md, "Rhymes").
//!
//! A transcription is read as phones: a letter with the marks that follow
//! it (length, nasality, a tie bar's second letter). A **nucleus** is a run
//! of vowels that no stress mark, syllable dot or space divides, or a
//! consonant marked syllabic; each is a syllable. The **stressed** nucleus
//! is the one after the last primary stress mark (`ˈ`, or an apostrophe),
//! whether the mark stands before the syllable or, as espeak-ng writes it,
//! before the vowel. A transcription without one takes its language's rule
//! ([`StressRule`]). Two words **rhyme** when they share a rhyme part in one
//! language; they are **near rhymes** when they share its vowels.

use unicode_normalization::UnicodeNormalization;

/// The letters read as vowels (after decomposition: `ã` is `a` and a mark).
const VOWELS: &str = "aeiouyæɑɒɐəɘɛɜɞɪɨʉɯʊʌɔɵøœɶɤɚɝʏᵻᵿ";

/// Where a language without stress marks puts its stress, for a word of
/// several syllables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StressRule {
    Initial,
    Penultimate,
    Final,
}

impl StressRule {
    /// The rule of an ISO 639 language: initial for Finnish, Hungarian,
    /// Czech, Slovak, Icelandic, Latvian, Estonian and Irish; final for
    /// French, Turkish, Hebrew and Armenian; penultimate for Polish and
    /// every other language (the most common place in the languages
    /// served, and Spanish, Italian and Portuguese words that end in a
    /// vowel).
    pub fn of(lang: &str) -> Self {
        match lang {
            "fi" | "hu" | "cs" | "sk" | "is" | "lv" | "et" | "ga" => Self::Initial,
            "fr" | "tr" | "he" | "hy" => Self::Final,
            _ => Self::Penultimate,
        }
    }
}

/// One sound: its letter and the marks after it, normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Phone {
    text: String,
    vowel: bool,
}

/// A syllable's vowel (or syllabic consonant): where its phones start.
#[derive(Debug, Clone, Copy)]
struct Nucleus {
    first_phone: usize,
    stressed: bool,
}

/// A pronunciation read from IPA.
#[derive(Debug, Clone)]
pub struct Pronunciation {
    phones: Vec<Phone>,
    nuclei: Vec<Nucleus>,
}

/// Its first transcription: the text of the first pair of slashes or
/// brackets when there are any, up to the first comma or semicolon, with
/// optional sounds (in parentheses) left out.
fn first_transcription(ipa: &str) -> String {
    let ipa = ipa.trim();
    let inner = ['/', '[']
        .iter()
        .filter_map(|&open| {
            let close = if open == '/' { '/' } else { ']' };
            let start = ipa.find(open)? + 1;
            let len = ipa[start..].find(close)?;
            Some((start, &ipa[start..start + len]))
        })
        .min_by_key(|(start, _)| *start)
        .map_or(ipa, |(_, inner)| inner);
    let first = inner.split([',', ';']).next().unwrap_or("");
    let mut out = String::new();
    let mut depth = 0usize;
    for c in first.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The letter a transcription's letter stands for here: one letter for
/// the spellings of one sound that dictionaries mix (`g` and `ɡ`, `ɹ` and
/// `r`, `ʀ` and `ʁ`, `ɫ` and `l`).
fn normalised(c: char) -> char {
    match c {
        'g' => 'ɡ',
        'ɹ' => 'r',
        'ʀ' => 'ʁ',
        'ɫ' => 'l',
        _ => c,
    }
}

/// Marks that belong to the letter before them.
fn is_mark(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}' | 'ː' | 'ˑ' | 'ʲ' | 'ʷ' | 'ˠ' | 'ˤ' | 'ⁿ' | 'ˡ' | 'ʼ' | '˞'
    )
}

impl Pronunciation {
    /// The pronunciation of a transcription; `None` when it has no
    /// syllable (no vowel and no syllabic consonant).
    pub fn parse(ipa: &str) -> Option<Self> {
        let text: String = first_transcription(ipa).nfd().collect();
        let mut phones: Vec<Phone> = Vec::new();
        let mut nuclei: Vec<Nucleus> = Vec::new();
        // A stress mark or a boundary since the last phone.
        let (mut stress, mut boundary) = (false, true);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                'ˈ' | '\'' => (stress, boundary) = (true, true),
                'ˌ' | '.' | '‿' | ' ' | '-' | '|' | '‖' => boundary = true,
                // Aspiration says nothing of a rhyme (English `kʰ`).
                'ʰ' => {}
                '\u{0361}' | '\u{035C}' => {
                    // A tie bar joins the next letter to this phone.
                    if let (Some(last), Some(next)) = (phones.last_mut(), chars.next()) {
                        last.text.push(normalised(next));
                    }
                }
                '\u{0329}' | '\u{030D}' => {
                    // A syllabic consonant is a nucleus of its own.
                    if let Some(last) = phones.last_mut() {
                        if !last.vowel {
                            last.vowel = true;
                            nuclei.push(Nucleus {
                                first_phone: phones.len() - 1,
                                stressed: std::mem::take(&mut stress),
                            });
                            boundary = true;
                        }
                    }
                }
                c if is_mark(c) => {
                    if let Some(last) = phones.last_mut() {
                        last.text.push(c);
                    }
                }
                c if c.is_alphabetic() => {
                    let vowel = VOWELS.contains(c);
                    let joins = vowel && !boundary && phones.last().is_some_and(|p| p.vowel);
                    if vowel && !joins {
                        nuclei.push(Nucleus {
                            first_phone: phones.len(),
                            stressed: std::mem::take(&mut stress),
                        });
                    }
                    phones.push(Phone {
                        text: normalised(c).to_string(),
                        vowel,
                    });
                    boundary = false;
                }
                _ => {}
            }
        }
        if nuclei.is_empty() {
            return None;
        }
        Some(Self { phones, nuclei })
    }

    /// Its syllables: one per nucleus.
    pub fn syllables(&self) -> usize {
        self.nuclei.len()
    }

    /// The nucleus its stress falls on: the last marked one, or the one
    /// `rule` names.
    fn stressed(&self, rule: StressRule) -> Nucleus {
        let n = self.nuclei.len();
        self.nuclei
            .iter()
            .rev()
            .find(|nucleus| nucleus.stressed)
            .copied()
            .unwrap_or(match rule {
                StressRule::Initial => self.nuclei[0],
                StressRule::Penultimate => self.nuclei[n.saturating_sub(2)],
                StressRule::Final => self.nuclei[n - 1],
            })
    }

    /// Its rhyme part: its sounds from the stressed vowel on, composed
    /// (NFC), without stress marks or boundaries.
    pub fn rhyme(&self, rule: StressRule) -> String {
        let from = self.stressed(rule).first_phone;
        let text: String = self.phones[from..]
            .iter()
            .map(|p| p.text.as_str())
            .collect();
        text.nfc().collect()
    }

    /// The vowels of its rhyme part (each with its marks), in order,
    /// joined by `-`: what near rhymes share.
    pub fn rhyme_vowels(&self, rule: StressRule) -> String {
        let from = self.stressed(rule).first_phone;
        let vowels: Vec<String> = self.phones[from..]
            .iter()
            .filter(|p| p.vowel)
            .map(|p| p.text.nfc().collect())
            .collect();
        vowels.join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rhyme(ipa: &str, lang: &str) -> String {
        Pronunciation::parse(ipa)
            .unwrap()
            .rhyme(StressRule::of(lang))
    }

    #[test]
    fn the_rhyme_part_starts_at_the_stressed_vowel() {
        // Stress before the syllable, and (espeak-ng) before the vowel.
        assert_eq!(rhyme("/kˌoɾaθˈon/", "es"), "on");
        assert_eq!(rhyme("/kanθjˈon/", "es"), "on");
        assert_eq!(rhyme("/ˈjap.kɔ/ /ˈjap.w̥kɔ/", "pl"), "apkɔ");
        assert_eq!(rhyme("/amˈore/", "it"), "ore");
        assert_eq!(rhyme("hˈaʊs", "de"), "aʊs");
        assert_eq!(rhyme("/kæt/", "en"), "æt");
        assert_eq!(rhyme("[ˈhɑː(r)t]", "en"), "ɑːt");
    }

    #[test]
    fn unmarked_stress_follows_the_language() {
        assert_eq!(rhyme("/mɛzɔ̃/", "fr"), "ɔ̃");
        assert_eq!(rhyme("/ˈmɛzɔ̃/", "fr"), "ɛzɔ̃", "a mark wins over the rule");
        assert_eq!(rhyme("/talo/", "fi"), "alo");
        assert_eq!(rhyme("/kɔbjɛta/", "pl"), "ɛta");
    }

    #[test]
    fn syllables_are_nuclei() {
        let syllables = |ipa: &str| Pronunciation::parse(ipa).unwrap().syllables();
        assert_eq!(syllables("/kæt/"), 1);
        assert_eq!(syllables("/hˈaʊsdˌiːnɜ/"), 3, "a diphthong is one");
        assert_eq!(syllables("/kʊˈɔre/"), 3, "a stress mark divides vowels");
        assert_eq!(syllables("/ˈbʌtn̩/"), 2, "a syllabic consonant is one");
        assert!(Pronunciation::parse("/pst/").is_none());
        assert!(Pronunciation::parse("").is_none());
    }

    #[test]
    fn dictionaries_spellings_of_one_sound_are_one() {
        assert_eq!(rhyme("/ɹˈat/", "en"), rhyme("/ˈrat/", "en"));
        assert_eq!(rhyme("/ʀɛzɔ̃/", "fr"), rhyme("/ʁɛzɔ̃/", "fr"));
        assert_eq!(rhyme("/bæɡ/", "en"), rhyme("/bæg/", "en"));
    }

    #[test]
    fn near_rhymes_keep_the_vowels() {
        let vowels = |ipa: &str, lang: &str| {
            Pronunciation::parse(ipa)
                .unwrap()
                .rhyme_vowels(StressRule::of(lang))
        };
        assert_eq!(vowels("/amˈore/", "it"), "o-e");
        assert_eq!(vowels("/kæt/", "en"), vowels("/kæp/", "en"));
        assert_eq!(vowels("/mɛzɔ̃/", "fr"), "ɔ̃");
    }
}
