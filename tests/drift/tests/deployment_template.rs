//! The protections template.yaml deploys around the functions: throttling
//! and access logs on the HTTP API, reserved concurrency, a log group with a
//! retention period for every function, and tables that survive a careless
//! delete. None of this runs locally (`cargo lambda watch` has no API
//! Gateway, DynamoDB Local no deletion protection), so it is checked in the
//! template itself. These tests do not need the local stack.

use drift::repo_root;
use serde_norway::Value as Yaml;
use std::collections::{BTreeMap, BTreeSet};

/// The values CloudWatch Logs accepts as `RetentionInDays`.
const CLOUDWATCH_RETENTION_DAYS: [u64; 22] = [
    1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922,
    3288, 3653,
];

fn template() -> Yaml {
    let text = std::fs::read_to_string(repo_root().join("template.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

fn resources_of_type<'a>(doc: &'a Yaml, kind: &str) -> BTreeMap<String, &'a Yaml> {
    doc["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter(|(_, r)| r["Type"].as_str() == Some(kind))
        .map(|(name, r)| (name.as_str().unwrap().to_string(), r))
        .collect()
}

/// `!Name value` → `("Name", value)`.
fn intrinsic(value: &Yaml) -> Option<(String, &Yaml)> {
    match value {
        Yaml::Tagged(tagged) => Some((
            tagged.tag.to_string().trim_start_matches('!').to_string(),
            &tagged.value,
        )),
        _ => None,
    }
}

/// The name in `!Ref Name`.
fn reference(value: &Yaml) -> Option<&str> {
    match intrinsic(value) {
        Some((tag, name)) if tag == "Ref" => name.as_str(),
        _ => None,
    }
}

/// The text of `!Sub "text"`.
fn substitution(value: &Yaml) -> Option<&str> {
    match intrinsic(value) {
        Some((tag, text)) if tag == "Sub" => text.as_str(),
        _ => None,
    }
}

/// A parameter's default as a number (YAML may hold it as a number or a string).
fn number(value: &Yaml) -> Option<f64> {
    value
        .as_f64()
        .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
}

/// A number parameter with a positive default; its name.
fn positive_number_parameter<'a>(doc: &Yaml, value: &'a Yaml) -> &'a str {
    let name = reference(value).unwrap_or_else(|| panic!("{value:?} is not a !Ref of a parameter"));
    let parameter = &doc["Parameters"][name];
    assert_eq!(parameter["Type"].as_str(), Some("Number"), "{name}");
    let default = number(&parameter["Default"]).unwrap_or_else(|| panic!("{name} has no default"));
    assert!(default > 0.0, "{name} defaults to {default}");
    name
}

#[test]
fn both_tables_are_deletion_protected_and_retained() {
    let doc = template();
    let tables = resources_of_type(&doc, "AWS::DynamoDB::Table");
    assert_eq!(
        tables.keys().map(String::as_str).collect::<Vec<_>>(),
        ["EntriesTable", "KeysTable"]
    );
    for (name, table) in tables {
        assert_eq!(
            table["Properties"]["DeletionProtectionEnabled"].as_bool(),
            Some(true),
            "{name} must have DeletionProtectionEnabled: true"
        );
        for policy in ["DeletionPolicy", "UpdateReplacePolicy"] {
            assert_eq!(
                table[policy].as_str(),
                Some("Retain"),
                "{name} must have {policy}: Retain"
            );
        }
    }
}

#[test]
fn every_function_logs_to_its_own_log_group_with_a_retention_period() {
    let doc = template();
    let log_groups = resources_of_type(&doc, "AWS::Logs::LogGroup");
    let globals = &doc["Globals"]["Function"];
    let mut used = BTreeSet::new();
    for (name, function) in resources_of_type(&doc, "AWS::Serverless::Function") {
        let props = &function["Properties"];
        let binary = function["Metadata"]["BuildProperties"]["Binary"]
            .as_str()
            .unwrap();
        let function_name = substitution(&props["FunctionName"])
            .unwrap_or_else(|| panic!("{name} has no FunctionName: !Sub \"...\""));
        assert_eq!(
            function_name,
            format!("${{AWS::StackName}}-{binary}"),
            "{name}"
        );
        let logging = &props["LoggingConfig"];
        let group = reference(&logging["LogGroup"])
            .unwrap_or_else(|| panic!("{name} has no LoggingConfig.LogGroup: !Ref ..."));
        let format = logging["LogFormat"]
            .as_str()
            .or(globals["LoggingConfig"]["LogFormat"].as_str());
        assert!(
            matches!(format, Some("Text" | "JSON")),
            "{name} has no LogFormat (Text or JSON), here or in Globals"
        );
        let log_group = log_groups
            .get(group)
            .unwrap_or_else(|| panic!("{name} logs to {group}, which is no AWS::Logs::LogGroup"));
        assert_eq!(
            substitution(&log_group["Properties"]["LogGroupName"]),
            Some(format!("/aws/lambda/{function_name}").as_str()),
            "{group} must be named after {name}, as Lambda names its default log group"
        );
        assert!(used.insert(group), "{group} is shared by two functions");
    }
    assert!(!used.is_empty());
    // Every log group, the access log's too, expires.
    let retention = &doc["Parameters"]["LogRetentionDays"];
    for (name, log_group) in &log_groups {
        assert_eq!(
            reference(&log_group["Properties"]["RetentionInDays"]),
            Some("LogRetentionDays"),
            "{name} must keep its logs for LogRetentionDays"
        );
    }
    let allowed: Vec<u64> = retention["AllowedValues"]
        .as_sequence()
        .expect("LogRetentionDays has AllowedValues")
        .iter()
        .map(|v| number(v).unwrap() as u64)
        .collect();
    assert!(
        allowed.iter().all(|d| CLOUDWATCH_RETENTION_DAYS.contains(d)),
        "LogRetentionDays allows {allowed:?}; CloudWatch accepts only {CLOUDWATCH_RETENTION_DAYS:?}"
    );
    let default = number(&retention["Default"]).expect("LogRetentionDays has a default") as u64;
    assert!(
        allowed.contains(&default),
        "default {default} is not allowed"
    );
}

#[test]
fn the_http_api_is_throttled() {
    let doc = template();
    let apis = resources_of_type(&doc, "AWS::Serverless::HttpApi");
    assert_eq!(apis.len(), 1);
    for (name, api) in apis {
        let settings = &api["Properties"]["DefaultRouteSettings"];
        let burst = positive_number_parameter(&doc, &settings["ThrottlingBurstLimit"]);
        let rate = positive_number_parameter(&doc, &settings["ThrottlingRateLimit"]);
        assert_eq!(
            (burst, rate),
            ("ApiThrottlingBurstLimit", "ApiThrottlingRateLimit"),
            "{name}"
        );
    }
}

#[test]
fn the_http_api_writes_access_logs_without_key_material() {
    let doc = template();
    let log_groups = resources_of_type(&doc, "AWS::Logs::LogGroup");
    for (name, api) in resources_of_type(&doc, "AWS::Serverless::HttpApi") {
        let settings = &api["Properties"]["AccessLogSettings"];
        let destination = match intrinsic(&settings["DestinationArn"]) {
            Some((tag, target)) if tag == "GetAtt" => target.as_str().unwrap(),
            _ => panic!("{name}: AccessLogSettings.DestinationArn must be !GetAtt <LogGroup>.Arn"),
        };
        let group = destination.strip_suffix(".Arn").unwrap();
        assert!(
            log_groups.contains_key(group),
            "{name} logs to {group}, which is no log group of the template"
        );
        let format = settings["Format"].as_str().expect("a Format");
        assert!(
            !format.replace("$context.", "").contains('$'),
            "only $context variables: {format}"
        );
        // Each variable becomes a string naming it, so that the format parses
        // as JSON whatever the values (messageString comes quoted already).
        let quoted = format.replace(
            "$context.error.messageString",
            "\"$context.error.messageString\"",
        );
        let named = name_variables(&quoted);
        let fields: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&named)
            .unwrap_or_else(|e| {
                panic!("{name}: the access log format is not JSON ({e}): {format}")
            });
        for (field, variable) in [
            ("requestId", "requestId"),
            ("ip", "identity.sourceIp"),
            ("requestTime", "requestTime"),
            ("httpMethod", "httpMethod"),
            ("routeKey", "routeKey"),
            ("status", "status"),
            ("responseLength", "responseLength"),
            ("integrationLatency", "integrationLatency"),
        ] {
            assert_eq!(
                fields.get(field).and_then(|v| v.as_str()),
                Some(format!("context:{variable}").as_str()),
                "{name}: access log field {field} must be $context.{variable}"
            );
        }
        for value in fields.values() {
            let variable = value.as_str().unwrap_or_default().to_lowercase();
            for secret in ["header", "authoriz", "apikey", "querystring", "body"] {
                assert!(
                    !variable.contains(secret),
                    "{name}: the access log must not carry {variable}"
                );
            }
        }
    }
}

/// `"$context.a.b"` → `"context:a.b"`: each variable as the string naming it.
fn name_variables(format: &str) -> String {
    let mut out = String::new();
    let mut rest = format;
    while let Some(at) = rest.find("$context.") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "$context.".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
            .unwrap_or(rest.len());
        out.push_str("context:");
        out.push_str(&rest[..end]);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn every_function_reserves_the_concurrency_parameter() {
    let doc = template();
    let parameter = &doc["Parameters"]["FunctionReservedConcurrency"];
    assert_eq!(parameter["Type"].as_str(), Some("Number"));
    assert_eq!(
        number(&parameter["MinValue"]),
        Some(0.0),
        "0 (no reservation) must be allowed: a new account may have a concurrency limit of 10"
    );
    assert!(number(&parameter["Default"]).is_some_and(|d| d > 0.0));

    // Globals: !If [Condition, !Ref FunctionReservedConcurrency, !Ref AWS::NoValue]
    let reserved = &doc["Globals"]["Function"]["ReservedConcurrentExecutions"];
    let (tag, args) = intrinsic(reserved).expect("Globals reserve concurrency with !If");
    assert_eq!(tag, "If");
    let args = args.as_sequence().unwrap();
    assert_eq!(args.len(), 3);
    let condition = args[0].as_str().unwrap();
    assert_eq!(reference(&args[1]), Some("FunctionReservedConcurrency"));
    assert_eq!(reference(&args[2]), Some("AWS::NoValue"));

    // The condition: !Not [!Equals [!Ref FunctionReservedConcurrency, 0]]
    let (not, inner) = intrinsic(&doc["Conditions"][condition])
        .unwrap_or_else(|| panic!("no condition {condition}"));
    assert_eq!(not, "Not");
    let (equals, pair) = intrinsic(&inner.as_sequence().unwrap()[0]).unwrap();
    assert_eq!(equals, "Equals");
    let pair = pair.as_sequence().unwrap();
    assert_eq!(reference(&pair[0]), Some("FunctionReservedConcurrency"));
    assert_eq!(number(&pair[1]), Some(0.0), "0 means no reservation");

    for (name, function) in resources_of_type(&doc, "AWS::Serverless::Function") {
        assert!(
            function["Properties"]["ReservedConcurrentExecutions"].is_null(),
            "{name} overrides the reserved concurrency of Globals"
        );
    }
}

/// The alarms of the template, by logical id.
fn alarms(doc: &Yaml) -> BTreeMap<String, &Yaml> {
    resources_of_type(doc, "AWS::CloudWatch::Alarm")
}

/// The alarm on `(namespace, metric)` whose dimension `dimension` is
/// `!Ref target`, with its logical id; panics unless there is exactly one.
fn alarm_on<'a>(
    doc: &'a Yaml,
    namespace: &str,
    metric: &str,
    dimension: &str,
    target: &str,
) -> (String, &'a Yaml) {
    let found: Vec<(String, &Yaml)> = alarms(doc)
        .into_iter()
        .filter(|(_, alarm)| {
            metrics_of(&alarm["Properties"]).iter().any(|m| {
                m["Namespace"].as_str() == Some(namespace)
                    && m["MetricName"].as_str() == Some(metric)
                    && m["Dimensions"].as_sequence().is_some_and(|dims| {
                        dims.iter().any(|d| {
                            d["Name"].as_str() == Some(dimension)
                                && reference(&d["Value"]) == Some(target)
                        })
                    })
            })
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one alarm on {namespace} {metric} of {target}: {:?}",
        found.iter().map(|(id, _)| id).collect::<Vec<_>>()
    );
    found.into_iter().next().unwrap()
}

/// The metrics an alarm reads: its own, or those of its metric math.
fn metrics_of(props: &Yaml) -> Vec<&Yaml> {
    match props["Metrics"].as_sequence() {
        Some(metrics) => metrics
            .iter()
            .map(|m| &m["MetricStat"]["Metric"])
            .filter(|m| !m.is_null())
            .collect(),
        None => vec![props],
    }
}

#[test]
fn every_alarm_has_a_parameter_threshold_and_notifies_the_optional_topic() {
    let doc = template();
    let all = alarms(&doc);
    assert!(!all.is_empty());
    let topic = &doc["Parameters"]["AlarmTopicArn"];
    assert_eq!(
        topic["Default"].as_str(),
        Some(""),
        "notifications are optional"
    );
    for (name, alarm) in &all {
        let props = &alarm["Properties"];
        let threshold = reference(&props["Threshold"])
            .unwrap_or_else(|| panic!("{name}: Threshold is not a parameter"));
        let parameter = &doc["Parameters"][threshold];
        assert_eq!(parameter["Type"].as_str(), Some("Number"), "{threshold}");
        assert!(number(&parameter["Default"]).is_some(), "{threshold}");
        for actions in ["AlarmActions", "OKActions"] {
            let (tag, value) = intrinsic(&props[actions])
                .unwrap_or_else(|| panic!("{name}: {actions} is not !If [HasAlarmTopic, ...]"));
            assert_eq!(tag, "If", "{name} {actions}");
            assert_eq!(value[0].as_str(), Some("HasAlarmTopic"), "{name} {actions}");
            assert_eq!(
                reference(&value[1][0]),
                Some("AlarmTopicArn"),
                "{name} {actions}"
            );
            assert_eq!(
                reference(&value[2]),
                Some("AWS::NoValue"),
                "{name} {actions}"
            );
        }
        assert_eq!(
            props["TreatMissingData"].as_str(),
            Some("notBreaching"),
            "{name}: no traffic is not an alarm"
        );
    }
    let condition = &doc["Conditions"]["HasAlarmTopic"];
    let (tag, not) = intrinsic(condition).expect("HasAlarmTopic: !Not [...]");
    assert_eq!(tag, "Not");
    let (tag, equals) = intrinsic(&not[0]).expect("!Not [!Equals [...]]");
    assert_eq!(tag, "Equals");
    assert_eq!(reference(&equals[0]), Some("AlarmTopicArn"));
    assert_eq!(equals[1].as_str(), Some(""));
}

#[test]
fn every_function_alarms_on_errors_throttles_and_a_p99_near_its_timeout() {
    let doc = template();
    let timeout_ms = number(&doc["Globals"]["Function"]["Timeout"]).unwrap() * 1000.0;
    for (name, _) in resources_of_type(&doc, "AWS::Serverless::Function") {
        for metric in ["Errors", "Throttles", "Duration"] {
            let (id, alarm) = alarm_on(&doc, "AWS/Lambda", metric, "FunctionName", &name);
            let props = &alarm["Properties"];
            let parameter = positive_number_parameter(&doc, &props["Threshold"]);
            if metric == "Duration" {
                assert_eq!(props["ExtendedStatistic"].as_str(), Some("p99"), "{id}");
                let default = number(&doc["Parameters"][parameter]["Default"]).unwrap();
                assert!(
                    default < timeout_ms && default >= timeout_ms / 2.0,
                    "{parameter} defaults to {default} ms: near, and under, the {timeout_ms} ms timeout"
                );
            } else {
                assert_eq!(props["Statistic"].as_str(), Some("Sum"), "{id}");
                assert_eq!(
                    props["ComparisonOperator"].as_str(),
                    Some("GreaterThanOrEqualToThreshold"),
                    "{id}: the threshold is a count that alarms when reached"
                );
            }
        }
    }
}

#[test]
fn the_api_alarms_on_its_5xx_rate() {
    let doc = template();
    let (id, alarm) = alarm_on(&doc, "AWS/ApiGateway", "5xx", "ApiId", "DictionaryApi");
    let metrics = alarm["Properties"]["Metrics"].as_sequence().unwrap();
    let ids: BTreeMap<&str, &Yaml> = metrics
        .iter()
        .map(|m| (m["Id"].as_str().unwrap(), m))
        .collect();
    let count = &ids["requests"]["MetricStat"]["Metric"];
    assert_eq!(count["MetricName"].as_str(), Some("Count"), "{id}");
    let returned: Vec<&&Yaml> = ids
        .values()
        .filter(|m| m["ReturnData"].as_bool() == Some(true))
        .collect();
    assert_eq!(returned.len(), 1, "{id} alarms on one series");
    let expression = substitution(&returned[0]["Expression"]).expect("the rate: !Sub");
    assert!(
        expression.contains("100 * errors / requests")
            && expression.contains("${Api5xxMinimumRequests}"),
        "{id}: {expression}"
    );
    assert_eq!(
        reference(&alarm["Properties"]["Threshold"]),
        Some("Api5xxRatePercent")
    );
}

#[test]
fn both_tables_alarm_on_throttles_and_system_errors() {
    let doc = template();
    // The operations the functions and dictadmin send, as the IAM policies
    // and the importer name them.
    for table in resources_of_type(&doc, "AWS::DynamoDB::Table").keys() {
        for metric in ["ReadThrottleEvents", "WriteThrottleEvents"] {
            alarm_on(&doc, "AWS/DynamoDB", metric, "TableName", table);
        }
        let (id, alarm) = alarm_on(&doc, "AWS/DynamoDB", "SystemErrors", "TableName", table);
        let operations: BTreeSet<&str> = metrics_of(&alarm["Properties"])
            .iter()
            .flat_map(|m| m["Dimensions"].as_sequence().unwrap())
            .filter(|d| d["Name"].as_str() == Some("Operation"))
            .filter_map(|d| d["Value"].as_str())
            .collect();
        for operation in [
            "GetItem",
            "BatchGetItem",
            "Query",
            "UpdateItem",
            "PutItem",
            "BatchWriteItem",
        ] {
            assert!(operations.contains(operation), "{id} misses {operation}");
        }
    }
}

#[test]
fn snapshot_failures_the_functions_log_are_counted_and_alarmed() {
    let doc = template();
    // The line shared::storage::store logs when the index cannot be used.
    let logged = "the search index was built by another release";
    let store = std::fs::read_to_string(repo_root().join("shared/src/storage/store.rs")).unwrap();
    assert!(store.contains(logged), "the store still logs {logged:?}");
    let filters = resources_of_type(&doc, "AWS::Logs::MetricFilter");
    let mut metric = None;
    for (name, function) in resources_of_type(&doc, "AWS::Serverless::Function") {
        let props = &function["Properties"];
        let memory = reference(&props["MemorySize"]);
        if !matches!(
            memory,
            Some("SnapshotFunctionMemory" | "SearchFunctionMemory")
        ) {
            continue;
        }
        let group = reference(&props["LoggingConfig"]["LogGroup"]).unwrap();
        let filter = filters
            .values()
            .find(|f| reference(&f["Properties"]["LogGroupName"]) == Some(group))
            .unwrap_or_else(|| {
                panic!("{name} holds the snapshot: its log group {group} has a metric filter")
            });
        let pattern = filter["Properties"]["FilterPattern"].as_str().unwrap();
        assert!(
            pattern.contains(r#"$.level = "ERROR""#)
                && pattern.contains(&format!(r#"$.fields.message = "{logged}*""#)),
            "{name}: {pattern}"
        );
        let transformation = &filter["Properties"]["MetricTransformations"][0];
        let this = (
            substitution(&transformation["MetricNamespace"]).unwrap(),
            transformation["MetricName"].as_str().unwrap(),
        );
        assert_eq!(
            *metric.get_or_insert(this),
            this,
            "one metric for all of them"
        );
    }
    let (namespace, metric_name) = metric.expect("some function holds the snapshot");
    let alarmed = alarms(&doc).into_values().any(|alarm| {
        let props = &alarm["Properties"];
        substitution(&props["Namespace"]) == Some(namespace)
            && props["MetricName"].as_str() == Some(metric_name)
    });
    assert!(alarmed, "an alarm watches {namespace} {metric_name}");
}
