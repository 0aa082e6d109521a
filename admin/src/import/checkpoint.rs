//! Resuming a killed import. Items are written in a fixed order, segment by
//! segment; after each segment the count of items written is saved with a
//! fingerprint of the target table and the whole item list, every attribute
//! of every item. A new run with the same fingerprint skips what was written;
//! a changed source (even an article whose text changed under the same
//! headword, so the same keys), or another table (a fresh in-memory DynamoDB
//! Local has a table of the same name, but not the items), starts again from
//! zero. The
//! dictionary record is written last, so a half-written dictionary is never
//! listed as imported. A finished import leaves its fingerprint marked
//! complete, so that a run of the same items into the same table (a corpus
//! import resumed after hours) writes nothing again.

use super::error::ImportError;
use aws_sdk_dynamodb::types::AttributeValue;
use sha2::{Digest, Sha256};
use shared::storage::items::Item;
use std::path::{Path, PathBuf};

/// Items written between two checkpoints.
pub const SEGMENT: usize = 250;

/// Identifies the writes of an import: the table they go to (its ARN and
/// creation time, so a re-created table of the same name differs) and the
/// items in order (the runs of `items` one after the other), each with all
/// its attributes (in name order, so the order a map happens to iterate in
/// does not matter).
pub fn fingerprint(table_identity: &str, items: &[&[Item]]) -> String {
    let mut hasher = Sha256::new();
    bytes(&mut hasher, table_identity.as_bytes());
    let count: usize = items.iter().map(|run| run.len()).sum();
    hasher.update((count as u64).to_le_bytes());
    for item in items.iter().flat_map(|run| run.iter()) {
        map(&mut hasher, item.iter());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Length-prefixed, so that no two different values hash the same bytes.
fn bytes(hasher: &mut Sha256, value: &[u8]) {
    hasher.update((value.len() as u64).to_le_bytes());
    hasher.update(value);
}

fn map<'a>(hasher: &mut Sha256, entries: impl Iterator<Item = (&'a String, &'a AttributeValue)>) {
    let mut sorted: Vec<_> = entries.collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    hasher.update((sorted.len() as u64).to_le_bytes());
    for (name, value) in sorted {
        bytes(hasher, name.as_bytes());
        attribute(hasher, value);
    }
}

/// A type tag, then the value.
fn attribute(hasher: &mut Sha256, value: &AttributeValue) {
    let strings = |hasher: &mut Sha256, tag: u8, values: &[String]| {
        hasher.update([tag]);
        hasher.update((values.len() as u64).to_le_bytes());
        for v in values {
            bytes(hasher, v.as_bytes());
        }
    };
    match value {
        AttributeValue::S(s) => {
            hasher.update([1]);
            bytes(hasher, s.as_bytes());
        }
        AttributeValue::N(n) => {
            hasher.update([2]);
            bytes(hasher, n.as_bytes());
        }
        AttributeValue::B(b) => {
            hasher.update([3]);
            bytes(hasher, b.as_ref());
        }
        AttributeValue::Bool(b) => hasher.update([4, u8::from(*b)]),
        AttributeValue::Null(_) => hasher.update([5]),
        AttributeValue::L(list) => {
            hasher.update([6]);
            hasher.update((list.len() as u64).to_le_bytes());
            for v in list {
                attribute(hasher, v);
            }
        }
        AttributeValue::M(m) => {
            hasher.update([7]);
            map(hasher, m.iter());
        }
        AttributeValue::Ss(values) => strings(hasher, 8, values),
        AttributeValue::Ns(values) => strings(hasher, 9, values),
        AttributeValue::Bs(values) => {
            hasher.update([10]);
            hasher.update((values.len() as u64).to_le_bytes());
            for v in values {
                bytes(hasher, v.as_ref());
            }
        }
        // A type this code never writes; hashed by its debug form so that it
        // still counts.
        other => {
            hasher.update([255]);
            bytes(hasher, format!("{other:?}").as_bytes());
        }
    }
}

/// What a finished import's checkpoint holds in place of its count.
const COMPLETE: &str = "complete";

pub struct Checkpoint {
    path: PathBuf,
    fingerprint: String,
}

impl Checkpoint {
    pub fn new(state_dir: &Path, dictionary_id: &str, fingerprint: String) -> Self {
        Self {
            path: state_dir.join(format!("{dictionary_id}.checkpoint")),
            fingerprint,
        }
    }

    /// Items already written by an earlier run of the same import.
    pub fn items_done(&self) -> usize {
        let Ok(text) = std::fs::read_to_string(&self.path) else {
            return 0;
        };
        match text.trim().split_once(' ') {
            Some((fingerprint, done)) if fingerprint == self.fingerprint => {
                done.parse().unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// Records progress.
    pub fn save(&self, items_done: usize) -> Result<(), ImportError> {
        self.write(&items_done.to_string())
    }

    /// Writes the fingerprint and `state` atomically (write, then rename).
    fn write(&self, state: &str) -> Result<(), ImportError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(ImportError::io(dir))?;
        }
        let tmp = self.path.with_extension("tmp");
        std::fs::write(&tmp, format!("{} {state}\n", self.fingerprint))
            .map_err(ImportError::io(&tmp))?;
        std::fs::rename(&tmp, &self.path).map_err(ImportError::io(&self.path))
    }

    /// Whether an earlier run of these very writes finished
    /// ([`Checkpoint::finish`]).
    pub fn complete(&self) -> bool {
        std::fs::read_to_string(&self.path)
            .is_ok_and(|text| text.trim() == format!("{} {COMPLETE}", self.fingerprint))
    }

    /// Marks the writes complete: written in place of the count.
    pub fn finish(&self) -> Result<(), ImportError> {
        self.write(COMPLETE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pk: &str) -> Item {
        [
            ("pk".to_string(), AttributeValue::S(pk.into())),
            ("sk".to_string(), AttributeValue::S("E".into())),
        ]
        .into()
    }

    #[test]
    fn progress_survives_only_for_the_same_items() {
        let dir = std::env::temp_dir().join(format!("checkpoint-{}", std::process::id()));
        let items = vec![item("a"), item("b")];
        let checkpoint = Checkpoint::new(&dir, "d", fingerprint("table@1", &[&items]));
        assert_eq!(checkpoint.items_done(), 0);
        checkpoint.save(100).unwrap();
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &[&items])).items_done(),
            100
        );
        let changed = vec![item("a"), item("c")];
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &[&changed])).items_done(),
            0,
            "a changed source starts over"
        );
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@2", &[&items])).items_done(),
            0,
            "a re-created table starts over"
        );
        assert!(!checkpoint.complete(), "begun, not finished");
        checkpoint.finish().unwrap();
        let again = Checkpoint::new(&dir, "d", fingerprint("table@1", &[&items]));
        assert!(again.complete(), "the same writes again: complete");
        assert_eq!(again.items_done(), 0, "nothing to resume");
        assert!(!Checkpoint::new(&dir, "d", fingerprint("table@1", &[&changed])).complete());
        assert!(!Checkpoint::new(&dir, "d", fingerprint("table@2", &[&items])).complete());
        // The runs of items are one list: split anywhere, the same writes.
        let split = fingerprint("table@1", &[&items[..1], &items[1..]]);
        assert_eq!(split, fingerprint("table@1", &[&items]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_changed_article_text_under_the_same_keys_starts_over() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fixture/freedict/freedict-deu-eng");
        let imported = crate::import::freedict::import_freedict(
            &path,
            crate::formats::source::DEFAULT_MAX_SOURCE_BYTES,
        )
        .unwrap();
        let items: Vec<Item> = imported
            .entries
            .iter()
            .map(shared::storage::items::entry_to_item)
            .collect();
        let dir = std::env::temp_dir().join(format!("checkpoint-text-{}", std::process::id()));
        let checkpoint = Checkpoint::new(&dir, "d", fingerprint("table@1", &[&items]));
        checkpoint.save(250).unwrap();

        let mut edited = imported.entries.clone();
        edited[7].entry.plain_text.push_str(" (edited)");
        let edited_items: Vec<Item> = edited
            .iter()
            .map(shared::storage::items::entry_to_item)
            .collect();
        let keys = |items: &[Item]| -> Vec<(String, String)> {
            items
                .iter()
                .map(|i| crate::storage::partition::key_of(i).unwrap())
                .collect()
        };
        assert_eq!(keys(&items), keys(&edited_items), "the same keys");
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &[&edited_items])).items_done(),
            0,
            "changed text starts from zero"
        );
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &[&items])).items_done(),
            250,
            "unchanged text resumes"
        );
        checkpoint.finish().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_fingerprint_sees_every_attribute_but_not_map_order() {
        let mut a = item("a");
        a.insert("htmlContent".into(), AttributeValue::S("<p>x</p>".into()));
        a.insert(
            "synonyms".into(),
            AttributeValue::L(vec![AttributeValue::S("y".into())]),
        );
        // The same attributes inserted in another order (and a HashMap of its
        // own random state) give the same fingerprint.
        let mut b = Item::new();
        for name in ["synonyms", "sk", "htmlContent", "pk"] {
            b.insert(name.into(), a[name].clone());
        }
        assert_eq!(fingerprint("t", &[&[a.clone()]]), fingerprint("t", &[&[b]]));
        let variants = [
            ("htmlContent", AttributeValue::S("<p>y</p>".into())),
            (
                "synonyms",
                AttributeValue::L(vec![AttributeValue::S("z".into())]),
            ),
            ("hasAudio", AttributeValue::Bool(true)),
            (
                "audioKeys",
                AttributeValue::L(vec![
                    AttributeValue::S("audio/d/x.spx".into()),
                    AttributeValue::S("audio/d/x.mp3".into()),
                ]),
            ),
            ("entryCount", AttributeValue::N("3".into())),
        ];
        for (name, value) in variants {
            let mut changed = a.clone();
            changed.insert(name.into(), value);
            assert_ne!(
                fingerprint("t", &[&[a.clone()]]),
                fingerprint("t", &[&[changed]]),
                "{name}"
            );
        }
        // Moving bytes from one string to the next is a change too.
        let pair = |x: &str, y: &str| {
            let mut i = item("p");
            i.insert("x".into(), AttributeValue::S(x.into()));
            i.insert("y".into(), AttributeValue::S(y.into()));
            i
        };
        assert_ne!(
            fingerprint("t", &[&[pair("ab", "c")]]),
            fingerprint("t", &[&[pair("a", "bc")]])
        );
    }
}
