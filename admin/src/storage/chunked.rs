//! The chunked partitions the index build and the importer read back: a
//! lexicon list (`LX#<kind>#<lang>`, listed under `LX`) and a dictionary's
//! postings manifest, each one Query of its partition, checked complete
//! before any chunk is decoded.

use crate::storage::partition::{self, QueryError};
use shared::search::codec::CorruptData;
use shared::search::lexicon::{self, Lexicon};
use shared::search::postings::{decode_chunk, Posting};
use shared::storage::items::{self, CorruptItem};

/// A stored list or manifest that cannot be read whole. Each names the
/// partition at fault.
#[derive(Debug, thiserror::Error)]
pub enum StoredError {
    #[error(transparent)]
    Query(#[from] QueryError),
    /// An item of partition `pk` (`LX`, a list's or a manifest's) that does
    /// not read.
    #[error("{pk}: {source}")]
    CorruptItem { pk: String, source: CorruptItem },
    #[error("{pk} chunk {chunk}: {source}")]
    CorruptChunk {
        pk: String,
        chunk: usize,
        source: CorruptData,
    },
    #[error("{pk} is incomplete ({found} of {expected} chunks); store the list again with dictadmin lexicon")]
    IncompleteList {
        pk: String,
        found: usize,
        expected: usize,
    },
    #[error("{dictionary} has no complete postings manifest ({found} of {expected} chunks); import it again")]
    IncompleteManifest {
        dictionary: String,
        found: usize,
        expected: usize,
    },
}

/// Every stored lexicon list (forms and frequencies of each language): the
/// listing with one Query of `LX`, then one Query per list, as stored, each
/// chunk decoded as it is added. The frequency lists come last and keep
/// only the words of the forms read before them and those that
/// `keep_frequency` names (a language and a folded word): they hold
/// millions of words more than a build reads.
pub async fn read_lexicon(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    keep_frequency: impl Fn(&str, &str) -> bool,
) -> Result<Lexicon, StoredError> {
    let mut lists = read_listing(client, table).await?;
    lists.sort_by_key(|list| list.kind == lexicon::LexiconKind::Frequencies);
    let mut lexicon = Lexicon::default();
    for list in lists {
        let pk = items::lexicon_pk(list.kind, &list.lang);
        for (n, bytes) in read_list_chunks(client, table, &pk).await? {
            let mut pairs = lexicon::decode_chunk(&bytes).map_err(corrupt_chunk(&pk, n))?;
            if list.kind == lexicon::LexiconKind::Frequencies {
                pairs.retain(|(word, _)| {
                    keep_frequency(&list.lang, word) || lexicon.has_form_or_lemma(&list.lang, word)
                });
            }
            lexicon
                .add(list.kind, &list.lang, pairs)
                .map_err(corrupt_chunk(&pk, n))?;
        }
    }
    Ok(lexicon)
}

/// The listing records of every stored lexicon list (one Query of `LX`).
pub async fn read_listing(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Vec<lexicon::LexiconList>, StoredError> {
    let listing = partition::read(client, table, items::LEXICON_PK, None, false).await?;
    listing
        .iter()
        .map(|item| {
            items::lexicon_list_from_item(item).map_err(|source| StoredError::CorruptItem {
                pk: items::LEXICON_PK.to_string(),
                source,
            })
        })
        .collect()
}

/// The pairs of one stored lexicon list, by chunk, with one Query of its
/// partition: none when it is not stored, an error when it is incomplete.
/// The importer reads the frequency lists it stamps entries with this way.
pub async fn read_list(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    kind: lexicon::LexiconKind,
    lang: &str,
) -> Result<Vec<(usize, Vec<lexicon::Pair>)>, StoredError> {
    let pk = items::lexicon_pk(kind, lang);
    read_list_chunks(client, table, &pk)
        .await?
        .into_iter()
        .map(|(n, bytes)| {
            let pairs = lexicon::decode_chunk(&bytes).map_err(corrupt_chunk(&pk, n))?;
            Ok((n, pairs))
        })
        .collect()
}

/// The chunks of the lexicon list stored in partition `pk`, as stored
/// (compressed), not yet decoded.
async fn read_list_chunks(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    pk: &str,
) -> Result<Vec<(usize, Vec<u8>)>, StoredError> {
    let items = partition::read(client, table, pk, None, false).await?;
    let chunks = items::current_chunks(&items).map_err(corrupt_item(pk))?;
    if chunks.chunks.len() != chunks.expected {
        return Err(StoredError::IncompleteList {
            pk: pk.to_string(),
            found: chunks.chunks.len(),
            expected: chunks.expected,
        });
    }
    Ok(chunks.chunks)
}

/// One dictionary's postings. A dictionary is listed only after its manifest
/// is written, so a missing or short manifest means an import from before
/// manifests existed: importing it again writes one.
pub async fn read_manifest(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary: &str,
) -> Result<Vec<Posting>, StoredError> {
    let pk = items::manifest_pk(dictionary);
    let items = partition::read(client, table, &pk, None, false).await?;
    let manifest = items::current_chunks(&items).map_err(corrupt_item(&pk))?;
    if manifest.chunks.is_empty() || manifest.chunks.len() != manifest.expected {
        return Err(StoredError::IncompleteManifest {
            dictionary: dictionary.to_string(),
            found: manifest.chunks.len(),
            expected: manifest.expected,
        });
    }
    let mut postings = Vec::new();
    for (n, bytes) in manifest.chunks {
        postings.extend(decode_chunk(&bytes).map_err(corrupt_chunk(&pk, n))?);
    }
    Ok(postings)
}

/// For `map_err`: an item of partition `pk` that does not read.
fn corrupt_item(pk: &str) -> impl FnOnce(CorruptItem) -> StoredError + '_ {
    move |source| StoredError::CorruptItem {
        pk: pk.to_string(),
        source,
    }
}

/// For `map_err`: chunk `chunk` of partition `pk` that does not decode.
fn corrupt_chunk(pk: &str, chunk: usize) -> impl FnOnce(CorruptData) -> StoredError + '_ {
    move |source| StoredError::CorruptChunk {
        pk: pk.to_string(),
        chunk,
        source,
    }
}
