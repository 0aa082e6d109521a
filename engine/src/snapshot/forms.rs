//! The `forms` section: an FST from an inflected form to its lemmas' term
//! numbers, each with the language whose data makes it a form (lemma
//! matches), and one from every form spelled backwards to the same lemmas
//! (typo walks anchored on the query's end, as for terms). Encoder and
//! decoder side by side; the [`super::Index`] holds it decoded and answers
//! from it through the methods at the end of this file.

use crate::codec::{put_str, put_varint, CorruptData, Reader};
use crate::lexicon::Lexicon;
use crate::postings::Posting;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

/// `[langs][u64 FST length][FST: form → first pair << 32 | pairs]`
/// `[u64 FST length][FST: form spelled backwards → the same][pairs]`,
/// each pair two little-endian u32: the language (an index into `langs`)
/// and a lemma's term number. A pair is kept only when the lemma is a term
/// of a dictionary of that language and differs from the form; a form's
/// pairs are in term order (most common lemma first).
pub(super) fn encode(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    lexicon: &Lexicon,
) -> Vec<u8> {
    let term_number: HashMap<&str, u32> = terms
        .iter()
        .enumerate()
        .map(|(t, (term, _))| (*term, t as u32))
        .collect();
    let term_langs: HashSet<(&str, &str)> = postings
        .iter()
        .map(|p| (p.folded.as_str(), p.dictionary.source_lang.as_str()))
        .collect();
    let langs: Vec<&str> = lexicon.forms.keys().map(String::as_str).collect();
    let mut by_form: BTreeMap<&str, Vec<(u32, u32)>> = BTreeMap::new();
    for (l, (lang, forms)) in lexicon.forms.iter().enumerate() {
        for (form, lemmas) in forms {
            for lemma in lemmas {
                if lemma == form || !term_langs.contains(&(lemma.as_str(), lang.as_str())) {
                    continue;
                }
                if let Some(&t) = term_number.get(lemma.as_str()) {
                    by_form.entry(form).or_default().push((l as u32, t));
                }
            }
        }
    }
    let mut out = Vec::new();
    put_varint(&mut out, langs.len());
    for lang in &langs {
        put_str(&mut out, lang);
    }
    let mut index = fst::MapBuilder::memory();
    let mut backwards: Vec<(String, u64)> = Vec::with_capacity(by_form.len());
    let mut pairs: Vec<u8> = Vec::new();
    for (form, mut lemmas) in by_form {
        lemmas.sort_unstable_by_key(|&(l, t)| (t, l));
        lemmas.dedup();
        let first = (pairs.len() / 8) as u64;
        for (l, t) in &lemmas {
            pairs.extend_from_slice(&l.to_le_bytes());
            pairs.extend_from_slice(&t.to_le_bytes());
        }
        let at = (first << 32) | lemmas.len() as u64;
        index
            .insert(form, at)
            .expect("forms are distinct and sorted");
        backwards.push((form.chars().rev().collect(), at));
    }
    backwards.sort_unstable();
    let backwards = fst::Map::from_iter(backwards)
        .expect("forms are distinct backwards too")
        .into_fst()
        .into_inner();
    for fst in [
        index.into_inner().expect("writing to a Vec cannot fail"),
        backwards,
    ] {
        out.extend_from_slice(&(fst.len() as u64).to_le_bytes());
        out.extend(fst);
    }
    out.extend(pairs);
    out
}

/// One of the two forms FSTs, shared with the typo walks that read it
/// beside term blocks.
pub(crate) type FormFst = Arc<fst::Map<Vec<u8>>>;

/// The `forms` section, decoded.
pub(super) struct Forms {
    langs: Vec<String>,
    index: FormFst,
    /// Every form spelled backwards (by character), to its pairs.
    reversed: FormFst,
    /// The most bytes of any form (so at least its characters).
    longest_bytes: usize,
    pairs: Vec<u8>,
}

/// A lemma of an inflected form: its term, and the language whose data
/// makes the word a form of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lemma<'a> {
    pub term: usize,
    pub lang: &'a str,
}

impl Forms {
    /// Checked whole when decoded, so that lookups never fail: every pair's
    /// language and term exist. An empty section is a snapshot without forms.
    pub(super) fn decode(bytes: Vec<u8>, term_count: usize) -> Result<Self, CorruptData> {
        if bytes.is_empty() {
            return Ok(Self {
                langs: Vec::new(),
                index: Arc::default(),
                reversed: Arc::default(),
                longest_bytes: 0,
                pairs: Vec::new(),
            });
        }
        let mut r = Reader::new(&bytes);
        let count = r.count(1)?;
        let langs: Vec<String> = (0..count)
            .map(|_| r.str().map(str::to_string))
            .collect::<Result<_, _>>()?;
        let mut at = bytes.len() - r.remaining();
        let mut next_fst = |what: &'static str| {
            let len = bytes
                .get(at..at + 8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
                .filter(|len| {
                    len.checked_add(at + 8)
                        .is_some_and(|end| end <= bytes.len())
                })
                .ok_or(CorruptData("forms header"))?;
            let map = fst::Map::new(bytes[at + 8..at + 8 + len].to_vec())
                .map_err(|_| CorruptData(what))?;
            map.as_fst()
                .verify()
                .map_err(|_| CorruptData("forms FST checksum"))?;
            at += 8 + len;
            Ok::<_, CorruptData>(map)
        };
        let index = next_fst("forms are not an FST")?;
        let reversed = next_fst("backwards forms are not an FST")?;
        if reversed.len() != index.len() {
            return Err(CorruptData("backwards forms do not match the forms"));
        }
        let pairs = bytes[at..].to_vec();
        if !pairs.len().is_multiple_of(8) {
            return Err(CorruptData("forms pairs"));
        }
        for pair in pairs.chunks_exact(8) {
            let l = u32::from_le_bytes(pair[..4].try_into().expect("4 bytes")) as usize;
            let t = u32::from_le_bytes(pair[4..].try_into().expect("4 bytes")) as usize;
            if l >= langs.len() || t >= term_count {
                return Err(CorruptData("forms pair out of range"));
            }
        }
        // The backwards FST's pairs are checked when a walk reaches them
        // ([`Forms::lemmas_at`]): a second pass over every form would cost
        // every cold start.
        let mut longest_bytes = 0;
        let mut stream = index.stream();
        while let Some((form, at)) = fst::Streamer::next(&mut stream) {
            let (first, count) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
            if (first + count) * 8 > pairs.len() {
                return Err(CorruptData("form beyond its pairs"));
            }
            longest_bytes = longest_bytes.max(form.len());
        }
        Ok(Self {
            langs,
            index: Arc::new(index),
            reversed: Arc::new(reversed),
            longest_bytes,
            pairs,
        })
    }

    pub(super) fn memory_bytes(&self) -> usize {
        self.index.as_fst().as_bytes().len()
            + self.reversed.as_fst().as_bytes().len()
            + self.pairs.len()
    }
}

/// What the index answers from its forms.
impl Forms {
    /// The lemmas of an inflected (folded) form, most common first; none for
    /// a word that is no form of another.
    pub(super) fn lemmas(&self, form: &str) -> Vec<Lemma<'_>> {
        match self.index.get(form) {
            Some(at) => self.lemmas_at(at).expect("checked when decoded"),
            None => Vec::new(),
        }
    }

    /// The lemmas of the form whose value in either forms FST is `at`;
    /// corrupt when they lie beyond the pairs (the backwards FST's values
    /// are checked here, not when decoded).
    pub(super) fn lemmas_at(&self, at: u64) -> Result<Vec<Lemma<'_>>, CorruptData> {
        let (first, count) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
        let pairs = first
            .checked_add(count)
            .and_then(|end| self.pairs.get(8 * first..end.checked_mul(8)?))
            .ok_or(CorruptData("form beyond its pairs"))?;
        Ok(pairs
            .chunks_exact(8)
            .map(|pair| {
                let l = u32::from_le_bytes(pair[..4].try_into().expect("4 bytes")) as usize;
                Lemma {
                    term: u32::from_le_bytes(pair[4..].try_into().expect("4 bytes")) as usize,
                    lang: &self.langs[l],
                }
            })
            .collect())
    }

    /// The forms FST, forwards and spelled backwards (typo walks).
    pub(super) fn fsts(&self) -> (&FormFst, &FormFst) {
        (&self.index, &self.reversed)
    }

    /// Whether some form can be within `edits` of a query of `chars`
    /// characters.
    pub(super) fn within_reach(&self, chars: usize, edits: usize) -> bool {
        !self.index.is_empty() && chars <= self.longest_bytes + edits
    }

    /// Every inflected form, alphabetically.
    pub(super) fn all(&self) -> Vec<String> {
        let mut forms = Vec::with_capacity(self.index.len());
        let mut stream = self.index.stream();
        while let Some((form, _)) = fst::Streamer::next(&mut stream) {
            forms.push(String::from_utf8_lossy(form).into_owned());
        }
        forms
    }
}
