//! Postings manifests: every import writes each entry of its dictionary as a
//! posting (what search needs to know of an entry, nothing more), in
//! deflate-compressed chunks that fit a DynamoDB item. `dictadmin index`
//! builds the index snapshot from the manifests, without reading an entry.
//!
//! Layout of an uncompressed chunk, all strings as varint length + UTF-8:
//! `version`, dictionaries (`id`, `sourceLang`, `targetLang` or empty), parts
//! of speech, then postings: `folded`, `word` (empty when equal to `folded`),
//! dictionary index, part-of-speech index + 1 (0 for none), flags, entry id,
//! preview, phonetic (empty for none), definition (version 3). Each chunk is
//! self-contained.

use super::codec::{compressed_chunks, inflate, put_id, put_str, put_varint, CorruptData, Reader};
use std::collections::HashMap;
use std::sync::Arc;

/// Version 2 added the preview and the phonetic, which search results show;
/// version 3 the definition text, which reverse lookup indexes. Version 2
/// still reads, with no definitions (reverse lookup finds those entries
/// once their dictionary is imported again).
const VERSION: u8 = 3;
const VERSION_WITHOUT_DEFINITIONS: u8 = 2;
const FLAG_AUDIO: u8 = 1;
/// A chunk stays below DynamoDB's 400 KB item limit with room for its keys.
pub const MAX_CHUNK_BYTES: usize = 350_000;

/// One entry as search sees it: its texts one after the other in one
/// buffer, read through [`Posting::folded`] and the others, and made from
/// [`PostingFields`]. A build holds millions of postings; with a string
/// each for six texts, their headers and allocations were a third of a
/// posting's memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Posting {
    /// Folded, word (none when it is the folded form), id, preview,
    /// phonetic and definition.
    texts: Box<str>,
    /// Where each text but the definition ends in `texts`.
    ends: [u32; 5],
    has_phonetic: bool,
    /// Shared by every posting of its dictionary: a build holds millions.
    pub dictionary: Arc<DictionaryRef>,
    /// Shared by the postings of a manifest that name it.
    pub part_of_speech: Option<Arc<str>>,
    pub has_audio: bool,
}

/// A [`Posting`]'s fields one by one: what makes one, and what one gives
/// back whole ([`Posting::fields`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostingFields {
    pub folded: String,
    pub word: String,
    pub dictionary: Arc<DictionaryRef>,
    pub part_of_speech: Option<Arc<str>>,
    pub has_audio: bool,
    pub id: String,
    pub preview: String,
    pub phonetic: Option<String>,
    /// The text reverse lookup finds the entry by
    /// ([`super::definitions::definition_text`]).
    pub definition: String,
}

impl From<PostingFields> for Posting {
    fn from(f: PostingFields) -> Self {
        let word = if f.word == f.folded { "" } else { &f.word };
        let phonetic = f.phonetic.as_deref().unwrap_or("");
        let mut texts = String::with_capacity(
            f.folded.len()
                + word.len()
                + f.id.len()
                + f.preview.len()
                + phonetic.len()
                + f.definition.len(),
        );
        let mut ends = [0u32; 5];
        for (end, text) in ends
            .iter_mut()
            .zip([&f.folded, word, &f.id, &f.preview, phonetic])
        {
            texts.push_str(text);
            *end = u32::try_from(texts.len()).expect("a posting's texts fit 4 GB");
        }
        texts.push_str(&f.definition);
        Posting {
            texts: texts.into_boxed_str(),
            ends,
            has_phonetic: f.phonetic.is_some(),
            dictionary: f.dictionary,
            part_of_speech: f.part_of_speech,
            has_audio: f.has_audio,
        }
    }
}

/// What a posting needs to know about its dictionary for the filters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DictionaryRef {
    pub id: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
}

impl DictionaryRef {
    /// A dictionary of `id` from `source_lang`, into `target_lang` when it
    /// is bilingual.
    pub fn new(id: &str, source_lang: &str, target_lang: Option<&str>) -> Self {
        Self {
            id: id.to_string(),
            source_lang: source_lang.to_string(),
            target_lang: target_lang.map(str::to_string),
        }
    }

    /// The language its entries' definitions are written in: the target
    /// language of a bilingual dictionary (its translations), else the
    /// source language.
    pub fn definition_lang(&self) -> &str {
        self.target_lang.as_deref().unwrap_or(&self.source_lang)
    }
}

impl Posting {
    /// A posting of a bare headword: `word` folded, in `dictionary` under
    /// `id`, with no part of speech, audio, preview, pronunciation or
    /// definition (what the tests and benchmarks that search headwords
    /// build; set the other fields with `..` on [`PostingFields`]).
    pub fn headword(
        word: &str,
        dictionary: impl Into<Arc<DictionaryRef>>,
        id: impl Into<String>,
    ) -> Self {
        PostingFields::headword(word, dictionary, id).into()
    }

    /// The `i`th text of `texts` ([`Posting::ends`]; the definition is 5).
    fn text(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        let end = self.ends.get(i).map_or(self.texts.len(), |&e| e as usize);
        &self.texts[start..end]
    }

    /// The headword, folded.
    pub fn folded(&self) -> &str {
        self.text(0)
    }

    /// The headword as the entry writes it.
    pub fn word(&self) -> &str {
        match self.text(1) {
            "" => self.folded(),
            word => word,
        }
    }

    /// The entry's id in its dictionary.
    pub fn id(&self) -> &str {
        self.text(2)
    }

    /// What search results show of the entry.
    pub fn preview(&self) -> &str {
        self.text(3)
    }

    pub fn phonetic(&self) -> Option<&str> {
        self.has_phonetic.then(|| self.text(4))
    }

    /// The text reverse lookup finds the entry by
    /// ([`super::definitions::definition_text`]).
    pub fn definition(&self) -> &str {
        self.text(5)
    }

    /// Lets go of the texts that only the `records` section reads (id,
    /// preview: half a posting's bytes), which read as empty from then on.
    /// A build encodes `records` first and then drops them, so the other
    /// sections are built beside smaller postings.
    pub fn drop_record_texts(&mut self) {
        self.keep_texts([true, true, false, false, true, true]);
    }

    /// Lets go of the definition, which only the `definitions` section
    /// reads: it reads as empty from then on.
    pub fn drop_definition(&mut self) {
        self.keep_texts([true, true, true, true, true, false]);
    }

    /// Keeps the texts (folded, word, id, preview, phonetic, definition)
    /// that `keep` says, the others empty, in a buffer of their size.
    fn keep_texts(&mut self, keep: [bool; 6]) {
        let kept_len: usize = (0..6)
            .filter(|&i| keep[i])
            .map(|i| self.text(i).len())
            .sum();
        let mut texts = String::with_capacity(kept_len);
        let mut ends = [0u32; 5];
        for (i, &kept) in keep.iter().enumerate() {
            if kept {
                texts.push_str(self.text(i));
            }
            if let Some(end) = ends.get_mut(i) {
                *end = texts.len() as u32;
            }
        }
        self.ends = ends;
        self.texts = texts.into_boxed_str();
    }

    /// Its fields one by one, to make another posting from (the tests'
    /// variations of a posting).
    #[cfg(test)]
    pub(crate) fn fields(&self) -> PostingFields {
        PostingFields {
            folded: self.folded().to_string(),
            word: self.word().to_string(),
            dictionary: self.dictionary.clone(),
            part_of_speech: self.part_of_speech.clone(),
            has_audio: self.has_audio,
            id: self.id().to_string(),
            preview: self.preview().to_string(),
            phonetic: self.phonetic().map(str::to_string),
            definition: self.definition().to_string(),
        }
    }

    /// The order of headwords equally common (decisions.md): shorter first,
    /// then alphabetically by folded form, then dictionary, then id. Manifests
    /// are written in it; the snapshot puts commonness before it and
    /// interleaves a headword's entries by dictionary
    /// (`snapshot::rank_order`).
    pub fn rank_key(&self) -> (usize, &str, &str, &str) {
        (
            self.folded().chars().count(),
            self.folded(),
            &self.dictionary.id,
            self.id(),
        )
    }
}

impl PostingFields {
    /// [`Posting::headword`]'s fields.
    pub fn headword(
        word: &str,
        dictionary: impl Into<Arc<DictionaryRef>>,
        id: impl Into<String>,
    ) -> Self {
        Self {
            folded: crate::fold::fold(word),
            word: word.to_string(),
            dictionary: dictionary.into(),
            part_of_speech: None,
            has_audio: false,
            id: id.into(),
            preview: String::new(),
            phonetic: None,
            definition: String::new(),
        }
    }
}

/// The chunks of a dictionary's postings manifest (stored with
/// `items::manifest_items`): a posting of every entry and of the entries of
/// an earlier import that stay (`--no-prune`), in rank-key order so that
/// the same source always gives the same items.
pub fn manifest_chunks(mut postings: Vec<Posting>) -> Vec<Vec<u8>> {
    postings.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
    let refs: Vec<&Posting> = postings.iter().collect();
    encode_chunks(&refs)
}

/// Encodes postings into compressed chunks of at most [`MAX_CHUNK_BYTES`].
pub fn encode_chunks(postings: &[&Posting]) -> Vec<Vec<u8>> {
    compressed_chunks(postings, MAX_CHUNK_BYTES, &encode_raw)
}

fn encode_raw(postings: &[&Posting]) -> Vec<u8> {
    let mut dictionaries: Vec<&DictionaryRef> = Vec::new();
    let mut dictionary_index: HashMap<&DictionaryRef, usize> = HashMap::new();
    let mut parts: Vec<&str> = Vec::new();
    let mut part_index: HashMap<&str, usize> = HashMap::new();
    for p in postings {
        dictionary_index.entry(&*p.dictionary).or_insert_with(|| {
            dictionaries.push(&*p.dictionary);
            dictionaries.len() - 1
        });
        if let Some(pos) = p.part_of_speech.as_deref() {
            part_index.entry(pos).or_insert_with(|| {
                parts.push(pos);
                parts.len() - 1
            });
        }
    }
    let mut out = vec![VERSION];
    put_tables(&mut out, &dictionaries, &parts);
    put_varint(&mut out, postings.len());
    for p in postings {
        put_str(&mut out, p.folded());
        put_str(&mut out, if p.word() == p.folded() { "" } else { p.word() });
        put_varint(&mut out, dictionary_index[&*p.dictionary]);
        put_varint(
            &mut out,
            p.part_of_speech
                .as_deref()
                .map_or(0, |pos| part_index[pos] + 1),
        );
        out.push(if p.has_audio { FLAG_AUDIO } else { 0 });
        put_id(&mut out, p.id());
        put_str(&mut out, p.preview());
        put_str(&mut out, p.phonetic().unwrap_or(""));
        put_str(&mut out, p.definition());
    }
    out
}

/// The dictionary and part-of-speech tables that postings (here) and entries
/// (in the snapshot) refer to by number.
pub(super) fn put_tables(out: &mut Vec<u8>, dictionaries: &[&DictionaryRef], parts: &[&str]) {
    put_varint(out, dictionaries.len());
    for d in dictionaries {
        put_str(out, &d.id);
        put_str(out, &d.source_lang);
        put_str(out, d.target_lang.as_deref().unwrap_or(""));
    }
    put_varint(out, parts.len());
    for part in parts {
        put_str(out, part);
    }
}

pub(super) fn read_tables(
    r: &mut Reader<'_>,
) -> Result<(Vec<DictionaryRef>, Vec<String>), CorruptData> {
    let mut dictionaries = Vec::new();
    for _ in 0..r.count(3)? {
        let id = r.str()?.to_string();
        let source_lang = r.str()?.to_string();
        let target_lang = r.opt_str()?.map(str::to_string);
        dictionaries.push(DictionaryRef {
            id,
            source_lang,
            target_lang,
        });
    }
    let mut parts = Vec::new();
    for _ in 0..r.count(1)? {
        parts.push(r.str()?.to_string());
    }
    Ok((dictionaries, parts))
}

/// The postings of one stored (compressed) chunk.
pub fn decode_chunk(compressed: &[u8]) -> Result<Vec<Posting>, CorruptData> {
    decode_raw(&inflate(compressed)?)
}

fn decode_raw(raw: &[u8]) -> Result<Vec<Posting>, CorruptData> {
    let mut r = Reader::new(raw);
    let version = r.byte()?;
    if version != VERSION && version != VERSION_WITHOUT_DEFINITIONS {
        return Err(CorruptData(
            "postings manifest of another version: import the dictionary again",
        ));
    }
    let (dictionaries, parts) = read_tables(&mut r)?;
    let dictionaries: Vec<Arc<DictionaryRef>> = dictionaries.into_iter().map(Arc::new).collect();
    let parts: Vec<Arc<str>> = parts.into_iter().map(Arc::from).collect();
    let count = r.count(7)?;
    let mut postings = Vec::with_capacity(count);
    for _ in 0..count {
        let folded = r.str()?.to_string();
        let word = r.opt_str()?.map_or_else(|| folded.clone(), str::to_string);
        let dictionary = dictionaries
            .get(r.varint()?)
            .ok_or(CorruptData("dictionary index out of range"))?
            .clone();
        let part_of_speech = match r.varint()? {
            0 => None,
            n => Some(
                parts
                    .get(n - 1)
                    .ok_or(CorruptData("part of speech out of range"))?
                    .clone(),
            ),
        };
        let has_audio = r.byte()? & FLAG_AUDIO != 0;
        let id = r.id()?;
        let preview = r.str()?.to_string();
        let phonetic = r.opt_str()?.map(str::to_string);
        let definition = match version {
            VERSION_WITHOUT_DEFINITIONS => String::new(),
            _ => r.str()?.to_string(),
        };
        let fields = PostingFields {
            folded,
            word,
            dictionary,
            part_of_speech,
            has_audio,
            id,
            preview,
            phonetic,
            definition,
        };
        postings.push(fields.into());
    }
    if !r.is_done() {
        return Err(CorruptData("trailing bytes"));
    }
    Ok(postings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn posting(folded: &str, word: &str, dict: &str, pos: Option<&str>, id: &str) -> Posting {
        PostingFields {
            folded: folded.into(),
            word: word.into(),
            dictionary: DictionaryRef {
                id: dict.into(),
                source_lang: "fr".into(),
                target_lang: (dict != "mono").then(|| "en".into()),
            }
            .into(),
            part_of_speech: pos.map(Into::into),
            has_audio: pos.is_some(),
            id: id.into(),
            preview: format!("{word}: a preview"),
            phonetic: pos.map(|_| "ekɔl".into()),
            definition: format!("{word}\nschool; a (place)"),
        }
        .into()
    }

    fn decode_all(chunks: &[Vec<u8>]) -> Vec<Posting> {
        chunks
            .iter()
            .flat_map(|c| decode_chunk(c).unwrap())
            .collect()
    }

    #[test]
    fn round_trips_every_field() {
        let all = vec![
            posting(
                "ecole",
                "École",
                "freedict-fra-eng",
                Some("noun"),
                "0123456789abcdef",
            ),
            posting("ecole", "ecole", "mono", None, "not-hex-id"),
        ];
        let refs: Vec<&Posting> = all.iter().collect();
        assert_eq!(decode_all(&encode_chunks(&refs)), all);
    }

    #[test]
    fn large_manifests_split_into_item_sized_chunks() {
        let all: Vec<Posting> = (0..60_000u64)
            .map(|i| {
                let id = format!("{:016x}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                posting(&format!("w{i}"), &format!("W{i}"), "d", Some("noun"), &id)
            })
            .collect();
        let refs: Vec<&Posting> = all.iter().collect();
        let chunks = encode_chunks(&refs);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.len() <= MAX_CHUNK_BYTES));
        assert_eq!(decode_all(&chunks), all);
    }

    #[test]
    fn corrupt_or_old_chunks_are_errors_not_panics() {
        let all = [posting("a", "a", "d", None, "0000000000000001")];
        let mut raw = encode_raw(&all.iter().collect::<Vec<_>>());
        assert_eq!(decode_raw(&raw).unwrap().len(), 1);
        raw.truncate(raw.len() - 3);
        assert!(decode_raw(&raw).is_err());
        raw[0] = 1;
        assert!(decode_raw(&raw).unwrap_err().0.contains("import"));
    }

    /// A manifest of version 2, written before definitions, reads with
    /// none: the index builds, and reverse lookup finds its entries once
    /// the dictionary is imported again.
    #[test]
    fn manifests_without_definitions_still_read() {
        let one = posting("a", "a", "d", None, "0000000000000001");
        let mut raw = encode_raw(&[&one]);
        let definition_bytes = 1 + one.definition().len();
        raw.truncate(raw.len() - definition_bytes);
        raw[0] = VERSION_WITHOUT_DEFINITIONS;
        let mut without = one.fields();
        without.definition.clear();
        assert_eq!(decode_raw(&raw).unwrap(), vec![without.into()]);
    }

    proptest! {
        /// The texts held in one buffer give back what made them, a
        /// pronunciation absent apart from an empty one; a word spelled as
        /// its folded form is held once (an empty word means that, as in
        /// a manifest).
        #[test]
        fn a_posting_gives_back_its_fields_until_its_record_texts_go(
            folded in ".{0,6}",
            word in ".{0,6}",
            same in any::<bool>(),
            id in "[0-9a-f]{0,16}",
            preview in ".{0,12}",
            phonetic in proptest::option::of(".{0,4}"),
            definition in ".{0,12}",
        ) {
            let word = if same { folded.clone() } else { word };
            prop_assume!(!word.is_empty() || folded.is_empty());
            let fields = PostingFields {
                folded,
                word,
                dictionary: DictionaryRef::new("d", "fr", None).into(),
                part_of_speech: None,
                has_audio: false,
                id,
                preview,
                phonetic,
                definition,
            };
            let mut posting = Posting::from(fields.clone());
            prop_assert_eq!(posting.fields(), fields.clone());
            posting.drop_record_texts();
            let defined = PostingFields {
                id: String::new(),
                preview: String::new(),
                ..fields.clone()
            };
            prop_assert_eq!(posting.fields(), defined.clone());
            posting.drop_definition();
            let searched = PostingFields {
                definition: String::new(),
                ..defined
            };
            prop_assert_eq!(posting.fields(), searched);
        }

        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode_raw(&bytes);
            let _ = decode_chunk(&bytes);
        }
    }
}
