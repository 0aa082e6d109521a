//! The data sources' catalogue, data/sources.tsv: every package the project
//! imports data from or measures with, its version, checksum, licence,
//! origin and what it feeds. The scripts read it (infra/scripts/lib.sh
//! `source_field`); the importer compiles it in and takes from it the
//! licences it states itself: the defaults of `dictadmin lexicon
//! ipadic-forms`, `lookup-forms` and `wordfreq`.

use std::sync::OnceLock;

/// The file, as committed.
const CATALOGUE: &str = include_str!("../../data/sources.tsv");

/// Its columns, in order: the header row must name exactly these.
const COLUMNS: [&str; 9] = [
    "id", "kind", "package", "version", "file", "sha256", "licence", "origin", "feeds",
];

/// The licence of a FreeDict dictionary, which the importer reads from the
/// dictionary's own 00databaseinfo article rather than from here.
pub const DECLARED_BY_DICTIONARY: &str = "(declared by the dictionary)";

/// One row of the catalogue; an empty field is "".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub id: &'static str,
    /// How it is downloaded: `debian` or `pypi`.
    pub kind: &'static str,
    /// The package, or several Debian packages separated by spaces.
    pub package: &'static str,
    pub version: &'static str,
    /// PyPI: the distribution file; Hunspell: the dictionary's file name.
    pub file: &'static str,
    pub sha256: &'static str,
    pub licence: &'static str,
    /// The `dictadmin lexicon --origin` text of the source.
    pub origin: &'static str,
    /// What it feeds, separated by spaces (`forms:fr default`).
    pub feeds: &'static str,
}

impl Source {
    /// What it feeds, one tag each.
    pub fn feeds(&self) -> impl Iterator<Item = &'static str> {
        self.feeds.split(' ').filter(|tag| !tag.is_empty())
    }
}

/// The rows of a catalogue's text, or what is wrong with a line (its
/// number, from 1).
fn parse(text: &'static str) -> Result<Vec<Source>, String> {
    let mut header = false;
    let mut sources = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&'static str> = line.split('\t').collect();
        if !header {
            if fields != COLUMNS {
                return Err(format!(
                    "line {}: the header is not {COLUMNS:?}",
                    number + 1
                ));
            }
            header = true;
            continue;
        }
        let [id, kind, package, version, file, sha256, licence, origin, feeds] = fields[..] else {
            return Err(format!(
                "line {}: {} fields, not {}",
                number + 1,
                fields.len(),
                COLUMNS.len()
            ));
        };
        sources.push(Source {
            id,
            kind,
            package,
            version,
            file,
            sha256,
            licence,
            origin,
            feeds,
        });
    }
    if !header {
        return Err("no header row".to_string());
    }
    Ok(sources)
}

/// Every source, in the file's order.
pub fn sources() -> &'static [Source] {
    static SOURCES: OnceLock<Vec<Source>> = OnceLock::new();
    // The file is compiled in and its tests read it: it parses.
    SOURCES.get_or_init(|| parse(CATALOGUE).expect("data/sources.tsv parses"))
}

/// The source `id`, if the catalogue has it.
pub fn source(id: &str) -> Option<&'static Source> {
    sources().iter().find(|source| source.id == id)
}

/// The licence of the source `id`, which the catalogue must have (the ids
/// the importer asks for are tested below).
pub fn licence(id: &str) -> &'static str {
    source(id)
        .unwrap_or_else(|| panic!("data/sources.tsv has no source {id}"))
        .licence
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_row_is_well_formed() {
        let sources = parse(CATALOGUE).unwrap();
        assert!(sources.len() >= 20, "{} sources", sources.len());
        for source in &sources {
            let id = source.id;
            assert!(
                !id.is_empty()
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{id}: an id is lowercase letters, digits and dashes"
            );
            assert!(
                ["debian", "pypi"].contains(&source.kind),
                "{id}: kind {}",
                source.kind
            );
            assert!(!source.package.is_empty(), "{id}: no package");
            assert!(
                source.package.split(' ').all(|package| !package.is_empty()),
                "{id}: packages separated by one space"
            );
            assert!(source.feeds().next().is_some(), "{id}: feeds nothing");
            for field in [
                source.version,
                source.file,
                source.sha256,
                source.licence,
                source.origin,
            ] {
                assert_eq!(field.trim(), field, "{id}: a field with spaces around it");
            }
        }
    }

    #[test]
    fn ids_are_unique() {
        let mut seen = HashSet::new();
        for source in sources() {
            assert!(seen.insert(source.id), "{} twice", source.id);
        }
    }

    #[test]
    fn every_licence_is_stated() {
        for source in sources() {
            assert!(!source.licence.is_empty(), "{}: no licence", source.id);
            if source.licence == DECLARED_BY_DICTIONARY {
                assert!(
                    source.package.starts_with("dict-freedict-")
                        && source.feeds().any(|tag| tag == "dictionary"),
                    "{}: only a FreeDict dictionary declares its own licence",
                    source.id
                );
            }
        }
    }

    #[test]
    fn every_pinned_pypi_source_has_its_file_and_sha256() {
        for source in sources().iter().filter(|source| source.kind == "pypi") {
            let id = source.id;
            assert!(!source.version.is_empty(), "{id}: a PyPI source is pinned");
            assert!(
                source.sha256.len() == 64
                    && source
                        .sha256
                        .bytes()
                        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
                "{id}: sha256 {:?} is not 64 lowercase hex digits",
                source.sha256
            );
            assert!(
                source.file.contains(&format!("-{}", source.version)),
                "{id}: the file {} is not of version {}",
                source.file,
                source.version
            );
        }
        // The rows of one package and version (spacy-lookups-data's tables
        // per language) name one download.
        for a in sources() {
            for b in sources()
                .iter()
                .filter(|b| b.package == a.package && b.version == a.version)
            {
                assert_eq!(
                    (a.file, a.sha256),
                    (b.file, b.sha256),
                    "{} and {}",
                    a.id,
                    b.id
                );
            }
        }
        assert!(sources()
            .iter()
            .all(|source| source.kind == "pypi" || source.sha256.is_empty()));
    }

    #[test]
    fn an_origin_that_names_a_version_names_the_rows() {
        for source in sources()
            .iter()
            .filter(|source| !source.version.is_empty() && !source.origin.is_empty())
        {
            assert!(
                source
                    .origin
                    .contains(&format!("{} {}", source.package, source.version)),
                "{}: origin {:?} does not name {} {}",
                source.id,
                source.origin,
                source.package,
                source.version
            );
        }
    }

    /// The licences the importer states itself, as its clap defaults: the
    /// catalogue's, and the values they had before it read them from there.
    #[test]
    fn the_importers_defaults_are_the_catalogues() {
        assert_eq!(licence("ipadic"), "NAIST-2003");
        assert_eq!(licence("lemma-lookups"), "ODbL-1.0");
        assert_eq!(licence("wordfreq"), "CC-BY-SA-4.0");
    }

    /// data/fixture/LICENSES.md, the evidence, names the versions of the
    /// catalogue: a version changed in one and not the other fails here.
    #[test]
    fn the_fixtures_licences_name_the_catalogues_versions() {
        let licences = include_str!("../../data/fixture/LICENSES.md");
        let mut checked = 0;
        for source in sources().iter().filter(|source| !source.version.is_empty()) {
            let named = format!("`{}`", source.package);
            if licences.contains(&named) {
                assert!(
                    licences.contains(&format!("{named} {}", source.version)),
                    "{}: LICENSES.md names {named} but not its version {}",
                    source.id,
                    source.version
                );
                checked += 1;
            }
        }
        // hunspell-fr, -de, -es, spacy-lookups-data's rows, wordfreq.
        assert!(checked >= 5, "{checked} versions checked");
    }

    #[test]
    fn a_malformed_catalogue_is_refused() {
        let header = "id\tkind\tpackage\tversion\tfile\tsha256\tlicence\torigin\tfeeds\n";
        assert!(parse("# nothing\n").is_err());
        assert!(parse("id\tkind\n").is_err());
        let short: &'static str = Box::leak(format!("{header}x\tdebian\tp\n").into_boxed_str());
        assert_eq!(parse(short).unwrap_err(), "line 2: 3 fields, not 9");
        let good: &'static str = Box::leak(
            format!("# c\n{header}\nx\tdebian\tp\t\t\t\tMIT\t\tforms:en\n").into_boxed_str(),
        );
        let sources = parse(good).unwrap();
        assert_eq!(sources.len(), 1);
        assert_eq!(
            (sources[0].id, sources[0].version, sources[0].licence),
            ("x", "", "MIT")
        );
    }
}
