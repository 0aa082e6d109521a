//! Queries drawn at random from what the local stack holds, for the
//! latency benchmarks: uniformly over entries, afresh for every query, so
//! that no fixed list and no cache flatters a line. They are drawn from an
//! instance of their own that holds every term block and every record, so
//! that drawing reads nothing through the cache of the instance measured.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::runtime::app::App;
use shared::search::engine::Searcher;
use shared::search::filters::LangFilter;
use shared::search::postings::DictionaryRef;
use shared::search::snapshot::{Index, Records, Texts};
use shared::storage::store::Needs;
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

/// Random entries of the snapshot and what queries are made of them.
pub struct Draw {
    searcher: Arc<Searcher>,
    /// The text of every term, read once: an instance holds text blocks
    /// within its budget only.
    terms: Vec<String>,
    records: Records,
    /// Inflected forms that are no headword of a dictionary that has their
    /// (most common) lemma, with that dictionary.
    inflected: Vec<(String, String)>,
    rng: RefCell<StdRng>,
    /// How long loading it took, in milliseconds.
    pub load_ms: f64,
}

impl Draw {
    /// Reads everything of the snapshot of `app`'s stack into an instance
    /// of its own (its own cache, unbounded; the same clients).
    pub async fn load(app: &App) -> Draw {
        let clients = shared::runtime::app::Clients::new(&app.config).await;
        let drawing = App::new(
            shared::runtime::config::Config {
                snapshot_cache_bytes: 1 << 40,
                ..app.config.clone()
            },
            clients,
            shared::runtime::app::system_clock,
        );
        let loaded = Instant::now();
        let snapshot = drawing
            .store
            .snapshot(&Needs {
                records: true,
                ..Needs::default()
            })
            .await
            .expect("the stack holds an index snapshot");
        let records = snapshot
            .every_term_block_and_record()
            .await
            .expect("every term block and record");
        let load_ms = loaded.elapsed().as_secs_f64() * 1000.0;
        assert!(
            snapshot.searcher.index().entries() > 0,
            "the stack holds data"
        );
        let mut terms = Vec::new();
        let every_term: Vec<usize> = (0..snapshot.searcher.index().term_count()).collect();
        for some in every_term.chunks(100_000) {
            terms.extend(snapshot.terms(some).await.expect("the terms' text"));
        }
        let mut draw = Draw {
            searcher: snapshot.searcher.clone(),
            terms,
            records,
            inflected: Vec::new(),
            rng: RefCell::new(StdRng::from_os_rng()),
            load_ms,
        };
        draw.inflected = draw.inflected_forms();
        draw
    }

    /// Inflected forms that are no headword of a dictionary that has their
    /// (most common) lemma, with that dictionary: entry by word answers
    /// them through the lemma. A store without the lexicon (`CORPUS=all`
    /// before its forms are imported) has none.
    fn inflected_forms(&self) -> Vec<(String, String)> {
        self.index()
            .forms()
            .expect("the drawing instance holds every block")
            .into_iter()
            .filter_map(|form| {
                let lemmas = self.index().lemmas(&form);
                let lemma = *lemmas.expect("every block held").first()?;
                let dictionary = self
                    .index()
                    .term_entries(lemma.term)
                    .map(|o| self.dictionary(o))
                    .find(|d| d.source_lang == lemma.lang)?
                    .id
                    .clone();
                let literal = self
                    .index()
                    .term_number(&form)
                    .expect("a warm instance holds every term block")
                    .is_some_and(|t| self.dictionary_has_term(&dictionary, t));
                (!literal).then_some((dictionary, form))
            })
            .collect()
    }

    pub fn index(&self) -> &Index {
        self.searcher.index()
    }

    /// The bytes of the index and of the records it holds.
    pub fn memory_bytes(&self) -> (usize, usize) {
        (self.searcher.memory_bytes(), self.records.memory_bytes())
    }

    /// A random number in `range`.
    pub fn number(&self, range: std::ops::RangeInclusive<usize>) -> usize {
        self.rng.borrow_mut().random_range(range)
    }

    pub fn ordinal(&self) -> u32 {
        let n = self.index().entries();
        self.rng.borrow_mut().random_range(0..n)
    }

    pub fn term(&self, o: u32) -> String {
        self.terms[self.index().term_of(o)].clone()
    }

    /// The text blocks of `terms`: every one is held.
    fn texts(&self, terms: Vec<usize>) -> Texts<'_> {
        let texts = self.index().texts(terms);
        texts.expect("the drawing instance holds every block")
    }

    pub fn dictionary(&self, o: u32) -> DictionaryRef {
        let t = self.index().term_of(o);
        self.texts(vec![t]).dictionary(o).clone()
    }

    pub fn part_of_speech(&self, o: u32) -> Option<String> {
        let t = self.index().term_of(o);
        self.texts(vec![t]).part_of_speech(o).map(str::to_string)
    }

    /// The language filter of the entry's dictionary's source language.
    pub fn lang_of(&self, o: u32) -> Option<LangFilter> {
        LangFilter::parse(&self.dictionary(o).source_lang).ok()
    }

    /// Whether the dictionary has an entry of the text whose first term is
    /// `t`.
    fn dictionary_has_term(&self, dictionary_id: &str, t: usize) -> bool {
        let terms: Vec<usize> = self.index().text_terms(t).collect();
        let texts = self.texts(terms.clone());
        terms
            .into_iter()
            .any(|t| texts.dictionary_has_term(dictionary_id, t))
    }

    /// A headword (folded) of `min..=max` characters; the last draw if none
    /// is found in 1,000 tries.
    pub fn word(&self, min: usize, max: usize) -> (u32, String) {
        let mut last = (0, String::new());
        for _ in 0..1000 {
            let o = self.ordinal();
            last = (o, self.term(o));
            if (min..=max).contains(&last.1.chars().count()) {
                break;
            }
        }
        last
    }

    /// The first `n` characters of a random headword of at least `n`.
    pub fn prefix(&self, min: usize, max: usize) -> String {
        let n = self.number(min..=max);
        self.word(n, 64).1.chars().take(n).collect()
    }

    /// `n` characters (drawn from `lengths`) from anywhere in a random
    /// headword of at least as many as `lengths` allows.
    pub fn substring(&self, lengths: std::ops::RangeInclusive<usize>) -> String {
        let (_, word) = self.word(*lengths.end(), 64);
        let chars: Vec<char> = word.chars().collect();
        let n = self.number(lengths).min(chars.len());
        let at = self.number(0..=chars.len() - n);
        chars[at..at + n].iter().collect()
    }

    /// `edits` random edits (substitution, insertion, deletion or swap).
    pub fn typo(&self, word: &str, edits: usize) -> String {
        crate::edits::random_edits(word, edits, &mut *self.rng.borrow_mut())
    }

    /// An entry, as (dictionary, id, folded headword).
    pub fn entry(&self) -> (String, String, String) {
        let o = self.ordinal();
        let id = self.records.get(&[o]).expect("records")[0].id.clone();
        (self.dictionary(o).id.clone(), id, self.term(o))
    }

    /// Whether the store holds inflected forms to draw from.
    pub fn has_forms(&self) -> bool {
        !self.inflected.is_empty()
    }

    /// An inflected form that is no headword of the dictionary given with
    /// it, which has its lemma: (dictionary, form).
    pub fn form(&self) -> (String, String) {
        let n = self.number(0..=self.inflected.len() - 1);
        self.inflected[n].clone()
    }

    /// Words of a random entry's definition (its preview), at least `n` of
    /// 3 letters or more, and the entry: what reverse lookups are drawn
    /// from.
    pub fn definition_words(&self, n: usize) -> (u32, Vec<String>) {
        loop {
            let o = self.ordinal();
            let preview = self.records.get(&[o]).expect("records")[0].preview.clone();
            let words: Vec<String> = shared::search::definitions::words(&preview)
                .into_iter()
                .filter(|w| w.chars().count() >= 3)
                .collect();
            if words.len() >= n {
                return (o, words);
            }
        }
    }

    /// The `lang` of reverse lookup for the entry's dictionary: its
    /// language pair, or its language.
    pub fn pair_of(&self, o: u32) -> Option<LangFilter> {
        let d = self.dictionary(o);
        let pair = match &d.target_lang {
            Some(target) => format!("{}-{target}", d.source_lang),
            None => d.source_lang.clone(),
        };
        LangFilter::parse(&pair).ok()
    }
}
