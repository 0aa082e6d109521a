//! The forms of the real, complete sources, as `make up` stores them: WordNet
//! 3.0 (`wordnet-base`) and the Hunspell dictionaries of `hunspell-fr-classical`,
//! `hunspell-de-de` and `hunspell-es`, unpacked by infra/scripts/lib.sh
//! (`fetch_default_data`) into `.local/data/root`, stemmed by the Hunspell
//! tools it unpacks into `.tools/hunspell` (`hunspell_tools`). They are
//! ignored by a plain `cargo test`; infra/scripts/test.sh downloads the data
//! and the tools, then runs them (`cargo test -p admin lexicon::real_data --
//! --ignored`). Without the data they fail, saying how to get it.
//!
//! Each test names forms a reader searches for and the lemma they must
//! resolve to; the lists are of the data as it is (German's dictionary lists
//! most umlaut plurals, `Bücher`, `Männer`, as words of their own, so only
//! the ones its affix rules make are named).
//!
//! Japanese's forms are IPADIC's, as Debian's `mecab-ipadic` ships it
//! (in `.local/data/root` too, where infra/scripts/test.sh unpacks it; not
//! part of the default data set).
//!
//! The lemma lookup tables (`spacy-lookups-data`, which
//! infra/scripts/lemma-lookups.sh unpacks into `.local/lemma-lookups/tables`,
//! or LEMMA_LOOKUPS_DIR) are tested alone for every language taken from them,
//! Greek's rule tables among them, and merged with Hunspell's forms as
//! `make up` merges them.
//!
//! The `corpus_` tests read Dutch's and Finnish's sources, which only the
//! benchmark corpus' CORPUS=all downloads (into `.local/corpus-all`, or
//! LEXICON_CORPUS_DIR); infra/scripts/test.sh skips them. Run them after it:
//! `cargo test -p admin -- --ignored lexicon::real_data::corpus_`.

use super::lookup_forms::{self, Others};
use super::{hunspell_forms, ipadic_forms, pairs_forms, wordnet_forms, WordList};
use shared::fold::fold;
use std::path::{Path, PathBuf};

/// Where the Debian packages are unpacked: LEXICON_DATA_ROOT, else the
/// repository's `.local/data/root`.
fn data_root() -> PathBuf {
    std::env::var_os("LEXICON_DATA_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.local/data/root"))
}

fn share(path: &str) -> PathBuf {
    let path = data_root().join("usr/share").join(path);
    assert!(
        path.exists(),
        "{}: missing. The real-data tests read the Debian packages that \
         infra/scripts/test.sh downloads (lib.sh fetch_default_data); run it, \
         or `bash -c '. infra/scripts/lib.sh && fetch_default_data'`, with network access",
        path.display()
    );
    path
}

fn hunspell(lang: &str, name: &str) -> WordList {
    hunspell_in(&share("hunspell"), lang, name)
}

/// The forms of the Hunspell dictionary `<dir>/<name>.aff` and `.dic`.
fn hunspell_in(dir: &Path, lang: &str, name: &str) -> WordList {
    hunspell_forms::read(
        lang,
        &dir.join(format!("{name}.aff")),
        &dir.join(format!("{name}.dic")),
        None,
        String::new(),
        String::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Every `(form, lemma)` is a pair of the list (both folded as the list is);
/// all that are missing are named at once.
fn assert_resolves(lexicon: &WordList, expected: &[(&str, &str)], at_least: usize) {
    assert!(expected.len() >= at_least, "at least {at_least} forms");
    let missing: Vec<String> = expected
        .iter()
        .filter(|(form, lemma)| {
            lexicon
                .pairs
                .binary_search(&(fold(form), fold(lemma)))
                .is_err()
        })
        .map(|(form, lemma)| format!("{form} → {lemma}"))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} forms of {} do not resolve: {}",
        missing.len(),
        expected.len(),
        lexicon.list.lang,
        missing.join(", ")
    );
    assert!(lexicon.pairs.iter().all(|(form, lemma)| form != lemma));
    assert!(lexicon.pairs.windows(2).all(|w| w[0] < w[1]));
}

/// No pair maps `form` to `lemma`.
fn assert_not(lexicon: &WordList, form: &str, lemma: &str) {
    assert!(
        lexicon
            .pairs
            .binary_search(&(fold(form), fold(lemma)))
            .is_err(),
        "{form} → {lemma} should not be a pair"
    );
}

#[test]
#[ignore = "needs the Debian data: infra/scripts/test.sh downloads it and runs this"]
fn english_forms_from_wordnet() {
    let lexicon = wordnet_forms::read(&share("wordnet")).unwrap();
    assert_resolves(
        &lexicon,
        &[
            // Irregular verbs (verb.exc).
            ("went", "go"),
            ("gone", "go"),
            ("ran", "run"),
            ("ate", "eat"),
            ("eaten", "eat"),
            ("saw", "see"),
            ("seen", "see"),
            ("took", "take"),
            ("brought", "bring"),
            ("thought", "think"),
            ("written", "write"),
            ("sang", "sing"),
            ("flew", "fly"),
            // Irregular plurals (noun.exc).
            ("geese", "goose"),
            ("mice", "mouse"),
            ("feet", "foot"),
            ("teeth", "tooth"),
            ("children", "child"),
            ("oxen", "ox"),
            // Regular plurals (morphy's noun rules).
            ("houses", "house"),
            ("cats", "cat"),
            ("boxes", "box"),
            ("churches", "church"),
            ("dishes", "dish"),
            ("women", "woman"),
            // -ies and -ves.
            ("cities", "city"),
            ("babies", "baby"),
            ("carries", "carry"),
            ("wolves", "wolf"),
            ("knives", "knife"),
            ("leaves", "leaf"),
            ("halves", "half"),
            // Comparatives and superlatives (adj.exc and morphy's rules).
            ("better", "good"),
            ("better", "well"),
            ("best", "good"),
            ("worse", "bad"),
            ("happier", "happy"),
            ("smaller", "small"),
            ("largest", "large"),
            ("bigger", "big"),
            ("hottest", "hot"),
            // Doubled consonants: verb.exc, and the rule for what it leaves out.
            ("running", "run"),
            ("stopped", "stop"),
            ("planning", "plan"),
            ("sitting", "sit"),
            ("blogged", "blog"),
            ("spamming", "spam"),
            // Regular verbs (morphy's verb rules, and ied).
            ("walked", "walk"),
            ("making", "make"),
            ("seeing", "see"),
            ("passes", "pass"),
            ("partied", "party"),
            ("looked up", "look up"),
        ],
        40,
    );
    assert_not(&lexicon, "runing", "run");
    assert_not(&lexicon, "boxs", "box");
    assert_not(&lexicon, "makeing", "make");
    assert!(lexicon.list.count > 150_000, "{} pairs", lexicon.list.count);
}

#[test]
#[ignore = "needs the Debian data: infra/scripts/test.sh downloads it and runs this"]
fn french_forms_from_hunspell_fr_classical() {
    let lexicon = hunspell("fr", "fr");
    assert_resolves(
        &lexicon,
        &[
            ("chevaux", "cheval"),
            ("maisons", "maison"),
            ("allées", "allée"),
            ("allées", "aller"),
            ("allons", "aller"),
            ("irai", "aller"),
            ("journaux", "journal"),
            ("animaux", "animal"),
            ("travaux", "travail"),
            ("grandes", "grand"),
            ("belles", "beau"),
            ("écoles", "école"),
            ("mangeâmes", "manger"),
            ("finissons", "finir"),
            ("fait", "faire"),
            ("prises", "prendre"),
            ("vendons", "vendre"),
            ("chantait", "chanter"),
        ],
        15,
    );
    // Elisions are not headword forms.
    assert!(lexicon.pairs.iter().all(|(form, _)| !form.contains('\'')));
    assert!(lexicon.list.count > 300_000, "{} pairs", lexicon.list.count);
}

#[test]
#[ignore = "needs the Debian data: infra/scripts/test.sh downloads it and runs this"]
fn german_forms_from_hunspell_de_de() {
    let lexicon = hunspell("de", "de_DE");
    assert_resolves(
        &lexicon,
        &[
            ("Häuser", "Haus"),
            ("Häusern", "Haus"),
            ("Hunde", "Hund"),
            ("Hunden", "Hund"),
            ("Kinder", "Kind"),
            ("Frauen", "Frau"),
            ("Tage", "Tag"),
            ("Bäume", "Baum"),
            ("Tische", "Tisch"),
            ("Straßen", "Straße"),
            ("Wassers", "Wasser"),
            ("schönsten", "schön"),
            ("spielte", "spielen"),
            ("machst", "machen"),
            ("Freunde", "Freund"),
            ("Autos", "Auto"),
            ("Jahre", "Jahr"),
            ("Bilder", "Bild"),
            ("kleineren", "klein"),
        ],
        15,
    );
    // Compound fragments (`-Aachen`) are not forms.
    assert!(lexicon
        .pairs
        .iter()
        .all(|(form, _)| !form.starts_with('-') && !form.ends_with('-')));
    assert!(lexicon.list.count > 200_000, "{} pairs", lexicon.list.count);
}

#[test]
#[ignore = "needs the Debian data: infra/scripts/test.sh downloads it and runs this"]
fn spanish_forms_from_hunspell_es() {
    let lexicon = hunspell("es", "es_ES");
    assert_resolves(
        &lexicon,
        &[
            ("casas", "casa"),
            ("perros", "perro"),
            ("niños", "niño"),
            ("ciudades", "ciudad"),
            ("libros", "libro"),
            ("mujeres", "mujer"),
            ("luces", "luz"),
            ("árboles", "árbol"),
            ("buenas", "bueno"),
            ("tengo", "tener"),
            ("hablamos", "hablar"),
            ("comí", "comer"),
            ("vivimos", "vivir"),
            ("cantaba", "cantar"),
            ("escribió", "escribir"),
        ],
        15,
    );
    assert!(lexicon.list.count > 500_000, "{} pairs", lexicon.list.count);
}

#[test]
#[ignore = "needs the Debian data: infra/scripts/test.sh downloads it and runs this"]
fn japanese_forms_from_ipadic() {
    let dir = data_root().join("usr/share/mecab/dic/ipadic");
    assert!(
        dir.exists(),
        "{}: missing. This test reads Debian's mecab-ipadic, which infra/scripts/test.sh \
         downloads; run it, or `bash -c '. infra/scripts/lib.sh && debian_packages \
         \"$state/data\" mecab-ipadic'`, with network access",
        dir.display()
    );
    let (lexicon, rows) = ipadic_forms::read("ja", &dir, String::new(), String::new())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_resolves(
        &lexicon,
        &[
            // Verbs, in kana and in kanji: each spelling is a row of its own.
            ("なっ", "なる"),
            ("成っ", "成る"),
            ("行っ", "行く"),
            ("いっ", "いく"),
            ("行か", "行く"),
            ("食べ", "食べる"),
            ("たべ", "たべる"),
            ("書い", "書く"),
            ("読ん", "読む"),
            ("死ん", "死ぬ"),
            ("思っ", "思う"),
            ("言わ", "言う"),
            ("分から", "分かる"),
            ("わから", "わかる"),
            ("引き込ま", "引き込む"),
            ("し", "する"),
            ("来", "来る"),
            ("こ", "くる"),
            // Adjectives.
            ("よかっ", "よい"),
            ("良かっ", "良い"),
            ("なかっ", "ない"),
            ("悪く", "悪い"),
            // Auxiliaries.
            ("だっ", "だ"),
            ("られ", "られる"),
            ("まし", "ます"),
        ],
        20,
    );
    // A particle is its own base form: no pair.
    assert!(!lexicon.pairs.iter().any(|(form, _)| form == "って"));
    assert!(rows.rows > 390_000, "{rows:?}");
    assert!(lexicon.list.count > 100_000, "{} pairs", lexicon.list.count);
}

/// The committed excerpts give the forms the black-box tests search for.
#[test]
#[ignore = "needs Debian's Hunspell tools: infra/scripts/test.sh unpacks them and runs this"]
fn the_fixture_excerpts_give_the_forms_the_tests_name() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture/hunspell");
    let read = |lang: &str, name: &str| hunspell_in(&dir, lang, name);
    assert_resolves(
        &read("fr", "fr"),
        &[
            ("chevaux", "cheval"),
            ("maisons", "maison"),
            ("allées", "allée"),
        ],
        3,
    );
    assert_resolves(
        &read("de", "de_DE"),
        &[("Häuser", "Haus"), ("Hunde", "Hund")],
        2,
    );
    assert_resolves(&read("es", "es_ES"), &[("casas", "casa")], 1);
}

/// Where infra/scripts/lemma-lookups.sh unpacks the tables: LEMMA_LOOKUPS_DIR,
/// else the repository's `.local/lemma-lookups/tables`.
fn lookup_tables() -> PathBuf {
    let dir = std::env::var_os("LEMMA_LOOKUPS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../.local/lemma-lookups/tables")
        });
    assert!(
        dir.exists(),
        "{}: missing. The real-data tests read the tables that infra/scripts/test.sh \
         downloads (infra/scripts/lemma-lookups.sh .local/lemma-lookups/tables); run it, \
         with network access",
        dir.display()
    );
    dir
}

/// The forms of `lang`'s tables, merged with `others`.
fn lookup(lang: &str, others: &Others) -> (WordList, lookup_forms::Merged) {
    lookup_forms::read(lang, &lookup_tables(), others, String::new(), String::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
#[ignore = "needs the lemma lookup tables: infra/scripts/test.sh downloads them and runs this"]
fn lookup_tables_give_irregular_forms_of_every_language() {
    for (lang, expected, at_least) in [
        (
            "de",
            &[
                ("ging", "gehen"),
                ("gegangen", "gehen"),
                ("Bücher", "Buch"),
                ("Männer", "Mann"),
                ("Städte", "Stadt"),
                ("war", "sein"),
                ("Zeitungen", "Zeitung"),
            ][..],
            300_000,
        ),
        (
            "fr",
            &[
                ("yeux", "œil"),
                ("chevaux", "cheval"),
                ("fut", "être"),
                ("allées", "aller"),
            ][..],
            200_000,
        ),
        (
            "it",
            &[
                ("uomini", "uomo"),
                ("occhi", "occhio"),
                ("andato", "andare"),
                ("fui", "essere"),
                ("vado", "andare"),
                // Only in the part-of-speech tables, double-encoded there.
                ("convivrà", "convivere"),
                ("discuté", "discutere"),
            ][..],
            300_000,
        ),
        (
            "es",
            &[("fue", "ser"), ("ojos", "ojo"), ("hizo", "hacer")][..],
            400_000,
        ),
        (
            "en",
            &[("went", "go"), ("mice", "mouse"), ("geese", "goose")][..],
            40_000,
        ),
        ("hu", &[("házak", "ház")][..], 30_000),
        // The languages of the benchmark corpus' CORPUS=all (lib.sh
        // LEMMA_LOOKUP_LANGS past the default data set's).
        (
            "pt",
            &[
                ("fui", "ser"),
                ("olhos", "olho"),
                ("homens", "homem"),
                ("cães", "cão"),
                ("fez", "fazer"),
            ][..],
            700_000,
        ),
        (
            "sv",
            &[
                ("gick", "gå"),
                ("husen", "hus"),
                ("böcker", "bok"),
                ("barnen", "barn"),
            ][..],
            600_000,
        ),
        (
            "pl",
            &[
                ("poszedł", "pójść"),
                ("książki", "książka"),
                ("dzieci", "dziecko"),
            ][..],
            3_000_000,
        ),
        (
            "cs",
            &[("lidé", "člověk"), ("šel", "jít"), ("děti", "dítě")][..],
            30_000,
        ),
        (
            "hr",
            &[("ljudi", "čovjek"), ("išao", "ići"), ("djeca", "dijete")][..],
            1_000_000,
        ),
        ("sr", &[("деца", "дете"), ("књиге", "књига")][..], 200_000),
        // Irish: a form the tables give two lemmas keeps both.
        (
            "ga",
            &[("mná", "bean"), ("tithe", "teach"), ("leabhair", "leabhar")][..],
            100_000,
        ),
    ] {
        let (lexicon, merged) = lookup(lang, &Others::default());
        assert_resolves(&lexicon, expected, 1);
        assert!(
            lexicon.list.count > at_least,
            "{lang}: {} pairs",
            lexicon.list.count
        );
        assert_eq!(merged.hunspell + merged.wordnet, 0);
        // Morph-it!'s nine tables are double-encoded, and only they.
        let repaired = if lang == "it" { 9 } else { 0 };
        assert_eq!(
            merged.repaired.len(),
            repaired,
            "{lang}: {:?}",
            merged.repaired
        );
    }
}

#[test]
#[ignore = "needs the lemma lookup tables and the Debian data: infra/scripts/test.sh downloads them and runs this"]
fn merged_with_hunspell_derivations_give_way_to_the_inflected_lemma() {
    let dir = share("hunspell");
    let (aff, dic) = (dir.join("de_DE.aff"), dir.join("de_DE.dic"));
    let (de, merged) = lookup(
        "de",
        &Others {
            hunspell: Some((&aff, &dic)),
            wordnet: None,
        },
    );
    // Both sources' inflections, the tables' irregular ones among them.
    assert_resolves(
        &de,
        &[
            ("ging", "gehen"),
            ("Bücher", "Buch"),
            ("Häuser", "Haus"),
            ("Zeitungen", "Zeitung"),
            ("Hunden", "Hund"),
        ],
        5,
    );
    // Hunspell stems `Zeitungen`, `Zeitung` to `Zeit` and `Lehrerinnen`
    // to `Lehrer`: derivations, dropped.
    for (form, stem) in [
        ("Zeitungen", "Zeit"),
        ("Zeitung", "Zeit"),
        ("Lehrerinnen", "Lehrer"),
        ("Handlungen", "handeln"),
    ] {
        assert_not(&de, form, stem);
    }
    assert!(
        merged.derivations > 10_000 && merged.derivations < merged.hunspell / 10,
        "{merged:?}"
    );
    // Spanish: `abrazos` is a form of `abrazo`, not of `brazo`; `casas` of
    // both `casa` (Hunspell) and `casar` (both).
    let (aff, dic) = (dir.join("es_ES.aff"), dir.join("es_ES.dic"));
    let (es, _) = lookup(
        "es",
        &Others {
            hunspell: Some((&aff, &dic)),
            wordnet: None,
        },
    );
    assert_resolves(
        &es,
        &[("abrazos", "abrazo"), ("casas", "casa"), ("casas", "casar")],
        3,
    );
    assert_not(&es, "abrazos", "brazo");
    // French homographs keep both readings: `copies` of `copie` and `copier`.
    let (aff, dic) = (dir.join("fr.aff"), dir.join("fr.dic"));
    let (fr, _) = lookup(
        "fr",
        &Others {
            hunspell: Some((&aff, &dic)),
            wordnet: None,
        },
    );
    assert_resolves(
        &fr,
        &[
            ("copies", "copie"),
            ("copies", "copier"),
            ("yeux", "œil"),
            ("allées", "allée"),
        ],
        4,
    );
}

#[test]
#[ignore = "needs the lemma lookup tables: infra/scripts/test.sh downloads them and runs this"]
fn greek_forms_from_the_rule_tables() {
    let (el, merged) = lookup("el", &Others::default());
    assert_resolves(
        &el,
        &[
            // Exceptions, as they are (articles, irregular verbs).
            ("του", "το"),
            ("τους", "το"),
            ("οι", "ο"),
            ("οι", "η"),
            ("είναι", "είμαι"),
            ("ήταν", "είμαι"),
            ("είπε", "λέω"),
            ("γυναικών", "γυναίκα"),
            // Nouns by the rules: plurals and genitives.
            ("πρόβατα", "πρόβατο"),
            ("δρόμοι", "δρόμος"),
            ("δρόμου", "δρόμος"),
            ("σπίτια", "σπίτι"),
            ("γυναίκες", "γυναίκα"),
            ("άνθρωποι", "άνθρωπος"),
            ("παιδιά", "παιδί"),
            ("χώρες", "χώρα"),
            ("μάτια", "μάτι"),
            // Adjectives.
            ("καλοί", "καλός"),
            ("μεγάλοι", "μεγάλος"),
            // Verbs.
            ("γράφεις", "γράφω"),
            ("γράφουμε", "γράφω"),
            ("διαβάζει", "διαβάζω"),
            ("μιλάει", "μιλώ"),
            ("αγαπούσε", "αγαπώ"),
        ],
        20,
    );
    // A made form that is a word of its own gets no lemma from the rules,
    // nor does a lemma that is all suffix make forms.
    assert_not(&el, "πια", "πι");
    assert_not(&el, "καλά", "καλώ");
    assert_not(&el, "τα", "α");
    let rules = merged.rules.expect("Greek's rule tables");
    assert!(rules.generated > 400_000, "{rules:?}");
    assert!(rules.exceptions > 500 && rules.junk < 100, "{rules:?}");
    assert!(el.list.count > 400_000, "{} pairs", el.list.count);
}

/// Where the benchmark corpus' CORPUS=all keeps its packages, wordfreq lists
/// and Voikko's pairs: LEXICON_CORPUS_DIR, else `.local/corpus-all`.
fn corpus(path: &str) -> PathBuf {
    let path = std::env::var_os("LEXICON_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.local/corpus-all"))
        .join(path);
    assert!(
        path.exists(),
        "{}: missing. Dutch's and Finnish's forms are made by the benchmark corpus' \
         CORPUS=all (infra/scripts/benchmark-corpus.sh: lib.sh debian_packages, \
         wordfreq.sh, import_forms_without_tables); run it, with network access, or \
         point LEXICON_CORPUS_DIR at a folder laid out as it",
        path.display()
    );
    path
}

#[test]
#[ignore = "needs the benchmark corpus' CORPUS=all packages: benchmark-corpus.sh downloads them"]
fn corpus_dutch_forms_from_hunspell_nl_and_wordfreq() {
    let dir = corpus("root/usr/share/hunspell");
    let lexicon = hunspell_forms::read(
        "nl",
        &dir.join("nl.aff"),
        &dir.join("nl.dic"),
        Some(&corpus("wordfreq/nl.tsv")),
        String::new(),
        String::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_resolves(
        &lexicon,
        &[
            ("huizen", "huis"),
            ("boeken", "boek"),
            ("mensen", "mens"),
            ("vrouwen", "vrouw"),
            ("jaren", "jaar"),
            ("grote", "groot"),
            ("mooier", "mooi"),
            ("nieuwe", "nieuw"),
            // Finite verb forms get their infinitive.
            ("wordt", "worden"),
            ("komt", "komen"),
            ("werkte", "werken"),
            ("maakt", "maken"),
            ("hebt", "hebben"),
            ("gaat", "gaan"),
            ("loopt", "lopen"),
            ("zegt", "zeggen"),
            ("leest", "lezen"),
            // Bare stems, the first person, too.
            ("heb", "hebben"),
            ("weet", "weten"),
            ("zie", "zien"),
            ("vind", "vinden"),
            ("denk", "denken"),
            ("doe", "doen"),
            ("kun", "kunnen"),
        ],
        10,
    );
    // Irregular forms the dictionary lists as words of their own; compounds,
    // which hunspell -s would stem to their first part; verb forms never get
    // the stem (`kom`, "bowl") nor a look-alike verb (`benen` for `bent`).
    for (form, lemma) in [
        ("heeft", "hebben"),
        ("is", "zijn"),
        ("grondlijn", "grond"),
        ("komt", "kom"),
        ("wordt", "word"),
        ("bent", "benen"),
        ("ben", "bennen"),
    ] {
        assert_not(&lexicon, form, lemma);
    }
    assert!(lexicon.list.count > 50_000, "{} pairs", lexicon.list.count);
}

#[test]
#[ignore = "needs the benchmark corpus' CORPUS=all Voikko pairs: benchmark-corpus.sh makes them"]
fn corpus_finnish_forms_from_voikko() {
    let lexicon = pairs_forms::read("fi", &corpus("voikko/fi.tsv"), String::new(), String::new())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_resolves(
        &lexicon,
        &[
            ("on", "olla"),
            ("ole", "olla"),
            ("ovat", "olla"),
            ("olisi", "olla"),
            ("oli", "olla"),
            ("sen", "se"),
            ("talossa", "talo"),
            ("miehet", "mies"),
            ("kävin", "käydä"),
            // An ambiguous form keeps every lemma.
            ("siitä", "se"),
            ("siitä", "siittää"),
        ],
        10,
    );
    assert!(lexicon.list.count > 400_000, "{} pairs", lexicon.list.count);
}
