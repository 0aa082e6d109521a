//! The typo walk: the terms within `max_edits` of a query, found by walking
//! the term FST one character at a time with a row of the edit-distance
//! table (optimal string alignment: a transposition of neighbours is one
//! edit, docs/api.md).
//!
//! Its cost follows the query, not the corpus: a node whose row has no edit
//! left can only go on with the few characters that keep some cell within
//! the limit, so it looks those up (`find_input`) instead of reading every
//! transition, and a walk stops at a fixed budget of nodes read. In prefix
//! mode (the edits apply to a prefix of the term) a node whose row can no
//! longer improve gives its whole subtree at the distance found so far,
//! read as plain bytes without the table.
//!
//! Each key found carries whether every alignment at its distance makes an
//! unlikely edit ([`Near`]), computed from the characters the walk holds.
//!
//! `oracle::edit_distance`, `oracle::prefix_alignment` and
//! `oracle::needs_unlikely_edit` are the naive statement of the same
//! measures; the tests hold the walk to them.

use crate::matching::{ANCHORED_HEAD_CHARS, PREFIX_THIRD_EDIT_ANCHORED};
use fst::raw::{Fst, Node};

/// How a term's distance is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Between the query and the whole term.
    Whole,
    /// Between the query and the closest prefix of the term.
    Prefix,
}

/// A walk that only follows terms whose first `chars` characters are within
/// `edits` of some prefix of the term: the part of the query it is anchored
/// on. Until a row reaches that, only the table's first `chars + 1` cells
/// count, at the anchor's limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Anchor {
    pub chars: usize,
    pub edits: u8,
}

impl Anchor {
    /// Whether it narrows a walk of a query of `query_chars` characters
    /// within `max_edits`: a walk ignores an anchor longer than the query
    /// or as loose as the walk.
    pub(crate) fn applies(&self, query_chars: usize, max_edits: usize) -> bool {
        self.chars <= query_chars && usize::from(self.edits) < max_edits
    }
}

/// The fewest characters of a piece: one gram's own bitmap
/// ([`GRAM_CHARS`](crate::snapshot::GRAM_CHARS)).
const PIECE_MIN_CHARS: usize = 3;

/// The edits a whole-word search of three edits allows its head and its
/// tail (each side walked from its own end): `h + t = max_edits - 1`, so a
/// term that neither walk finds has one edit more than allowed; the head
/// gets the fewer, since a walk that may edit a term's first letter reaches
/// some term block of every first letter.
pub(crate) fn whole_word_anchor_edits(max_edits: usize) -> (u8, u8) {
    let spread = max_edits.saturating_sub(1);
    ((spread / 2) as u8, (spread - spread / 2) as u8)
}

/// How a whole-word search within two edits walks: the query is a head (its
/// first `middle(n)` characters, [`crate::snapshot::middle`]) and the rest.
/// A key within two edits either keeps the head unchanged (a forward walk
/// anchored on it) or has an edit there, which leaves at most one for the
/// rest (a backwards walk anchored on the rest within one edit). One edit
/// touches both: the head's last character swapped with the next. With a
/// second edit after them the other walks miss the key, which starts with
/// the head and its next character, those two swapped: a forward walk over
/// the blocks of that start finds it. With no character left out between
/// the sides, the backwards anchor is a character longer than a split
/// around a middle character would make it (the head as long), and it is
/// the walk that reaches most blocks: a tail of two or three letters that
/// may take an edit matches the ends of most keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TwoEditSplit {
    head: usize,
    chars: usize,
}

impl TwoEditSplit {
    pub(crate) fn of(query: &[char]) -> Self {
        TwoEditSplit {
            head: crate::snapshot::middle(query.len()),
            chars: query.len(),
        }
    }

    /// The forward walk's anchor: the head, unchanged.
    pub(crate) fn head(&self) -> Option<Anchor> {
        Some(Anchor {
            chars: self.head,
            edits: 0,
        })
    }

    /// The backwards walk's anchor: the rest, within one edit.
    pub(crate) fn rest(&self) -> Option<Anchor> {
        Some(Anchor {
            chars: self.chars - self.head,
            edits: 1,
        })
    }

    /// The start of the keys of the third walk: the head and its next
    /// character, those two swapped (none when there is no head, or the
    /// swap changes nothing).
    pub(crate) fn swapped_start(&self, query: &[char]) -> Option<Vec<char>> {
        let h = self.head;
        if h == 0 || h >= query.len() || query[h - 1] == query[h] {
            return None;
        }
        let mut start = query[..=h].to_vec();
        start.swap(h - 1, h);
        Some(start)
    }

    /// The third walk's anchor: the query's head and its next character,
    /// within the one edit of the swap.
    pub(crate) fn swapped_anchor(&self) -> Option<Anchor> {
        Some(Anchor {
            chars: self.head + 1,
            edits: 1,
        })
    }
}

/// How a prefix search with two or three edits anchors: the query is a
/// head, then pieces of the rest ([`prefix_split`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrefixSplit {
    pub head: usize,
    pub pieces: Vec<Piece>,
}

/// Characters a term holds unchanged when the head took the edits, and
/// where they start in the query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Piece {
    pub at: usize,
    pub chars: Vec<char>,
}

impl Piece {
    fn of(query: &[char], range: std::ops::Range<usize>) -> Self {
        Piece {
            at: range.start,
            chars: query[range].to_vec(),
        }
    }

    /// Whether `term` holds it, starting at most `max_edits` characters
    /// from where it starts in the query (each edit before it moves it by
    /// one at most).
    pub(crate) fn held_by(&self, term: &[char], max_edits: usize) -> bool {
        let n = self.chars.len();
        self.starts(max_edits)
            .any(|s| term.get(s..s + n) == Some(&self.chars[..]))
    }

    /// Where it can start in a term: at most `max_edits` characters from
    /// where it starts in the query.
    pub(crate) fn starts(&self, max_edits: usize) -> std::ops::RangeInclusive<usize> {
        self.at.saturating_sub(max_edits)..=self.at + max_edits
    }
}

/// The head of a prefix search with two edits: the terms whose start is
/// within one edit of three characters lie under a few short prefixes
/// (`imf`: `im`, `if`, `mf`, then one block for each letter that can
/// replace or come before one of them), where those within one edit of
/// two lie under every key that starts with one of their letters; and the
/// rest after three is as long as after two and a character left out.
const TWO_EDIT_HEAD_CHARS: usize = 3;

/// The split of a prefix search of `query` with `max_edits` edits, when it
/// has one. Either the head is within one edit of the start of the term
/// (a forward walk anchored on it, [`Anchor`]), or it took two edits or
/// more and at most `max_edits - 2` are left for the rest: then one of the
/// pieces stands in the term unchanged, starting at most `max_edits`
/// characters from where it starts in the query (the terms that hold it
/// come from the grams). Without an anchor, a walk with two edits or more
/// to spend reads every term's first two or three letters, since any two
/// can be edited away.
///
/// Two edits: a head of [`TWO_EDIT_HEAD_CHARS`]; the rest is one piece,
/// or (when the head's last character and the next were swapped, one of
/// the head's two edits) that next character, the head's last, then the
/// rest after them. Three edits: a head of [`ANCHORED_HEAD_CHARS`], a
/// character left out (a transposition across it touches one side only),
/// then two pieces with one character between them.
///
/// A third edit on a query of [`PREFIX_THIRD_EDIT_ANCHORED`] characters
/// has the head alone: the rule keeps its head within one edit
/// (docs/api.md), since its pieces would be too short to look up.
///
/// `None` for one edit (cheap without an anchor) and when a piece would be
/// shorter than [`PIECE_MIN_CHARS`].
pub(crate) fn prefix_split(query: &[char], max_edits: usize) -> Option<PrefixSplit> {
    let n = query.len();
    let start = ANCHORED_HEAD_CHARS + 1;
    let (head, pieces) = match max_edits {
        2 if n < TWO_EDIT_HEAD_CHARS + PIECE_MIN_CHARS => return None,
        2 => {
            let h = TWO_EDIT_HEAD_CHARS;
            let mut pieces = vec![Piece::of(query, h..n)];
            if query[h - 1] != query[h] {
                let mut swapped = Piece::of(query, h - 1..n);
                swapped.chars.swap(0, 1);
                pieces.push(swapped);
            }
            (h, pieces)
        }
        3 if PREFIX_THIRD_EDIT_ANCHORED.contains(&n) => (ANCHORED_HEAD_CHARS, Vec::new()),
        3 => {
            let first = n.checked_sub(start + 1)? / 2;
            let pieces = vec![
                Piece::of(query, start..start + first),
                Piece::of(query, start + first + 1..n),
            ];
            (ANCHORED_HEAD_CHARS, pieces)
        }
        _ => return None,
    };
    pieces
        .iter()
        .all(|p| p.chars.len() >= PIECE_MIN_CHARS)
        .then_some(PrefixSplit { head, pieces })
}

/// The distance between `query` and the closest prefix of `term`, when it
/// is at most `max`: the prefix walk's measure for one term, as a plain
/// table of three rows.
pub(crate) fn prefix_distance(query: &[char], term: &[char], max: u8) -> Option<u8> {
    let width = query.len() + 1;
    let cap = max.saturating_add(1);
    let mut rows: Vec<u8> = Vec::with_capacity(width * 4);
    rows.extend((0..width).map(|j| j.min(usize::from(cap)) as u8));
    let mut best = rows[width - 1];
    for (i, &c) in term.iter().enumerate() {
        if rows.len() == 3 * width {
            rows.drain(..width);
        }
        let (before, last) = (rows.len() - width, rows.len());
        rows.push((i + 1).min(usize::from(cap)) as u8);
        for j in 1..width {
            let cost = u8::from(query[j - 1] != c);
            let mut v = (rows[before + j] + 1)
                .min(rows[last + j - 1] + 1)
                .min(rows[before + j - 1] + cost);
            if i >= 1 && j >= 2 && query[j - 1] == term[i - 1] && query[j - 2] == c {
                v = v.min(rows[before - width + j - 2] + 1);
            }
            rows.push(v.min(cap));
        }
        let row = &rows[last..];
        best = best.min(row[width - 1]);
        if *row.iter().min().expect("a row has a cell") >= best {
            // Cells never fall below their row's smallest: no later prefix
            // is closer.
            break;
        }
    }
    (best <= max).then_some(best)
}

/// A key within the limit of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Near {
    /// The key's value (a term number in the terms FSTs).
    pub value: u64,
    /// Its distance, 1 to `max_edits` (distance 0 is left to the exact,
    /// literal and lemma tiers).
    pub edits: u8,
    /// Whether every alignment at that distance makes an unlikely edit
    /// (`oracle::needs_unlikely_edit`, `oracle::prefix_alignment`).
    pub unlikely: bool,
}

impl Near {
    /// `key` at `edits` from `query`, measured whole.
    pub(crate) fn whole(value: u64, edits: u8, query: &[char], key: &[char]) -> Self {
        let unlikely = crate::oracle::needs_unlikely_edit(query, key);
        Near {
            value,
            edits,
            unlikely,
        }
    }

    /// `key` at `edits` from `query` by the prefix measure (within
    /// `max_edits`).
    pub(crate) fn prefix(value: u64, edits: u8, query: &[char], key: &[char], max: u8) -> Self {
        let (_, unlikely) = crate::oracle::prefix_alignment(query, key, usize::from(max));
        Near {
            value,
            edits,
            unlikely,
        }
    }
}

/// What a walk found: the keys within the limit, each once, the nodes it
/// read, and whether it stopped at its budget.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub terms: Vec<Near>,
    pub work: u64,
    pub exhausted: bool,
}

/// A character of the term under the walk: the node after it and the output
/// gathered on the way.
#[derive(Clone, Copy)]
struct Step<'f> {
    c: char,
    node: Node<'f>,
    out: u64,
}

struct Walk<'f, D> {
    fst: &'f Fst<D>,
    query: Vec<char>,
    max: u8,
    mode: Mode,
    /// Row `i` (of `query.len() + 1` cells) is the distance between the
    /// term's first `i` characters and each prefix of the query.
    rows: Vec<u8>,
    /// The term's characters so far.
    chars: Vec<char>,
    budget: u64,
    found: Found,
    anchor: Option<Anchor>,
    /// The depth at which the anchor was reached, if it was.
    anchored_at: Option<usize>,
    /// Buffers of steps and characters, reused from node to node.
    steps: Vec<Vec<Step<'f>>>,
    wanted: Vec<char>,
}

/// The terms of `fst` within `max_edits` of `query` (and only those that
/// pass `anchor`, at least), reading at most `budget` nodes.
pub(crate) fn walk<D: AsRef<[u8]>>(
    fst: &Fst<D>,
    query: &[char],
    max_edits: usize,
    mode: Mode,
    anchor: Option<Anchor>,
    budget: u64,
) -> Found {
    let query = query.to_vec();
    let n = query.len();
    let width = n + 1;
    // Cells are bytes; a search allows at most 3 edits.
    let max = max_edits.min(100) as u8;
    let mut w = Walk {
        fst,
        max,
        mode,
        // A row past `query.len() + max` characters has no cell within the
        // limit, so the walk never goes deeper than that.
        rows: Vec::with_capacity(width * (query.len() + usize::from(max) + 2)),
        chars: Vec::with_capacity(query.len() + usize::from(max) + 1),
        query,
        budget,
        found: Found::default(),
        anchor: anchor.filter(|a| a.applies(n, usize::from(max))),
        anchored_at: None,
        steps: Vec::new(),
        wanted: Vec::new(),
    };
    w.rows
        .extend((0..width).map(|j| j.min(usize::from(max) + 1) as u8));
    if w.spend() {
        w.visit(fst.root(), 0, max + 1);
    }
    w.found
}

impl<'f, D: AsRef<[u8]>> Walk<'f, D> {
    fn width(&self) -> usize {
        self.query.len() + 1
    }

    /// Counts one node read; false once the budget is spent.
    fn spend(&mut self) -> bool {
        if self.found.work >= self.budget {
            self.found.exhausted = true;
            return false;
        }
        self.found.work += 1;
        true
    }

    fn row(&self, depth: usize) -> &[u8] {
        let w = self.width();
        &self.rows[depth * w..(depth + 1) * w]
    }

    /// At `node`, after `self.chars`, whose row is the last one; `best` is
    /// the smallest distance of a prefix so far (prefix mode; `max + 1`
    /// for none).
    fn visit(&mut self, node: Node<'f>, out: u64, best: u8) {
        let depth = self.chars.len();
        let n = self.query.len();
        if let (Some(a), None) = (self.anchor, self.anchored_at) {
            if self.row(depth)[a.chars] <= a.edits {
                self.anchored_at = Some(depth);
            }
        }
        let here = self.row(depth)[n];
        let best = match self.mode {
            Mode::Whole => {
                if node.is_final() && here <= self.max {
                    self.add(out + node.final_output().value(), here);
                }
                self.max + 1
            }
            Mode::Prefix => {
                let best = best.min(here);
                if node.is_final() && best <= self.max {
                    self.add(out + node.final_output().value(), best);
                }
                best
            }
        };
        // Once a prefix matches, what matters is whether the whole row can
        // still bring a better distance.
        let (cells, cap) = if best <= self.max {
            (n + 1, best)
        } else {
            self.span()
        };
        let low = *self.row(depth)[..cells]
            .iter()
            .min()
            .expect("a row has a cell");
        // The cells of later rows never fall below this row's smallest, so
        // a row at `limit` or above cannot bring a new match (or, in prefix
        // mode, a better one).
        let limit = best.min(cap);
        if best == 0 {
            // Every term below starts with the query: a literal match.
            return;
        }
        if low >= limit {
            if best <= self.max {
                self.list_subtree(node, out, best);
            }
            return;
        }
        // Inside a matching subtree every character is needed, to list it.
        let tight = low + 1 == limit && best > self.max;
        let mut steps = self.steps.pop().unwrap_or_default();
        steps.clear();
        self.next_chars(node, out, tight, &mut steps);
        for &step in &steps {
            if self.found.exhausted {
                break;
            }
            self.push(step.c);
            let next = self.row(depth + 1)[..cells].iter().min();
            if next.is_some_and(|&m| m < limit) || best <= self.max {
                self.visit(step.node, step.out, best);
            }
            self.pop();
        }
        self.steps.push(steps);
    }

    /// The cells that decide whether the walk goes on, and the value they
    /// must stay below: the anchor's until it is reached, then the whole
    /// row's.
    fn span(&self) -> (usize, u8) {
        match (self.anchor, self.anchored_at) {
            (Some(a), None) => (a.chars + 1, a.edits + 1),
            _ => (self.query.len() + 1, self.max + 1),
        }
    }

    /// The characters that can follow `node`: every one when the row has an
    /// edit to spare, else only those that keep a cell within the limit
    /// (looked up, not read from every transition).
    fn next_chars(&mut self, node: Node<'f>, out: u64, tight: bool, steps: &mut Vec<Step<'f>>) {
        if !tight {
            self.every_char(node, out, &mut Vec::with_capacity(4), steps);
            return;
        }
        let mut wanted = std::mem::take(&mut self.wanted);
        self.wanted_chars(&mut wanted);
        wanted.sort_unstable();
        wanted.dedup();
        let mut utf8 = [0u8; 4];
        'chars: for &c in &wanted {
            let (mut at, mut out) = (node, out);
            for &b in c.encode_utf8(&mut utf8).as_bytes() {
                let Some(i) = at.find_input(b) else {
                    continue 'chars;
                };
                let t = at.transition(i);
                if !self.spend() {
                    break 'chars;
                }
                at = self.fst.node(t.addr);
                out += t.out.value();
            }
            steps.push(Step { c, node: at, out });
        }
        self.wanted = wanted;
    }

    /// With no edit to spare, the next character must continue a cell at the
    /// limit unchanged: the query's next character after it, or the first of
    /// a transposed pair whose second the term just had.
    fn wanted_chars(&self, wanted: &mut Vec<char>) {
        let depth = self.chars.len();
        let row = self.row(depth);
        let cells = self.span().0;
        let low = *row[..cells].iter().min().expect("a row has a cell");
        wanted.clear();
        wanted.extend(
            (0..cells.min(self.query.len()))
                .filter(|&j| row[j] == low)
                .map(|j| self.query[j]),
        );
        if depth >= 1 {
            let prev = self.row(depth - 1);
            let last = self.chars[depth - 1];
            for j in 2..cells {
                if prev[j - 2] < low && self.query[j - 1] == last {
                    wanted.push(self.query[j - 2]);
                }
            }
        }
    }

    /// Every character leaving `node` (UTF-8 sequences followed byte by
    /// byte), with the node after it.
    fn every_char(
        &mut self,
        node: Node<'f>,
        out: u64,
        bytes: &mut Vec<u8>,
        steps: &mut Vec<Step<'f>>,
    ) {
        for t in node.transitions() {
            if !self.spend() {
                return;
            }
            let next = self.fst.node(t.addr);
            let out = out + t.out.value();
            bytes.push(t.inp);
            match std::str::from_utf8(bytes) {
                Ok(s) => steps.push(Step {
                    c: s.chars().next().expect("one character"),
                    node: next,
                    out,
                }),
                Err(e) if e.error_len().is_none() && bytes.len() < 4 => {
                    self.every_char(next, out, bytes, steps)
                }
                // Terms are UTF-8, so this is never reached.
                Err(_) => {}
            }
            bytes.pop();
        }
    }

    /// Every term under `node` (not the node's own), at `distance` (prefix
    /// mode: no longer prefix of them comes closer). Whether a term makes
    /// an unlikely edit is decided by the term so far, unless every
    /// alignment so far does: then a term is likely where it goes on with
    /// the rest of the query unchanged after a head of the query that
    /// aligns with the term so far at `distance` by likely edits, or after
    /// a transposition of the term's last letter so far with its next.
    fn list_subtree(&mut self, node: Node<'f>, out: u64, distance: u8) {
        let (query, chars, d) = (&self.query, &self.chars, usize::from(distance));
        let (_, unlikely) = crate::oracle::prefix_alignment(query, chars, usize::from(self.max));
        let mut rests: Vec<Vec<u8>> = Vec::new();
        let bytes = |cs: &[char]| cs.iter().collect::<String>().into_bytes();
        if unlikely {
            let heads = crate::oracle::head_alignments(query, chars);
            for (k, _) in heads.iter().enumerate().filter(|(_, &h)| h == (d, false)) {
                rests.push(bytes(&query[k..]));
            }
            if let Some((&last, before)) = chars.split_last() {
                let heads = crate::oracle::head_alignments(query, before);
                for k in 2..=query.len() {
                    if d >= 1 && heads[k - 2] == (d - 1, false) && query[k - 1] == last {
                        let mut rest = bytes(&query[k - 2..k - 1]);
                        rest.extend(bytes(&query[k..]));
                        rests.push(rest);
                    }
                }
            }
        }
        let likely = |rest: &[u8]| !unlikely || rests.iter().any(|r| rest.starts_with(r));
        self.subtree(node, out, distance, &likely, &mut Vec::new());
    }

    /// [`Self::list_subtree`]'s walk, `rest` the bytes after the term so
    /// far.
    fn subtree(
        &mut self,
        node: Node<'f>,
        out: u64,
        distance: u8,
        likely: &dyn Fn(&[u8]) -> bool,
        rest: &mut Vec<u8>,
    ) {
        for t in node.transitions() {
            if !self.spend() {
                return;
            }
            let next = self.fst.node(t.addr);
            let out = out + t.out.value();
            rest.push(t.inp);
            if next.is_final() {
                self.found.terms.push(Near {
                    value: out + next.final_output().value(),
                    edits: distance,
                    unlikely: !likely(rest),
                });
            }
            self.subtree(next, out, distance, likely, rest);
            rest.pop();
        }
    }

    fn add(&mut self, term: u64, distance: u8) {
        if distance == 0 {
            return;
        }
        let (query, key) = (&self.query, &self.chars);
        let near = match self.mode {
            // A key spelled backwards aligns with the query spelled
            // backwards as it does forwards.
            Mode::Whole => Near::whole(term, distance, query, key),
            Mode::Prefix => Near::prefix(term, distance, query, key, self.max),
        };
        self.found.terms.push(near);
    }

    /// Appends the row of one more character `c`.
    fn push(&mut self, c: char) {
        let w = self.width();
        let depth = self.chars.len();
        let cap = self.max + 1;
        let base = depth * w;
        self.rows.resize(base + 2 * w, 0);
        self.rows[base + w] = (depth as u8).saturating_add(1).min(cap);
        for j in 1..w {
            let above = self.rows[base + j];
            let diagonal = self.rows[base + j - 1];
            let left = self.rows[base + w + j - 1];
            let cost = u8::from(self.query[j - 1] != c);
            let mut v = (above + 1).min(left + 1).min(diagonal + cost);
            if depth >= 1
                && j >= 2
                && self.query[j - 1] == self.chars[depth - 1]
                && self.query[j - 2] == c
            {
                v = v.min(self.rows[base - w + j - 2] + 1);
            }
            self.rows[base + w + j] = v.min(cap);
        }
        self.chars.push(c);
    }

    fn pop(&mut self) {
        self.chars.pop();
        if self.anchored_at > Some(self.chars.len()) {
            self.anchored_at = None;
        }
        let w = self.width();
        self.rows.truncate((self.chars.len() + 1) * w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{
        edit_distance, head_within_one_edit, needs_unlikely_edit, prefix_alignment,
        prefix_edit_distance,
    };
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn fst_of(terms: &BTreeSet<String>, backwards: bool) -> Fst<Vec<u8>> {
        let mut keys: Vec<(String, u64)> = terms
            .iter()
            .enumerate()
            .map(|(t, term)| {
                let key = match backwards {
                    true => term.chars().rev().collect(),
                    false => term.clone(),
                };
                (key, t as u64)
            })
            .collect();
        keys.sort_unstable();
        fst::Map::from_iter(keys).unwrap().into_fst()
    }

    /// Every term at distance 1 to `max`, by the oracle.
    fn brute(terms: &BTreeSet<String>, q: &[char], max: usize, mode: Mode) -> Vec<Near> {
        terms
            .iter()
            .enumerate()
            .filter_map(|(t, term)| {
                let w: Vec<char> = term.chars().collect();
                let (d, unlikely) = match mode {
                    Mode::Whole => (edit_distance(q, &w), needs_unlikely_edit(q, &w)),
                    Mode::Prefix => {
                        let (d, unlikely) = prefix_alignment(q, &w, max);
                        (d, unlikely)
                    }
                };
                (1..=max).contains(&d).then_some(Near {
                    value: t as u64,
                    edits: d as u8,
                    unlikely,
                })
            })
            .collect()
    }

    fn sorted(mut found: Vec<Near>) -> Vec<Near> {
        found.sort_unstable();
        found
    }

    /// Terms over a few letters, some of several bytes, so that they share
    /// prefixes and suffixes and lie within a few edits of each other.
    fn terms() -> impl Strategy<Value = BTreeSet<String>> {
        proptest::collection::btree_set("[abcé日ж]{1,12}", 1..150)
    }

    /// A term with up to three random edits, or a fresh string.
    fn query(terms: &BTreeSet<String>, pick: usize, edits: &[(u8, usize, char)]) -> Vec<char> {
        let all: Vec<&String> = terms.iter().collect();
        let mut q: Vec<char> = all[pick % all.len()].chars().collect();
        for &(kind, at, c) in edits {
            let at = at % (q.len() + 1);
            match kind % 4 {
                0 if at < q.len() => q[at] = c,
                1 => q.insert(at, c),
                2 if at < q.len() && q.len() > 1 => {
                    q.remove(at);
                }
                3 if at + 1 < q.len() => q.swap(at, at + 1),
                _ => {}
            }
        }
        q
    }

    fn edits() -> impl Strategy<Value = Vec<(u8, usize, char)>> {
        proptest::collection::vec(
            (
                any::<u8>(),
                any::<usize>(),
                prop::sample::select(vec!['a', 'b', 'é', '日', 'x']),
            ),
            0..4,
        )
    }

    fn split(query: &str, max_edits: usize) -> Option<(usize, Vec<(usize, String)>)> {
        let q: Vec<char> = query.chars().collect();
        prefix_split(&q, max_edits).map(|split| {
            let pieces = split.pieces.iter();
            (
                split.head,
                pieces.map(|p| (p.at, p.chars.iter().collect())).collect(),
            )
        })
    }

    /// Two edits: the rest after a head of three, and the rest with the
    /// head's last character swapped in, unless swapping changes nothing.
    #[test]
    fn a_two_edit_prefix_split_has_the_rest_and_its_swap() {
        let pieces =
            |list: &[(usize, &str)]| list.iter().map(|&(at, p)| (at, p.to_string())).collect();
        assert_eq!(
            split("imformat", 2),
            Some((3, pieces(&[(3, "ormat"), (2, "ofrmat")])))
        );
        assert_eq!(split("misspell", 2), Some((3, pieces(&[(3, "spell")]))));
        assert_eq!(
            split("fourth", 2),
            Some((3, pieces(&[(3, "rth"), (2, "ruth")])))
        );
        assert_eq!(split("fifth", 2), None, "a rest of two characters");
        assert_eq!(split("imformat", 1), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// The plain walk finds exactly the terms the oracle finds, at the
        /// oracle's distance, in both modes.
        #[test]
        fn the_walk_finds_what_the_oracle_finds(
            terms in terms(), pick in any::<usize>(), edits in edits(),
            max in 1..4usize, prefix in any::<bool>(),
        ) {
            let q = query(&terms, pick, &edits);
            prop_assume!(!q.is_empty());
            let mode = if prefix { Mode::Prefix } else { Mode::Whole };
            let found = walk(&fst_of(&terms, false), &q, max, mode, None, u64::MAX);
            prop_assert!(!found.exhausted);
            prop_assert_eq!(sorted(found.terms), brute(&terms, &q, max, mode));
        }

        /// The two anchored walks of a whole-word search, forwards on the
        /// head and backwards on the tail, each within its share of the
        /// edits, together find every term the oracle finds: an edit changes
        /// at most one of head and tail.
        #[test]
        fn anchored_walks_together_miss_nothing(
            terms in terms(), pick in any::<usize>(), edits in edits(), max in 1..4usize,
        ) {
            let q = query(&terms, pick, &edits);
            prop_assume!(q.len() >= 2);
            let head = (q.len() - 1) / 2;
            let tail = q.len() - 1 - head;
            let (head_edits, tail_edits) = whole_word_anchor_edits(max);
            let anchor = |chars, edits| Some(Anchor { chars, edits });
            let backwards: Vec<char> = q.iter().rev().copied().collect();
            let mut found = walk(&fst_of(&terms, false), &q, max, Mode::Whole, anchor(head, head_edits), u64::MAX).terms;
            found.extend(walk(&fst_of(&terms, true), &backwards, max, Mode::Whole, anchor(tail, tail_edits), u64::MAX).terms);
            found.sort_unstable();
            found.dedup();
            prop_assert_eq!(found, brute(&terms, &q, max, Mode::Whole));
        }

        /// A whole-word search within two edits walks three times
        /// ([`TwoEditSplit`]): forwards on the head unchanged, backwards on
        /// the rest within one edit, and forwards over the terms that start
        /// with the head's last character swapped with the next (here
        /// exactly those terms; a block holds more). Together they find
        /// every term the oracle finds, each at its distance. Half the
        /// queries swap those two characters after their other edits: the
        /// case that only the third walk finds.
        #[test]
        fn the_two_edit_walks_together_miss_nothing(
            terms in terms(), pick in any::<usize>(), edits in edits(), swap in any::<bool>(),
        ) {
            let mut q = query(&terms, pick, &edits);
            let m = crate::snapshot::middle(q.len());
            if swap && m >= 1 {
                q.swap(m - 1, m);
            }
            prop_assume!(!q.is_empty());
            let split = TwoEditSplit::of(&q);
            let backwards: Vec<char> = q.iter().rev().copied().collect();
            let mut found = walk(&fst_of(&terms, false), &q, 2, Mode::Whole, split.head(), u64::MAX).terms;
            found.extend(walk(&fst_of(&terms, true), &backwards, 2, Mode::Whole, split.rest(), u64::MAX).terms);
            if let Some(start) = split.swapped_start(&q) {
                let start: String = start.iter().collect();
                let keys = terms.iter().enumerate().filter(|(_, term)| term.starts_with(&start));
                let swapped = fst::Map::from_iter(keys.map(|(t, term)| (term, t as u64))).unwrap();
                let anchor = split.swapped_anchor();
                found.extend(walk(swapped.as_fst(), &q, 2, Mode::Whole, anchor, u64::MAX).terms);
            }
            found.sort_unstable();
            found.dedup();
            prop_assert_eq!(found, brute(&terms, &q, 2, Mode::Whole));
        }

        /// A prefix search with two or three edits, anchored: the walk
        /// anchored on the head (one edit) and the terms that hold one of
        /// the pieces unchanged within `max` places of where it starts in
        /// the query (found here by looking at every term) together find
        /// every term the oracle finds, each at its distance (a third edit
        /// of a short query: those its rule keeps, the head within one edit).
        #[test]
        fn an_anchored_prefix_search_misses_nothing(
            terms in proptest::collection::btree_set("[abcé日ж]{3,16}", 1..150),
            pick in any::<usize>(), edits in edits(), max in 2..4usize,
        ) {
            let q = query(&terms, pick, &edits);
            let split = prefix_split(&q, max);
            prop_assume!(split.is_some());
            let split = split.unwrap();
            let anchor = Some(Anchor { chars: split.head, edits: 1 });
            let mut found = walk(&fst_of(&terms, false), &q, max, Mode::Prefix, anchor, u64::MAX).terms;
            for (t, term) in terms.iter().enumerate() {
                let chars: Vec<char> = term.chars().collect();
                if split.pieces.iter().any(|piece| piece.held_by(&chars, max)) {
                    if let Some(d) = prefix_distance(&q, &chars, max as u8).filter(|&d| d > 0) {
                        found.push(Near::prefix(t as u64, d, &q, &chars, max as u8));
                    }
                }
            }
            found.sort_unstable();
            found.dedup();
            let mut kept = brute(&terms, &q, max, Mode::Prefix);
            let words: Vec<&String> = terms.iter().collect();
            kept.retain(|near| {
                let w: Vec<char> = words[near.value as usize].chars().collect();
                head_within_one_edit(max, &q, &w)
            });
            if split.pieces.is_empty() {
                // The head alone finds the third edit; fewer edits are
                // the search with fewer allowed (and its pieces).
                found.retain(|near| usize::from(near.edits) == max);
                kept.retain(|near| usize::from(near.edits) == max);
            }
            prop_assert_eq!(found, kept);
        }

        /// One term's prefix distance is the oracle's, up to the limit.
        #[test]
        fn prefix_distance_is_the_oracles(
            q in "[abé]{1,10}", term in "[abé]{0,14}", max in 0..4u8,
        ) {
            let (q, term): (Vec<char>, Vec<char>) = (q.chars().collect(), term.chars().collect());
            let want = prefix_edit_distance(&q, &term, usize::from(max));
            let want = (want <= usize::from(max)).then_some(want as u8);
            prop_assert_eq!(prefix_distance(&q, &term, max), want);
        }

        /// A walk never reads more nodes than its budget, and says when it
        /// stopped there.
        #[test]
        fn a_walk_stops_at_its_budget(
            terms in terms(), pick in any::<usize>(), edits in edits(), budget in 0..200u64,
        ) {
            let q = query(&terms, pick, &edits);
            prop_assume!(!q.is_empty());
            let fst = fst_of(&terms, false);
            let all = walk(&fst, &q, 2, Mode::Prefix, None, u64::MAX);
            let cut = walk(&fst, &q, 2, Mode::Prefix, None, budget);
            prop_assert!(cut.work <= budget);
            prop_assert_eq!(cut.exhausted, all.work > budget);
            if !cut.exhausted {
                prop_assert_eq!(sorted(cut.terms), sorted(all.terms));
            }
        }
    }
}
