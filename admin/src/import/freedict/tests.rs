use super::*;
use crate::import::fixtures::{find, fixture, MAX};

const HAUS: &str = "Haus /hˈaʊs/ <neut, n, sg>\nhouse <n>\n      \"ein Haus bauen\"  - build a house\n      \"Haus der offenen Tür\"  - open house\n see: {Häuser}, {frei Haus}\n\n";

#[test]
fn parses_a_deu_eng_article() {
    let a = parse_article(HAUS).unwrap();
    assert_eq!(a.headword, "Haus");
    assert_eq!(a.phonetic.as_deref(), Some("hˈaʊs"));
    assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
    assert_eq!(a.senses.len(), 1);
    assert_eq!(a.senses[0].translations, vec!["house"]);
    assert_eq!(
        a.senses[0].examples[0],
        ("ein Haus bauen".to_string(), "build a house".to_string())
    );
    assert_eq!(a.see_also, vec!["Häuser", "frei Haus"]);
}

#[test]
fn parses_numbered_senses_and_labels() {
    let a = parse_article("a /ə/\n1. à, au milie de, en\n2. un, quelqu'un\n").unwrap();
    assert_eq!(a.phonetic.as_deref(), Some("ə"));
    assert_eq!(a.part_of_speech, None);
    assert_eq!(a.senses[0].translations, vec!["à", "au milie de", "en"]);
    assert_eq!(a.senses[1].translations, vec!["un", "quelqu'un"]);

    let a = parse_article("Haus /hˈaʊs/ <neut, n, sg>\n [ugs.]  [mus.] volta bracket <n>\n         Note: sheet music\n   Synonym: {Voltenklammer}\n").unwrap();
    assert_eq!(a.senses[0].labels, vec!["ugs.", "mus."]);
    assert_eq!(a.senses[0].translations, vec!["volta bracket"]);
    assert_eq!(a.senses[0].notes, vec!["sheet music"]);
    assert_eq!(a.synonyms, vec!["Voltenklammer"]);
}

#[test]
fn abbreviation_in_header_does_not_leak_into_headword() {
    let a =
        parse_article("Straße /ʃtɾˈɑːsə/ (Str. /ˌɛstˌeːˈɛɾ/) <fem, n, sg>\nstreet <n>\n").unwrap();
    assert_eq!(a.headword, "Straße");
    assert_eq!(a.phonetic.as_deref(), Some("ʃtɾˈɑːsə"));
    assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
}

#[test]
fn multi_word_headwords() {
    let a = parse_article("a few /ə fjuː/\nquelques\n").unwrap();
    assert_eq!(a.headword, "a few");
    assert_eq!(a.senses[0].translations, vec!["quelques"]);
}

/// freedict-ita-fin, -nld-spa, -eng-bul and others of Debian 12 write
/// the IPA between doubled slashes: it was read as empty.
#[test]
fn ipa_between_doubled_slashes() {
    let a = parse_article("abaco //ˈabako// <n>\nabacus\n").unwrap();
    assert_eq!(a.headword, "abaco");
    assert_eq!(a.phonetic.as_deref(), Some("ˈabako"));
    assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
    let a = parse_article("1st //fɜːst// //fɝst// <adj>\nfirst\n").unwrap();
    assert_eq!(a.phonetic.as_deref(), Some("fɜːst"));
    assert_eq!(a.part_of_speech.as_deref(), Some("adjective"));
}

/// freedict-eng-tur (`atrabilious, /…/`) and spa-deu (`modisto, | modista`).
#[test]
fn header_commas_and_alternative_forms() {
    let a = parse_article("atrabilious, /ˌatɹɐbˈɪliəs/\nkara sevdalı\n").unwrap();
    assert_eq!(a.headword, "atrabilious");
    assert!(a.forms.is_empty());
    let a = parse_article(
        "modisto, | modista /moðˈisto/ /moðˈista/ <n, f>\nSchneider, | Schneiderin <n, f>\n",
    )
    .unwrap();
    assert_eq!(a.headword, "modisto");
    assert_eq!(a.forms, vec![("modista".to_string(), None)]);
    let words: Vec<String> = by_form(a).into_iter().map(|a| a.headword).collect();
    assert_eq!(words, vec!["modisto", "modista"]);
    // A headword that is only a comma stays one.
    assert_eq!(parse_article(",\ncoma\n").unwrap().headword, ",");
}

/// freedict-epo-eng stores every article three times: one sense, not three.
#[test]
fn an_article_repeated_word_for_word_is_one_sense() {
    let text = "akcesoraĵo /ˌaktsesorˈaʒo/\naccessory, side issue, gadget\n";
    let articles = (0..3).map(|_| parse_article(text).unwrap()).collect();
    let merged = merge_articles(articles);
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].senses.len(), 1);
}

/// freedict-jpn-eng of Debian 12: the headword was
/// `[ichi1]  [news2]  [nf29]  悪女`, the reading あくじょ no headword, the
/// IPA espeak's "Chinese letter Chinese letter", and the part of speech
/// a translation.
#[test]
fn jmdict_articles_give_every_form_its_entry() {
    let text = " [ichi1]  [news2]  [nf29]  悪女 /(en)tʃˈaɪniːz(ja)lˈe̞tə (en)tʃˈaɪniːz(ja)lˈe̞tə/,  [ichi1]  [news2]  [nf29] あくじょ /äkˈɯᵝdʑo̞/\n(noun (common) (futsuumeishi))\nwicked or ugly woman\n";
    let a = parse_article_of(text, Layout::JMdict).unwrap();
    assert_eq!(a.headword, "悪女");
    assert_eq!(a.phonetic, None);
    assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
    assert_eq!(a.senses.len(), 1);
    assert_eq!(a.senses[0].translations, vec!["wicked or ugly woman"]);
    assert_eq!(
        a.forms,
        vec![("あくじょ".to_string(), Some("äkˈɯᵝdʑo̞".to_string()))]
    );
    let both = by_form(a);
    assert_eq!(both[1].headword, "あくじょ");
    assert_eq!(both[1].phonetic.as_deref(), Some("äkˈɯᵝdʑo̞"));
    assert_eq!(both[1].forms, vec![("悪女".to_string(), None)]);
    assert_eq!(both[1].senses, both[0].senses);

    // Restrictions, symbols without IPA, several part-of-speech lines.
    let text = "ザルガイ科 /sˈä (en)dʒˈapəniːz(ja)lˈe̞tə/, 笊貝科 /(en)tʃˈaɪniːz(ja)lˈe̞tə/,  (ザルガイ科)  ザルガイか /zˌäɽɯᵝɡäˈikä/,  () ギンザメ /ɡˌiũzˈäme̞/, →\n(nouns which may take the genitive case particle `no')\n (noun (common) (futsuumeishi))\nCardiidae\n";
    let a = parse_article_of(text, Layout::JMdict).unwrap();
    assert_eq!(a.headword, "ザルガイ科");
    let forms: Vec<&str> = a.forms.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(forms, vec!["笊貝科", "ザルガイか", "ギンザメ", "→"]);
    assert_eq!(a.part_of_speech.as_deref(), Some("noun"));
    assert_eq!(a.senses.len(), 1);
    // Not a JMdict dictionary: the header is read as ever.
    assert_eq!(
        parse_article("kto mieczem wojuje, (ten) od miecza ginie /ˈktɔ/ <proverb>\nx\n")
            .unwrap()
            .headword,
        "kto mieczem wojuje"
    );
}

/// freedict-pol-eng (WikDict), word for word: the Polish line under
/// each line of translations was a sense of its own, whose
/// "translations" were `(geografia` and `geograficzny) (administracja)
/// miasto w Polsce`.
const GDANSK: &str = "Gdańsk /ɡdãj̃sk/ <pn>\nGdańsk, Gdansk\n(geografia, geograficzny) (administracja) miasto w Polsce;\n";
const JABLKO: &str = "jabłko /ˈjap.kɔ/ /ˈjap.w̥kɔ/ <n>\n1. kneecap\n(potocznie, potoczny) rzepka w kolanie\n2. Adam's apple\n(potocznie, potoczny) wystająca grdyka u mężczyzn, jabłko Adama\n3. apple 2.\n(spożywczy) owoc jabłoni\n 3.\nprzedmiot w kształcie jabłka (1.1) lub je przypominający\n4. orb\nzłota kula z krzyżem, symbol władzy królewskiej;\n";

fn translations_and_glosses(article: &Article) -> Vec<(Vec<&str>, Vec<&str>)> {
    article
        .senses
        .iter()
        .map(|s| {
            (
                s.translations.iter().map(String::as_str).collect(),
                s.glosses.iter().map(String::as_str).collect(),
            )
        })
        .collect()
}

#[test]
fn wikdict_glosses_belong_to_their_sense() {
    let a = parse_article_of(GDANSK, Layout::WikDict).unwrap();
    assert_eq!(a.headword, "Gdańsk");
    assert_eq!(a.part_of_speech.as_deref(), Some("proper noun"));
    assert_eq!(
        translations_and_glosses(&a),
        [(
            vec!["Gdańsk", "Gdansk"],
            vec!["(geografia, geograficzny) (administracja) miasto w Polsce"]
        )]
    );

    let a = parse_article_of(JABLKO, Layout::WikDict).unwrap();
    assert_eq!(
        translations_and_glosses(&a),
        [
            (
                vec!["kneecap"],
                vec!["(potocznie, potoczny) rzepka w kolanie"]
            ),
            (
                vec!["Adam's apple"],
                vec!["(potocznie, potoczny) wystająca grdyka u mężczyzn, jabłko Adama"]
            ),
            // Two of Wiktionary's senses (numbered 2. and 3. there)
            // share the translation.
            (
                vec!["apple"],
                vec![
                    "(spożywczy) owoc jabłoni",
                    "przedmiot w kształcie jabłka (1.1) lub je przypominający"
                ]
            ),
            (
                vec!["orb"],
                vec!["złota kula z krzyżem, symbol władzy królewskiej"]
            ),
        ]
    );

    // A gloss without labels, and a translation line followed directly
    // by the next sense: no gloss, no sense made of the next line.
    let a = parse_article_of(
        "łyżka /ˈwɨʃka/ <n>\n1. shovel\n2. spoon\nsztuciec służący do jedzenia\n",
        Layout::WikDict,
    )
    .unwrap();
    assert_eq!(
        translations_and_glosses(&a),
        [
            (vec!["shovel"], vec![]),
            (vec!["spoon"], vec!["sztuciec służący do jedzenia"])
        ]
    );
}

/// Other dictionaries give translations on consecutive lines: each is a
/// sense, as before, and a trailing number stays.
#[test]
fn other_dictionaries_read_every_line_as_translations() {
    let a = parse_article(GDANSK).unwrap();
    assert_eq!(
        translations_and_glosses(&a),
        [
            (vec!["Gdańsk", "Gdansk"], vec![]),
            (
                vec![
                    "(geografia",
                    "geograficzny) (administracja) miasto w Polsce"
                ],
                vec![]
            )
        ]
    );
    let a = parse_article("Haus /hˈaʊs/ <n>\nhouse\nhome\nCatch 22.\n").unwrap();
    assert_eq!(
        translations_and_glosses(&a),
        [
            (vec!["house"], vec![]),
            (vec!["home"], vec![]),
            (vec!["Catch 22."], vec![])
        ]
    );
}

#[test]
fn the_layout_comes_from_the_database_information() {
    let wikdict = "język polski-English FreeDict+WikDict dictionary ver. 2022.11.18";
    assert_eq!(layout_of("pl", wikdict, ""), Layout::WikDict);
    assert_eq!(layout_of("pl", "", wikdict), Layout::WikDict);
    assert_eq!(
        layout_of("de", "German-English FreeDict Dictionary ver. 1.9-fd1", ""),
        Layout::Plain
    );
    assert_eq!(layout_of("ja", "", ""), Layout::JMdict);
}

#[test]
fn wikdict_fixture_keeps_glosses_out_of_translations_and_reverse_lookup() {
    let imported = import_freedict(&fixture("freedict/freedict-pol-eng"), MAX).unwrap();
    let lodz = find(&imported, "Łódź", Some("proper noun"));
    assert_eq!(lodz.translations, vec!["Lodz"]);
    assert_eq!(
        lodz.plain_text,
        "Lodz\nGloss: (geografia, geograficzny) (administracja) miasto w centralnej Polsce"
    );
    assert!(lodz.html_content.contains("miasto w centralnej Polsce"));
    assert_eq!(
        shared::search::definitions::definition_text(&lodz.plain_text, &lodz.examples),
        "Lodz"
    );
    let jablko = find(&imported, "jabłko", Some("noun"));
    assert_eq!(
        jablko.translations,
        vec!["kneecap", "Adam's apple", "apple", "orb"]
    );
    let polish = imported
        .entries
        .iter()
        .flat_map(|e| &e.entry.translations)
        .find(|t| t.starts_with('(') || t.contains("Polsce") || t.ends_with('.'));
    assert_eq!(polish, None);
    // The English dictionaries are read as ever.
    let imported = import_freedict(&fixture("freedict/freedict-eng-fra"), MAX).unwrap();
    assert!(!imported
        .entries
        .iter()
        .any(|e| e.entry.plain_text.contains("Gloss: ")));
}

#[test]
fn espeak_language_markers_are_removed_from_ipa() {
    assert_eq!(clean_ipa("(en)bˈæŋk(de)"), "bˈæŋk");
    assert_eq!(clean_ipa("kˈɒmpjuːtɐ(en-us)"), "kˈɒmpjuːtɐ");
    assert_eq!(clean_ipa("a(ː)b"), "a(ː)b", "optional length marks stay");
}

#[test]
fn merges_articles_of_one_headword_and_pos() {
    let first = parse_article("gut /ɡˈuːt/ <adj>\ngood <adj>\n   Synonym: {artig}\n").unwrap();
    let second =
        parse_article("gut /ɡˈuːt/ <adj>\nproficient <adj>\n   Synonym: {fähig}\n").unwrap();
    let noun = parse_article("Gut /ɡˈuːt/ <neut, n, sg>\nestate <n>\n").unwrap();
    let merged = merge_articles(vec![first, noun, second]);
    assert_eq!(merged.len(), 2);
    assert_eq!(merged[0].senses.len(), 2);
    assert_eq!(merged[0].synonyms, vec!["artig", "fähig"]);
    assert_eq!(merged[1].headword, "Gut");
}

#[test]
fn hostile_text_never_panics() {
    for text in [
        "",
        "\n\n",
        "/",
        "x /",
        "x <",
        "\"",
        "[",
        "1. ",
        "Synonyms: {",
        "a\n[b\n<c\n\"d",
        "a\n 3.\n1.\n2. \n;\n x 4.\n 5.",
        "4.\n4. 4.\n 4.",
    ] {
        for layout in [Layout::Plain, Layout::JMdict, Layout::WikDict] {
            let _ = parse_article_of(text, layout);
        }
    }
}

#[test]
fn languages_come_from_the_name() {
    let codes = |id| freedict_languages(id).map(|((s, _), (t, _))| (s, t));
    assert_eq!(codes("freedict-eng-fra"), Some(("en", "fr")));
    assert_eq!(codes("freedict-deu-eng"), Some(("de", "en")));
    assert_eq!(codes("freedict-ckb-kmr"), Some(("ku", "ku")));
    assert_eq!(
        freedict_languages("freedict-ckb-kmr").map(|((_, s), (_, t))| (s, t)),
        Some(("Central Kurdish", "Northern Kurdish"))
    );
    assert_eq!(freedict_languages("wordnet"), None);
}

#[test]
fn hostile_article_text_is_inert_in_html() {
    let article =
        parse_article("x /y/\n<script>alert(1)</script> <b onclick=\"steal()\">bold</b>\n")
            .unwrap();
    let stored = bilingual_entry(article, "id".into(), "freedict-eng-fra", "E–F", "en", "fr");
    let html = stored.entry.html_content;
    assert!(
        !html.contains("<script") && !html.contains("onclick="),
        "{html}"
    );
    // A WikDict gloss is escaped as well.
    let article = parse_article_of(
        "x /y/\nz\n<script>alert(1)</script> <b onclick=\"steal()\">bold</b>\n",
        Layout::WikDict,
    )
    .unwrap();
    assert_eq!(article.senses[0].glosses.len(), 1);
    let stored = bilingual_entry(article, "id".into(), "freedict-pol-eng", "P–E", "pl", "en");
    let html = stored.entry.html_content;
    assert!(
        !html.contains("<script")
            && !html.contains("<b ")
            && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert_eq!(stored.entry.translations, vec!["z"]);
}

#[test]
fn freedict_fixture_gives_ipa_translations_and_examples() {
    let imported = import_freedict(&fixture("freedict/freedict-eng-fra"), MAX).unwrap();
    assert_eq!(
        imported.dictionary.dictionary_name,
        "English–French (FreeDict)"
    );
    assert_eq!(imported.dictionary.licence, "GPL-2.0-or-later");
    let cat = find(&imported, "cat", None);
    assert_eq!(cat.phonetic.as_deref(), Some("kæt"));
    assert_eq!(
        cat.translations,
        vec!["mégère", "peau de vache", "rosse", "chat"]
    );

    let imported = import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap();
    let haus = find(&imported, "Haus", Some("noun"));
    assert_eq!(haus.phonetic.as_deref(), Some("hˈaʊs"));
    assert!(
        haus.translations.contains(&"house".to_string())
            && haus.translations.contains(&"home".to_string())
    );
    assert!(haus
        .examples
        .contains(&"ein Haus bauen — build a house".to_string()));
    assert!(haus.synonyms.contains(&"Zuhause".to_string()));
}

#[test]
fn a_truncated_dict_names_file_and_position() {
    let dir = std::env::temp_dir().join(format!("truncated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = fixture("freedict/freedict-eng-fra");
    std::fs::copy(
        source.with_extension("index"),
        dir.join("freedict-eng-fra.index"),
    )
    .unwrap();
    let data = std::fs::read(fixture("freedict/freedict-eng-fra.dict.dz")).unwrap();
    std::fs::write(
        dir.join("freedict-eng-fra.dict.dz"),
        &data[..data.len() / 2],
    )
    .unwrap();
    let err = import_freedict(&dir.join("freedict-eng-fra"), MAX)
        .err()
        .expect("truncated data is an error")
        .to_string();
    assert!(err.contains("freedict-eng-fra.dict.dz"), "{err}");
    assert!(err.contains("after") && err.contains("bytes"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dict_that_inflates_past_the_limit_is_refused_by_name() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("bomb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixture("freedict/freedict-eng-fra.index"),
        dir.join("freedict-eng-fra.index"),
    )
    .unwrap();
    // 16 MiB of spaces in about 16 KB.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&vec![b' '; 16 << 20]).unwrap();
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 32 << 10);
    std::fs::write(dir.join("freedict-eng-fra.dict.dz"), bomb).unwrap();
    let err = import_freedict(&dir.join("freedict-eng-fra"), 1 << 20)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("freedict-eng-fra.dict.dz: decompresses to more than 1048576 bytes"),
        "{err}"
    );
    // The fixture's own data is well under the default limit.
    let fixture_size = std::fs::metadata(fixture("freedict/freedict-eng-fra.dict.dz"))
        .unwrap()
        .len();
    assert!(fixture_size < 1 << 20);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn freedict_synonym_cross_references_become_links() {
    let imported = import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap();
    assert!(imported.links.iter().any(|(h, l)| h == "Haus"
        && l.word == "Zuhause"
        && l.relationship_type == "synonym"
        && l.target_lang.as_deref() == Some("en")));
}

#[test]
fn licence_is_read_from_database_info() {
    assert_eq!(
        freedict_licence("Available under the terms of the GNU General\n  Public License ver. 2.0"),
        "GPL-2.0-or-later"
    );
}
