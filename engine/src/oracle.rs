//! The matching rules stated naively, for the tests: the one oracle that the
//! brute-force reference beside the engine (`reference.rs`) and the black-box
//! tests' scan of every stored entry both apply. The engine calls only
//! [`edit_distance`], for the few spellings it looks up itself (the
//! doublings of a query), and [`needs_unlikely_edit`], for each word a
//! whole-word walk finds; [`is_doubling`]'s rule is its own, and so is
//! [`respelling_changes`], which aligns query and word by the rules of
//! [`respelling`] where the engine generates the query's respellings.
//!
//! Distance is Damerau-Levenshtein on folded forms, in its restricted form
//! (optimal string alignment): substitution, insertion, deletion and the
//! transposition of two neighbours each cost one edit.

use super::lexicon::Lexicon;
use super::matching::{
    MatchType, TypoDistance, TypoKind, ANCHORED_HEAD_CHARS, DOUBLING_CHANGES, DOUBLING_QUERY_CHARS,
    MOVE_REACH, PREFIX_THIRD_EDIT_ANCHORED, TYPO_KINDS,
};
use super::pattern::{Pattern, Token};
use super::respelling;
use super::sounds_like;

/// Commonness by its definition: the frequency of the folded `term` in the
/// list of `lang` (the language of the dictionaries that have it), any
/// listed word above every unlisted one, and those by how many dictionaries
/// of that language have it.
pub fn commonness(lexicon: &Lexicon, term: &str, lang: &str, dictionaries: usize) -> (bool, usize) {
    match lexicon
        .frequencies
        .get(lang)
        .and_then(|list| list.get(term))
    {
        Some(&centis) => (true, usize::from(centis)),
        None => (false, dictionaries),
    }
}

/// Where a word of `lang` spelled as `spellings` (its entries' headwords)
/// ranks for the sounds-like query `q`: the (coarse, fine) distances of
/// the closest pair of their keys ([`sounds_like::nearness`]), or `None`
/// when none is within reach. The engine finds the same through the keys
/// it stored, read by prefix.
pub fn sounds_like_rank(q: &str, lang: &str, spellings: &[&str]) -> Option<(usize, usize)> {
    let query = sounds_like::keys(lang, q);
    let mut words = Vec::new();
    for spelling in spellings.iter().take(sounds_like::MAX_KEYS) {
        words.extend(sounds_like::keys(lang, spelling));
    }
    sounds_like::nearness(&query, &words)
}

/// The tier of a folded headword for a folded query (a pattern as
/// [`Pattern::to_query`] writes it), or `None` if it does not
/// match: 0 exact, 1 literal (by the match type; every match of a
/// pattern), 2 a lemma of the query in
/// the headword's language (`source_lang`), then a typo within `max_edits`
/// ([`typo_tier`]): at the headword's own distance (by the match type's
/// measure) or, when smaller, through the inflected form of it in its
/// language closest to the query, whole word to whole word (`attched` is 1
/// from `attached`, a form of `attach`).
pub fn tier(
    query: &str,
    match_type: MatchType,
    max_edits: usize,
    lexicon: &Lexicon,
    source_lang: &str,
    folded: &str,
) -> Option<usize> {
    if folded == query && match_type.has_exact_tier() {
        return Some(0);
    }
    let literal = match match_type {
        MatchType::Exact => false,
        MatchType::Prefix => folded.starts_with(query),
        MatchType::Contains => folded.contains(query),
        MatchType::Pattern => {
            let text: Vec<char> = folded.chars().collect();
            glob(Pattern::from_query(query).tokens(), &text)
        }
        // No tier of a search: [`sounds_like_rank`].
        MatchType::SoundsLike => return None,
    };
    if literal {
        return Some(1);
    }
    let lemma = match_type.has_lemma_tier()
        && lexicon
            .forms
            .get(source_lang)
            .is_some_and(|forms| forms.lemmas(query).any(|l| l == folded));
    if lemma {
        return Some(2);
    }
    let measure = match_type.typo_distance()?;
    if max_edits == 0 {
        return None;
    }
    let q: Vec<char> = query.chars().collect();
    let w: Vec<char> = folded.chars().collect();
    let (own, unlikely) = match measure {
        // Beyond the limit: the rule of a third edit leaves it out.
        TypoDistance::Prefix if !head_within_one_edit(max_edits, &q, &w) => (max_edits + 1, false),
        TypoDistance::Prefix => prefix_alignment(&q, &w, max_edits),
        TypoDistance::Whole => (edit_distance(&q, &w), needs_unlikely_edit(&q, &w)),
    };
    let listed = lexicon.frequency(source_lang, folded).is_some();
    let own = (own <= max_edits).then(|| typo_tier(own, typo_kind(&q, &w, unlikely, listed)));
    // A listed word the query respells into, at as many edits as rules.
    let respelled = |word: &[char], kind: TypoKind| {
        respelling_changes(source_lang, &q, word)
            .filter(|c| listed && (1..=max_edits).contains(c))
            .map(|c| typo_tier(c, kind))
    };
    // A listed word that is the query with a letter moved, at one edit.
    let moved = |word: &[char], kind: TypoKind| {
        (listed && is_moved_letter(&q, word)).then(|| typo_tier(1, kind))
    };
    let own = own
        .into_iter()
        .chain(respelled(&w, TypoKind::Doubling))
        .chain(moved(&w, TypoKind::Other))
        .min();
    // Through each inflected form of it in its language, at the form's
    // distance; the best tier of all counts.
    let through_forms = match_type
        .has_lemma_tier()
        .then(|| lexicon.forms.get(source_lang))
        .flatten()
        .into_iter()
        .flat_map(|forms| forms.pairs())
        .filter(|(_, lemma)| *lemma == folded)
        .filter_map(|(form, _)| {
            let f: Vec<char> = form.chars().collect();
            let d = edit_distance(&q, &f);
            let kind = match typo_kind(&q, &f, false, listed) {
                TypoKind::Doubling => TypoKind::DoublingThroughForm,
                _ => TypoKind::ThroughForm,
            };
            let by_distance = (1..=max_edits).contains(&d).then(|| typo_tier(d, kind));
            by_distance
                .into_iter()
                .chain(respelled(&f, TypoKind::DoublingThroughForm))
                .chain(moved(&f, TypoKind::ThroughForm))
                .min()
        });
    own.into_iter().chain(through_forms).min()
}

/// The kind of a headword's own typo match (not through a form): whether
/// every alignment at its distance (by the match type's measure) makes an
/// unlikely edit is `unlikely`, and a doubling counts only for a word its
/// language's frequency list has (`listed`: `houss` is no likelier a
/// meaning of `hous` than `house`).
pub(crate) fn typo_kind(query: &[char], word: &[char], unlikely: bool, listed: bool) -> TypoKind {
    if listed && is_doubling(query, word) {
        TypoKind::Doubling
    } else if word.len() < query.len() && query.starts_with(word) {
        TypoKind::PrefixOfQuery
    } else if unlikely {
        TypoKind::UnlikelyEdit
    } else {
        TypoKind::Other
    }
}

/// Whether `word` is `query` with 1 to [`DOUBLING_CHANGES`] letters doubled
/// or undoubled, for a query of at most [`DOUBLING_QUERY_CHARS`].
pub fn is_doubling(query: &[char], word: &[char]) -> bool {
    query.len() <= DOUBLING_QUERY_CHARS
        && doubling_changes(query, word).is_some_and(|n| (1..=DOUBLING_CHANGES).contains(&n))
}

/// How many letters one must double or undouble (add to or take from a
/// run of one letter) to make `a` into `b`, if only that does.
fn doubling_changes(a: &[char], b: &[char]) -> Option<usize> {
    let runs = |w: &[char]| -> Vec<(char, usize)> {
        let mut runs: Vec<(char, usize)> = Vec::new();
        for &c in w {
            match runs.last_mut() {
                Some((last, n)) if *last == c => *n += 1,
                _ => runs.push((c, 1)),
            }
        }
        runs
    };
    let (ra, rb) = (runs(a), runs(b));
    if ra.len() != rb.len() || ra.iter().zip(&rb).any(|(x, y)| x.0 != y.0) {
        return None;
    }
    Some(ra.iter().zip(&rb).map(|(x, y)| x.1.abs_diff(y.1)).sum())
}

/// Whether `word` is `query` with one letter taken out and put back 2 to
/// [`MOVE_REACH`] places away, for a query of at most
/// [`DOUBLING_QUERY_CHARS`] (and not the query).
pub fn is_moved_letter(query: &[char], word: &[char]) -> bool {
    let n = query.len();
    if n != word.len() || n > DOUBLING_QUERY_CHARS || query == word {
        return false;
    }
    (0..n).any(|from| {
        (0..n).any(|to| {
            let far = from.abs_diff(to);
            let mut moved: Vec<char> = query.to_vec();
            let letter = moved.remove(from);
            moved.insert(to, letter);
            (2..=MOVE_REACH).contains(&far) && moved == word
        })
    })
}

/// The fewest rules of `lang`'s respellings ([`respelling::LANGUAGES`])
/// that write `query` as `word`, each where its place allows in the query,
/// if 1 to [`respelling::MAX_CHANGES`] do and the query is at most
/// [`respelling::QUERY_CHARS`] long.
pub fn respelling_changes(lang: &str, query: &[char], word: &[char]) -> Option<usize> {
    let (_, rules) = respelling::LANGUAGES.iter().find(|(l, _)| *l == lang)?;
    if query.len() > respelling::QUERY_CHARS || query == word {
        return None;
    }
    // fewest[i][j]: the fewest rules that write query[..i] as word[..j].
    let mut fewest = vec![vec![usize::MAX; word.len() + 1]; query.len() + 1];
    fewest[0][0] = 0;
    for i in 0..=query.len() {
        for j in 0..=word.len() {
            let here = fewest[i][j];
            if here == usize::MAX {
                continue;
            }
            if i < query.len() && j < word.len() && query[i] == word[j] {
                fewest[i + 1][j + 1] = fewest[i + 1][j + 1].min(here);
            }
            for rule in rules.iter().filter(|r| respelling::applies(r, query, i)) {
                let to: Vec<char> = rule.to.chars().collect();
                if word[j..].starts_with(&to) {
                    let (i2, j2) = (i + rule.from.chars().count(), j + to.len());
                    fewest[i2][j2] = fewest[i2][j2].min(here + 1);
                }
            }
        }
    }
    let n = fewest[query.len()][word.len()];
    (1..=respelling::MAX_CHANGES).contains(&n).then_some(n)
}

/// The tier of a typo at `distance` (1 up) of `kind`, after the tiers of
/// [`tier`]'s exact, literal and lemma matches: 3 to 6 at one edit, 7 to 10
/// at two, ….
pub fn typo_tier(distance: usize, kind: TypoKind) -> usize {
    3 + TYPO_KINDS * (distance - 1) + kind as usize
}

/// The prefix rule of a third edit on a short query
/// ([`PREFIX_THIRD_EDIT_ANCHORED`]): a word at three edits only
/// when the query's head is within one edit of a prefix of it (a word at
/// fewer edits matched with fewer allowed).
pub(crate) fn head_within_one_edit(max_edits: usize, query: &[char], word: &[char]) -> bool {
    if max_edits != 3 || !PREFIX_THIRD_EDIT_ANCHORED.contains(&query.len()) {
        return true;
    }
    let head = &query[..ANCHORED_HEAD_CHARS.min(query.len())];
    prefix_edit_distance(query, word, 2) <= 2 || prefix_edit_distance(head, word, 1) <= 1
}

/// Whether `text` matches a pattern's tokens: a `?` one character, a `*`
/// each possible run in turn.
pub fn glob(tokens: &[Token], text: &[char]) -> bool {
    match tokens.split_first() {
        None => text.is_empty(),
        Some((Token::Any, rest)) => (0..=text.len()).any(|k| glob(rest, &text[k..])),
        Some((Token::One, rest)) => !text.is_empty() && glob(rest, &text[1..]),
        Some((Token::Char(c), rest)) => text.first() == Some(c) && glob(rest, &text[1..]),
    }
}

/// The distance between `a` and `b`.
pub(crate) fn edit_distance(a: &[char], b: &[char]) -> usize {
    OsaTable::of(a, b).last().0
}

/// The smallest distance between `query` and any prefix of `word`: the typo
/// rule of prefix searches ("the edits apply to the prefix"). Prefixes longer
/// than the query by more than `max_edits` cannot come within `max_edits`, so
/// only those up to that length are looked at.
pub(crate) fn prefix_edit_distance(query: &[char], word: &[char], max_edits: usize) -> usize {
    prefix_alignment(query, word, max_edits).0
}

/// [`prefix_edit_distance`], with whether every alignment of the query
/// with a prefix of `word` at that distance makes an unlikely edit (the
/// prefix measure's [`needs_unlikely_edit`]).
pub(crate) fn prefix_alignment(query: &[char], word: &[char], max_edits: usize) -> (usize, bool) {
    let word = &word[..word.len().min(query.len() + max_edits)];
    let table = OsaTable::of(query, word);
    let (d, unlikely) = table
        .row(query.len())
        .iter()
        .copied()
        .min()
        .unwrap_or((query.len(), 0));
    (d, unlikely > 0)
}

/// For each `k` from 0 to `query.len()`, the distance between `query[..k]`
/// and the whole of `word`, with whether every alignment at it makes an
/// unlikely edit: where a word that goes on past `word` can still align
/// with the query by likely edits alone (the rest of the query after such
/// a `k`, unchanged).
pub(crate) fn head_alignments(query: &[char], word: &[char]) -> Vec<(usize, bool)> {
    let table = OsaTable::of(query, word);
    (0..=query.len())
        .map(|i| table.row(i)[word.len()])
        .map(|(d, unlikely)| (d, unlikely > 0))
        .collect()
}

/// The full dynamic-programming table: cell `(i, j)` is the distance
/// between `a[..i]` and `b[..j]`, with the fewest unlikely edits
/// ([`unlikely_substitution`], [`unlikely_deletion`]) an alignment at that
/// distance makes. One buffer, row after row: a typo search measures every
/// doubled or undoubled spelling of its query and every term its walks
/// find with it, and a vector per row cost more than the arithmetic.
struct OsaTable {
    width: usize,
    cells: Vec<(usize, usize)>,
}

impl OsaTable {
    fn of(a: &[char], b: &[char]) -> Self {
        let width = b.len() + 1;
        let mut cells = vec![(0usize, 0usize); (a.len() + 1) * width];
        for (j, cell) in cells[..width].iter_mut().enumerate() {
            *cell = (j, 0);
        }
        for i in 1..=a.len() {
            let deleted = usize::from(unlikely_deletion(a, i - 1));
            let (row, above) = (i * width, (i - 1) * width);
            cells[row] = (i, cells[above].1 + deleted);
            for j in 1..=b.len() {
                let (x, y) = (a[i - 1], b[j - 1]);
                let (d, s) = cells[above + j - 1];
                let substituted = match x == y {
                    true => (d, s),
                    false => (d + 1, s + usize::from(unlikely_substitution(x, y))),
                };
                let (up, left) = (cells[above + j], cells[row + j - 1]);
                let mut best = substituted
                    .min((up.0 + 1, up.1 + deleted))
                    .min((left.0 + 1, left.1));
                if i > 1 && j > 1 && x == b[j - 2] && a[i - 2] == y {
                    let (d, s) = cells[above - width + j - 2];
                    best = best.min((d + 1, s));
                }
                cells[row + j] = best;
            }
        }
        OsaTable { width, cells }
    }

    fn row(&self, i: usize) -> &[(usize, usize)] {
        &self.cells[i * self.width..(i + 1) * self.width]
    }

    /// The cell of both whole strings.
    fn last(&self) -> (usize, usize) {
        *self.cells.last().expect("a table has a cell")
    }
}

/// Whether writing `y` for `x` is an unlikely substitution: of two Latin
/// letters, not a vowel for a vowel (`abseil` for `absail`), nor two
/// letters of one sound group (`standart`, `jente`, `nuve`, `rason`,
/// `caye`):
/// `assail` for `absail`, `dirty` for `diety`.
fn unlikely_substitution(x: char, y: char) -> bool {
    const SOUNDS_ALIKE: [&str; 7] = ["ckqsxz", "bfpvw", "dt", "gj", "mn", "jy", "ly"];
    // The cheap tests first: every mismatched cell of a table asks this.
    if !(x.is_ascii_lowercase() && y.is_ascii_lowercase()) || x == y {
        return false;
    }
    let vowel = |c: char| "aeiouy".contains(c);
    let alike = || {
        SOUNDS_ALIKE
            .iter()
            .any(|group| group.contains(x) && group.contains(y))
    };
    !((vowel(x) && vowel(y)) || alike())
}

/// Whether leaving out `a[i]` drops a consonant of the Latin alphabet that
/// is not one of a doubled pair: `movment` → `moment`.
fn unlikely_deletion(a: &[char], i: usize) -> bool {
    let x = a[i];
    let consonant = x.is_ascii_lowercase() && !"aeiouy".contains(x);
    let doubled = (i > 0 && a[i - 1] == x) || a.get(i + 1) == Some(&x);
    consonant && !doubled
}

/// Whether every alignment of `word` with `query` at their distance makes
/// an unlikely edit ([`TypoKind::UnlikelyEdit`]).
pub fn needs_unlikely_edit(query: &[char], word: &[char]) -> bool {
    OsaTable::of(query, word).last().1 > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn d(a: &str, b: &str) -> usize {
        edit_distance(&chars(a), &chars(b))
    }

    #[test]
    fn each_kind_of_edit_costs_one() {
        assert_eq!(d("house", "house"), 0);
        assert_eq!(d("house", "mouse"), 1, "substitution");
        assert_eq!(d("house", "houses"), 1, "insertion");
        assert_eq!(d("house", "hose"), 1, "deletion");
        assert_eq!(d("house", "huose"), 1, "transposition");
        assert_eq!(
            d("école", "ecole"),
            1,
            "distance is on whatever it is given"
        );
        assert_eq!(d("", "abc"), 3);
    }

    #[test]
    fn an_unlikely_edit_is_one_no_alignment_at_the_distance_avoids() {
        let unlikely = |q: &str, w: &str| needs_unlikely_edit(&chars(q), &chars(w));
        assert!(unlikely("absail", "assail"), "a consonant for another");
        assert!(unlikely("diety", "dirty"), "a consonant for a vowel");
        assert!(unlikely("movment", "moment"), "a consonant left out");
        assert!(!unlikely("absail", "abseil"), "a vowel for a vowel");
        assert!(!unlikely("achive", "achieve"), "a letter added");
        assert!(!unlikely("diety", "deity"), "two letters swapped");
        assert!(!unlikely("heroe", "hero"), "a vowel left out");
        assert!(!unlikely("accross", "across"), "a doubled letter undoubled");
        assert!(!unlikely("nuve", "nube"), "letters that sound alike");
        assert!(!unlikely("caye", "calle"), "letters that sound alike");
        assert!(
            !unlikely("standart", "standard"),
            "letters that sound alike"
        );
        assert!(!unlikely("house", "house"));
        assert!(!unlikely("жук", "жак"), "only Latin letters count");
        // `ab` → `ba` is one transposition, never two substitutions.
        assert!(!unlikely("ab", "ba"));
        // `crowm` → `crow` leaves out `m`; `crowd` writes `d` for it.
        assert!(unlikely("crowm", "crow") && unlikely("crowm", "crowd"));
    }

    #[test]
    fn prefix_distance_ignores_the_rest_of_the_word() {
        let p = |q: &str, w: &str| prefix_edit_distance(&chars(q), &chars(w), 2);
        assert_eq!(p("hous", "household"), 0);
        assert_eq!(p("huos", "household"), 1);
        assert_eq!(p("hosue", "household"), 1);
        assert_eq!(p("housx", "household"), 1);
        assert_eq!(p("dictionray", "dictionary"), 1);
        assert_eq!(p("abcd", "ab"), 2);
    }

    proptest! {
        #[test]
        fn distance_is_a_symmetric_bounded_measure(a in "[abc]{0,8}", b in "[abc]{0,8}") {
            let (ca, cb) = (chars(&a), chars(&b));
            let ab = edit_distance(&ca, &cb);
            prop_assert_eq!(ab, edit_distance(&cb, &ca));
            prop_assert_eq!(ab == 0, a == b);
            prop_assert!(ab <= ca.len().max(cb.len()));
            prop_assert!(ab >= ca.len().abs_diff(cb.len()));
        }

        #[test]
        fn prefix_distance_never_exceeds_the_distance_to_any_prefix(
            q in "[abc]{1,8}", w in "[abc]{0,12}", cut in 0usize..12
        ) {
            let (cq, cw) = (chars(&q), chars(&w));
            let cut = cut.min(cw.len());
            let best = prefix_edit_distance(&cq, &cw, 2);
            let to_prefix = edit_distance(&cq, &cw[..cut]);
            if to_prefix <= 2 {
                prop_assert!(best <= to_prefix);
            }
        }
    }

    proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// The Spanish respellings the engine generates are those this
        /// alignment finds, each at its count of rules.
        #[test]
        fn the_respellings_are_the_oracles(
            query in "[bvlyhegiu]{0,6}",
            // The query with a few of its letters rewritten into letters of
            // the rules: often a respelling, often one in the wrong place.
            edits in proptest::collection::vec((0..7usize, 0..3usize, proptest::sample::select(
                vec!["", "h", "b", "v", "y", "ll", "hue", "gue", "hie", "ye", "e"],
            )), 0..3),
        ) {
            let q: Vec<char> = query.chars().collect();
            let mut w = q.clone();
            for (at, len, to) in edits {
                let at = at.min(w.len());
                let end = (at + len).min(w.len());
                w.splice(at..end, to.chars());
            }
            let (_, spanish) = respelling::LANGUAGES.iter().find(|(l, _)| *l == "es").unwrap();
            let generated = respelling::respellings(spanish, &q, respelling::MAX_CHANGES);
            for (spelling, changes) in &generated {
                let oracle = respelling_changes("es", &q, spelling);
                proptest::prop_assert_eq!(oracle, Some(*changes), "{:?}", spelling);
            }
            let found = generated.iter().find(|(s, _)| *s == w).map(|&(_, n)| n);
            proptest::prop_assert_eq!(found, respelling_changes("es", &q, &w));
        }
    }
}
