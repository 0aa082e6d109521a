//! The read operations behind both REST and GraphQL: one implementation of each
//! rule, with typed inputs that the callers have already validated.

use crate::access::auth::KeyRecord;
use crate::access::quota::Period;
use crate::error::ApiError;
use crate::fold::{capitalised, capitalised_as, fold};
use crate::model::{
    AudioFormat, AudioUrl, AudioUrls, Dictionary, Entry, RandomItem, RhymePage, RhymeResult,
    SearchPage, SearchResult, StoredAudio, StoredEntry, ThesaurusItem, UsageRecord,
    WordPronunciation, WordResult, RELATIONSHIP_TYPES,
};
use crate::queries::{
    AutocompleteQuery, Grouping, RandomQuery, ReverseQuery, RhymesQuery, SearchQuery,
    ThesaurusQuery,
};
use crate::runtime::app::App;
use crate::search::definitions::MAX_QUERY_WORDS;
use crate::search::engine::{
    needed_grams, Hits, RhymeQuery, SearchError, Searcher, SoundsLikeQuery, WordHits,
};
use crate::search::filters::Filters;
use crate::search::filters::LangFilter;
use crate::search::lexicon::zipf_of_centis;
use crate::search::matching::{MatchRule, MatchType};
use crate::search::reverse::{stop_word_keys, DefinitionQuery, QueryError};
use crate::search::snapshot::{filter_keys, RhymeKind};
use crate::storage::store::{Needs, SnapshotView};
use std::collections::HashMap;
use std::time::Duration;

/// How long a presigned audio URL stays valid when no CDN is configured.
const PRESIGNED_AUDIO_TTL: Duration = Duration::from_secs(3600);

/// Entry by id: exactly that entry; 404 `Unknown dictionary` or `Entry not found`.
pub async fn entry_by_id(app: &App, source: &str, id: &str) -> Result<Entry, ApiError> {
    with_audio_urls(app, stored_entry_by_id(app, source, id).await?).await
}

/// The stored entry `id` of `source`, or the 404s of `entry_by_id`.
async fn stored_entry_by_id(app: &App, source: &str, id: &str) -> Result<StoredEntry, ApiError> {
    match app.store.entry(source, id).await? {
        Some(stored) => Ok(stored),
        None => {
            // Only the miss pays for telling an unknown dictionary apart.
            app.store.dictionary(source).await?;
            Err(ApiError::EntryNotFound {
                suggestions: Vec::new(),
            })
        }
    }
}

/// How many "did you mean" headwords a missing word gets.
const SUGGESTIONS: usize = 5;

/// The filters of the suggestions for a missing word: its dictionary's.
fn suggesting_in(source: &str) -> Filters<'_> {
    Filters {
        source: Some(source),
        ..Filters::default()
    }
}

/// `grams` and the keys of the bitmaps of `filters`: what a query reads of
/// the `grams` section.
fn with_filter_keys(mut grams: Vec<String>, filters: &Filters<'_>) -> Vec<String> {
    grams.extend(filter_keys(filters));
    grams
}

/// Entry by word: exact headword, else case-insensitive, else folded; among
/// several, the lemma, then the lowest id. Then, for an inflected form, its
/// lemmas in the dictionary (most common first): the entry found carries
/// `lemma` and `inflection`. A miss suggests up to 5 headwords of the
/// dictionary, typo-tolerant. Only a miss reads the snapshot.
pub async fn entry_by_word(app: &App, source: &str, word: &str) -> Result<Entry, ApiError> {
    let candidates = app.store.entries_with_folded_word(source, word).await?;
    if let Some(stored) = choose_entry_for_word(candidates, word) {
        return with_audio_urls(app, stored).await;
    }
    let folded = fold(word);
    if let Some(entry) = entry_of_lemma(app, source, word, &folded).await? {
        return Ok(entry);
    }
    // Only a miss reads the grams of its suggestions (the dictionary's
    // bitmap is hundreds of KB for a large one): a form found would have
    // read them for nothing, and the miss waits one round trip for them.
    let suggesting = MatchRule::new(&folded, MatchType::Prefix, true);
    let needs = Needs {
        grams: with_filter_keys(needed_grams(&suggesting), &suggesting_in(source)),
        ..Needs::default()
    };
    let snapshot = app.store.snapshot(&needs).await?;
    Err(ApiError::EntryNotFound {
        suggestions: suggestions(&snapshot, &suggesting, source).await?,
    })
}

/// The entry of a lemma of `word` (folded: `folded`) in the dictionary,
/// if the word is an inflected form of one it has.
async fn entry_of_lemma(
    app: &App,
    source: &str,
    word: &str,
    folded: &str,
) -> Result<Option<Entry>, ApiError> {
    let index_only = Needs::default();
    let (dictionary, snapshot) = tokio::join!(
        app.store.dictionary(source),
        app.store.snapshot(&index_only)
    );
    let (dictionary, snapshot) = (dictionary?, snapshot?);
    let of_language: Vec<usize> = snapshot
        .lemmas(folded)
        .await?
        .into_iter()
        .filter(|l| l.lang == dictionary.source_lang)
        .map(|l| l.term)
        .collect();
    let in_dictionary = snapshot.dictionary_has_terms(source, &of_language).await?;
    let lemmas: Vec<usize> = of_language
        .into_iter()
        .zip(in_dictionary)
        .filter_map(|(t, has)| has.then_some(t))
        .collect();
    let mut lemmas = snapshot.terms(&lemmas).await?;
    closest_first(folded, &mut lemmas, String::as_str);
    for term in &lemmas {
        let candidates = app.store.entries_with_folded_word(source, term).await?;
        if let Some(stored) = choose_entry_for_word(candidates, term) {
            let mut entry = with_audio_urls(app, stored).await?;
            entry.lemma = Some(entry.word.clone());
            entry.inflection = Some(word.to_string());
            return Ok(Some(entry));
        }
    }
    Ok(None)
}

/// Orders a form's lemmas, given most common first, so that the one
/// spelled most like the form (the longest common start) comes first:
/// `allées` is `allée` before it is `aller`, `Zeitungen` is `Zeitung` before
/// `Zeit`. Ties stay most common first.
fn closest_first<T>(form: &str, lemmas: &mut [T], term: impl Fn(&T) -> &str) {
    let common_start = |word: &str| {
        form.chars()
            .zip(word.chars())
            .take_while(|(a, b)| a == b)
            .count()
    };
    lemmas.sort_by_key(|l| std::cmp::Reverse(common_start(term(l))));
}

/// Typo-tolerant headwords of the dictionary, from the index snapshot:
/// the matches of `rule`, a typo-tolerant prefix search of the word.
async fn suggestions(
    snapshot: &SnapshotView,
    rule: &MatchRule,
    source: &str,
) -> Result<Vec<String>, ApiError> {
    if rule.is_empty() {
        return Ok(Vec::new());
    }
    let filters = suggesting_in(source);
    let grams = snapshot.grams.as_ref();
    let search = |s: &Searcher| s.search(grams, rule, &filters, 0, 10 * SUGGESTIONS);
    let hits = match with_term_blocks(snapshot, search).await? {
        Ok(hits) => hits,
        // Suggestions are a courtesy: a word too broad to correct gets none.
        Err(SearchError::OverBudget) => return Ok(Vec::new()),
        Err(e) => return Err(search_failed(e)),
    };
    let mut words: Vec<String> = Vec::new();
    for word in snapshot.words(&hits.ordinals).await? {
        if words.len() < SUGGESTIONS && !words.contains(&word) {
            words.push(word);
        }
    }
    Ok(words)
}

/// Search: matched, ranked and cut in the index snapshot held in memory;
/// the page's fields come from the snapshot too, so a warm instance reads
/// nothing.
pub async fn search(app: &App, p: &SearchQuery) -> Result<SearchPage, ApiError> {
    let rule = &p.rule;
    if let Some(query) = &p.sounds_like {
        return sounds_like(app, p, query).await;
    }
    if rule.is_empty() {
        // Only combining marks: nothing folds to the empty string.
        return Ok(SearchPage {
            results: Vec::new(),
            words: Vec::new(),
            total: 0,
            total_entries: 0,
            limit: p.limit,
            offset: p.offset,
        });
    }
    // A query reads the parts of the grams it needs, known from the query,
    // and of its filters' bitmaps, and meanwhile the term blocks it names
    // from the root alone.
    let filters = p.filters();
    let needs = Needs {
        records: true,
        grams: with_filter_keys(needed_grams(rule), &filters),
        first_blocks_of: Some(rule.clone()),
        ..Needs::default()
    };
    let snapshot = snapshot_checking_source(app, &needs, p.source.as_deref()).await?;
    let grams = snapshot.grams.as_ref();
    let (offset, limit) = (p.offset as usize, p.limit as usize);
    let over_budget = |e| match e {
        SearchError::OverBudget => ApiError::bad_request(over_budget(rule)),
        e => search_failed(e),
    };
    let hits = match p.group {
        Grouping::Entry => {
            let search = |s: &Searcher| s.search(grams, rule, &filters, offset, limit);
            let hits = with_term_blocks(&snapshot, search).await?;
            Paged::Entries(hits.map_err(over_budget)?)
        }
        Grouping::Word => {
            let search = |s: &Searcher| s.search_words(grams, rule, &filters, offset, limit);
            let hits = with_term_blocks(&snapshot, search).await?;
            Paged::Words(hits.map_err(over_budget)?)
        }
    };
    search_page(app, &snapshot, hits, p.limit, p.offset).await
}

/// Sounds-like search (`matchType=soundsLike`, docs/api.md "Sounds like"):
/// the words whose spelling sounds like `q`'s in their language, from the
/// snapshot's `rhymes` section: the parts of the coarse keys of the query's
/// first sounds, then the parts of the lists of the keys it reaches, then
/// the page's records, as a search's.
async fn sounds_like(
    app: &App,
    p: &SearchQuery,
    query: &SoundsLikeQuery,
) -> Result<SearchPage, ApiError> {
    let filters = p.filters();
    let needs = Needs {
        records: true,
        grams: filter_keys(&filters),
        rhymes: true,
        definitions: false,
        pronunciations_of: None,
        first_blocks_of: None,
    };
    let snapshot = snapshot_checking_source(app, &needs, p.source.as_deref()).await?;
    let over_budget = |e| match e {
        SearchError::OverBudget => ApiError::bad_request(SOUNDS_LIKE_OVER_BUDGET),
        e => search_failed(e),
    };
    let (matches, rhymes) = snapshot.sounds(query).await?.map_err(over_budget)?;
    let (searcher, offset, limit) = (&snapshot.searcher, p.offset as usize, p.limit as usize);
    let grams = snapshot.grams.as_ref();
    let hits = match p.group {
        Grouping::Entry => Paged::Entries(
            searcher
                .sounds_like(grams, &rhymes, &matches, &filters, offset, limit)
                .map_err(over_budget)?,
        ),
        Grouping::Word => Paged::Words(
            searcher
                .sounds_like_words(grams, &rhymes, &matches, &filters, offset, limit)
                .map_err(over_budget)?,
        ),
    };
    search_page(app, &snapshot, hits, p.limit, p.offset).await
}

/// The 400 of a sounds-like search that would visit more of the index than
/// one request may.
const SOUNDS_LIKE_OVER_BUDGET: &str =
    "q sounds like too many words: give a language (lang) or a longer q";

/// The snapshot with what `needs` names, read while `source` (a filter's
/// dictionary, if any) is checked: an unknown one answers 404 first.
async fn snapshot_checking_source(
    app: &App,
    needs: &Needs,
    source: Option<&str>,
) -> Result<SnapshotView, ApiError> {
    let (snapshot, checked) = tokio::join!(app.store.snapshot(needs), check_source(app, source));
    checked?;
    snapshot
}

/// A page of a search or a reverse lookup, by entry or by word.
enum Paged {
    Entries(Hits),
    Words(WordHits),
}

/// The page of `hits`, its results' fields from the snapshot and the
/// records of the page.
async fn search_page(
    app: &App,
    snapshot: &SnapshotView,
    hits: Paged,
    limit: u32,
    offset: u32,
) -> Result<SearchPage, ApiError> {
    let page = |results, words, total: usize, total_entries: usize| SearchPage {
        results,
        words,
        total: total as u64,
        total_entries: total_entries as u64,
        limit,
        offset,
    };
    match hits {
        Paged::Entries(hits) => {
            let results = search_results(app, snapshot, &hits.ordinals).await?;
            Ok(page(results, Vec::new(), hits.total, hits.total))
        }
        Paged::Words(hits) => {
            let ordinals: Vec<u32> = hits.words.iter().flat_map(|w| w.entries.clone()).collect();
            let mut results = search_results(app, snapshot, &ordinals).await?.into_iter();
            let index = snapshot.searcher.index();
            let words = hits
                .words
                .iter()
                .map(|w| {
                    let entries: Vec<SearchResult> =
                        results.by_ref().take(w.entries.len()).collect();
                    WordResult {
                        word: entries[0].word.clone(),
                        // A word's entries are its language's.
                        lang: entries[0].source_lang.clone(),
                        frequency: zipf_of_centis(index.term_frequency(w.term)),
                        entry_count: w.entry_count as u64,
                        entries,
                    }
                })
                .collect();
            Ok(page(Vec::new(), words, hits.total, hits.entries))
        }
    }
}

/// Reverse lookup: the entries whose definition or translation says the
/// words of `q` (docs/api.md, "Reverse lookup"), ranked in the snapshot's
/// `definitions` section; the page's fields come from the snapshot, as
/// search's do.
pub async fn reverse(app: &App, p: &ReverseQuery) -> Result<SearchPage, ApiError> {
    let filters = p.filters();
    let needs = Needs {
        records: true,
        grams: filter_keys(&filters),
        rhymes: false,
        definitions: true,
        pronunciations_of: None,
        first_blocks_of: None,
    };
    let snapshot = snapshot_checking_source(app, &needs, p.source.as_deref()).await?;
    let query = |s: &Searcher| match DefinitionQuery::new(&p.q, s.index()) {
        Ok(query) => Ok(Some(query)),
        Err(QueryError::TooManyWords) => Ok(None),
        Err(QueryError::Missing(missing)) => Err(SearchError::Missing(missing)),
    };
    // The words' stop-word keys are read while their lemmas are found:
    // they say which lemmas are no lookup, whose lists and language
    // bitmaps are then never read.
    let stop_words = stop_word_keys(&p.q);
    let (query, stop_words) = tokio::join!(
        with_term_blocks(&snapshot, query),
        snapshot.definitions(&stop_words)
    );
    let stop_words = stop_words?;
    let query = query?.map_err(search_failed)?.ok_or_else(|| {
        ApiError::bad_request(format!(
            "q must have at most {MAX_QUERY_WORDS} words for a reverse lookup"
        ))
    })?;
    let keys = query.keys(&stop_words).map_err(internal)?;
    let definitions = snapshot.definitions(&keys).await?;
    let grams = snapshot.grams.as_ref();
    let over_budget = |e| match e {
        SearchError::OverBudget => ApiError::bad_request(REVERSE_OVER_BUDGET),
        e => search_failed(e),
    };
    let (searcher, offset, limit) = (&snapshot.searcher, p.offset as usize, p.limit as usize);
    let hits = match p.group {
        Grouping::Entry => Paged::Entries(
            searcher
                .reverse(grams, &definitions, &query, &filters, offset, limit)
                .map_err(over_budget)?,
        ),
        Grouping::Word => Paged::Words(
            searcher
                .reverse_words(grams, &definitions, &query, &filters, offset, limit)
                .map_err(over_budget)?,
        ),
    };
    search_page(app, &snapshot, hits, p.limit, p.offset).await
}

/// Rhymes: the words of the word's language that rhyme with it (docs/api.md,
/// "Rhymes"), from the snapshot's `rhymes` section. Two reads: the
/// pronunciations of the word's words (their bucket named by a hash of its
/// text, so read with the index), then their rhyme lists; then the page's
/// records, as a search's.
pub async fn rhymes(app: &App, p: &RhymesQuery) -> Result<RhymePage, ApiError> {
    let filters = Filters {
        lang: None,
        source: p.source.as_deref(),
        part_of_speech: p.pos.as_deref(),
        has_audio: false,
    };
    let needs = Needs {
        records: true,
        grams: filter_keys(&filters),
        rhymes: true,
        definitions: false,
        pronunciations_of: Some(p.word.clone()),
        first_blocks_of: None,
    };
    let snapshot = snapshot_checking_source(app, &needs, p.source.as_deref()).await?;
    let pronounced = snapshot.pronunciations(&p.word).await?;
    let words = pronounced.pronounced(&p.word).map_err(internal)?;
    // The most common of its words in the language asked for, or in any.
    let word = words
        .into_iter()
        .find(|w| p.lang.as_deref().is_none_or(|lang| lang == w.lang))
        .ok_or(ApiError::NoPronunciation)?;
    let pronunciations = word
        .pronunciations
        .into_iter()
        .map(|(source, ipa)| (source, ipa.to_string()))
        .collect();
    let query = RhymeQuery::new(word.term, word.lang, p.kind, pronunciations);
    let lists = snapshot.rhymes(&query.keys()).await?;
    let hits = snapshot
        .searcher
        .rhymes(
            snapshot.grams.as_ref(),
            &lists,
            &query,
            &filters,
            p.offset as usize,
            p.limit as usize,
        )
        .map_err(|e| match e {
            SearchError::OverBudget => {
                ApiError::bad_request("this rhyme is too common to list: use a filter")
            }
            e => search_failed(e),
        })?;
    let own = snapshot.searcher.index().term_entries(query.term).start;
    let ordinals: Vec<u32> = std::iter::once(own)
        .chain(hits.words.iter().flat_map(|w| w.word.entries.clone()))
        .collect();
    let mut results = search_results(app, &snapshot, &ordinals).await?.into_iter();
    let word = results.next().map(|r| r.word).unwrap_or_default();
    let index = snapshot.searcher.index();
    let rhymes = hits
        .words
        .iter()
        .map(|w| {
            let entries: Vec<SearchResult> = results.by_ref().take(w.word.entries.len()).collect();
            RhymeResult {
                word: entries[0].word.clone(),
                lang: entries[0].source_lang.clone(),
                pronunciation: w.pronunciation.clone(),
                pronunciation_source: w.source.name().into(),
                syllables: u32::from(w.syllables),
                frequency: zipf_of_centis(index.term_frequency(w.word.term)),
                entry_count: w.word.entry_count as u64,
                entries,
            }
        })
        .collect();
    Ok(RhymePage {
        word,
        lang: query.lang.clone(),
        pronunciations: query
            .pronunciations
            .iter()
            .map(|(source, ipa)| WordPronunciation {
                pronunciation: ipa.clone(),
                source: source.name().into(),
            })
            .collect(),
        kind: match p.kind {
            RhymeKind::Perfect => "perfect",
            RhymeKind::Near => "near",
        }
        .into(),
        rhymes,
        total: hits.total as u64,
        limit: p.limit,
        offset: p.offset,
    })
}

/// How many times a read of the snapshot runs at most: a search names every
/// FST block of its tiers in its first run, then the text blocks of the
/// terms it checks by their text (`contains`, patterns, prefixes with two
/// or three edits) and the FST blocks of the extra edit when it needs it,
/// then the extra edit's text blocks; an autocomplete names eight FST blocks
/// at a time, then the text blocks of its words. A form of more lemmas than
/// its value holds names its overflow item one run after its form block.
const TERM_BLOCK_RUNS: usize = 5;

/// What `read` answers once the instance holds the term blocks it reads:
/// each run that names missing blocks reads them (one batch) and runs
/// again, [`TERM_BLOCK_RUNS`] times at most, then 503. The outer error is
/// the store's, the inner one the search's.
async fn with_term_blocks<T>(
    snapshot: &SnapshotView,
    read: impl Fn(&Searcher) -> Result<T, SearchError>,
) -> Result<Result<T, SearchError>, ApiError> {
    for _ in 1..TERM_BLOCK_RUNS {
        match read(&snapshot.searcher) {
            Err(SearchError::Missing(missing)) => snapshot.read_term_blocks(&missing).await?,
            answered => return Ok(answered),
        }
    }
    match read(&snapshot.searcher) {
        // Blocks let go as soon as read: the budget is smaller than a query.
        Err(SearchError::Missing(missing)) => {
            tracing::error!(
                blocks = missing.len(),
                "term blocks still missing after {TERM_BLOCK_RUNS} runs: raise SNAPSHOT_CACHE_MB"
            );
            Err(ApiError::Unavailable)
        }
        answered => Ok(answered),
    }
}

/// The error of a search that failed for no fault of the query.
fn search_failed(e: SearchError) -> ApiError {
    match e {
        SearchError::Corrupt(e) => internal(e),
        SearchError::OverBudget => ApiError::Internal("a search over its budget".into()),
        SearchError::Missing(_) => ApiError::Unavailable,
    }
}

/// The 400 of a reverse query whose lists would exceed the work budget.
const REVERSE_OVER_BUDGET: &str =
    "q is too broad for a reverse lookup: use rarer words, or a filter";

/// The search results of these ordinals, in order: their fields from the
/// snapshot and the records of the page.
async fn search_results(
    app: &App,
    snapshot: &SnapshotView,
    ordinals: &[u32],
) -> Result<Vec<SearchResult>, ApiError> {
    let (records, shown) = tokio::try_join!(snapshot.records(ordinals), snapshot.shown(ordinals))?;
    let dictionaries = app.store.dictionaries().await?;
    let index = snapshot.searcher.index();
    Ok(ordinals
        .iter()
        .zip(records.into_iter().zip(shown))
        .map(|(&ordinal, (record, shown))| {
            let d = &shown.dictionary;
            SearchResult {
                id: record.id,
                word: shown.word,
                preview: record.preview,
                source_lang: d.source_lang.clone(),
                target_lang: d.target_lang.clone(),
                dictionary_id: d.id.clone(),
                dictionary_name: dictionary_name(&dictionaries, &d.id),
                part_of_speech: shown.part_of_speech,
                phonetic: record.phonetic,
                has_audio: shown.has_audio,
                frequency: zipf_of_centis(index.term_frequency(index.term_of(ordinal))),
            }
        })
        .collect())
}

/// A dictionary's name from the catalog (its id if it left the catalog
/// since the snapshot was built).
fn dictionary_name(dictionaries: &[Dictionary], id: &str) -> String {
    dictionaries
        .iter()
        .find(|d| d.dictionary_id == id)
        .map_or_else(|| id.to_string(), |d| d.dictionary_name.clone())
}

/// What a search over the work budget is told: the advice fits what made
/// it broad (a literal search has no typos to turn off).
fn over_budget(rule: &MatchRule) -> &'static str {
    match rule.match_type {
        MatchType::Pattern => PATTERN_OVER_BUDGET,
        MatchType::Contains => CONTAINS_OVER_BUDGET,
        _ if rule.max_edits == 0 => LITERAL_OVER_BUDGET,
        _ => OVER_BUDGET,
    }
}

/// The 400 of a search whose typo walks would exceed the work budget.
const OVER_BUDGET: &str =
    "q is too broad for a typo-tolerant search: use a longer q, or fuzzy=false";

/// The 400 of a search without typos whose prefix would reach more of the
/// index than one request may.
const LITERAL_OVER_BUDGET: &str = "q is too broad: use a longer q";

/// The 400 of a `contains` search whose candidates lie in more text
/// blocks than one request may check: a longer substring, or a filter,
/// leaves fewer.
const CONTAINS_OVER_BUDGET: &str =
    "q is too broad a substring: use a longer q, or narrow it with lang or source";

/// The 400 of a pattern whose walk would exceed the work budget.
const PATTERN_OVER_BUDGET: &str =
    "q is too broad a pattern: give more of its letters, or fewer wildcards before the first";

fn internal(err: crate::search::codec::CorruptData) -> ApiError {
    ApiError::Internal(err.to_string())
}

/// Entries GraphQL's `examples` reads for its one unit: its search's first
/// page of them, as many as `random` reads at most (`count` 10), in one
/// BatchGetItem.
pub const EXAMPLE_ENTRIES: u32 = 10;

/// The entries whose headword is `p.q` exactly (no typos, whatever `p`'s
/// match type), at most [`EXAMPLE_ENTRIES`] of them read whole, in search
/// order, those with usage examples only (GraphQL `examples`).
pub async fn examples(app: &App, p: &SearchQuery) -> Result<Vec<Entry>, ApiError> {
    let exact =
        MatchRule::of_query(&p.q, MatchType::Exact, false).expect("an exact rule is no pattern");
    let first_page = SearchQuery {
        rule: exact,
        limit: EXAMPLE_ENTRIES,
        offset: 0,
        ..p.clone()
    };
    let page = search(app, &first_page).await?;
    let keys: Vec<(String, String)> = page
        .results
        .iter()
        .map(|r| (r.dictionary_id.clone(), r.id.clone()))
        .collect();
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let mut found = app.store.entries(&keys).await?;
    Ok(keys
        .iter()
        .filter_map(|k| found.remove(k))
        .map(|stored| stored.entry)
        .filter(|e| !e.examples.is_empty())
        .collect())
}

/// Autocomplete: distinct headwords starting with `q`, alphabetical by folded
/// form, from the index snapshot.
pub async fn autocomplete(app: &App, p: &AutocompleteQuery) -> Result<Vec<String>, ApiError> {
    let folded = fold(&p.q);
    let source = p.source.as_deref();
    if folded.is_empty() {
        return Ok(Vec::new());
    }
    let filters = Filters {
        lang: p.lang.as_ref(),
        source,
        ..Filters::default()
    };
    let needs = Needs {
        grams: filter_keys(&filters),
        ..Needs::default()
    };
    let (snapshot, checked) = tokio::join!(app.store.snapshot(&needs), check_source(app, source));
    checked?;
    let snapshot = snapshot?;
    let grams = snapshot.grams.as_ref();
    let complete = |s: &Searcher| s.autocomplete(grams, &folded, &filters, p.limit as usize);
    with_term_blocks(&snapshot, complete)
        .await?
        .map_err(search_failed)
}

/// Random headwords: `count` distinct picks, uniform over the entries that
/// pass the filters: a uniform number below their count names exactly one
/// entry of the snapshot, so no entry is favoured by gaps.
pub async fn random(app: &App, p: &RandomQuery) -> Result<Vec<RandomItem>, ApiError> {
    let source = p.source.as_deref();
    let filters = Filters {
        lang: p.lang.as_ref(),
        source,
        has_audio: p.has_audio,
        ..Filters::default()
    };
    let needs = Needs {
        records: true,
        grams: filter_keys(&filters),
        rhymes: false,
        definitions: false,
        pronunciations_of: None,
        first_blocks_of: None,
    };
    let (snapshot, checked) = tokio::join!(app.store.snapshot(&needs), check_source(app, source));
    checked?;
    let snapshot = snapshot?;
    let picks = snapshot
        .searcher
        .random(
            snapshot.grams.as_ref(),
            &filters,
            p.count as usize,
            &mut rand::rng(),
        )
        .map_err(internal)?;
    let (records, shown) = tokio::try_join!(snapshot.records(&picks), snapshot.shown(&picks))?;
    let dictionaries = app.store.dictionaries().await?;
    Ok(records
        .into_iter()
        .zip(shown)
        .map(|(record, shown)| {
            let d = &shown.dictionary;
            RandomItem {
                id: record.id,
                word: shown.word,
                dictionary_id: d.id.clone(),
                dictionary_name: dictionary_name(&dictionaries, &d.id),
                source_lang: d.source_lang.clone(),
                target_lang: d.target_lang.clone(),
            }
        })
        .collect())
}

/// The URL of an entry's audio in `format`, or in its primary format:
/// 404 `No audio found` when it has no audio, or none in that format.
pub async fn audio_url(
    app: &App,
    source: &str,
    id: &str,
    format: Option<AudioFormat>,
) -> Result<String, ApiError> {
    let stored = stored_entry_by_id(app, source, id).await?;
    let audio = choose_audio(&stored.audio, format).ok_or(ApiError::NoAudio)?;
    audio_url_for_key(app, &audio.key).await
}

/// The rendition of `format`, or without one the primary (the first).
pub(crate) fn choose_audio(
    audio: &[StoredAudio],
    format: Option<AudioFormat>,
) -> Option<&StoredAudio> {
    match format {
        None => audio.first(),
        Some(format) => audio.iter().find(|a| a.format == format),
    }
}

/// Related words of the query's word across dictionaries, filtered by `lang`
/// and `source`, in the order of [`order_links`]. A word with no links
/// (after the filters) that is an inflected form has its lemmas' links,
/// each lemma's from dictionaries of the form's language. The snapshot's
/// index, which gives the commonness and the lemmas, is read beside the
/// word's partition.
pub async fn thesaurus(app: &App, p: &ThesaurusQuery) -> Result<Vec<ThesaurusItem>, ApiError> {
    let (word, lang, source) = (p.word.as_str(), p.lang.as_ref(), p.source.as_deref());
    let needs = Needs::default();
    let (links, checked, snapshot) = tokio::join!(
        app.store.thesaurus(word),
        check_source(app, source),
        app.store.snapshot(&needs)
    );
    checked?;
    let links = filter_links(links?, lang, source);
    if !links.is_empty() {
        // A build of another release only costs the order its commonness:
        // the links themselves do not come from the snapshot.
        let ranks = match snapshot {
            Ok(snapshot) => commonness_ranks(&snapshot, &links).await?,
            Err(ApiError::IndexOfAnotherRelease) => HashMap::new(),
            Err(e) => return Err(e),
        };
        return Ok(order_links(links, |word, lang| rank_of(&ranks, word, lang)));
    }
    let snapshot = snapshot?;
    // A lemma's languages: one Query per lemma, even when the form is one of
    // it in several languages.
    let mut lemmas: Vec<(String, Vec<String>)> = Vec::new();
    let of_form = snapshot.lemmas(&fold(word)).await?;
    let terms: Vec<usize> = of_form.iter().map(|l| l.term).collect();
    for (l, term) in of_form.iter().zip(snapshot.terms(&terms).await?) {
        match lemmas.iter_mut().find(|(t, _)| *t == term) {
            Some((_, langs)) => langs.push(l.lang.to_string()),
            None => lemmas.push((term, vec![l.lang.to_string()])),
        }
    }
    let reads = lemmas.iter().map(|(term, langs)| async move {
        let links = app.store.thesaurus(term).await?;
        Ok::<_, ApiError>(
            links
                .into_iter()
                .filter(move |link| langs.contains(&link.source_lang)),
        )
    });
    let mut found: Vec<ThesaurusItem> = Vec::new();
    for links in futures::future::try_join_all(reads).await? {
        for link in links {
            if !found.contains(&link) {
                found.push(link);
            }
        }
    }
    let found = filter_links(found, lang, source);
    let ranks = commonness_ranks(&snapshot, &found).await?;
    Ok(order_links(found, |word, lang| rank_of(&ranks, word, lang)))
}

pub(crate) fn filter_links(
    mut links: Vec<ThesaurusItem>,
    lang: Option<&LangFilter>,
    source: Option<&str>,
) -> Vec<ThesaurusItem> {
    links.retain(|l| {
        source.is_none_or(|s| l.dictionary_id == s)
            && lang.is_none_or(|f| f.matches(&l.source_lang, l.target_lang.as_deref()))
    });
    links
}

/// Where the links' words stand by commonness as search ranks words, by
/// (folded word, the link's language): the number of the word's term in
/// the index, which numbers terms most common first (equal commonness:
/// shorter first); the text's most common word when the link's language
/// has no headword of it. A word that is no dictionary's headword has none.
/// Their term blocks are read first, then the text blocks of the texts of
/// several languages (which say which word is of which language).
async fn commonness_ranks(
    snapshot: &SnapshotView,
    links: &[ThesaurusItem],
) -> Result<HashMap<(String, String), usize>, ApiError> {
    let words: Vec<String> = links.iter().map(|l| fold(&l.word)).collect();
    let ranks = |s: &Searcher| -> Result<Vec<Option<usize>>, SearchError> {
        let index = s.index();
        let numbers = index.term_numbers(&words)?;
        let of_languages = |&t: &usize| index.text_terms(t).nth(1).is_some();
        let chained = numbers.iter().flatten().filter(|t| of_languages(t));
        let texts = index.texts(chained.flat_map(|&t| index.text_terms(t)))?;
        let rank = |link: &ThesaurusItem, first: usize| match of_languages(&first) {
            true => index
                .text_terms(first)
                .find(|&t| texts.term_lang(t) == link.source_lang)
                .unwrap_or(first),
            false => first,
        };
        let ranked = links.iter().zip(numbers);
        Ok(ranked
            .map(|(link, first)| Some(rank(link, first?)))
            .collect())
    };
    let ranks = with_term_blocks(snapshot, ranks)
        .await?
        .map_err(search_failed)?;
    Ok(links
        .iter()
        .zip(words)
        .zip(ranks)
        .filter_map(|((link, word), rank)| Some(((word, link.source_lang.clone()), rank?)))
        .collect())
}

/// A word's commonness rank in a language: after every headword when it is
/// none, or without an index.
fn rank_of(ranks: &HashMap<(String, String), usize>, word: &str, lang: &str) -> usize {
    let key = (word.to_string(), lang.to_string());
    ranks.get(&key).copied().unwrap_or(usize::MAX)
}

/// The thesaurus order (docs/api.md, "Thesaurus"): by relationship type in
/// the order of [`RELATIONSHIP_TYPES`], then by how many dictionaries give
/// the same word (folded) for that relationship, most first, then the
/// word's `commonness_rank` (of the folded word in a link's language, the
/// best of its links'), then the folded word; the items of one word and
/// relationship, one per dictionary, stay together in dictionary order.
pub(crate) fn order_links(
    links: Vec<ThesaurusItem>,
    commonness_rank: impl Fn(&str, &str) -> usize,
) -> Vec<ThesaurusItem> {
    let kind_rank = |kind: &str| {
        RELATIONSHIP_TYPES
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(RELATIONSHIP_TYPES.len())
    };
    // Per (relationship, folded word): its dictionaries and its commonness.
    let mut groups: std::collections::HashMap<(usize, String), (Vec<&str>, usize)> =
        std::collections::HashMap::new();
    let keyed: Vec<(usize, String)> = links
        .iter()
        .map(|l| (kind_rank(&l.relationship_type), fold(&l.word)))
        .collect();
    for (link, key) in links.iter().zip(&keyed) {
        let (dictionaries, rank) = groups
            .entry(key.clone())
            .or_insert_with(|| (Vec::new(), usize::MAX));
        *rank = (*rank).min(commonness_rank(&key.1, &link.source_lang));
        if !dictionaries.contains(&link.dictionary_id.as_str()) {
            dictionaries.push(&link.dictionary_id);
        }
    }
    // (relationship, dictionaries giving the word, most first, commonness,
    // folded word): equal for the items of one group, so they stay together.
    type GroupKey = (usize, std::cmp::Reverse<usize>, usize, String);
    let mut ordered: Vec<(GroupKey, ThesaurusItem)> = links
        .iter()
        .zip(keyed)
        .map(|(link, (kind, folded))| {
            let (dictionaries, rank) = &groups[&(kind, folded.clone())];
            let key = (kind, std::cmp::Reverse(dictionaries.len()), *rank, folded);
            (key, link.clone())
        })
        .collect();
    ordered.sort_by(|(a, x), (b, y)| {
        a.cmp(b)
            .then_with(|| x.dictionary_id.cmp(&y.dictionary_id))
            .then_with(|| x.word.cmp(&y.word))
    });
    ordered.into_iter().map(|(_, link)| link).collect()
}

pub async fn dictionaries(app: &App) -> Result<Vec<Dictionary>, ApiError> {
    Ok(app.store.dictionaries().await?.as_ref().clone())
}

/// Checks that `source`, when given, names a dictionary (404 otherwise).
pub(crate) async fn check_source(app: &App, source: Option<&str>) -> Result<(), ApiError> {
    if let Some(source) = source {
        app.store.dictionary(source).await?;
    }
    Ok(())
}

pub async fn usage(app: &App, key: &KeyRecord) -> Result<UsageRecord, ApiError> {
    let now = (app.clock)();
    let period = Period::containing(now);
    let limit = key.limit();
    // A lowered custom limit can leave usage above it; never report more than the limit.
    let used = app.quota.used(key, now).await?.min(limit);
    Ok(UsageRecord {
        plan: key.plan.name().to_string(),
        usage: used,
        limit,
        remaining: limit - used,
        reset_date: period.reset_date(),
    })
}

/// The entry with the URLs of its audio (one per format).
async fn with_audio_urls(app: &App, stored: StoredEntry) -> Result<Entry, ApiError> {
    let mut urls = Vec::with_capacity(stored.audio.len());
    for audio in &stored.audio {
        urls.push((audio.format, audio_url_for_key(app, &audio.key).await?));
    }
    let mut entry = stored.entry;
    set_audio_urls(&mut entry, urls);
    Ok(entry)
}

/// Sets an entry's audio fields from the URL of each format, primary first:
/// `hasAudio`, `audioFormats` (`[]` without audio), `audioUrl` (the
/// primary's) and `audioUrls` (absent without audio).
pub(crate) fn set_audio_urls(entry: &mut Entry, urls: Vec<(AudioFormat, String)>) {
    entry.has_audio = !urls.is_empty();
    entry.audio_formats = urls.iter().map(|(f, _)| f.name().to_string()).collect();
    entry.audio_url = urls.first().map(|(_, url)| url.clone());
    entry.audio_urls = entry.has_audio.then(|| {
        AudioUrls(
            urls.into_iter()
                .map(|(format, url)| AudioUrl {
                    format: format.name().to_string(),
                    url,
                })
                .collect(),
        )
    });
}

/// The CDN URL of an audio object: the configured base (no trailing slash) and
/// the object key, which ends in `.mp3` or `.spx`.
pub(crate) fn cdn_url(base: &str, key: &str) -> String {
    format!("{base}/{key}")
}

/// The CDN URL of an audio object, or a presigned S3 GET URL without a CDN.
async fn audio_url_for_key(app: &App, key: &str) -> Result<String, ApiError> {
    if let Some(base) = &app.config.audio_base_url {
        return Ok(cdn_url(base, key));
    }
    let signer = app.audio.as_ref().ok_or_else(|| {
        ApiError::Internal(
            "this function signs no audio URL: its endpoint starts without the signer".into(),
        )
    })?;
    signer
        .presigned_get(key, PRESIGNED_AUDIO_TTL, std::time::SystemTime::now())
        .await
}

/// How closely a headword matches the requested word: exact, then
/// case-insensitive, then only after folding (decisions.md, "Entries"), a
/// headword capitalised as the word first: `Lodz` is the city `Łódź`, `lodz`
/// the boat `łódź`, which fold alike. 4: no match.
fn closeness(headword: &str, word: &str) -> u8 {
    if headword == word {
        0
    } else if headword.to_lowercase() == word.to_lowercase() {
        1
    } else if fold(headword) == fold(word) {
        if capitalised_as(headword, capitalised(word)) {
            2
        } else {
            3
        }
    } else {
        4
    }
}

/// The entry "by word": the closest headword, then the lemma form, then the
/// lowest id. `None` when no candidate folds to the word.
pub(crate) fn choose_entry_for_word(
    candidates: Vec<StoredEntry>,
    word: &str,
) -> Option<StoredEntry> {
    candidates
        .into_iter()
        .map(|c| (closeness(&c.entry.word, word), c))
        .filter(|(rank, _)| *rank < 4)
        .min_by(|(ra, a), (rb, b)| {
            ra.cmp(rb)
                .then_with(|| b.is_lemma.cmp(&a.is_lemma))
                .then_with(|| a.entry.id.cmp(&b.entry.id))
        })
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests;
