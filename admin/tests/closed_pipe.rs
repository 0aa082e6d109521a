//! `dictadmin … | head`: a command whose standard output (and standard
//! error) is a pipe nobody reads any more finishes its work and exits 0,
//! without a panic. The commands here need no stack (dry runs and help);
//! the black-box tests run the ones that read the tables the same way.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(path: &str) -> String {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/fixture")
        .join(path);
    path.to_str().unwrap().to_string()
}

/// Runs dictadmin with standard output a pipe whose reading end is closed
/// before it starts; standard error is kept to be read.
fn run_into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let state = std::env::temp_dir().join(format!("closed-pipe-{}", std::process::id()));
    Command::new(env!("CARGO_BIN_EXE_dictadmin"))
        .args(args)
        .stdout(writer)
        .env("DICTADMIN_STATE_DIR", &state)
        // A dry run reads the configuration but never connects.
        .envs([
            ("AWS_REGION", "us-east-1"),
            ("AWS_ACCESS_KEY_ID", "none"),
            ("AWS_SECRET_ACCESS_KEY", "none"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("ENTRIES_TABLE", "entries"),
            ("KEYS_TABLE", "keys"),
            ("AUDIO_BUCKET", "audio"),
            ("DYNAMODB_ENDPOINT", "http://127.0.0.1:9"),
            ("S3_ENDPOINT", "http://127.0.0.1:9"),
        ])
        .output()
        .expect("dictadmin runs")
}

fn assert_clean_exit(args: &[&str]) {
    let out = run_into_closed_pipe(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "dictadmin {args:?}: {:?}\n{stderr}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "dictadmin {args:?}: {stderr}");
    assert!(
        !stderr.contains("Broken pipe"),
        "dictadmin {args:?}: {stderr}"
    );
}

#[test]
fn a_dry_run_import_of_every_format_exits_cleanly_into_a_closed_pipe() {
    let mythes: Vec<String> = ["en_US", "de_DE", "es_ES", "fr_FR"]
        .iter()
        .map(|locale| fixture(&format!("mythes/th_{locale}_v2.dat")))
        .collect();
    let mut args = vec!["import", "--dry-run", "mythes"];
    args.extend(mythes.iter().map(String::as_str));
    assert_clean_exit(&args);
    let gcide = fixture("gcide/gcide");
    assert_clean_exit(&["import", "--dry-run", "gcide", &gcide]);
    let wordnet = fixture("wordnet");
    assert_clean_exit(&["import", "--dry-run", "wordnet", &wordnet]);
    let freedict = fixture("freedict/freedict-eng-fra");
    assert_clean_exit(&["import", "--dry-run", "freedict", &freedict]);
}

#[test]
fn a_dry_run_lexicon_and_the_help_exit_cleanly_into_a_closed_pipe() {
    let tsv = fixture("wordfreq/en.tsv");
    assert_clean_exit(&["lexicon", "--dry-run", "wordfreq", "--lang", "en", &tsv]);
    let wordnet = fixture("wordnet");
    assert_clean_exit(&["lexicon", "--dry-run", "wordnet-forms", &wordnet]);
    assert_clean_exit(&["--help"]);
    assert_clean_exit(&["import", "--help"]);
}
