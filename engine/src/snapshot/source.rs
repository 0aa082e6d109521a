//! Where a build's stored items come from, behind one trait the engine owns
//! ([`ItemSource`]): the store's DynamoDB table in the functions
//! (`shared::storage::store`), the [`Built`] snapshot in memory in tests and
//! benchmarks. What to read for each thing a reader holds is decided here,
//! once for every source: the sections of the [`Index`] whole, a paged
//! section's part index (its item 0), and the items of the parts a query
//! needs.

use super::{Assemble, Built, Index, PagedPart, PartIndex, Section, WordBucket};
use crate::codec::CorruptData;
use std::collections::HashMap;
use std::future::Future;
use std::ops::Range;

/// Items of a section, by section and number.
pub type Items = HashMap<(Section, usize), Vec<u8>>;

/// A source of one build's stored items.
pub trait ItemSource: Sync {
    /// What a read can fail with; a stored item that does not decode is
    /// one of them.
    type Error: From<CorruptData> + Send;

    /// How many items the build stores of a section.
    fn item_count(&self, section: Section) -> usize;

    /// These items of these sections, read together. An item the build
    /// does not have is left out.
    fn fetch(
        &self,
        wanted: &[(Section, Range<usize>)],
    ) -> impl Future<Output = Result<Items, Self::Error>> + Send;
}

/// The sections [`Index`] is decoded from, each read whole (all their items
/// in one fetch, but only the root of `terms`) and joined: decode them with [`Index::assemble`].
pub async fn index_sections<S: ItemSource>(
    source: &S,
) -> Result<HashMap<Section, Vec<u8>>, S::Error> {
    let wanted: Vec<(Section, Range<usize>)> = Index::SECTIONS
        .iter()
        .map(|&s| (s, s.items_read_whole(source.item_count(s))))
        .collect();
    let mut items = source.fetch(&wanted).await?;
    Ok(wanted
        .into_iter()
        .map(|(section, range)| {
            let bytes = join(range.map(|n| items.remove(&(section, n))));
            (section, bytes)
        })
        .collect())
}

/// The part index of a paged section: its item 0, which must agree with the
/// build on the section's items.
pub async fn part_index<S: ItemSource>(
    source: &S,
    section: Section,
) -> Result<PartIndex, S::Error> {
    let mut items = source.fetch(&[(section, 0..1)]).await?;
    let bytes = items.remove(&(section, 0)).unwrap_or_default();
    let index = PartIndex::decode(&bytes)?;
    if index.items() != source.item_count(section) {
        return Err(CorruptData("part index and pointer disagree on the items").into());
    }
    Ok(index)
}

/// Parts of a paged section, each decoded from its items, all read in one
/// fetch.
pub async fn parts<P: PagedPart, S: ItemSource>(
    source: &S,
    index: &PartIndex,
    parts: Vec<usize>,
) -> Result<HashMap<usize, P>, S::Error> {
    let wanted: Vec<(Section, Range<usize>)> = parts
        .iter()
        .map(|&p| (P::SECTION, index.part_items(p)))
        .collect();
    let mut items = source.fetch(&wanted).await?;
    parts
        .into_iter()
        .map(|p| {
            let range = index.part_items(p);
            let bytes = join(range.map(|n| items.remove(&(P::SECTION, n))));
            if bytes.len() != index.part_bytes(p) {
                return Err(CorruptData("a part of another size").into());
            }
            Ok((p, P::decode(index.first_key(p), bytes)?))
        })
        .collect()
}

/// Buckets of `pronunciations`, each its one item, all read in one fetch.
pub async fn word_buckets<S: ItemSource>(
    source: &S,
    buckets: Vec<usize>,
) -> Result<HashMap<usize, WordBucket>, S::Error> {
    let section = Section::Pronunciations;
    let wanted: Vec<(Section, Range<usize>)> =
        buckets.iter().map(|&b| (section, b..b + 1)).collect();
    let mut items = source.fetch(&wanted).await?;
    buckets
        .into_iter()
        .map(|b| {
            let bytes = items
                .remove(&(section, b))
                .ok_or(CorruptData("a bucket the build counts is missing"))?;
            Ok((b, WordBucket::decode(&bytes)?))
        })
        .collect()
}

/// Items joined in order into one buffer of their total size: one item is
/// taken as it is, several are copied once.
fn join(items: impl Iterator<Item = Option<Vec<u8>>>) -> Vec<u8> {
    let mut items: Vec<Vec<u8>> = items.flatten().collect();
    if items.len() == 1 {
        return items.pop().expect("one");
    }
    let mut joined = Vec::with_capacity(items.iter().map(Vec::len).sum());
    for item in items {
        joined.extend_from_slice(&item);
    }
    joined
}

/// A build in memory is a source that never waits.
impl ItemSource for Built {
    type Error = CorruptData;

    fn item_count(&self, section: Section) -> usize {
        self.section(section).len()
    }

    async fn fetch(&self, wanted: &[(Section, Range<usize>)]) -> Result<Items, CorruptData> {
        Ok(wanted
            .iter()
            .flat_map(|(s, range)| range.clone().map(move |n| (*s, n)))
            .filter_map(|(s, n)| Some(((s, n), self.section(s).get(n)?.clone())))
            .collect())
    }
}

/// The answer of a future that is ready when first polled, as a read of a
/// [`Built`] is: what lets tests and benchmarks read a build in memory
/// through the same functions as the store, without a runtime.
pub(super) fn now<F: Future>(future: F) -> F::Output {
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match std::pin::pin!(future).poll(&mut context) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => unreachable!("a build in memory never waits"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::Lexicon;
    use crate::snapshot::tests::posting;
    use crate::snapshot::{build, GramPart, RecordPart};

    fn built() -> Built {
        let all = (0..400)
            .map(|i| posting(&format!("word{i}"), "d", &i.to_string()))
            .collect();
        build(
            crate::snapshot::rank_order(all, &Lexicon::default()),
            &Lexicon::default(),
        )
    }

    /// A build that answers some items wrongly: what a source must not be
    /// trusted for.
    struct Damaged {
        built: Built,
        /// Item counts it claims instead of the build's.
        count: Option<(Section, usize)>,
        /// An item it leaves out.
        missing: Option<(Section, usize)>,
    }

    impl ItemSource for Damaged {
        type Error = CorruptData;

        fn item_count(&self, section: Section) -> usize {
            match self.count {
                Some((s, n)) if s == section => n,
                _ => self.built.item_count(section),
            }
        }

        async fn fetch(&self, wanted: &[(Section, Range<usize>)]) -> Result<Items, CorruptData> {
            let mut items = self.built.fetch(wanted).await?;
            if let Some(key) = self.missing {
                items.remove(&key);
            }
            Ok(items)
        }
    }

    #[test]
    fn every_part_read_through_the_source_is_the_stored_bytes() {
        let built = built();
        let index = now(part_index(&built, Section::Records)).unwrap();
        let all: Vec<usize> = (0..index.len()).collect();
        let parts = now(parts::<RecordPart, _>(&built, &index, all)).unwrap();
        assert_eq!(parts.len(), index.len());
        let sections = now(index_sections(&built)).unwrap();
        for s in Index::SECTIONS {
            let whole = s.items_read_whole(built.item_count(*s));
            assert_eq!(
                sections[s],
                built.section(*s)[whole].concat(),
                "{}",
                s.name()
            );
        }
    }

    #[test]
    fn a_source_that_disagrees_with_its_build_is_corrupt_data() {
        let count = Damaged {
            built: built(),
            count: Some((Section::Grams, 1)),
            missing: None,
        };
        assert_eq!(
            now(part_index(&count, Section::Grams)).unwrap_err(),
            CorruptData("part index and pointer disagree on the items")
        );
        let missing = Damaged {
            built: built(),
            count: None,
            missing: Some((Section::Grams, 1)),
        };
        let index = now(part_index(&missing, Section::Grams)).unwrap();
        let read = now(parts::<GramPart, _>(&missing, &index, vec![0]));
        assert_eq!(read.err(), Some(CorruptData("a part of another size")));
    }
}
