//! Wildcard patterns (`matchType=pattern`, docs/api.md "Wildcard
//! patterns"): `?` stands for exactly one character of the folded headword,
//! `*` for any run of characters (possibly none), every other character is
//! literal and folded like any `q`.
//!
//! A pattern is matched by a nondeterministic automaton over its positions,
//! simulated with one bit per position ([`Nfa`]): its state is a `u128`
//! whatever the pattern, so no pattern can make it blow up the way a
//! compiled regex's DFA can. The engine walks the term FST with it
//! ([`walk`]), forwards when the pattern starts with letters, over the terms
//! spelled backwards when it ends with them, and when both its ends are
//! wildcards it checks the terms that hold the grams of its letters
//! ([`Plan`]).

use crate::fold::fold;
use fst::{IntoStreamer, Streamer};
use std::cell::Cell;

/// The longest substrings of terms that the snapshot's `grams` section has
/// bitmaps of (`snapshot::GRAM_CHARS`, which a test holds this to; the
/// snapshot is a layer above this module).
pub(crate) const GRAM_CHARS: usize = 4;

/// A pattern needs this many characters other than `?` and `*`.
pub const MIN_LETTERS: usize = 2;
/// The most positions a pattern may have (after folding, one per literal
/// character and wildcard): the limit of `q` once folded. The automaton's
/// state has a bit for each position and one for the end, so it fits a
/// `u128`.
pub const MAX_TOKENS: usize = 100;

/// One position of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// This character, folded.
    Char(char),
    /// `?`: exactly one character.
    One,
    /// `*`: any run of characters, possibly none.
    Any,
}

/// Why a `q` is not a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternError {
    /// Fewer than [`MIN_LETTERS`] characters other than `?` and `*`.
    TooFewLetters,
    /// More than [`MAX_TOKENS`] positions once folded.
    TooLong,
}

impl PatternError {
    /// The 400's message.
    pub fn message(self) -> String {
        match self {
            PatternError::TooFewLetters => format!(
                "q must have at least {MIN_LETTERS} characters other than ? and * for matchType=pattern"
            ),
            PatternError::TooLong => {
                format!("q must be at most {MAX_TOKENS} characters once folded")
            }
        }
    }
}

/// A folded pattern: its positions, runs of `*` merged into one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    tokens: Vec<Token>,
}

impl Pattern {
    /// The pattern of a `q` as the caller wrote it. Each run of literal
    /// characters between wildcards is folded on its own, so that folding
    /// never turns a literal into a wildcard (`？` folds to a literal `?`)
    /// nor swallows one, and a run that folds longer (`ß` → `ss`) or shorter
    /// stays between the same wildcards. Whitespace is folded as in `q`: a
    /// run of it is one space, none at either end.
    pub fn parse(raw: &str) -> Result<Self, PatternError> {
        let raw = raw.trim();
        let mut tokens = Vec::new();
        let mut run = String::new();
        for c in raw.chars() {
            let wildcard = match c {
                '?' => Token::One,
                '*' => Token::Any,
                _ => {
                    run.push(c);
                    continue;
                }
            };
            push_run(&mut tokens, &run);
            run.clear();
            if !(wildcard == Token::Any && tokens.last() == Some(&Token::Any)) {
                tokens.push(wildcard);
            }
        }
        push_run(&mut tokens, &run);
        let pattern = Self { tokens };
        if pattern.tokens.len() > MAX_TOKENS {
            return Err(PatternError::TooLong);
        }
        if pattern.letters() < MIN_LETTERS {
            return Err(PatternError::TooFewLetters);
        }
        Ok(pattern)
    }

    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The literal characters, folded.
    pub fn letters(&self) -> usize {
        self.tokens
            .iter()
            .filter(|t| matches!(t, Token::Char(_)))
            .count()
    }

    /// The pattern as a rule's query: wildcards as `?` and `*`, and a
    /// literal `?`, `*` or `\` (which folding can yield) escaped with `\`.
    pub fn to_query(&self) -> String {
        let mut out = String::new();
        for t in &self.tokens {
            match t {
                Token::Char(c @ ('?' | '*' | '\\')) => {
                    out.push('\\');
                    out.push(*c);
                }
                Token::Char(c) => out.push(*c),
                Token::One => out.push('?'),
                Token::Any => out.push('*'),
            }
        }
        out
    }

    /// The pattern of a rule's query ([`Pattern::to_query`]), without
    /// folding or checking it again.
    pub fn from_query(query: &str) -> Self {
        let mut tokens = Vec::new();
        let mut chars = query.chars();
        while let Some(c) = chars.next() {
            let token = match c {
                '\\' => Token::Char(chars.next().unwrap_or('\\')),
                '?' => Token::One,
                '*' => Token::Any,
                c => Token::Char(c),
            };
            if !(token == Token::Any && tokens.last() == Some(&Token::Any)) {
                tokens.push(token);
            }
        }
        Self { tokens }
    }

    /// The same pattern read from its end: what matches a term spelled
    /// backwards.
    pub fn reversed(&self) -> Self {
        Self {
            tokens: self.tokens.iter().rev().copied().collect(),
        }
    }

    pub(crate) fn nfa(&self) -> Nfa {
        Nfa::new(&self.tokens)
    }

    /// How the engine finds the terms of this pattern (see [`Plan`]).
    pub(crate) fn plan(&self) -> Plan {
        if let Some(key) = self.exact_ends() {
            return Plan::Exactly(key);
        }
        if self.ends().is_some() {
            return Plan::Grams(self.grams());
        }
        let forwards = Anchor::of(self.tokens.iter());
        let backwards = Anchor::of(self.tokens.iter().rev());
        let best = match (forwards.score(), backwards.score()) {
            (Some(f), Some(b)) if b > f => Some((Plan::Backwards, b)),
            (Some(f), _) => Some((Plan::Forwards, f)),
            (None, Some(b)) => Some((Plan::Backwards, b)),
            (None, None) => None,
        };
        let longest_run = self.runs().iter().map(|r| r.chars().count()).max();
        match best {
            Some((plan, score)) if (longest_run.unwrap_or(0) as i64) < score + 2 => plan,
            _ => Plan::Grams(self.grams()),
        }
    }

    /// The first and last letters of a pattern that has one letter alone at
    /// each end and a `*` or three `?` between (`c*t`, `h???e`, `c?*ol*t`):
    /// a walk from either end would read every term under one letter (up to
    /// the pattern's length), where the entries that start and end with
    /// both ([`ends_key`]) are a small share of them. Shorter patterns of
    /// `?` (`c?t`) walk the few nodes of their length.
    fn ends(&self) -> Option<(char, char)> {
        let ones = self.tokens.iter().filter(|t| **t == Token::One).count();
        if !self.tokens.contains(&Token::Any) && ones < 3 {
            return None;
        }
        let lone = |mut tokens: std::slice::Iter<'_, Token>, from_end: bool| {
            let mut next = || {
                if from_end {
                    tokens.next_back()
                } else {
                    tokens.next()
                }
            };
            match (next(), next()) {
                (Some(Token::Char(c)), Some(Token::One | Token::Any)) => Some(*c),
                _ => None,
            }
        };
        Some((
            lone(self.tokens.iter(), false)?,
            lone(self.tokens.iter(), true)?,
        ))
    }

    /// The key whose entries are exactly this pattern's matches, for one
    /// letter at each end and only `?` between (`h???e`): the entries whose
    /// term starts and ends with them and has the pattern's length
    /// ([`ends_length_key`]). Checking the candidates of [`ends_key`] would
    /// read the text of every term under both letters, thousands of blocks
    /// in a large corpus.
    fn exact_ends(&self) -> Option<String> {
        let key = self.key_of_ends()?;
        let between = &self.tokens[1..self.tokens.len() - 1];
        between.iter().all(|t| *t == Token::One).then_some(key)
    }

    /// The key of the entries that start and end with the pattern's lone
    /// letters ([`Pattern::ends`]), of its length too when it has no `*`.
    fn key_of_ends(&self) -> Option<String> {
        let (first, last) = self.ends()?;
        Some(match self.tokens.contains(&Token::Any) {
            true => ends_key(first, last),
            false => ends_length_key(first, last, self.tokens.len()),
        })
    }

    /// The runs of literal characters between wildcards.
    fn runs(&self) -> Vec<String> {
        let mut runs = vec![String::new()];
        for t in &self.tokens {
            match t {
                Token::Char(c) => runs.last_mut().expect("one at least").push(*c),
                Token::One | Token::Any => runs.push(String::new()),
            }
        }
        runs.retain(|r| !r.is_empty());
        runs
    }

    /// The grams a term must hold to match: those of its runs of two
    /// characters or more (as a `contains` search of each run reads them:
    /// the run itself up to [`GRAM_CHARS`], else each of its grams of that
    /// length), or
    /// of every run when each is a single character.
    fn grams(&self) -> Vec<String> {
        if let Some(key) = self.key_of_ends() {
            // The lone letters at the ends are in the key; the runs between
            // them narrow it further.
            let mut grams = Pattern {
                tokens: self.tokens[1..self.tokens.len() - 1].to_vec(),
            }
            .runs_grams(true);
            grams.push(key);
            grams.sort_unstable();
            return grams;
        }
        self.runs_grams(false)
    }

    /// The grams of [`Pattern::grams`] from the runs alone; `long_only`
    /// leaves out runs of one character even when no run is longer.
    fn runs_grams(&self, long_only: bool) -> Vec<String> {
        let runs = self.runs();
        let long = long_only || runs.iter().any(|r| r.chars().count() >= 2);
        let mut grams: Vec<String> = runs
            .iter()
            .filter(|r| !long || r.chars().count() >= 2)
            .flat_map(|r| {
                let chars: Vec<char> = r.chars().collect();
                let n = chars.len().min(GRAM_CHARS);
                chars
                    .windows(n)
                    .map(|w| w.iter().collect::<String>())
                    .collect::<Vec<_>>()
            })
            .collect();
        grams.sort_unstable();
        grams.dedup();
        grams
    }

    /// The grams of the snapshot the engine reads for this pattern: none
    /// when it walks the term FST.
    pub fn needed_grams(&self) -> Vec<String> {
        match self.plan() {
            Plan::Grams(grams) => grams,
            Plan::Exactly(key) => vec![key],
            Plan::Forwards | Plan::Backwards => Vec::new(),
        }
    }
}

/// Appends a run of literal characters, folded (see [`Pattern::parse`]).
fn push_run(tokens: &mut Vec<Token>, run: &str) {
    if run.is_empty() {
        return;
    }
    let folded = fold(run);
    let space_before = run.starts_with(char::is_whitespace) && !tokens.is_empty();
    if space_before {
        tokens.push(Token::Char(' '));
    }
    tokens.extend(folded.chars().map(Token::Char));
    if run.ends_with(char::is_whitespace) && !folded.is_empty() {
        tokens.push(Token::Char(' '));
    }
}

/// The key of the entries whose term starts with `first` and ends with
/// `last`: longer than any gram, so it never names a substring, and it
/// sorts before every letter. A pattern whose only letters at its ends are
/// one on each side (`c*t`, `h???e`) reads it instead of walking every term
/// under its first letter.
pub fn ends_key(first: char, last: char) -> String {
    format!("\u{1}\u{1}\u{1}{first}{last}")
}

/// The key of the entries whose term starts with `first`, ends with
/// `last` and has `chars` characters: like [`ends_key`] longer than any
/// gram and below every letter, and with a prefix of its own.
pub fn ends_length_key(first: char, last: char, chars: usize) -> String {
    format!("\u{1}\u{1}\u{2}{first}{last}{chars}")
}

/// How a pattern's matches are found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// A walk of the term FST from the pattern's start.
    Forwards,
    /// A walk of the backwards term FST from the pattern's end.
    Backwards,
    /// The terms that hold every one of these grams, each checked.
    Grams(Vec<String>),
    /// The entries of this key ([`ends_length_key`]): every one matches.
    Exactly(String),
}

/// What one end of a pattern gives a walk that starts there: the letters
/// before the first `*` (the walk follows only them, the subtree after a
/// `*` is read whole) and the `?` before the first letter (each has the
/// walk read every child of every node it reached).
struct Anchor {
    letters: i64,
    leading_ones: i64,
}

impl Anchor {
    fn of<'a>(tokens: impl Iterator<Item = &'a Token>) -> Self {
        let mut anchor = Anchor {
            letters: 0,
            leading_ones: 0,
        };
        for t in tokens {
            match t {
                Token::Any => break,
                Token::One if anchor.letters == 0 => anchor.leading_ones += 1,
                Token::One => {}
                Token::Char(_) => anchor.letters += 1,
            }
        }
        anchor
    }

    /// Higher is a narrower walk; `None` when the walk would read every
    /// term (no letter before a `*`).
    fn score(&self) -> Option<i64> {
        (self.letters > 0).then_some(self.letters - self.leading_ones)
    }
}

/// The pattern's automaton: position `i` is "the first `i` tokens are
/// matched"; the state is the set of positions reachable after the
/// characters read so far, one bit each.
#[derive(Debug, Clone)]
pub(crate) struct Nfa {
    /// The accepting position (the number of tokens).
    end: u32,
    /// Positions whose token is `*` (it stays, and may be skipped).
    any: u128,
    /// Positions whose token is `?`.
    one: u128,
    /// Per literal character, the positions whose token it is.
    chars: Vec<(char, u128)>,
}

impl Nfa {
    fn new(tokens: &[Token]) -> Self {
        assert!(
            tokens.len() < 128,
            "a pattern has at most {MAX_TOKENS} tokens"
        );
        let mut nfa = Nfa {
            end: tokens.len() as u32,
            any: 0,
            one: 0,
            chars: Vec::new(),
        };
        for (i, t) in tokens.iter().enumerate() {
            let bit = 1u128 << i;
            match t {
                Token::Any => nfa.any |= bit,
                Token::One => nfa.one |= bit,
                Token::Char(c) => match nfa.chars.iter_mut().find(|(x, _)| x == c) {
                    Some((_, mask)) => *mask |= bit,
                    None => nfa.chars.push((*c, bit)),
                },
            }
        }
        nfa
    }

    /// Adds the positions after each `*` reached (a `*` may match nothing).
    fn closure(&self, mut bits: u128) -> u128 {
        loop {
            let skipped = (bits & self.any) << 1;
            if skipped & !bits == 0 {
                return bits;
            }
            bits |= skipped;
        }
    }

    pub(crate) fn start(&self) -> u128 {
        self.closure(1)
    }

    /// The positions after reading `c` from `bits`.
    pub(crate) fn step(&self, bits: u128, c: char) -> u128 {
        let literal = self
            .chars
            .iter()
            .find(|(x, _)| *x == c)
            .map_or(0, |(_, mask)| *mask);
        self.closure(((bits & (literal | self.one)) << 1) | (bits & self.any))
    }

    pub(crate) fn accepts(&self, bits: u128) -> bool {
        (bits >> self.end) & 1 == 1
    }

    /// Whether `text` (folded) matches the whole pattern.
    pub(crate) fn matches(&self, text: &str) -> bool {
        let mut bits = self.start();
        for c in text.chars() {
            bits = self.step(bits, c);
            if bits == 0 {
                return false;
            }
        }
        self.accepts(bits)
    }
}

/// The [`Nfa`] as an [`fst::Automaton`] over the bytes of UTF-8 terms, which
/// counts the transitions it reads and stops reading at its budget.
struct Bytes<'a> {
    nfa: &'a Nfa,
    budget: u64,
    work: Cell<u64>,
}

/// The automaton's positions, and the character being decoded: its bits so
/// far and how many continuation bytes it still needs.
#[derive(Debug, Clone, Copy)]
struct State {
    bits: u128,
    code: u32,
    pending: u8,
}

impl fst::Automaton for Bytes<'_> {
    type State = State;

    fn start(&self) -> State {
        State {
            bits: self.nfa.start(),
            code: 0,
            pending: 0,
        }
    }

    fn is_match(&self, state: &State) -> bool {
        state.pending == 0 && self.nfa.accepts(state.bits)
    }

    fn can_match(&self, state: &State) -> bool {
        state.bits != 0 && self.work.get() <= self.budget
    }

    fn accept(&self, state: &State, byte: u8) -> State {
        self.work.set(self.work.get() + 1);
        let dead = State {
            bits: 0,
            code: 0,
            pending: 0,
        };
        let (code, pending) = match (state.pending, byte) {
            (0, 0x00..=0x7f) => (u32::from(byte), 0),
            (0, 0xc0..=0xdf) => (u32::from(byte & 0x1f), 1),
            (0, 0xe0..=0xef) => (u32::from(byte & 0x0f), 2),
            (0, 0xf0..=0xf7) => (u32::from(byte & 0x07), 3),
            (0, _) => return dead,
            (n, 0x80..=0xbf) => ((state.code << 6) | u32::from(byte & 0x3f), n - 1),
            _ => return dead,
        };
        if pending > 0 {
            return State {
                bits: state.bits,
                code,
                pending,
            };
        }
        match char::from_u32(code) {
            Some(c) => State {
                bits: self.nfa.step(state.bits, c),
                code: 0,
                pending: 0,
            },
            None => dead,
        }
    }
}

/// The pattern as an automaton with no budget: what names the term blocks
/// a walk can reach from their keys' bounds (a few steps per block).
pub(crate) fn reach(nfa: &Nfa) -> impl fst::Automaton + '_ {
    Bytes {
        nfa,
        budget: u64::MAX,
        work: Cell::new(0),
    }
}

/// What a walk found: the values (term numbers) of the matching keys, the
/// transitions it read, and whether it stopped at its budget.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub terms: Vec<u32>,
    pub work: u64,
    pub exhausted: bool,
}

/// The keys of `fst` that `nfa` matches, reading at most `budget`
/// transitions (every transition of every node the walk reaches counts).
pub(crate) fn walk<D: AsRef<[u8]>>(fst: &fst::Map<D>, nfa: &Nfa, budget: u64) -> Found {
    let automaton = Bytes {
        nfa,
        budget,
        work: Cell::new(0),
    };
    let mut terms = Vec::new();
    let mut stream = fst.search(&automaton).into_stream();
    while let Some((_, t)) = stream.next() {
        terms.push(t as u32);
    }
    drop(stream);
    let work = automaton.work.get();
    Found {
        terms,
        work,
        exhausted: work > budget,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A naive glob, to hold the automaton to (as `oracle::glob`, which
    /// sits a layer above this module).
    fn glob(tokens: &[Token], text: &[char]) -> bool {
        match tokens.split_first() {
            None => text.is_empty(),
            Some((Token::Any, rest)) => (0..=text.len()).any(|k| glob(rest, &text[k..])),
            Some((Token::One, rest)) => !text.is_empty() && glob(rest, &text[1..]),
            Some((Token::Char(c), rest)) => text.first() == Some(c) && glob(rest, &text[1..]),
        }
    }

    fn p(raw: &str) -> Pattern {
        Pattern::parse(raw).unwrap()
    }

    fn matches(raw: &str, text: &str) -> bool {
        p(raw).nfa().matches(text)
    }

    #[test]
    fn wildcards_stand_for_one_character_or_any_run() {
        assert!(matches("h?use", "house"));
        assert!(!matches("h?use", "hose"));
        assert!(!matches("h?use", "houses"));
        assert!(matches("*ology", "biology"));
        assert!(matches("*ology", "ology"));
        assert!(!matches("*ology", "ologyx"));
        assert!(matches("c*t", "ct"));
        assert!(matches("c*t", "cat"));
        assert!(matches("c*t", "comfort"));
        assert!(!matches("c*t", "cats"));
        assert!(matches("s??ing", "string"));
        assert!(!matches("s??ing", "sing"));
        assert!(matches("*a*b*", "xxaxxbxx"));
        assert!(matches("**ab***", "ab"));
        assert!(matches("ж?ж", "жaж"), "two-byte characters are one each");
        assert!(matches("日?語", "日本語"));
        assert!(!matches("日?語", "日本本語"));
    }

    #[test]
    fn literals_are_folded_run_by_run() {
        assert_eq!(p("HOUSE").to_query(), "house");
        assert_eq!(p("Stra?e").to_query(), "stra?e");
        assert_eq!(p("Straße*").to_query(), "strasse*");
        assert_eq!(p("ß?").to_query(), "ss?");
        assert_eq!(p("ÉCOLE?").to_query(), "ecole?");
        // A full-width question mark folds to `?`: a literal, not a wildcard.
        assert_eq!(
            p("what？").tokens(),
            &[
                Token::Char('w'),
                Token::Char('h'),
                Token::Char('a'),
                Token::Char('t'),
                Token::Char('?')
            ]
        );
        assert_eq!(p("what？").to_query(), "what\\?");
        assert_eq!(p("a＊b").to_query(), "a\\*b");
        assert!(matches("what？", "what?"));
        assert!(!matches("what？", "whats"));
        // Whitespace: one space between words, around wildcards too.
        assert_eq!(p("new  *").to_query(), "new *");
        assert_eq!(p("*  york").to_query(), "* york");
        assert_eq!(p("a ? b").to_query(), "a ? b");
        assert_eq!(p("a? ?b").to_query(), "a? ?b");
        assert_eq!(p("  ab*  ").to_query(), "ab*");
        assert_eq!(p("ab***c").to_query(), "ab*c");
    }

    #[test]
    fn queries_round_trip() {
        for raw in ["h?use", "*ology", "what？*", "a＊b?", "a\\b*", "x*\\?"] {
            let pattern = p(raw);
            assert_eq!(Pattern::from_query(&pattern.to_query()), pattern, "{raw}");
        }
    }

    #[test]
    fn a_pattern_needs_two_letters() {
        for bad in ["??", "*a", "a", "*", "?a*", "a?*?", "*́*"] {
            assert_eq!(
                Pattern::parse(bad),
                Err(PatternError::TooFewLetters),
                "{bad}"
            );
        }
        for good in ["ab", "*ab", "a?b", "?a*b?", "ß*"] {
            assert!(Pattern::parse(good).is_ok(), "{good}");
        }
        assert_eq!(
            PatternError::TooFewLetters.message(),
            "q must have at least 2 characters other than ? and * for matchType=pattern"
        );
        assert_eq!(Pattern::parse(&"a?".repeat(51)), Err(PatternError::TooLong));
        assert!(Pattern::parse(&"a?".repeat(50)).is_ok());
    }

    #[test]
    fn plans_walk_from_the_better_end_or_read_grams() {
        let plan = |raw: &str| p(raw).plan();
        assert_eq!(plan("h?use"), Plan::Forwards);
        // One letter alone at each end: the entries that start and end with
        // them, narrowed by the grams of the runs between.
        let ends = |first, last| ends_key(first, last);
        assert_eq!(plan("c*t"), Plan::Grams(vec![ends('c', 't')]));
        // Only `?` between them: the entries of their length are the
        // matches.
        assert_eq!(plan("h???e"), Plan::Exactly(ends_length_key('h', 'e', 5)));
        assert_eq!(plan("h?????e"), Plan::Exactly(ends_length_key('h', 'e', 7)));
        // Letters between too: the same key, each candidate checked.
        assert_eq!(
            plan("h??o?e"),
            Plan::Grams(vec![ends_length_key('h', 'e', 6)])
        );
        assert_eq!(
            plan("h??ou?e"),
            Plan::Grams(vec![ends_length_key('h', 'e', 7), "ou".into()])
        );
        assert_eq!(
            plan("c?*ol*t"),
            Plan::Grams(vec![ends('c', 't'), "ol".into()])
        );
        assert_eq!(plan("c*o*t"), Plan::Grams(vec![ends('c', 't')]));
        // Short runs of `?` walk their few nodes; two letters at an end walk.
        assert_eq!(plan("c?t"), Plan::Forwards);
        assert_eq!(plan("h??e"), Plan::Forwards);
        assert_eq!(plan("co*t"), Plan::Forwards);
        assert_eq!(plan("*ology"), Plan::Backwards);
        assert_eq!(plan("?*ology"), Plan::Backwards);
        assert_eq!(plan("un*able"), Plan::Backwards);
        assert_eq!(plan("??a?e"), Plan::Backwards);
        assert_eq!(plan("?abc*d"), Plan::Forwards);
        assert_eq!(plan("*tion*"), Plan::Grams(vec!["tion".into()]));
        assert_eq!(plan("a*tion*"), Plan::Grams(vec!["tion".into()]));
        assert_eq!(
            plan("*ation*"),
            Plan::Grams(vec!["atio".into(), "tion".into()])
        );
        assert_eq!(plan("*a*b*"), Plan::Grams(vec!["a".into(), "b".into()]));
        assert_eq!(plan("?*ab?c*"), Plan::Grams(vec!["ab".into()]));
        assert_eq!(p("*tion*").needed_grams(), ["tion"]);
        assert!(p("*ology").needed_grams().is_empty());
    }

    proptest! {
        #[test]
        fn the_automaton_is_a_glob(raw in "[ab?*é]{1,10}", text in "[abé]{0,10}") {
            let pattern = Pattern::from_query(&raw);
            let chars: Vec<char> = text.chars().collect();
            prop_assert_eq!(pattern.nfa().matches(&text), glob(pattern.tokens(), &chars));
            let backwards: String = text.chars().rev().collect();
            prop_assert_eq!(pattern.reversed().nfa().matches(&backwards), glob(pattern.tokens(), &chars));
        }

        /// A walk of an FST of keys of one to three bytes a character finds
        /// the keys the glob matches, forwards and over the keys spelled
        /// backwards, and counts what it reads.
        #[test]
        fn a_walk_finds_what_the_glob_matches(
            keys in proptest::collection::btree_set("[aж日b]{1,6}", 1..60),
            raw in "[aж日b?*]{1,8}",
        ) {
            let pattern = Pattern::from_query(&raw);
            let keys: Vec<String> = keys.into_iter().collect();
            let map = |keys: Vec<String>| {
                let mut pairs: Vec<(String, u64)> = keys.into_iter().enumerate().map(|(i, k)| (k, i as u64)).collect();
                pairs.sort_unstable();
                fst::Map::from_iter(pairs).unwrap()
            };
            let forwards = map(keys.clone());
            let backwards = map(keys.iter().map(|k| k.chars().rev().collect()).collect());
            let wanted: Vec<u32> = (0..keys.len() as u32)
                .filter(|&i| glob(pattern.tokens(), &keys[i as usize].chars().collect::<Vec<_>>()))
                .collect();
            for (fst, nfa) in [(&forwards, pattern.nfa()), (&backwards, pattern.reversed().nfa())] {
                let mut found = walk(fst, &nfa, u64::MAX);
                found.terms.sort_unstable();
                prop_assert_eq!(&found.terms, &wanted);
                prop_assert!(!found.exhausted);
                prop_assert!(found.work <= fst.as_fst().as_bytes().len() as u64 * 4);
                // A budget below what it needs is an exhausted walk.
                if found.work > 0 {
                    prop_assert!(walk(fst, &nfa, found.work - 1).exhausted);
                }
            }
        }

        #[test]
        fn parsing_never_panics_and_never_makes_wildcards(raw in "\\PC{0,60}") {
            if let Ok(pattern) = Pattern::parse(&raw) {
                let wildcards = raw.chars().filter(|c| *c == '?' || *c == '*').count();
                let made = pattern.tokens().iter().filter(|t| !matches!(t, Token::Char(_))).count();
                prop_assert!(made <= wildcards);
                prop_assert_eq!(Pattern::from_query(&pattern.to_query()), pattern);
            }
        }
    }
}
