//! The typo tiers: the row walks over the term FSTs (forwards and
//! backwards), anchored on the head of a prefix query or on a piece of its
//! rest (or, for the typo benchmark and the tests, the Levenshtein automaton
//! of [`super::automaton`]).

use super::reach::reachable_items;
use super::Searcher;
use super::{holding_all, piece_lookups, SearchError, TypoWalk, Typos, WORK_BUDGET};
use crate::codec::CorruptData;
use crate::matching::{
    MatchRule, TypoDistance, TypoKind, DOUBLING_CHANGES, DOUBLING_QUERY_CHARS, MOVE_REACH,
    TYPO_KINDS,
};
use crate::respelling;
use crate::snapshot::{
    middle, middle_prefix, without_middle, words_in, Direction, Fst, Grams, Index, Lemma, TermBlock,
};
use crate::typo::{self, Anchor, Mode, Near};
use roaring::RoaringBitmap;
use std::collections::HashSet;
use std::sync::Arc;

impl Searcher {
    /// Typo matches within `max_edits`, [`TYPO_KINDS`] bitmaps per edit
    /// distance from 1 up ([`TypoKind`]): the entries of the terms at that
    /// distance (by the match type's measure) that are the query with
    /// letters doubled or undoubled, the other terms, those only reached by
    /// an unlikely edit, the terms that are a proper
    /// prefix of the query, then the lemmas of the inflected forms
    /// whose whole word is at that distance, in the dictionaries of the
    /// form's language (`attched` → `attached` → `attach`): at equal
    /// distance a headword matched itself ranks before one reached through
    /// a form. A lemma reached through a form may match in an earlier tier
    /// as well: the caller keeps it there.
    pub(super) fn typos(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        max_edits: usize,
        typos: &mut Typos,
    ) -> Result<Vec<RoaringBitmap>, SearchError> {
        let mut tiers = vec![RoaringBitmap::new(); TYPO_KINDS * max_edits];
        let Some(measure) = rule.match_type.typo_distance() else {
            return Ok(tiers);
        };
        let query: Vec<char> = rule.query().chars().collect();
        let terms = Keys::Terms(&self.index);
        let mut doublings = self.doublings(&query, rule, max_edits, typos);
        for (d, through_forms) in doublings.through_forms.iter_mut().enumerate() {
            let at = TYPO_KINDS * d + TypoKind::DoublingThroughForm as usize;
            tiers[at] = std::mem::take(through_forms);
        }
        // By distance, the terms reached by likely edits, and by unlikely.
        let mut by_distance: Vec<[Vec<usize>; 2]> = vec![Default::default(); max_edits];
        if self.within_reach(rule, max_edits) {
            let found = match typos.walk {
                TypoWalk::Rows => match measure {
                    TypoDistance::Prefix => {
                        let extra_edit = max_edits > rule.max_edits;
                        self.prefix_typos(grams, &query, max_edits, extra_edit, typos)?
                    }
                    TypoDistance::Whole => whole_word_typos(terms, &query, max_edits, typos)?,
                },
                #[cfg(any(test, feature = "automaton-baseline"))]
                TypoWalk::Automaton => {
                    let every = terms.every_block(typos);
                    let each = every.iter().map(|block| {
                        super::automaton::typos(block, rule.query(), max_edits, measure)
                    });
                    each.flatten().collect()
                }
            };
            for near in found {
                let d = usize::from(near.edits) - 1;
                by_distance[d][usize::from(near.unlikely)].push(near.value as usize);
            }
        }
        for (d, [likely, unlikely]) in by_distance.into_iter().enumerate() {
            let mut likely = self.index.texts_entries(likely);
            let mut unlikely = self.index.texts_entries(unlikely);
            if d == 0 {
                // A letter moved is a likely edit, whatever else reached it.
                likely |= &doublings.moved;
                unlikely -= &doublings.moved;
            }
            let all = &likely | &unlikely;
            let doubling = &(&all & &doublings.headwords) | &doublings.respelled[d];
            let prefix = &(&all & &doublings.prefixes) - &doubling;
            let at = |kind: TypoKind| TYPO_KINDS * d + kind as usize;
            tiers[at(TypoKind::Other)] = &(&likely - &doubling) - &prefix;
            tiers[at(TypoKind::UnlikelyEdit)] = &(&unlikely - &doubling) - &prefix;
            tiers[at(TypoKind::Doubling)] = doubling;
            tiers[at(TypoKind::PrefixOfQuery)] = prefix;
        }
        if max_edits > 0 {
            tiers[TypoKind::ThroughForm as usize] |= &doublings.moved_through_forms;
        }
        // A form is a whole word: its distance is the whole word's, whatever
        // the match type (`runnin` is a prefix of no form's lemma, but one
        // edit from `running`).
        if rule.match_type.has_lemma_tier() && self.index.form_within_reach(query.len(), max_edits)
        {
            let forms = Keys::Forms(&self.index);
            let found = match typos.walk {
                TypoWalk::Rows => whole_word_typos(forms, &query, max_edits, typos)?,
                #[cfg(any(test, feature = "automaton-baseline"))]
                TypoWalk::Automaton => {
                    let every = forms.every_block(typos);
                    let each = every.iter().map(|block| {
                        let whole = TypoDistance::Whole;
                        super::automaton::typos(block, rule.query(), max_edits, whole)
                    });
                    each.flatten().collect()
                }
            };
            for near in found {
                for lemma in self.index.lemmas_of(near.value, &mut typos.missing) {
                    let d = usize::from(near.edits);
                    let at = TYPO_KINDS * (d - 1) + TypoKind::ThroughForm as usize;
                    tiers[at] |= self.index.lemma_entries(lemma);
                }
            }
        }
        Ok(tiers)
    }

    /// The entries of the headwords that are `query` with at most
    /// [`DOUBLING_CHANGES`] letters doubled or undoubled (for a query of at
    /// most [`DOUBLING_QUERY_CHARS`]), of the lemmas of the inflected forms
    /// that are (by the form's distance), and of the headwords that are a
    /// proper prefix of the query within `max_edits`: looked up one by one
    /// (about n² lookups, each one unit of work; their blocks are near the
    /// query's), so that the typo tiers can be split by [`TypoKind`]
    /// whatever walk found them.
    fn doublings(
        &self,
        query: &[char],
        rule: &MatchRule,
        max_edits: usize,
        typos: &mut Typos,
    ) -> Doublings {
        let mut spellings: HashSet<Vec<char>> = HashSet::new();
        if query.len() <= DOUBLING_QUERY_CHARS {
            let mut last = vec![query.to_vec()];
            for _ in 0..DOUBLING_CHANGES {
                let next: Vec<Vec<char>> =
                    last.iter().flat_map(|w| doubled_or_undoubled(w)).collect();
                last = next
                    .into_iter()
                    .filter(|w| w != query && spellings.insert(w.clone()))
                    .collect();
            }
        }
        let mut found = Doublings {
            headwords: RoaringBitmap::new(),
            through_forms: vec![RoaringBitmap::new(); max_edits],
            prefixes: RoaringBitmap::new(),
            respelled: vec![RoaringBitmap::new(); max_edits],
            moved: RoaringBitmap::new(),
            moved_through_forms: RoaringBitmap::new(),
        };
        let forms = rule.match_type.has_lemma_tier();
        // Only a word its language lists: an unlisted one is no likelier
        // meant than any other spelling at its distance.
        let listed = |t: usize| self.index.term_frequency(t) > 0;
        for spelling in &spellings {
            let text: String = spelling.iter().collect();
            self.spelling_entries(&text, listed, typos, &mut found.headwords);
            let d = crate::oracle::edit_distance(query, spelling);
            if forms && (1..=max_edits).contains(&d) {
                let lemmas = &mut found.through_forms[d - 1];
                self.spelling_lemma_entries(&text, |l| listed(l.term), typos, lemmas);
            }
        }
        for &(lang, rules) in respelling::LANGUAGES {
            for (spelling, changes) in respelling::respellings(rules, query, max_edits) {
                let text: String = spelling.iter().collect();
                let headwords = &mut found.respelled[changes - 1];
                self.spelling_entries_of_lang(&text, lang, listed, typos, headwords);
                if forms {
                    let of_lang = |l: &Lemma| l.lang == lang && listed(l.term);
                    let lemmas = &mut found.through_forms[changes - 1];
                    self.spelling_lemma_entries(&text, of_lang, typos, lemmas);
                }
            }
        }
        if max_edits > 0 {
            for spelling in moved_letters(query) {
                let text: String = spelling.iter().collect();
                self.spelling_entries(&text, listed, typos, &mut found.moved);
                if forms {
                    let lemmas = &mut found.moved_through_forms;
                    self.spelling_lemma_entries(&text, |l| listed(l.term), typos, lemmas);
                }
            }
        }
        let shortest = query.len().saturating_sub(max_edits).max(1);
        for prefix in (shortest..query.len()).map(|n| &query[..n]) {
            typos.work += 1;
            let text: String = prefix.iter().collect();
            if let Some(t) = typos.noted(self.index.term_number(&text)) {
                found.prefixes |= self.index.text_entries(t);
            }
        }
        found
    }

    /// The terms spelled `text` (its words, one per language) that `keep`
    /// admits: one lookup, one unit of work.
    fn spelling_terms(
        &self,
        text: &str,
        keep: impl Fn(usize) -> bool,
        typos: &mut Typos,
    ) -> Vec<usize> {
        typos.work += 1;
        match typos.noted(self.index.term_number(text)) {
            Some(t) => self.index.text_terms(t).filter(|&t| keep(t)).collect(),
            None => Vec::new(),
        }
    }

    /// Adds to `into` the entries of the headwords spelled `text` that
    /// `keep` admits.
    fn spelling_entries(
        &self,
        text: &str,
        keep: impl Fn(usize) -> bool,
        typos: &mut Typos,
        into: &mut RoaringBitmap,
    ) {
        for t in self.spelling_terms(text, keep, typos) {
            into.insert_range(self.index.term_entries(t));
        }
    }

    /// Adds to `into` the entries of the words of `lang` that `keep`
    /// admits of `text`. A word's language is in its text block; those
    /// not held are noted as missing.
    fn spelling_entries_of_lang(
        &self,
        text: &str,
        lang: &str,
        keep: impl Fn(usize) -> bool,
        typos: &mut Typos,
        into: &mut RoaringBitmap,
    ) {
        let kept = self.spelling_terms(text, keep, typos);
        if kept.is_empty() {
            return;
        }
        if let Some(texts) = typos.texts(&self.index, &kept) {
            for t in kept.into_iter().filter(|&t| texts.term_lang(t) == lang) {
                into.insert_range(self.index.term_entries(t));
            }
        }
    }

    /// Adds to `into` the entries of the lemmas that `keep` admits of
    /// `text` as an inflected form: one lookup, one unit of work.
    fn spelling_lemma_entries(
        &self,
        text: &str,
        keep: impl Fn(&Lemma) -> bool,
        typos: &mut Typos,
        into: &mut RoaringBitmap,
    ) {
        typos.work += 1;
        for lemma in typos.noted(self.index.lemmas(text)) {
            if keep(&lemma) {
                *into |= self.index.lemma_entries(lemma);
            }
        }
    }

    /// The terms whose start is within `max_edits` of the query, with their
    /// distance. With two or three edits and a long enough query, anchored
    /// ([`typo::prefix_split`]): a walk that follows only the terms whose
    /// start is within one edit of the query's head, and the terms that
    /// hold one of the pieces after it unchanged where it can stand, each
    /// measured (one unit of work each, their text blocks within
    /// [`super::MAX_TEXT_BLOCKS`]); else one walk. The `extra_edit`, a
    /// widening when the query's own edits found few words, leaves out
    /// the pieces' terms past that bound (docs/api.md) where the query's
    /// own edits are refused over budget.
    fn prefix_typos(
        &self,
        grams: Option<&Grams>,
        query: &[char],
        max_edits: usize,
        extra_edit: bool,
        typos: &mut Typos,
    ) -> Result<Vec<Near>, SearchError> {
        let terms = Keys::Terms(&self.index);
        let forwards = (terms, Direction::Forwards);
        let Some(split) = typo::prefix_split(query, max_edits) else {
            return budgeted_walk(forwards, query, max_edits, Mode::Prefix, None, typos);
        };
        let anchor = Anchor {
            chars: split.head,
            edits: 1,
        };
        let mut found = budgeted_walk(
            forwards,
            query,
            max_edits,
            Mode::Prefix,
            Some(anchor),
            typos,
        )?;
        let grams = match grams {
            Some(grams) => grams,
            // Naming a search's first blocks from the root alone: the
            // pieces need the grams, the walks after them (the forms') do
            // not, and their blocks are named all the same.
            None if typos.naming => return Ok(found),
            None => return Err(CorruptData("prefix typo search without its grams").into()),
        };
        let mut candidates = RoaringBitmap::new();
        for piece in &split.pieces {
            for lookup in piece_lookups(piece, max_edits) {
                let keys: Vec<&str> = lookup.iter().map(String::as_str).collect();
                candidates |= holding_all(grams, &keys, None)?;
            }
        }
        let max = max_edits as u8;
        // The head's walk measured the candidates it found (about half of
        // them: `informat…` for `imformat`): their text blocks, each of a
        // term of its own commonness, are not read again.
        let walked: HashSet<u64> = found.iter().map(|near| near.value).collect();
        let mut terms = self.candidate_terms(&candidates, typos)?;
        if !typos.check_within_budget(&self.index, &terms) {
            return match extra_edit {
                true => Ok(found),
                false => Err(SearchError::OverBudget),
            };
        }
        terms.retain(|&t| !walked.contains(&(t as u64)));
        let Some(texts) = typos.texts(&self.index, &terms) else {
            return Ok(found);
        };
        let mut chars = Vec::new();
        for t in terms {
            chars.clear();
            chars.extend(texts.term(t).chars());
            if split.pieces.iter().any(|p| p.held_by(&chars, max_edits)) {
                if let Some(d) = typo::prefix_distance(query, &chars, max).filter(|&d| d > 0) {
                    found.push(Near::prefix(t as u64, d, query, &chars, max));
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        Ok(found)
    }
}

/// What [`Searcher::doublings`] finds: entries by [`TypoKind`].
struct Doublings {
    /// Of the headwords that are the query doubled or undoubled.
    headwords: RoaringBitmap,
    /// Of the lemmas whose form is, by the form's distance (1 up).
    through_forms: Vec<RoaringBitmap>,
    /// Of the headwords that are a proper prefix of the query.
    prefixes: RoaringBitmap,
    /// Of the listed headwords of a language that the query respells into
    /// by its rules, by how many rules (1 up), whatever their distance.
    respelled: Vec<RoaringBitmap>,
    /// Of the listed headwords that are the query with one letter moved
    /// (one edit, whatever their distance).
    moved: RoaringBitmap,
    /// Of the listed lemmas whose form is.
    moved_through_forms: RoaringBitmap,
}

/// `word` with one letter moved 2 to [`MOVE_REACH`] places (a move of one
/// is a transposition): the letters typed in a wrong order, `yatch` for
/// `yacht`, `jstu` for `just`; none for a word longer than
/// [`DOUBLING_QUERY_CHARS`].
fn moved_letters(word: &[char]) -> Vec<Vec<char>> {
    let mut spellings = Vec::new();
    if word.len() > DOUBLING_QUERY_CHARS {
        return spellings;
    }
    for from in 0..word.len() {
        let reach = from.saturating_sub(MOVE_REACH)..=(from + MOVE_REACH).min(word.len() - 1);
        for to in reach.filter(|to| to.abs_diff(from) >= 2) {
            let mut moved = word.to_vec();
            let letter = moved.remove(from);
            moved.insert(to, letter);
            if moved != word && !spellings.contains(&moved) {
                spellings.push(moved);
            }
        }
    }
    spellings
}

/// `word` with one letter doubled, and with one doubled letter written
/// once: a spelling for each run of a letter, and one more for each run of
/// two or more.
fn doubled_or_undoubled(word: &[char]) -> Vec<Vec<char>> {
    let mut spellings = Vec::new();
    let mut start = 0;
    while start < word.len() {
        let run = word[start..]
            .iter()
            .take_while(|&&c| c == word[start])
            .count();
        let mut doubled = word.to_vec();
        doubled.insert(start, word[start]);
        spellings.push(doubled);
        if run >= 2 {
            let mut undoubled = word.to_vec();
            undoubled.remove(start);
            spellings.push(undoubled);
        }
        start += run;
    }
    spellings
}

/// What a typo walk reads: the blocks of the terms' FSTs or of the
/// forms', those the walk can reach.
#[derive(Clone, Copy)]
enum Keys<'a> {
    Terms(&'a Index),
    Forms(&'a Index),
}

impl<'a> Keys<'a> {
    fn index(self) -> &'a Index {
        match self {
            Keys::Terms(index) | Keys::Forms(index) => index,
        }
    }

    /// Their FST in `direction`.
    fn fst(self, direction: Direction) -> Fst {
        match self {
            Keys::Terms(_) => Fst::Terms(direction),
            Keys::Forms(_) => Fst::Forms(direction),
        }
    }

    /// Their FST keyed by middle deletion.
    fn middles(self) -> Fst {
        match self {
            Keys::Terms(_) => Fst::TermMiddles,
            Keys::Forms(_) => Fst::FormMiddles,
        }
    }

    /// The value of `key`, if it is one, from its block if held (else
    /// noted as missing).
    fn value(self, key: &str, typos: &mut Typos) -> Option<u64> {
        let (index, fst) = (self.index(), self.fst(Direction::Forwards));
        let item = index.term_dictionary().item_of(fst, key.as_bytes())?;
        let block = typos.held(index, &[item]);
        block.first().and_then(|block| block.get(key))
    }

    /// The keys whose middle deletion is `deleted`, with their values,
    /// from the blocks that hold them if held (else noted as missing).
    fn with_middle_deleted(self, deleted: &str, typos: &mut Typos) -> Vec<(Vec<u8>, u64)> {
        let (index, prefix) = (self.index(), middle_prefix(deleted));
        let items = index
            .term_dictionary()
            .items_with_prefix(self.middles(), &prefix);
        let blocks = typos.held(index, &items);
        blocks
            .iter()
            .flat_map(|block| words_in(block, &prefix))
            .collect()
    }

    /// The blocks of the forward keys that start with `prefix`, of those
    /// the instance holds; the others are noted as missing.
    fn with_prefix(self, prefix: &str, typos: &mut Typos) -> Vec<Arc<TermBlock>> {
        let (index, fst) = (self.index(), self.fst(Direction::Forwards));
        let items = index
            .term_dictionary()
            .items_with_prefix(fst, prefix.as_bytes());
        typos.held(index, &items)
    }

    /// The blocks a walk over `query` in `direction` can reach (with
    /// `anchor`, those its anchor admits), of those the instance holds;
    /// the others are noted as missing.
    fn reach(
        self,
        direction: Direction,
        query: &[char],
        max_edits: usize,
        mode: Mode,
        anchor: Option<Anchor>,
        typos: &mut Typos,
    ) -> Vec<Arc<TermBlock>> {
        let (index, fst) = (self.index(), self.fst(direction));
        let dictionary = index.term_dictionary();
        let items = reachable_items(dictionary, fst, query, max_edits, mode, anchor);
        typos.held(index, &items)
    }

    /// Every block of the forwards keys the instance holds.
    #[cfg(any(test, feature = "automaton-baseline"))]
    fn every_block(self, typos: &mut Typos) -> Vec<Arc<TermBlock>> {
        let index = self.index();
        let every = index
            .term_dictionary()
            .every_item(self.fst(Direction::Forwards));
        typos.held(index, &every)
    }
}

/// The keys of an FST and its backwards twin within `max_edits` of the
/// whole query by the row walk (`typo.rs`), with their values: one edit
/// and two each have a split of their own ([`one_edit_typos`],
/// [`two_edit_typos`]). Three (the extra edit of a long query) split the
/// query around a middle character into a head and a tail: an edit changes
/// at most one of them (a transposition with the middle character only the
/// one it reaches). One walk over the keys follows only those whose start
/// is within `h` edits of the head, another over the keys spelled
/// backwards those whose end is within `t` of the tail, with
/// `h + t = max_edits - 1`: a key that neither finds has at least `h + 1`
/// edits in the head and `t + 1` in the tail, one more than allowed.
fn whole_word_typos(
    keys: Keys<'_>,
    query: &[char],
    max_edits: usize,
    typos: &mut Typos,
) -> Result<Vec<Near>, SearchError> {
    match max_edits {
        1 => return one_edit_typos(keys, query, typos),
        2 => return two_edit_typos(keys, query, typos),
        _ => {}
    }
    let head = query.len().saturating_sub(1) / 2;
    let tail = query.len().saturating_sub(1 + head);
    let (head_edits, tail_edits) = typo::whole_word_anchor_edits(max_edits);
    let anchor = |chars, edits| Some(Anchor { chars, edits });
    let reversed: Vec<char> = query.iter().rev().copied().collect();
    let forwards = (keys, Direction::Forwards);
    let head_anchor = anchor(head, head_edits);
    let mut found = budgeted_walk(forwards, query, max_edits, Mode::Whole, head_anchor, typos)?;
    found.extend(budgeted_walk(
        (keys, Direction::Backwards),
        &reversed,
        max_edits,
        Mode::Whole,
        anchor(tail, tail_edits),
        typos,
    )?);
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

/// The keys within two edits of the whole query ([`typo::TwoEditSplit`]):
/// a forward walk over the keys that start with the query's head
/// unchanged; a backwards walk over those whose end is within one edit of
/// the rest; and a forward walk over the blocks of the keys that start
/// with the head's last character swapped with the next one, which the
/// other two miss when another edit follows it.
fn two_edit_typos(
    keys: Keys<'_>,
    query: &[char],
    typos: &mut Typos,
) -> Result<Vec<Near>, SearchError> {
    let split = typo::TwoEditSplit::of(query);
    let forwards = (keys, Direction::Forwards);
    let mut found = budgeted_walk(forwards, query, 2, Mode::Whole, split.head(), typos)?;
    let reversed: Vec<char> = query.iter().rev().copied().collect();
    let backwards = (keys, Direction::Backwards);
    let rest = split.rest();
    found.extend(budgeted_walk(
        backwards,
        &reversed,
        2,
        Mode::Whole,
        rest,
        typos,
    )?);
    if let Some(swapped) = split.swapped_start(query) {
        let start: String = swapped.iter().collect();
        let blocks = keys.with_prefix(&start, typos);
        let anchor = split.swapped_anchor();
        found.extend(walk_blocks(blocks, query, 2, Mode::Whole, anchor, typos)?);
    }
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

/// The keys one edit from the whole query (`docs/data-model.md`, "typos"):
/// split around its middle character, an edit before it leaves the middle
/// and the rest unchanged, and a walk over the keys spelled backwards
/// anchored on them finds the key; one after it leaves the start up to the
/// middle unchanged, and a forward walk anchored on that finds it. An edit
/// of the middle character itself makes, by deletion or by transposition
/// with a neighbour, one word each, looked up; by substitution, a word
/// whose middle deletion is the query's ([`crate::snapshot::middle`]):
/// the keys under one prefix. Each anchor is a character longer than the
/// anchors of a walk that also finds the middle's edits, and a walk
/// anchored on the start alone reaches about every block under it.
fn one_edit_typos(
    keys: Keys<'_>,
    query: &[char],
    typos: &mut Typos,
) -> Result<Vec<Near>, SearchError> {
    let n = query.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let m = middle(n);
    let anchor = |chars| Some(Anchor { chars, edits: 0 });
    let reversed: Vec<char> = query.iter().rev().copied().collect();
    let forwards = (keys, Direction::Forwards);
    let mut found = budgeted_walk(forwards, query, 1, Mode::Whole, anchor(m + 1), typos)?;
    let backwards = (keys, Direction::Backwards);
    found.extend(budgeted_walk(
        backwards,
        &reversed,
        1,
        Mode::Whole,
        anchor(n - m),
        typos,
    )?);
    let spelled: String = query.iter().collect();
    let deleted = without_middle(query);
    let mut words = vec![deleted.clone()];
    // The middle character swapped with the one before it, and with the
    // one after it.
    for i in [m.checked_sub(1), Some(m).filter(|&m| m + 1 < n)]
        .into_iter()
        .flatten()
    {
        let mut word = query.to_vec();
        word.swap(i, i + 1);
        words.push(word.into_iter().collect());
    }
    words.retain(|word| !word.is_empty() && *word != spelled);
    for word in &words {
        typos.work += 1;
        if let Some(value) = keys.value(word, typos) {
            let key: Vec<char> = word.chars().collect();
            found.push(Near::whole(value, 1, query, &key));
        }
    }
    for (word, value) in keys.with_middle_deleted(&deleted, typos) {
        typos.work += 1;
        if word != spelled.as_bytes() {
            let key: Vec<char> = String::from_utf8_lossy(&word).chars().collect();
            found.push(Near::whole(value, 1, query, &key));
        }
    }
    if typos.work > WORK_BUDGET {
        return Err(SearchError::OverBudget);
    }
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

/// One row walk over the blocks of `keys` it can reach, within what is
/// left of the search's work budget, counted against it.
fn budgeted_walk(
    (keys, direction): (Keys<'_>, Direction),
    query: &[char],
    max_edits: usize,
    mode: Mode,
    anchor: Option<Anchor>,
    typos: &mut Typos,
) -> Result<Vec<Near>, SearchError> {
    let blocks = keys.reach(direction, query, max_edits, mode, anchor, typos);
    walk_blocks(blocks, query, max_edits, mode, anchor, typos)
}

/// The row walk over each of `blocks`, within what is left of the
/// search's work budget, counted against it.
fn walk_blocks(
    blocks: Vec<Arc<TermBlock>>,
    query: &[char],
    max_edits: usize,
    mode: Mode,
    anchor: Option<Anchor>,
    typos: &mut Typos,
) -> Result<Vec<Near>, SearchError> {
    let mut terms: Vec<Near> = Vec::new();
    for block in blocks {
        let budget = WORK_BUDGET.saturating_sub(typos.work);
        let found = typo::walk(block.as_fst(), query, max_edits, mode, anchor, budget);
        typos.work += found.work;
        if found.exhausted {
            return Err(SearchError::OverBudget);
        }
        terms.extend(found.terms);
    }
    Ok(terms)
}

#[cfg(test)]
mod tests {
    use super::moved_letters;
    use crate::oracle::is_moved_letter;
    use proptest::prelude::*;

    proptest! {
        /// The spellings generated are the oracle's moves: the query with
        /// any one letter moved anywhere is one exactly when the oracle
        /// says so, and every spelling generated is one.
        #[test]
        fn the_moved_letters_are_the_oracles(
            query in "[abc]{0,8}",
            from in any::<usize>(),
            to in any::<usize>(),
        ) {
            let q: Vec<char> = query.chars().collect();
            let generated = moved_letters(&q);
            for spelling in &generated {
                prop_assert!(is_moved_letter(&q, spelling), "{:?}", spelling);
            }
            if !q.is_empty() {
                let mut word = q.clone();
                let letter = word.remove(from % q.len());
                word.insert(to % q.len(), letter);
                prop_assert_eq!(generated.contains(&word), is_moved_letter(&q, &word));
            }
        }
    }
}
