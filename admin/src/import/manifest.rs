//! The postings manifest an import writes for its dictionary
//! (docs/data-model.md): every entry as a posting, in chunks under
//! `IX#<dictionary>`. `dictadmin index` reads the manifests back to build the
//! snapshot; writing one is the importer's part, so it lives here and
//! index.rs only reads them.

use shared::model::StoredEntry;
use shared::search::postings::Posting;
use shared::storage::items::{self, Item};

/// The manifest items of a dictionary's entries: every entry as a posting, in
/// rank order (so that the same source always gives the same items), and
/// `kept`: postings of entries of an earlier import that stay (`--no-prune`).
pub fn manifest_items(dictionary_id: &str, entries: &[StoredEntry], kept: &[Posting]) -> Vec<Item> {
    let postings = entries
        .iter()
        .map(|e| e.entry.posting())
        .chain(kept.iter().cloned())
        .collect();
    let chunks = shared::search::postings::manifest_chunks(postings);
    items::manifest_items(&items::manifest_pk(dictionary_id), chunks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::fixtures::{fixture, MAX};
    use crate::import::freedict::import_freedict;
    use shared::search::postings::decode_chunk;

    #[test]
    fn a_manifest_holds_every_entry_of_its_dictionary_and_nothing_else() {
        let imported = import_freedict(&fixture("freedict/freedict-deu-eng"), MAX).unwrap();
        let items = manifest_items("freedict-deu-eng", &imported.entries, &[]);
        assert_eq!(
            items,
            manifest_items("freedict-deu-eng", &imported.entries, &[]),
            "stable"
        );
        let mut decoded = Vec::new();
        for item in &items {
            assert_eq!(item["pk"].as_s().unwrap(), "IX#freedict-deu-eng");
            let (_, count, bytes) = items::manifest_chunk_from_item(item).unwrap();
            assert_eq!(count, items.len());
            decoded.extend(decode_chunk(&bytes).unwrap());
        }
        let mut expected: Vec<Posting> =
            imported.entries.iter().map(|e| e.entry.posting()).collect();
        expected.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
        assert_eq!(decoded, expected);
        assert!(decoded.len() > 100, "the fixture has entries");
        assert!(decoded.iter().any(|p| p.part_of_speech.is_some()));
        assert!(decoded.iter().all(|p| !p.preview().is_empty()));
    }
}
