//! Resuming a killed import. Items are written in a fixed order, segment by
//! segment; after each segment the count of items written is saved with a
//! fingerprint of the target table and the whole item list. A new run with the
//! same fingerprint skips what was written; a changed source, or another table
//! (a fresh in-memory DynamoDB Local has a table of the same name, but not the
//! items), starts again from zero. The
//! dictionary record is written last, so a half-written dictionary is never
//! listed as imported.

use sha2::{Digest, Sha256};
use shared::items::Item;
use std::path::{Path, PathBuf};

/// Items written between two checkpoints.
pub const SEGMENT: usize = 250;

/// Identifies the writes of an import: the table they go to (its ARN and
/// creation time, so a re-created table of the same name differs) and the
/// item list by its keys, in order.
pub fn fingerprint(table_identity: &str, items: &[Item]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(table_identity.as_bytes());
    hasher.update([0]);
    for item in items {
        for key in ["pk", "sk"] {
            if let Some(value) = item.get(key).and_then(|v| v.as_s().ok()) {
                hasher.update(value.as_bytes());
            }
            hasher.update([0]);
        }
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

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

    /// Records progress atomically (write, then rename).
    pub fn save(&self, items_done: usize) -> Result<(), String> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let tmp = self.path.with_extension("tmp");
        std::fs::write(&tmp, format!("{} {items_done}\n", self.fingerprint))
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| format!("{}: {e}", self.path.display()))
    }

    pub fn finish(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::AttributeValue;

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
        let checkpoint = Checkpoint::new(&dir, "d", fingerprint("table@1", &items));
        assert_eq!(checkpoint.items_done(), 0);
        checkpoint.save(100).unwrap();
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &items)).items_done(),
            100
        );
        let changed = vec![item("a"), item("c")];
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &changed)).items_done(),
            0,
            "a changed source starts over"
        );
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@2", &items)).items_done(),
            0,
            "a re-created table starts over"
        );
        checkpoint.finish();
        assert_eq!(
            Checkpoint::new(&dir, "d", fingerprint("table@1", &items)).items_done(),
            0
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
