//! Search and autocomplete against the running stack: every rule of
//! docs/api.md ("Matching and ranking"), checked against an oracle that scans
//! every entry of DynamoDB Local and applies the rules naively.

use blackbox::{all_entries, enc, get_demo, stored_lexicon, OracleEntry};
use serde_json::Value;
use shared::fold::{capitalised_as, fold};
use shared::search::lexicon::Lexicon;
use shared::search::matching::{MatchRule, MatchType, TypoKind};
use shared::search::oracle;
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

/// A search and its expected results (`patterns.rs` uses it too).
#[derive(Debug, Clone)]
pub(crate) struct Query {
    pub(crate) q: &'static str,
    pub(crate) match_type: MatchType,
    pub(crate) fuzzy: bool,
    pub(crate) lang: Option<&'static str>,
    pub(crate) source: Option<&'static str>,
    pub(crate) pos: Option<&'static str>,
    pub(crate) has_audio: bool,
}

impl Query {
    pub(crate) fn new(q: &'static str, match_type: &'static str) -> Self {
        Self {
            q,
            match_type: MatchType::from_name(match_type).expect("a match type"),
            fuzzy: true,
            lang: None,
            source: None,
            pos: None,
            has_audio: false,
        }
    }

    pub(crate) fn path(&self, limit: usize, offset: usize) -> String {
        let mut path = format!(
            "/api/v1/api/search?q={}&matchType={}&fuzzy={}&limit={limit}&offset={offset}",
            enc(self.q),
            self.match_type.name(),
            self.fuzzy
        );
        for (name, value) in [
            ("lang", self.lang),
            ("source", self.source),
            ("pos", self.pos),
        ] {
            if let Some(value) = value {
                path.push_str(&format!("&{name}={}", enc(value)));
            }
        }
        if self.has_audio {
            path.push_str("&hasAudio=true");
        }
        path
    }

    /// The expected results, in order: the rules of decisions.md applied to
    /// every entry, with the lexicon the index was built with.
    pub(crate) fn expected(&self, entries: &[OracleEntry], lexicon: &Lexicon) -> Vec<String> {
        // Folded (a pattern run by run, as the service does).
        let rule = MatchRule::of_query(self.q, self.match_type, self.fuzzy).expect("a valid q");
        let (qs, edits, typed) = (rule.query().to_string(), rule.max_edits, rule.capitalised);
        let commonness = commonness(entries, lexicon);
        let admitted: Vec<&OracleEntry> = entries
            .iter()
            .filter(|e| self.source.is_none_or(|s| e.dictionary == s))
            .filter(|e| {
                self.lang.is_none_or(|l| match l.split_once('-') {
                    Some((s, t)) => e.source_lang == s && e.target_lang.as_deref() == Some(t),
                    None => e.source_lang == l,
                })
            })
            .filter(|e| !self.has_audio || e.has_audio)
            .filter(|e| {
                self.pos
                    .is_none_or(|p| e.pos.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(p)))
            })
            .collect();
        // (tier, an exact match not capitalised as q was typed, commonness of
        // its word, length, folded, language, its place among its
        // dictionary's entries of the headword, dictionary, id) and the
        // result's name. Tiers: 0
        // exact, 1 literal, 2 lemma, then typos (`oracle::typo_tier`), those
        // of the extra edit after 1000.
        type Ranked = (
            (
                usize,
                bool,
                Reverse<(bool, usize)>,
                usize,
                String,
                String,
                usize,
                String,
                String,
            ),
            String,
        );
        // Each dictionary's first entry of a headword, then each one's
        // second, … (ids ascending).
        let mut ids: HashMap<(String, &str), Vec<&str>> = HashMap::new();
        for e in entries {
            let key = (fold(&e.word), e.dictionary.as_str());
            ids.entry(key).or_default().push(&e.id);
        }
        let mut sense: HashMap<(String, &str, &str), usize> = HashMap::new();
        for ((folded, dictionary), mut ids) in ids {
            ids.sort_unstable();
            for (n, id) in ids.into_iter().enumerate() {
                sense.insert((folded.clone(), dictionary, id), n);
            }
        }
        let tier = |e: &OracleEntry, edits: usize| -> Option<usize> {
            let f = fold(&e.word);
            oracle::tier(&qs, self.match_type, edits, lexicon, &e.source_lang, &f)
        };
        let rank = |e: &OracleEntry, tier: usize| -> Ranked {
            let f = fold(&e.word);
            let key = (
                tier,
                tier == 0 && !capitalised_as(&e.word, typed),
                Reverse(commonness[&(f.clone(), e.source_lang.clone())]),
                f.chars().count(),
                f.clone(),
                e.source_lang.clone(),
                sense
                    .get(&(f, e.dictionary.as_str(), e.id.as_str()))
                    .copied()
                    .unwrap_or(0),
                e.dictionary.clone(),
                e.id.clone(),
            );
            (key, format!("{}/{}", e.dictionary, e.id))
        };
        let mut ranked: Vec<Ranked> = admitted
            .iter()
            .filter_map(|e| tier(e, edits).map(|t| rank(e, t)))
            .collect();
        // Words: a folded headword in a language.
        let headwords: HashSet<(&String, &String)> =
            ranked.iter().map(|r| (&r.0 .4, &r.0 .5)).collect();
        if edits > 0 && qs.chars().count() >= 5 && headwords.len() < 5 {
            let further: Vec<Ranked> = admitted
                .iter()
                .filter_map(|e| {
                    let t = tier(e, edits + 1)?;
                    let last = t >= oracle::typo_tier(edits + 1, TypoKind::Doubling);
                    last.then(|| rank(e, 1000 + t))
                })
                .collect();
            ranked.extend(further);
        }
        ranked.sort();
        ranked.into_iter().map(|(_, id)| id).collect()
    }
}

/// Every word's commonness by decisions.md, over every entry, by (folded
/// headword, language): (listed in that language's frequency list, the
/// frequency there or else its number of dictionaries of that language).
fn commonness(
    entries: &[OracleEntry],
    lexicon: &Lexicon,
) -> HashMap<(String, String), (bool, usize)> {
    let mut seen: HashMap<(String, String), HashSet<&str>> = HashMap::new();
    for e in entries {
        let word = (fold(&e.word), e.source_lang.clone());
        seen.entry(word).or_default().insert(&e.dictionary);
    }
    seen.into_iter()
        .map(|((term, lang), dictionaries)| {
            let c = oracle::commonness(lexicon, &term, &lang, dictionaries.len());
            ((term, lang), c)
        })
        .collect()
}

/// GraphQL's `search` of `q` with `matchType` answers as REST's: the same
/// total and the same results in order. Returns REST's results.
pub(crate) async fn graphql_searches_as_rest(q: &str, match_type: &str, limit: u32) -> Vec<Value> {
    let rest = get_demo(&format!(
        "/api/v1/api/search?q={}&matchType={match_type}&limit={limit}",
        enc(q)
    ))
    .await;
    assert_eq!(rest.status, 200, "{}", rest.text);
    let body = serde_json::json!({
        "query": "query($q: String!, $m: String!, $n: Int!) { search(q: $q, matchType: $m, limit: $n) { total results { id dictionaryId word } } }",
        "variables": {"q": q, "m": match_type, "n": limit},
    });
    let reply = blackbox::graphql_body(Some(&blackbox::demo_key()), &body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let page = &reply.json["data"]["search"];
    assert_eq!(
        page["total"], rest.json["meta"]["total"],
        "{q} {match_type}"
    );
    let ids = |list: &Value| -> Vec<(String, String)> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|r| (r["dictionaryId"].to_string(), r["id"].to_string()))
            .collect()
    };
    assert_eq!(ids(&page["results"]), ids(rest.data()), "{q} {match_type}");
    rest.data().as_array().unwrap().clone()
}

/// Every result of a query, paged through with `limit`, and the totals seen.
pub(crate) async fn page_through(query: &Query, limit: usize) -> (Vec<String>, HashSet<u64>) {
    let mut ids = Vec::new();
    let mut totals = HashSet::new();
    let mut offset = 0;
    loop {
        let reply = get_demo(&query.path(limit, offset)).await;
        let data = reply.data().as_array().unwrap().clone();
        totals.insert(reply.json["meta"]["total"].as_u64().unwrap());
        assert_eq!(reply.json["meta"]["limit"], limit as u64);
        assert_eq!(reply.json["meta"]["offset"], offset as u64);
        assert!(data.len() <= limit);
        ids.extend(data.iter().map(|r| {
            format!(
                "{}/{}",
                r["dictionaryId"].as_str().unwrap(),
                r["id"].as_str().unwrap()
            )
        }));
        if data.len() < limit {
            return (ids, totals);
        }
        offset += limit;
    }
}

async fn search_words(path: &str) -> Vec<String> {
    get_demo(path)
        .await
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["word"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn every_match_type_filter_and_order_agrees_with_a_scan() {
    let entries = all_entries().await;
    let lexicon = stored_lexicon().await;
    assert!(
        !lexicon.forms.is_empty() && !lexicon.frequencies.is_empty(),
        "the fixture's lexicon is stored"
    );
    assert!(entries.len() > 1000, "the fixture is imported");
    let mut queries = Vec::new();
    for (q, match_type) in [
        ("b", "prefix"),
        ("ba", "prefix"),
        ("bank", "prefix"),
        ("hous", "prefix"),
        ("hosue", "prefix"),
        ("house", "exact"),
        ("hause", "exact"),
        ("ecole", "exact"),
        ("Ecole", "prefix"),
        // Headwords that fold alike but for a capital (the city `Łódź`,
        // the boat `łódź`): the capital of q orders the exact tier.
        ("Lodz", "prefix"),
        ("lodz", "exact"),
        ("dictonry", "exact"),
        ("an", "contains"),
        ("ous", "contains"),
        ("tion", "contains"),
        ("a", "contains"),
        // Inflected forms (lemma matches) and a typo that takes the extra edit.
        ("went", "exact"),
        ("houses", "prefix"),
        ("Häuser", "exact"),
        ("cats", "exact"),
        ("unirom", "exact"),
        ("unirom", "prefix"),
        // Typos of inflected forms (`running`, `booked`).
        ("runnin", "prefix"),
        ("boked", "exact"),
        // Long prefix searches with two edits (three as the extra edit),
        // anchored on their head and on pieces read from the grams; one
        // whose first letter is wrong.
        ("dictoinarry", "prefix"),
        ("xnformation", "prefix"),
        ("intrenationall", "prefix"),
    ] {
        queries.push(Query::new(q, match_type));
        queries.push(Query {
            fuzzy: false,
            ..Query::new(q, match_type)
        });
    }
    let filtered = |q: &'static str, m: &'static str| {
        let base = Query::new(q, m);
        vec![
            Query {
                lang: Some("en"),
                ..base.clone()
            },
            Query {
                lang: Some("en-fr"),
                ..base.clone()
            },
            Query {
                lang: Some("fr"),
                has_audio: true,
                ..base.clone()
            },
            Query {
                source: Some("gcide"),
                ..base.clone()
            },
            Query {
                pos: Some("noun"),
                ..base.clone()
            },
            Query {
                pos: Some("NOUN"),
                lang: Some("de"),
                ..base.clone()
            },
            Query {
                has_audio: true,
                ..base.clone()
            },
            Query {
                lang: Some("xx"),
                ..base.clone()
            },
            Query {
                source: Some("freedict-eng-fra"),
                has_audio: true,
                lang: Some("en-fr"),
                ..base
            },
        ]
    };
    queries.extend(filtered("b", "prefix"));
    queries.extend(filtered("house", "prefix"));
    queries.extend(filtered("e", "contains"));
    queries.extend(filtered("houses", "exact"));

    for query in &queries {
        let expected = query.expected(&entries, &lexicon);
        let (got, totals) = page_through(query, 100).await;
        assert_eq!(got, expected, "{query:?}");
        assert_eq!(
            totals.into_iter().collect::<Vec<_>>(),
            vec![expected.len() as u64],
            "exact total: {query:?}"
        );
    }
}

#[tokio::test]
async fn consecutive_pages_never_repeat_or_skip() {
    for query in [Query::new("b", "prefix"), Query::new("e", "contains")] {
        let (whole, _) = page_through(&query, 100).await;
        assert!(whole.len() > 40, "{query:?} has several pages");
        for limit in [1, 7, 20] {
            let (paged, totals) = page_through(&query, limit).await;
            assert_eq!(paged, whole, "limit {limit}");
            assert_eq!(totals.len(), 1, "total is the same on every page");
        }
        let past_the_end = get_demo(&query.path(10, whole.len() + 5)).await;
        assert_eq!(past_the_end.data(), &Value::Array(vec![]));
        assert_eq!(past_the_end.json["meta"]["total"], whole.len() as u64);
    }
}

#[tokio::test]
async fn case_and_diacritics_do_not_matter_and_the_headword_is_returned() {
    let words = search_words("/api/v1/api/search?q=ecole&matchType=exact&fuzzy=false").await;
    assert!(!words.is_empty());
    assert!(words.iter().all(|w| w == "école"), "{words:?}");
    // Like for like, without typos: with them, `ecole` finds fewer than 5
    // headwords and so takes a second edit (`encore`, `côté` …).
    let upper = search_words(&format!(
        "/api/v1/api/search?q={}&matchType=exact&fuzzy=false",
        enc("ÉCOLE")
    ))
    .await;
    assert_eq!(upper, words);
    let german = search_words(&format!(
        "/api/v1/api/search?q={}&matchType=exact",
        enc("SCHULE")
    ))
    .await;
    assert!(german.contains(&"Schule".to_string()), "{german:?}");
}

#[tokio::test]
async fn typos_are_tolerated_by_the_rules_and_no_further() {
    let finds = |q: &'static str, m: &'static str| async move {
        search_words(&format!("/api/v1/api/search?q={q}&matchType={m}&limit=100")).await
    };
    // One edit from four characters, of every kind.
    assert!(
        finds("hause", "exact").await.contains(&"house".into()),
        "substitution"
    );
    assert!(
        finds("housse", "exact").await.contains(&"house".into()),
        "insertion"
    );
    assert!(
        finds("huse", "exact").await.contains(&"house".into()),
        "deletion"
    );
    assert!(
        finds("hosue", "exact").await.contains(&"house".into()),
        "transposition"
    );
    assert!(
        finds("bnak", "exact").await.contains(&"bank".into()),
        "4 characters, 1 edit"
    );
    // Not two edits below eight characters, nothing below four.
    assert!(!finds("hsoeu", "exact").await.contains(&"house".into()));
    assert!(
        finds("cta", "exact").await.is_empty(),
        "3 characters allow no typo"
    );
    // Two edits from eight characters; prefix typos apply to the prefix.
    assert!(finds("dictonry", "exact")
        .await
        .contains(&"dictionary".into()));
    assert!(finds("dictoinar", "prefix")
        .await
        .contains(&"dictionary".into()));
    // fuzzy=false turns it off; contains is always literal.
    let off = search_words("/api/v1/api/search?q=hosue&matchType=exact&fuzzy=false").await;
    assert!(off.is_empty(), "{off:?}");
    assert!(!finds("hosue", "contains").await.contains(&"house".into()));
}

#[tokio::test]
async fn results_carry_the_interface_fields() {
    let reply = get_demo("/api/v1/api/search?q=bank&matchType=exact&source=freedict-eng-fra").await;
    let first = &reply.data()[0];
    assert_eq!(first["word"], "bank");
    assert_eq!(first["dictionaryId"], "freedict-eng-fra");
    assert_eq!(first["dictionaryName"], "English–French (FreeDict)");
    assert_eq!(first["sourceLang"], "en");
    assert_eq!(first["targetLang"], "fr");
    assert_eq!(first["phonetic"], "bæŋk");
    assert_eq!(first["hasAudio"], true);
    assert_eq!(first["preview"], "banque");
    // The id works with the entry endpoint.
    let id = first["id"].as_str().unwrap();
    let entry = get_demo(&format!("/api/v1/entry/freedict-eng-fra/{id}")).await;
    assert_eq!(entry.data()["word"], "bank");
    // Previews are at most 160 characters.
    let long = get_demo("/api/v1/api/search?q=house&source=gcide").await;
    for r in long.data().as_array().unwrap() {
        assert!(r["preview"].as_str().unwrap().chars().count() <= 160, "{r}");
    }
}

#[tokio::test]
async fn autocomplete_is_literal_distinct_and_alphabetical() {
    let entries = all_entries().await;
    let expected = |prefix: &str, source: Option<&str>, lang: Option<&str>| {
        let mut words: Vec<(String, String)> = entries
            .iter()
            .filter(|e| source.is_none_or(|s| e.dictionary == s))
            .filter(|e| lang.is_none_or(|l| e.source_lang == l))
            .filter(|e| fold(&e.word).starts_with(&fold(prefix)))
            .map(|e| (fold(&e.word), e.word.clone()))
            .collect();
        words.sort();
        words.dedup();
        words.into_iter().map(|(_, w)| w).collect::<Vec<_>>()
    };
    let get = |path: String| async move {
        let reply = get_demo(&path).await;
        assert_eq!(reply.header("cache-control"), Some("private, max-age=300"));
        assert_eq!(reply.header("vary"), Some("Authorization"));
        let words: Vec<String> = reply
            .data()
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect();
        (words, reply.json["meta"]["limit"].as_u64().unwrap())
    };
    let (words, limit) = get("/api/v1/api/autocomplete?q=b".into()).await;
    assert_eq!(limit, 10);
    assert_eq!(words, expected("b", None, None)[..10]);
    let (words, _) = get("/api/v1/api/autocomplete?q=b&limit=50".into()).await;
    assert_eq!(words, expected("b", None, None)[..50]);
    let (words, _) = get(format!("/api/v1/api/autocomplete?q={}&limit=50", enc("Éc"))).await;
    assert_eq!(words, expected("ec", None, None));
    assert!(words.contains(&"école".to_string()));
    let (words, _) = get("/api/v1/api/autocomplete?q=ba&lang=de&limit=50".into()).await;
    assert_eq!(words, expected("ba", None, Some("de")));
    let (words, _) = get("/api/v1/api/autocomplete?q=ba&source=gcide&limit=50".into()).await;
    assert_eq!(words, expected("ba", Some("gcide"), None));
    // Literal only: a typo finds nothing.
    let (words, _) = get("/api/v1/api/autocomplete?q=hosu".into()).await;
    assert!(words.is_empty(), "{words:?}");
    let distinct: HashSet<&String> = words.iter().collect();
    assert_eq!(distinct.len(), words.len());
}

#[tokio::test]
async fn a_missing_word_suggests_close_headwords() {
    let reply = get_demo("/api/v1/api/entry/freedict-eng-fra/word/hosue").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.error(), "Entry not found");
    let suggestions = reply.json["suggestions"].as_array().expect("suggestions");
    assert!(suggestions.len() <= 5);
    assert!(
        suggestions.contains(&Value::from("house")),
        "{suggestions:?}"
    );
}

#[tokio::test]
async fn hostile_queries_are_answered_not_crashed() {
    for q in [
        "%27%20OR%201%3D1--",
        "%3Cscript%3E",
        "%23%23%23",
        "IP%23e",
        "%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80",
        "%CC%81",
    ] {
        for m in ["exact", "prefix", "contains"] {
            let reply = get_demo(&format!("/api/v1/api/search?q={q}&matchType={m}")).await;
            assert_eq!(reply.status, 200, "{q} {m}: {}", reply.text);
        }
        let reply = get_demo(&format!("/api/v1/api/autocomplete?q={q}")).await;
        assert_eq!(reply.status, 200, "{q}: {}", reply.text);
    }
}
