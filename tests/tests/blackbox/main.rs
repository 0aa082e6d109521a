//! Every black-box test, in one binary: one link of the AWS SDK instead of one
//! per file, which on a 2-core CI machine saves minutes and gigabytes of target/.
//! `make test` starts the stack they run against; `faults` and
//! `sam_artifacts` are `#[ignore]`d and run on their own (infra/scripts/test.sh,
//! infra/scripts/deploy-check.sh).

mod app_starts;
mod audio;
mod batch_faults;
mod caching;
mod call_budget;
mod cold_load;
mod endpoints;
mod entries;
mod faults;
mod folded_letters;
mod frequency;
mod graphql;
mod graphql_cost;
mod hostile_input;
mod iam_policies;
mod import_hardening;
mod import_runs;
mod inflections;
mod introspection;
mod invoke_events;
mod keys_and_quota;
mod logs;
mod pages;
mod patterns;
mod quota_store;
mod random;
mod rebuild;
mod request_cost;
mod reverse;
mod reverse_real_data;
mod rhymes;
mod sam_artifacts;
mod search;
mod snapshot_format;
mod sounds_like;
mod stop_words;
mod thesaurus;
mod typo_forms;
mod words;
