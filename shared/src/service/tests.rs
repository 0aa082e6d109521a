use super::*;

#[test]
fn the_lemma_spelled_most_like_the_form_is_tried_first() {
    // Lemmas in commonness order, as the snapshot gives them.
    let ordered = |form: &str, mut lemmas: Vec<&'static str>| {
        closest_first(form, &mut lemmas, |l| l);
        lemmas
    };
    assert_eq!(
        ordered("allees", vec!["aller", "allee"]),
        ["allee", "aller"]
    );
    assert_eq!(
        ordered("zeitungen", vec!["zeit", "zeitung"]),
        ["zeitung", "zeit"]
    );
    // A tie keeps the most common first.
    assert_eq!(ordered("better", vec!["good", "well"]), ["good", "well"]);
}

fn link(
    word: &str,
    kind: &str,
    dictionary: &str,
    source_lang: &str,
    target: Option<&str>,
) -> ThesaurusItem {
    ThesaurusItem {
        word: word.into(),
        relationship_type: kind.into(),
        dictionary_id: dictionary.into(),
        dictionary_name: dictionary.into(),
        source_lang: source_lang.into(),
        target_lang: target.map(Into::into),
    }
}

fn words(links: &[ThesaurusItem]) -> Vec<&str> {
    links.iter().map(|l| l.word.as_str()).collect()
}

#[test]
fn cdn_urls_end_with_the_audio_key() {
    assert_eq!(
        cdn_url(
            "https://d1.cloudfront.net",
            "audio/freedict-eng-fra/ca0e5aa6bf1c6edd.mp3"
        ),
        "https://d1.cloudfront.net/audio/freedict-eng-fra/ca0e5aa6bf1c6edd.mp3"
    );
}

fn renditions(formats: &[AudioFormat]) -> Vec<StoredAudio> {
    formats
        .iter()
        .map(|&format| StoredAudio {
            format,
            key: format!("audio/d/x.{format}"),
        })
        .collect()
}

#[test]
fn the_format_chooses_its_rendition_and_none_the_primary() {
    use AudioFormat::{Mp3, Spx};
    let speex = renditions(&[Spx, Mp3]);
    assert_eq!(choose_audio(&speex, None).unwrap().key, "audio/d/x.spx");
    assert_eq!(
        choose_audio(&speex, Some(Mp3)).unwrap().key,
        "audio/d/x.mp3"
    );
    assert_eq!(
        choose_audio(&speex, Some(Spx)).unwrap().key,
        "audio/d/x.spx"
    );
    let mp3 = renditions(&[Mp3]);
    assert_eq!(choose_audio(&mp3, None).unwrap().key, "audio/d/x.mp3");
    assert_eq!(choose_audio(&mp3, Some(Spx)), None, "a format it lacks");
    assert_eq!(choose_audio(&[], None), None);
    assert_eq!(choose_audio(&[], Some(Mp3)), None);
}

fn bare_entry() -> Entry {
    let item = crate::storage::items::entry_to_item(&StoredEntry {
        entry: Entry {
            id: "x".into(),
            word: "maison".into(),
            source_lang: "fr".into(),
            target_lang: Some("en".into()),
            dictionary_id: "d".into(),
            dictionary_name: "D".into(),
            ..Default::default()
        },
        is_lemma: true,
        audio: vec![],
    });
    crate::storage::items::entry_from_item(&item).unwrap().entry
}

#[test]
fn audio_urls_map_every_format_primary_first() {
    let base = "https://cdn.example";
    let mut entry = bare_entry();
    let urls = renditions(&[AudioFormat::Spx, AudioFormat::Mp3])
        .into_iter()
        .map(|a| (a.format, cdn_url(base, &a.key)))
        .collect();
    set_audio_urls(&mut entry, urls);
    let json = serde_json::to_value(&entry).unwrap();
    assert_eq!(json["hasAudio"], true);
    assert_eq!(json["audioFormats"], serde_json::json!(["spx", "mp3"]));
    assert_eq!(json["audioUrl"], "https://cdn.example/audio/d/x.spx");
    assert_eq!(
        json["audioUrls"],
        serde_json::json!({
            "spx": "https://cdn.example/audio/d/x.spx",
            "mp3": "https://cdn.example/audio/d/x.mp3",
        })
    );

    let mut silent = bare_entry();
    set_audio_urls(&mut silent, Vec::new());
    let json = serde_json::to_value(&silent).unwrap();
    assert_eq!(json["hasAudio"], false);
    assert_eq!(json["audioFormats"], serde_json::json!([]));
    assert!(json.get("audioUrl").is_none() && json.get("audioUrls").is_none());
}

/// A link's word ranks by its commonness in the link's language: German
/// `Rock` (a skirt) is rare however common English `rock` is.
#[test]
fn links_rank_by_the_commonness_of_their_own_language() {
    let links = vec![
        link("Rock", "synonym", "mythes-de", "de", None),
        link("Kleid", "synonym", "mythes-de", "de", None),
    ];
    let rank = |word: &str, lang: &str| match (word, lang) {
        ("rock", "en") => 0,
        ("kleid", "de") => 1,
        ("rock", "de") => 2,
        _ => usize::MAX,
    };
    let ordered: Vec<String> = order_links(links, rank)
        .into_iter()
        .map(|l| l.word)
        .collect();
    assert_eq!(ordered, ["Kleid", "Rock"]);
}

#[test]
fn orders_by_type_then_dictionaries_then_commonness_then_word() {
    let links = vec![
        link("evil", "antonym", "wordnet-en", "en", None),
        link("fine", "synonym", "wordnet-en", "en", None),
        link("Well", "synonym", "wordnet-en", "en", None),
        link("well", "synonym", "gcide", "en", None),
        link("fine", "synonym", "mythes-en", "en", None),
        link("ample", "similar", "mythes-en", "en", None),
        link("goodness", "derivation", "wordnet-en", "en", None),
        link("bad", "antonym", "wordnet-en", "en", None),
        link("dandy", "synonym", "mythes-en", "en", None),
        link("adept", "synonym", "mythes-en", "en", None),
        link("well", "synonym", "mythes-en", "en", None),
        link("quality", "hypernym", "mythes-en", "en", None),
        link("goodness", "related", "gcide", "en", None),
    ];
    // Commonness as the index numbers terms: bad, well, fine, …
    let common = ["bad", "well", "fine", "dandy"];
    let rank =
        |word: &str, _lang: &str| common.iter().position(|w| *w == word).unwrap_or(usize::MAX);
    let ordered = order_links(links, rank);
    let listed: Vec<(&str, &str, &str)> = ordered
        .iter()
        .map(|l| {
            (
                l.relationship_type.as_str(),
                l.word.as_str(),
                l.dictionary_id.as_str(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            // Three dictionaries, then two, then one: by commonness, then alphabetically.
            ("synonym", "well", "gcide"),
            ("synonym", "well", "mythes-en"),
            ("synonym", "Well", "wordnet-en"),
            ("synonym", "fine", "mythes-en"),
            ("synonym", "fine", "wordnet-en"),
            ("synonym", "dandy", "mythes-en"),
            ("synonym", "adept", "mythes-en"),
            ("similar", "ample", "mythes-en"),
            ("antonym", "bad", "wordnet-en"),
            ("antonym", "evil", "wordnet-en"),
            ("derivation", "goodness", "wordnet-en"),
            ("related", "goodness", "gcide"),
            ("hypernym", "quality", "mythes-en"),
        ]
    );
}

#[test]
fn filters_by_language_and_source() {
    let links = vec![
        link("fine", "synonym", "mythes-en", "en", None),
        link("bien", "synonym", "freedict-fra-eng", "fr", Some("en")),
        link("bon", "synonym", "freedict-fra-eng", "fr", Some("en")),
        link("gut", "synonym", "freedict-deu-eng", "de", Some("en")),
    ];
    let fr = LangFilter::parse("fr").unwrap();
    assert_eq!(
        words(&filter_links(links.clone(), Some(&fr), None)),
        vec!["bien", "bon"]
    );
    let fr_de = LangFilter::parse("fr-de").unwrap();
    assert!(filter_links(links.clone(), Some(&fr_de), None).is_empty());
    assert_eq!(
        words(&filter_links(links, None, Some("mythes-en"))),
        vec!["fine"]
    );
}

fn candidate(id: &str, word: &str, is_lemma: bool) -> StoredEntry {
    StoredEntry {
        entry: Entry {
            id: id.into(),
            word: word.into(),
            source_lang: "de".into(),
            target_lang: Some("en".into()),
            dictionary_id: "d".into(),
            dictionary_name: "D".into(),
            ..Default::default()
        },
        is_lemma,
        audio: vec![],
    }
}

fn chosen(candidates: Vec<StoredEntry>, word: &str) -> Option<String> {
    choose_entry_for_word(candidates, word).map(|c| c.entry.id)
}

#[test]
fn exact_beats_case_insensitive_beats_folded() {
    let all = vec![
        candidate("1", "gut", true),
        candidate("2", "Gut", true),
        candidate("3", "gût", true),
    ];
    assert_eq!(chosen(all.clone(), "Gut").as_deref(), Some("2"));
    assert_eq!(chosen(all.clone(), "gut").as_deref(), Some("1"));
    assert_eq!(
        chosen(all.clone(), "GUT").as_deref(),
        Some("1"),
        "case-insensitive: lowest id"
    );
    assert_eq!(
        chosen(vec![candidate("3", "gût", true)], "gut").as_deref(),
        Some("3")
    );
}

#[test]
fn among_folded_matches_the_capitalisation_of_the_word_comes_first() {
    // FreeDict Polish–English: the city and the boat, ids as imported.
    let both = vec![
        candidate("4eb735181a5b175f", "łódź", true),
        candidate("cde954d980c405c5", "Łódź", true),
    ];
    assert_eq!(
        chosen(both.clone(), "Lodz").as_deref(),
        Some("cde954d980c405c5")
    );
    assert_eq!(
        chosen(both.clone(), "lodz").as_deref(),
        Some("4eb735181a5b175f")
    );
    // The first letter decides.
    assert_eq!(
        chosen(both.clone(), "LODZ").as_deref(),
        Some("cde954d980c405c5")
    );
    // Case-insensitive still beats folded: `ŁÓDŹ` is both, ignoring case.
    assert_eq!(chosen(both, "ŁÓDŹ").as_deref(), Some("4eb735181a5b175f"));
    assert_eq!(
        chosen(vec![candidate("1", "Łódź", true)], "lodz").as_deref(),
        Some("1")
    );
}

#[test]
fn lemma_then_lowest_id() {
    let all = vec![
        candidate("b", "Haus", true),
        candidate("a", "Haus", false),
        candidate("c", "Haus", true),
    ];
    assert_eq!(chosen(all, "Haus").as_deref(), Some("b"));
}

#[test]
fn nothing_that_does_not_fold_to_the_word() {
    assert_eq!(chosen(vec![candidate("1", "house", true)], "haus"), None);
    assert_eq!(chosen(vec![], "haus"), None);
}

/// A search over the budget is told what would narrow it: a literal
/// search (typos off, or a query too short for any) is not told to turn
/// typos off.
#[test]
fn over_budget_advice_fits_the_search() {
    let cases = [
        ("hosue", MatchType::Prefix, true, OVER_BUDGET),
        ("hosue", MatchType::Exact, true, OVER_BUDGET),
        ("hosue", MatchType::Prefix, false, LITERAL_OVER_BUDGET),
        ("a", MatchType::Prefix, true, LITERAL_OVER_BUDGET),
        ("a*c", MatchType::Pattern, true, PATTERN_OVER_BUDGET),
        // A substring has no typos to turn off, whatever `fuzzy` says.
        ("nation", MatchType::Contains, true, CONTAINS_OVER_BUDGET),
        ("nation", MatchType::Contains, false, CONTAINS_OVER_BUDGET),
    ];
    for (q, match_type, fuzzy, advice) in cases {
        let rule = MatchRule::new(q, match_type, fuzzy);
        assert_eq!(over_budget(&rule), advice, "{q} {match_type:?} {fuzzy}");
    }
}
