//! The importer against hostile or changing sources, on the running stack:
//! a source over the size limit is refused, an article DynamoDB cannot store
//! is skipped and reported, a re-import deletes what left the source, and a
//! changed article never resumes an interrupted import. Every test imports
//! into a table of its own (made from template.yaml by `dictadmin setup`)
//! and drops it afterwards; the dictionary is a Swahili MyThes thesaurus
//! (`mythes-sw`) that no fixture has.

use blackbox::{listed_dictionary, repo_root, stack_clients};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const DICTIONARY: &str = "mythes-sw";

/// Runs dictadmin against `table` instead of the stack's entries table.
fn dictadmin(table: &str, args: &[&str], extra_env: &[(&str, &str)]) -> Output {
    let state = std::env::temp_dir().join(format!("hardening-state-{}", std::process::id()));
    blackbox::dictadmin_on_table(table, args, extra_env, &state)
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_ok(out: &Output) -> String {
    let (stdout, stderr) = text(out);
    assert!(out.status.success(), "{stdout}{stderr}");
    stdout
}

async fn fresh_table(name: &str) -> (aws_sdk_dynamodb::Client, String) {
    let (clients, _) = stack_clients().await;
    let table = format!("test-{name}-{}", std::process::id());
    assert_ok(&dictadmin(&table, &["setup"], &[]));
    (clients.dynamodb, table)
}

async fn drop_table(client: &aws_sdk_dynamodb::Client, table: &str) {
    client
        .delete_table()
        .table_name(table)
        .send()
        .await
        .unwrap();
}

/// A directory of this test's own, for its source files.
fn work_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hardening-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a MyThes thesaurus of `mythes-sw` in `dir`: its path.
fn thesaurus(dir: &Path, body: &str) -> String {
    let path = dir.join("th_sw_TZ_v2.dat");
    std::fs::write(&path, format!("UTF-8\n{body}")).unwrap();
    path.to_str().unwrap().to_string()
}

/// Every item of the table by key (a test may scan; dictadmin never does).
async fn all_items(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> BTreeMap<(String, String), shared::storage::items::Item> {
    let scan = client.scan().table_name(table);
    blackbox::scanned(scan)
        .await
        .into_iter()
        .map(|item| (blackbox::key_of(&item), item))
        .collect()
}

/// The headwords of the dictionary's entries, and (headword, relation, word)
/// of its links.
async fn entries_and_links(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> (BTreeSet<String>, BTreeSet<(String, String, String)>) {
    let mut entries = BTreeSet::new();
    let mut links = BTreeSet::new();
    for ((pk, _), item) in all_items(client, table).await {
        let s = |k: &str| item[k].as_s().unwrap().clone();
        if pk.starts_with("E#") {
            entries.insert(s("word"));
        } else if let Some(headword) = pk.strip_prefix("T#") {
            links.insert((headword.to_string(), s("relationshipType"), s("word")));
        }
    }
    (entries, links)
}

fn link(headword: &str, kind: &str, word: &str) -> (String, String, String) {
    (headword.into(), kind.into(), word.into())
}

fn words(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|w| w.to_string()).collect()
}

#[test]
fn a_source_over_the_size_limit_is_refused_by_name() {
    let dir = work_dir("bomb");
    // 32 MiB of spaces, gzipped to some 32 KB: a small decompression bomb.
    let bomb = dir.join("th_sw_TZ_v2.dat.gz");
    let mut gzip = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&bomb).unwrap())
        .spawn()
        .expect("gzip runs");
    {
        use std::io::Write;
        let mut stdin = gzip.stdin.take().unwrap();
        let mut head = b"UTF-8\n".to_vec();
        head.resize(32 << 20, b' ');
        stdin.write_all(&head).unwrap();
    }
    assert!(gzip.wait().unwrap().success());
    assert!(std::fs::metadata(&bomb).unwrap().len() < 100_000);

    let bomb = bomb.to_str().unwrap();
    for (args, env) in [
        (
            vec!["import", "--max-source-bytes", "1MiB", "mythes", bomb],
            vec![],
        ),
        (
            vec!["import", "mythes", bomb],
            vec![("DICTADMIN_MAX_SOURCE_BYTES", "1048576")],
        ),
    ] {
        let out = dictadmin("unused", &args, &env);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "{bomb}: decompresses to more than 1048576 bytes, the limit for one source file: refused"
            )),
            "{stderr}"
        );
    }
    // A real source under a small limit is refused too, and read under the
    // default one.
    let fixture = repo_root().join("data/fixture/freedict/freedict-eng-fra");
    let fixture = fixture.to_str().unwrap();
    let out = dictadmin(
        "unused",
        &[
            "import",
            "--dry-run",
            "--max-source-bytes",
            "4KiB",
            "freedict",
            fixture,
        ],
        &[],
    );
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("freedict-eng-fra.") && stderr.contains("more than 4096 bytes"),
        "{stderr}"
    );
    assert_ok(&dictadmin(
        "unused",
        &["import", "--dry-run", "freedict", fixture],
        &[],
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn an_article_dynamodb_cannot_store_is_skipped_and_reported() {
    let (client, table) = fresh_table("unstorable").await;
    let dir = work_dir("unstorable");
    let huge = "kubwa sana ".repeat(45_000); // some 500 KB of one term
    let long = "ndefu".repeat(300); // 1500 bytes: too long for a sort key
    let source = thesaurus(
        &dir,
        &format!(
            "rafiki|1\n(noun)|mwenzi|sahibu\nkubwa|1\n(adj)|{huge}\nndogo|1\n(adj)|dogo|{long}\n"
        ),
    );

    // --strict refuses the dictionary and writes nothing.
    let out = dictadmin(&table, &["import", "--strict", "mythes", &source], &[]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("mythes-sw: 2 articles or links cannot be stored in DynamoDB (listed above); nothing written, as --strict asks"),
        "{stderr}"
    );
    assert!(all_items(&client, &table).await.is_empty());

    // Without it, the rest is imported and the skipped ones are named with
    // their place in the source.
    let out = dictadmin(&table, &["import", "mythes", &source], &[]);
    let stdout = assert_ok(&out);
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains(&format!(
            "warning: mythes-sw: skipped entry \"kubwa\" ({source} line 4): its item is "
        )) && stderr.contains("over DynamoDB's limit of 409600; its 1 links are skipped with it"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning: mythes-sw: skipped synonym link \"ndogo\" → \"ndefundefu")
            && stderr.contains(&format!(
                "… (1500 bytes) ({source} line 6): its key sk is 1523 bytes, over DynamoDB's limit of 1024"
            )),
        "{stderr}"
    );
    assert!(
        stdout.contains("skipped 1 entries and 2 links that DynamoDB cannot store"),
        "{stdout}"
    );
    let (entries, links) = entries_and_links(&client, &table).await;
    assert_eq!(entries, words(&["ndogo", "rafiki"]));
    assert_eq!(
        links,
        BTreeSet::from([
            link("ndogo", "synonym", "dogo"),
            link("rafiki", "synonym", "mwenzi"),
            link("rafiki", "synonym", "sahibu"),
        ])
    );
    assert_eq!(
        listed_dictionary(&client, &table, DICTIONARY)
            .await
            .unwrap()
            .entry_count,
        2
    );

    drop_table(&client, &table).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

const BEFORE: &str = "\
rafiki|1
(noun)|mwenzi|sahibu|adui (antonym)
adui|1
(noun)|hasimu|mpinzani
kubwa|1
(adj)|kuu|pana
";

/// `adui` has left the source, and with it the link that named it.
const AFTER: &str = "\
rafiki|1
(noun)|mwenzi|sahibu
kubwa|1
(adj)|kuu|pana
";

#[tokio::test]
async fn a_re_import_deletes_the_entries_and_links_that_left_the_source() {
    let (clients, config) = stack_clients().await;
    let (client, table) = fresh_table("prune").await;
    let dir = work_dir("prune");
    let before = thesaurus(&dir, BEFORE);
    assert_ok(&dictadmin(
        &table,
        &[
            "import",
            "--audio-format",
            "mp3",
            "--audio-words",
            "adui,kubwa",
            "mythes",
            &before,
        ],
        &[],
    ));
    let (entries, links) = entries_and_links(&client, &table).await;
    assert_eq!(entries, words(&["adui", "kubwa", "rafiki"]));
    assert!(links.contains(&link("adui", "synonym", "hasimu")));
    assert!(links.contains(&link("rafiki", "antonym", "adui")));
    let audio_keys: BTreeMap<String, String> = all_items(&client, &table)
        .await
        .into_values()
        .filter_map(|item| {
            Some((
                item.get("word")?.as_s().ok()?.clone(),
                item.get("audioKey")?.as_s().ok()?.clone(),
            ))
        })
        .collect();
    assert_eq!(audio_keys.len(), 2, "{audio_keys:?}");
    let audio_exists = |key: String| {
        let s3 = clients.s3.clone();
        let bucket = config.audio_bucket.clone();
        async move {
            s3.head_object()
                .bucket(bucket)
                .key(key)
                .send()
                .await
                .is_ok()
        }
    };
    assert!(audio_exists(audio_keys["adui"].clone()).await);

    // --no-prune keeps what left the source.
    let after = thesaurus(&dir, AFTER);
    let stdout = assert_ok(&dictadmin(
        &table,
        &[
            "import",
            "--no-prune",
            "--audio-format",
            "mp3",
            "--audio-words",
            "kubwa",
            "mythes",
            &after,
        ],
        &[],
    ));
    assert!(
        stdout.contains("kept 1 entries no longer in the source (--no-prune)"),
        "{stdout}"
    );
    let (entries, links) = entries_and_links(&client, &table).await;
    assert!(entries.contains("adui"));
    assert!(links.contains(&link("rafiki", "antonym", "adui")));
    assert!(audio_exists(audio_keys["adui"].clone()).await);
    // The kept entry stays listed, so that search finds it and a later
    // import can still prune it.
    assert_eq!(
        listed_dictionary(&client, &table, DICTIONARY)
            .await
            .unwrap()
            .entry_count,
        3
    );
    let index = assert_ok(&dictadmin(&table, &["index"], &[]));
    assert!(index.contains(", 3 entries,"), "{index}");

    // By default the re-import deletes it, and only it.
    let stdout = assert_ok(&dictadmin(
        &table,
        &[
            "import",
            "--audio-format",
            "mp3",
            "--audio-words",
            "kubwa",
            "mythes",
            &after,
        ],
        &[],
    ));
    assert!(
        stdout.contains("pruned 1 entries (1 with audio) and 3 links no longer in the source"),
        "{stdout}"
    );
    let (entries, links) = entries_and_links(&client, &table).await;
    assert_eq!(entries, words(&["kubwa", "rafiki"]));
    assert_eq!(
        links,
        BTreeSet::from([
            link("kubwa", "synonym", "kuu"),
            link("kubwa", "synonym", "pana"),
            link("rafiki", "synonym", "mwenzi"),
            link("rafiki", "synonym", "sahibu"),
        ])
    );
    // A word's synthesized file is shared by every dictionary with the word,
    // so it stays when one entry of it leaves.
    assert!(audio_exists(audio_keys["adui"].clone()).await);
    assert!(audio_exists(audio_keys["kubwa"].clone()).await);
    assert_eq!(
        listed_dictionary(&client, &table, DICTIONARY)
            .await
            .unwrap()
            .entry_count,
        2
    );
    let index = assert_ok(&dictadmin(&table, &["index"], &[]));
    assert!(index.contains(", 2 entries,"), "{index}");

    // The table now holds exactly what a first import of the new source
    // writes (the manifest included), and a further run prunes nothing.
    let (_, clean) = fresh_table("prune-clean").await;
    assert_ok(&dictadmin(
        &clean,
        &[
            "import",
            "--audio-format",
            "mp3",
            "--audio-words",
            "kubwa",
            "mythes",
            &after,
        ],
        &[],
    ));
    // (`dictadmin index` above added a snapshot, which is not an import's.)
    let mut pruned = all_items(&client, &table).await;
    pruned.retain(|(pk, sk), _| {
        !pk.starts_with("S#") && sk.as_str() != shared::storage::items::SNAPSHOT_POINTER_SK
    });
    assert_eq!(pruned, all_items(&client, &clean).await);
    let stdout = assert_ok(&dictadmin(&table, &["import", "mythes", &after], &[]));
    assert!(
        stdout.contains("pruned 0 entries (0 with audio) and 0 links"),
        "{stdout}"
    );
    // The same import once more finds every item as that run wrote it
    // (its checkpoint marked complete, the record in the table), and writes
    // nothing: a corpus import resumed after hours skips what it finished.
    let before = all_items(&client, &table).await;
    let again = assert_ok(&dictadmin(&table, &["import", "mythes", &after], &[]));
    assert!(
        again.contains("unchanged since its last import into this table"),
        "{again}"
    );
    assert_eq!(all_items(&client, &table).await, before);

    // The bucket is the stack's: leave nothing of this test in it.
    for key in audio_keys.values() {
        clients
            .s3
            .delete_object()
            .bucket(&config.audio_bucket)
            .key(key)
            .send()
            .await
            .unwrap();
    }
    drop_table(&client, &table).await;
    drop_table(&client, &clean).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn an_interrupted_import_of_a_changed_article_starts_again_from_zero() {
    let (client, table) = fresh_table("changed").await;
    let dir = work_dir("changed");
    // 300 headwords: the first segment (250 items) is entries only.
    let body = |label: &str| {
        let mut body = format!("neno0|1\n({label})|kisawe\n");
        for n in 1..300 {
            body.push_str(&format!("neno{n}|1\n(noun)|kisawe{n}\n"));
        }
        body
    };
    let source = thesaurus(&dir, &body("noun"));
    let killed = dictadmin(
        &table,
        &["import", "mythes", &source],
        &[("DICTADMIN_CRASH_AFTER_ITEMS", "250")],
    );
    assert_eq!(killed.status.code(), Some(137), "the first run is cut off");

    // The first article's text changes, its keys do not: "Substantiv" is a
    // noun too, and the label is shown in the entry.
    let source = thesaurus(&dir, &body("Substantiv"));
    let stdout = assert_ok(&dictadmin(&table, &["import", "mythes", &source], &[]));
    assert!(!stdout.contains("resuming"), "{stdout}");
    let neno0 = all_items(&client, &table)
        .await
        .into_values()
        .find(|item| {
            item.get("word")
                .and_then(|w| w.as_s().ok())
                .map(String::as_str)
                == Some("neno0")
                && item.contains_key("htmlContent")
        })
        .expect("neno0 is stored");
    let html = neno0["htmlContent"].as_s().unwrap();
    assert!(html.contains("Substantiv"), "{html}");

    // Unchanged, an interrupted import does resume.
    let killed = dictadmin(
        &table,
        &["import", "mythes", &thesaurus(&dir, &body("noun"))],
        &[("DICTADMIN_CRASH_AFTER_ITEMS", "250")],
    );
    assert_eq!(killed.status.code(), Some(137));
    let stdout = assert_ok(&dictadmin(&table, &["import", "mythes", &source], &[]));
    assert!(stdout.contains("resuming after 250 of"), "{stdout}");

    drop_table(&client, &table).await;
    std::fs::remove_dir_all(&dir).unwrap();
}
