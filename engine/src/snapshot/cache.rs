//! What a warm instance keeps of the blocks it has read (issue 39): each
//! decoded block under its key, kept by recency within a byte budget (a
//! setting), so that memory follows the traffic an instance serves, not the
//! size of the index. The block read longest ago goes first; a block larger
//! than the whole budget is handed back but not kept. The blocks may be of
//! one type or of several, as `dyn Any` (the paged sections' parts share
//! one budget).

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// Blocks by key, least recently used evicted first, at most `budget`
/// bytes (as each block's size says).
pub struct BlockCache<K, V: ?Sized> {
    budget: usize,
    held: Mutex<Held<K, V>>,
}

struct Held<K, V: ?Sized> {
    blocks: HashMap<K, Kept<V>>,
    /// Keys by the tick they were last used at: the first is evicted next.
    by_use: BTreeMap<u64, K>,
    bytes: usize,
    tick: u64,
}

struct Kept<V: ?Sized> {
    value: Arc<V>,
    bytes: usize,
    used: u64,
}

impl<K: Eq + Hash + Clone, V: ?Sized> BlockCache<K, V> {
    pub fn new(budget: usize) -> Self {
        Self {
            budget,
            held: Mutex::new(Held {
                blocks: HashMap::new(),
                by_use: BTreeMap::new(),
                bytes: 0,
                tick: 0,
            }),
        }
    }

    /// The block of `key` if it is kept, which makes it the most recently
    /// used.
    pub fn get(&self, key: &K) -> Option<Arc<V>> {
        let mut held = self.held.lock().expect("not poisoned");
        let held = &mut *held;
        let kept = held.blocks.get_mut(key)?;
        held.by_use.remove(&kept.used);
        held.tick += 1;
        kept.used = held.tick;
        held.by_use.insert(kept.used, key.clone());
        Some(kept.value.clone())
    }

    /// Keeps `value` (of `bytes` bytes) under `key`, the most recently used,
    /// evicting the least recently used blocks until all fit the budget.
    pub fn insert(&self, key: K, value: Arc<V>, bytes: usize) {
        let mut held = self.held.lock().expect("not poisoned");
        let held = &mut *held;
        if let Some(old) = held.blocks.remove(&key) {
            held.by_use.remove(&old.used);
            held.bytes -= old.bytes;
        }
        if bytes > self.budget {
            return;
        }
        while held.bytes + bytes > self.budget {
            let (_, oldest) = held.by_use.pop_first().expect("bytes held are in blocks");
            let evicted = held
                .blocks
                .remove(&oldest)
                .expect("every use is of a block");
            held.bytes -= evicted.bytes;
        }
        held.tick += 1;
        held.by_use.insert(held.tick, key.clone());
        held.bytes += bytes;
        held.blocks.insert(
            key,
            Kept {
                value,
                bytes,
                used: held.tick,
            },
        );
    }

    /// Lets every block go.
    pub fn clear(&self) {
        let mut held = self.held.lock().expect("not poisoned");
        held.blocks.clear();
        held.by_use.clear();
        held.bytes = 0;
    }

    /// Bytes of the blocks kept.
    pub fn bytes(&self) -> usize {
        self.held.lock().expect("not poisoned").bytes
    }

    /// The number of blocks kept.
    pub fn len(&self) -> usize {
        self.held.lock().expect("not poisoned").blocks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Get(u8),
        Insert(u8, usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..12u8).prop_map(Op::Get),
            (0..12u8, 0..70usize).prop_map(|(k, b)| Op::Insert(k, b)),
        ]
    }

    /// The cache stated naively: blocks in a list, most recently used last.
    #[derive(Default)]
    struct Naive(Vec<(u8, usize, usize)>);

    impl Naive {
        fn get(&mut self, key: u8) -> Option<usize> {
            let at = self.0.iter().position(|(k, _, _)| *k == key)?;
            let block = self.0.remove(at);
            self.0.push(block);
            Some(block.2)
        }

        fn insert(&mut self, key: u8, bytes: usize, value: usize, budget: usize) {
            self.0.retain(|(k, _, _)| *k != key);
            if bytes > budget {
                return;
            }
            while self.0.iter().map(|(_, b, _)| b).sum::<usize>() + bytes > budget {
                self.0.remove(0);
            }
            self.0.push((key, bytes, value));
        }
    }

    proptest! {
        /// Whatever the uses, the cache holds what the naive one holds,
        /// answers as it does, and never more than its budget.
        #[test]
        fn the_cache_keeps_the_most_recent_blocks_within_its_budget(
            ops in proptest::collection::vec(op(), 0..200),
            budget in 0..150usize,
        ) {
            let cache = BlockCache::new(budget);
            let mut naive = Naive::default();
            for (n, op) in ops.into_iter().enumerate() {
                match op {
                    Op::Get(key) => {
                        prop_assert_eq!(cache.get(&key).map(|v| *v), naive.get(key));
                    }
                    Op::Insert(key, bytes) => {
                        cache.insert(key, Arc::new(n), bytes);
                        naive.insert(key, bytes, n, budget);
                    }
                }
                prop_assert!(cache.bytes() <= budget);
                prop_assert_eq!(cache.bytes(), naive.0.iter().map(|(_, b, _)| b).sum::<usize>());
                prop_assert_eq!(cache.len(), naive.0.len());
            }
        }
    }

    #[test]
    fn a_block_larger_than_the_budget_is_not_kept() {
        let cache = BlockCache::new(10);
        cache.insert("small", Arc::new(1), 4);
        cache.insert("large", Arc::new(2), 11);
        assert_eq!(cache.get(&"large"), None);
        assert_eq!(cache.get(&"small").as_deref(), Some(&1));
        assert_eq!(cache.bytes(), 4);
    }
}
