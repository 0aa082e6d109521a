//! Random typos for the benchmarks' queries: what a person's slip does to a
//! word.

use rand::Rng;

/// `word` with `edits` random edits: a substitution, an insertion, a
/// deletion or a swap of neighbours, each of a lower-case ASCII letter.
pub fn random_edits(word: &str, edits: usize, rng: &mut impl Rng) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    for _ in 0..edits {
        let at = rng.random_range(0..chars.len().max(1));
        let c = char::from(b'a' + rng.random_range(0..26u8));
        match rng.random_range(0..4) {
            0 if at < chars.len() => chars[at] = c,
            2 if chars.len() > 2 => {
                chars.remove(at.min(chars.len() - 1));
            }
            3 if at + 1 < chars.len() => chars.swap(at, at + 1),
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}
