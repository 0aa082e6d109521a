//! DynamoDB's limits on one item, checked before anything is sent: an item
//! over 400 KB, a partition key over 2048 bytes, a sort key over 1024 bytes
//! or an empty key string makes BatchWriteItem refuse the whole batch of 25.
//! An import screens its items against them (import/screen.rs), and so does
//! the lexicon.

use aws_sdk_dynamodb::types::AttributeValue;
use shared::storage::items::Item;

/// DynamoDB's item size limit: 400 KB, names and values together.
pub const MAX_ITEM_BYTES: usize = 400 * 1024;
/// Partition keys, of the table and of a global secondary index.
pub use shared::storage::items::MAX_PARTITION_KEY_BYTES;
pub const MAX_SORT_KEY_BYTES: usize = 1024;

/// The key attributes of the entries table and of its `ByWord` index, with
/// their limits. A key attribute may not be an empty string either.
const KEY_ATTRIBUTES: [(&str, usize); 3] = [
    ("pk", MAX_PARTITION_KEY_BYTES),
    ("sk", MAX_SORT_KEY_BYTES),
    ("wordKey", MAX_PARTITION_KEY_BYTES),
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ItemProblem {
    #[error("its item is {bytes} bytes, over DynamoDB's limit of {MAX_ITEM_BYTES}")]
    TooLarge { bytes: usize },
    #[error("its key {attribute} is {bytes} bytes, over DynamoDB's limit of {limit}")]
    KeyTooLong {
        attribute: &'static str,
        bytes: usize,
        limit: usize,
    },
    #[error("its key {attribute} is empty, which DynamoDB refuses")]
    EmptyKey { attribute: &'static str },
}

/// An item's size as DynamoDB counts it: every attribute name plus its
/// value. Numbers are counted at their upper bound, so the estimate is never
/// below DynamoDB's own.
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + value_size(value))
        .sum()
}

fn value_size(value: &AttributeValue) -> usize {
    // A number takes about a byte per two significant digits, plus one.
    let number = |n: &str| n.len().div_ceil(2) + 1;
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        // Lists and maps: 3 bytes, and 1 per element.
        AttributeValue::L(list) => 3 + list.iter().map(|v| 1 + value_size(v)).sum::<usize>(),
        AttributeValue::M(map) => {
            3 + map
                .iter()
                .map(|(k, v)| 1 + k.len() + value_size(v))
                .sum::<usize>()
        }
        AttributeValue::Ss(values) => values.iter().map(String::len).sum(),
        AttributeValue::Ns(values) => values.iter().map(|n| number(n)).sum(),
        AttributeValue::Bs(values) => values.iter().map(|b| b.as_ref().len()).sum(),
        // A type this code never writes: counted by its debug form, which is
        // longer than the value.
        other => format!("{other:?}").len(),
    }
}

/// Whether DynamoDB would take the item: its keys first (the clearer
/// reason), then its size.
pub fn check_item(item: &Item) -> Result<(), ItemProblem> {
    for (attribute, limit) in KEY_ATTRIBUTES {
        let Some(value) = item.get(attribute) else {
            continue;
        };
        let bytes = match value {
            AttributeValue::S(s) => s.len(),
            AttributeValue::B(b) => b.as_ref().len(),
            other => value_size(other),
        };
        if bytes == 0 {
            return Err(ItemProblem::EmptyKey { attribute });
        }
        if bytes > limit {
            return Err(ItemProblem::KeyTooLong {
                attribute,
                bytes,
                limit,
            });
        }
    }
    match item_size(item) {
        bytes if bytes > MAX_ITEM_BYTES => Err(ItemProblem::TooLarge { bytes }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    #[test]
    fn sizes_count_names_and_values_as_dynamodb_does() {
        let item = Item::from([
            ("pk".to_string(), s("E#d#1")),                       // 2 + 5
            ("n".to_string(), AttributeValue::N("12345".into())), // 1 + 4
            ("ok".to_string(), AttributeValue::Bool(true)),       // 2 + 1
            (
                "l".to_string(),
                AttributeValue::L(vec![s("ab"), s("c")]), // 1 + 3 + (1 + 2) + (1 + 1)
            ),
            ("b".to_string(), AttributeValue::B(vec![0u8; 10].into())), // 1 + 10
            ("é".to_string(), s("ü")), // 2 + 2: UTF-8 bytes, not characters
        ]);
        assert_eq!(item_size(&item), 7 + 5 + 3 + 9 + 11 + 4);
    }

    #[test]
    fn the_limits_are_checked_at_their_edges() {
        let item = |pk: String, sk: String, body: usize| {
            Item::from([
                ("pk".to_string(), AttributeValue::S(pk)),
                ("sk".to_string(), AttributeValue::S(sk)),
                ("b".to_string(), AttributeValue::S("x".repeat(body))),
            ])
        };
        assert_eq!(check_item(&item("p".into(), "s".into(), 10)), Ok(()));
        // pk 1 + "pk" 2 + sk 1 + "sk" 2 + "b" 1 = 7 bytes besides the body.
        assert_eq!(
            check_item(&item("p".into(), "s".into(), MAX_ITEM_BYTES - 7)),
            Ok(())
        );
        assert_eq!(
            check_item(&item("p".into(), "s".into(), MAX_ITEM_BYTES - 6)),
            Err(ItemProblem::TooLarge {
                bytes: MAX_ITEM_BYTES + 1
            })
        );
        assert_eq!(check_item(&item("p".repeat(2048), "s".into(), 1)), Ok(()));
        assert_eq!(
            check_item(&item("p".repeat(2049), "s".into(), 1)),
            Err(ItemProblem::KeyTooLong {
                attribute: "pk",
                bytes: 2049,
                limit: 2048
            })
        );
        assert_eq!(check_item(&item("p".into(), "s".repeat(1024), 1)), Ok(()));
        assert!(matches!(
            check_item(&item("p".into(), "s".repeat(1025), 1)),
            Err(ItemProblem::KeyTooLong {
                attribute: "sk",
                ..
            })
        ));
        assert_eq!(
            check_item(&item("p".into(), String::new(), 1)),
            Err(ItemProblem::EmptyKey { attribute: "sk" })
        );
        let mut indexed = item("p".into(), "s".into(), 1);
        indexed.insert("wordKey".into(), s(&"w".repeat(2049)));
        assert!(matches!(
            check_item(&indexed),
            Err(ItemProblem::KeyTooLong {
                attribute: "wordKey",
                ..
            })
        ));
        indexed.insert("wordKey".into(), s(""));
        assert_eq!(
            check_item(&indexed),
            Err(ItemProblem::EmptyKey {
                attribute: "wordKey"
            })
        );
    }
}
