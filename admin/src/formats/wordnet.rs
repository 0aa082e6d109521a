//! WordNet's `index.<pos>` lines (wndb(5WN)): the part of the WordNet
//! database that both the importer (import/wordnet.rs) and the lexicon's
//! forms reader (lexicon/wordnet_forms.rs) read.

/// One `index.<pos>` line: the lemma and its synset offsets, most frequent first.
pub fn parse_index_line(line: &str) -> Result<Option<(String, Vec<u32>)>, String> {
    if line.starts_with(' ') || line.trim().is_empty() {
        return Ok(None);
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    let field = |i: usize, what: &str| f.get(i).copied().ok_or_else(|| format!("missing {what}"));
    let lemma = field(0, "lemma")?.replace('_', " ");
    let synset_count: usize = field(2, "synset count")?
        .parse()
        .map_err(|_| "synset count is not a number")?;
    let pointer_count: usize = field(3, "pointer count")?
        .parse()
        .map_err(|_| "pointer count is not a number")?;
    let first = 4 + pointer_count + 2;
    let offsets = (0..synset_count)
        .map(|i| {
            field(first + i, "synset offset")?
                .parse()
                .map_err(|_| "synset offset is not a number".to_string())
        })
        .collect::<Result<Vec<u32>, String>>()?;
    Ok(Some((lemma, offsets)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_an_index_line() {
        let (lemma, offsets) =
            parse_index_line("able a 4 4 ! & = + 4 3 00001740 00510348 00306663 01017439  ")
                .unwrap()
                .unwrap();
        assert_eq!(lemma, "able");
        assert_eq!(offsets, vec![1740, 510348, 306663, 1017439]);
        let (lemma, _) = parse_index_line("ice_cream n 1 1 @ 1 0 07611358")
            .unwrap()
            .unwrap();
        assert_eq!(lemma, "ice cream");
    }
}
