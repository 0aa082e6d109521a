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
//! `oracle::edit_distance` and `oracle::prefix_edit_distance` are the naive
//! statement of the same distances; the tests hold the walk to them.

use fst::raw::{Fst, Node};

/// How a term's distance is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Between the query and the whole term.
    Whole,
    /// Between the query and the closest prefix of the term.
    Prefix,
}

/// What a walk found: term numbers with their distance (1 to `max_edits`,
/// each term once; distance 0 is left to the exact and literal tiers), the
/// nodes it read, and whether it stopped at its budget.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub terms: Vec<(u32, u8)>,
    pub work: u64,
    pub exhausted: bool,
}

/// A character of the term under the walk: the node after it and the output
/// gathered on the way.
#[derive(Clone, Copy)]
struct Step {
    c: char,
    addr: usize,
    out: u64,
}

struct Walk<'f> {
    fst: &'f Fst<Vec<u8>>,
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
}

/// The terms of `fst` within `max_edits` of `query`, reading at most
/// `budget` nodes.
pub(crate) fn walk(
    fst: &Fst<Vec<u8>>,
    query: &str,
    max_edits: usize,
    mode: Mode,
    budget: u64,
) -> Found {
    let query: Vec<char> = query.chars().collect();
    let width = query.len() + 1;
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
    };
    w.rows.extend((0..width).map(|j| j.min(usize::from(max) + 1) as u8));
    if w.spend() {
        w.visit(fst.root(), 0, max + 1);
    }
    w.found
}

impl<'f> Walk<'f> {
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
        let row = self.row(depth);
        let here = row[n];
        let low = *row.iter().min().expect("a row has a cell");
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
        // The cells of later rows never fall below this row's smallest, so
        // a row at `limit` or above cannot bring a new match (or, in prefix
        // mode, a better one).
        let limit = best.min(self.max + 1);
        if best == 0 {
            // Every term below starts with the query: a literal match.
            return;
        }
        if low >= limit {
            if best <= self.max {
                self.subtree(node, out, best);
            }
            return;
        }
        // Inside a matching subtree every character is needed, to list it.
        let tight = low + 1 == limit && best > self.max;
        for step in self.next_chars(node, out, tight) {
            if self.found.exhausted {
                return;
            }
            let child = self.fst.node(step.addr);
            self.push(step.c);
            if self.row(depth + 1).iter().min().is_some_and(|&m| m < limit) || best <= self.max {
                self.visit(child, step.out, best);
            }
            self.pop();
        }
    }

    /// The characters that can follow `node`: every one when the row has an
    /// edit to spare, else only those that keep a cell within the limit
    /// (looked up, not read from every transition).
    fn next_chars(&mut self, node: Node<'f>, out: u64, tight: bool) -> Vec<Step> {
        let mut steps = Vec::new();
        if !tight {
            self.every_char(node, out, &mut Vec::new(), &mut steps);
            return steps;
        }
        let mut wanted = self.wanted_chars();
        wanted.sort_unstable();
        wanted.dedup();
        let mut utf8 = [0u8; 4];
        'chars: for c in wanted {
            let (mut at, mut out) = (node, out);
            for &b in c.encode_utf8(&mut utf8).as_bytes() {
                let Some(i) = at.find_input(b) else {
                    continue 'chars;
                };
                let t = at.transition(i);
                if !self.spend() {
                    return steps;
                }
                at = self.fst.node(t.addr);
                out += t.out.value();
            }
            steps.push(Step {
                c,
                addr: at.addr(),
                out,
            });
        }
        steps
    }

    /// With no edit to spare, the next character must continue a cell at the
    /// limit unchanged: the query's next character after it, or the first of
    /// a transposed pair whose second the term just had.
    fn wanted_chars(&self) -> Vec<char> {
        let depth = self.chars.len();
        let row = self.row(depth);
        let low = *row.iter().min().expect("a row has a cell");
        let mut wanted: Vec<char> = (0..self.query.len())
            .filter(|&j| row[j] == low)
            .map(|j| self.query[j])
            .collect();
        if depth >= 1 {
            let prev = self.row(depth - 1);
            let last = self.chars[depth - 1];
            for j in 2..=self.query.len() {
                if prev[j - 2] < low && self.query[j - 1] == last {
                    wanted.push(self.query[j - 2]);
                }
            }
        }
        wanted
    }

    /// Every character leaving `node` (UTF-8 sequences followed byte by
    /// byte), with the node after it.
    fn every_char(&mut self, node: Node<'f>, out: u64, bytes: &mut Vec<u8>, steps: &mut Vec<Step>) {
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
                    addr: next.addr(),
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

    /// Every term under `node` (not the node's own), at `distance`.
    fn subtree(&mut self, node: Node<'f>, out: u64, distance: u8) {
        for t in node.transitions() {
            if !self.spend() {
                return;
            }
            let next = self.fst.node(t.addr);
            let out = out + t.out.value();
            if next.is_final() {
                self.add(out + next.final_output().value(), distance);
            }
            self.subtree(next, out, distance);
        }
    }

    fn add(&mut self, term: u64, distance: u8) {
        if distance > 0 {
            self.found.terms.push((term as u32, distance));
        }
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
            if depth >= 1 && j >= 2 && self.query[j - 1] == self.chars[depth - 1] && self.query[j - 2] == c {
                v = v.min(self.rows[base - w + j - 2] + 1);
            }
            self.rows[base + w + j] = v.min(cap);
        }
        self.chars.push(c);
    }

    fn pop(&mut self) {
        self.chars.pop();
        let w = self.width();
        self.rows.truncate((self.chars.len() + 1) * w);
    }
}
