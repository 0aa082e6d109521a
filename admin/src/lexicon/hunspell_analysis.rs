//! What `hunspell -m` says of a word: its stem and its morphological tag,
//! one analysis a line. Read by `hunspell_forms` and by `dutch_verbs`,
//! which tells verb forms by their tag.

/// One analysis of `hunspell -m`: the form, its stem (`st:`) and its first
/// tag (`ts:`), if any.
#[derive(Debug, PartialEq)]
pub struct Analysis {
    pub form: String,
    pub stem: String,
    pub tag: Option<String>,
}

/// The analyses of `hunspell -m`'s output: `form  st:stem …` lines, one per
/// analysis; an analysis of a compound (with `pa:` fields) gives none.
pub fn analyses(analysed: &str) -> Vec<Analysis> {
    analysed
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let form = fields.next()?;
            let (mut stem, mut tag) = (None, None);
            for field in fields {
                if field.starts_with("pa:") {
                    return None;
                }
                stem = stem.or(field.strip_prefix("st:"));
                tag = tag.or(field.strip_prefix("ts:"));
            }
            Some(Analysis {
                form: form.to_string(),
                stem: stem?.to_string(),
                tag: tag.map(str::to_string),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyses_have_stems_and_tags_and_compounds_none() {
        // As `hunspell -m` analyses with the Dutch dictionary.
        let analysed = "wordt  st:word ts:VB3\n\nhuizen  st:huizen\nhuizen  st:huis ts:NN2\n\n\
                        grondlijn  pa:grond st:grond pa:lijn\n\nxyzzy\n\n\
                        Loose  st:Loo ts:NN1d\tts:AJe\n";
        let want = [
            ("wordt", "word", Some("VB3")),
            ("huizen", "huizen", None),
            ("huizen", "huis", Some("NN2")),
            ("Loose", "Loo", Some("NN1d")),
        ]
        .map(|(form, stem, tag)| Analysis {
            form: form.into(),
            stem: stem.into(),
            tag: tag.map(Into::into),
        });
        assert_eq!(analyses(analysed), want);
    }
}
