//! Creates the local tables and bucket from the same definitions that
//! `template.yaml` deploys, so local and AWS never drift apart.

use crate::output::say;
use aws_sdk_dynamodb::error::DisplayErrorContext;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
};
use serde_norway::Value;
use shared::runtime::config::Config;
use std::path::PathBuf;

/// Whatever stops `dictadmin setup`: a template it cannot read, or a table
/// or bucket that cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{}: {source}", path.display())]
    ReadTemplate {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("template.yaml: {0}")]
    Yaml(#[from] serde_norway::Error),
    #[error("template.yaml has no Resources")]
    NoResources,
    #[error("{logical_id}: no Properties")]
    NoProperties { logical_id: String },
    /// A property a table definition lacks.
    #[error("{logical_id}: {missing}")]
    Table {
        logical_id: String,
        missing: MissingProperty,
    },
    #[error("template.yaml defines {0}, which no configuration variable names")]
    UnnamedTable(String),
    /// The SDK's errors, kept as their one-line rendering.
    #[error("listing tables: {0}")]
    ListTables(String),
    #[error("creating {name}: {message}")]
    CreateTable { name: String, message: String },
    #[error("enabling TTL on {name}: {message}")]
    EnableTtl { name: String, message: String },
    #[error("creating bucket {bucket}: {message}")]
    CreateBucket { bucket: String, message: String },
}

/// A property of a table or index definition that the template leaves out.
#[derive(Debug, thiserror::Error)]
pub enum MissingProperty {
    #[error("missing {0}")]
    Field(String),
    #[error("missing list of {first}/{second}")]
    List { first: String, second: String },
}

/// A table as `template.yaml` defines it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDefinition {
    pub logical_id: String,
    pub attributes: Vec<(String, String)>,
    pub key_schema: Vec<(String, String)>,
    pub indexes: Vec<IndexDefinition>,
    pub ttl_attribute: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IndexDefinition {
    pub name: String,
    pub key_schema: Vec<(String, String)>,
    pub projection: String,
}

fn text(value: &Value, name: &str) -> Result<String, MissingProperty> {
    value
        .get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| MissingProperty::Field(name.to_string()))
}

fn pairs(
    value: Option<&Value>,
    first: &str,
    second: &str,
) -> Result<Vec<(String, String)>, MissingProperty> {
    value
        .and_then(Value::as_sequence)
        .ok_or_else(|| MissingProperty::List {
            first: first.to_string(),
            second: second.to_string(),
        })?
        .iter()
        .map(|v| Ok((text(v, first)?, text(v, second)?)))
        .collect()
}

/// Every `AWS::DynamoDB::Table` in the template.
pub fn tables_in_template(template: &str) -> Result<Vec<TableDefinition>, SetupError> {
    let doc: Value = serde_norway::from_str(template)?;
    let resources = doc
        .get("Resources")
        .and_then(Value::as_mapping)
        .ok_or(SetupError::NoResources)?;
    let mut tables = Vec::new();
    for (name, resource) in resources {
        if resource.get("Type").and_then(Value::as_str) != Some("AWS::DynamoDB::Table") {
            continue;
        }
        let logical_id = name.as_str().unwrap_or_default().to_string();
        let props = resource
            .get("Properties")
            .ok_or_else(|| SetupError::NoProperties {
                logical_id: logical_id.clone(),
            })?;
        let context = |missing| SetupError::Table {
            logical_id: logical_id.clone(),
            missing,
        };
        let indexes = match props
            .get("GlobalSecondaryIndexes")
            .and_then(Value::as_sequence)
        {
            None => Vec::new(),
            Some(list) => list
                .iter()
                .map(|gsi| {
                    Ok(IndexDefinition {
                        name: text(gsi, "IndexName")?,
                        key_schema: pairs(gsi.get("KeySchema"), "AttributeName", "KeyType")?,
                        projection: gsi
                            .get("Projection")
                            .map(|p| text(p, "ProjectionType"))
                            .transpose()?
                            .unwrap_or_else(|| "ALL".into()),
                    })
                })
                .collect::<Result<_, MissingProperty>>()
                .map_err(context)?,
        };
        let ttl = props.get("TimeToLiveSpecification");
        tables.push(TableDefinition {
            attributes: pairs(
                props.get("AttributeDefinitions"),
                "AttributeName",
                "AttributeType",
            )
            .map_err(context)?,
            key_schema: pairs(props.get("KeySchema"), "AttributeName", "KeyType")
                .map_err(context)?,
            indexes,
            ttl_attribute: ttl
                .filter(|t| t.get("Enabled").and_then(Value::as_bool) == Some(true))
                .and_then(|t| {
                    t.get("AttributeName")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                }),
            logical_id,
        });
    }
    Ok(tables)
}

/// The configured name of each table of the template.
pub fn table_name(config: &Config, logical_id: &str) -> Result<String, SetupError> {
    match logical_id {
        "EntriesTable" => Ok(config.entries_table.clone()),
        "KeysTable" => Ok(config.keys_table.clone()),
        other => Err(SetupError::UnnamedTable(other.to_string())),
    }
}

fn key_schema(pairs: &[(String, String)]) -> Vec<KeySchemaElement> {
    pairs
        .iter()
        .map(|(name, kind)| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(KeyType::from(kind.as_str()))
                .build()
                .expect("name and type are set")
        })
        .collect()
}

/// Creates every table of the template that does not exist yet (idempotent).
pub async fn create_tables(
    client: &aws_sdk_dynamodb::Client,
    config: &Config,
    template: &str,
) -> Result<(), SetupError> {
    let existing = client
        .list_tables()
        .send()
        .await
        .map_err(|e| SetupError::ListTables(e.to_string()))?
        .table_names
        .unwrap_or_default();
    for table in tables_in_template(template)? {
        let name = table_name(config, &table.logical_id)?;
        if existing.contains(&name) {
            say!("table {name} exists");
            continue;
        }
        let mut request = client
            .create_table()
            .table_name(&name)
            .billing_mode(BillingMode::PayPerRequest)
            .set_key_schema(Some(key_schema(&table.key_schema)));
        for (attribute, kind) in &table.attributes {
            request = request.attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(attribute)
                    .attribute_type(ScalarAttributeType::from(kind.as_str()))
                    .build()
                    .expect("name and type are set"),
            );
        }
        for index in &table.indexes {
            request = request.global_secondary_indexes(
                GlobalSecondaryIndex::builder()
                    .index_name(&index.name)
                    .set_key_schema(Some(key_schema(&index.key_schema)))
                    .projection(
                        Projection::builder()
                            .projection_type(ProjectionType::from(index.projection.as_str()))
                            .build(),
                    )
                    .build()
                    .expect("index fields are set"),
            );
        }
        request.send().await.map_err(|e| SetupError::CreateTable {
            name: name.clone(),
            message: DisplayErrorContext(e).to_string(),
        })?;
        if let Some(attribute) = &table.ttl_attribute {
            client
                .update_time_to_live()
                .table_name(&name)
                .time_to_live_specification(
                    TimeToLiveSpecification::builder()
                        .attribute_name(attribute)
                        .enabled(true)
                        .build()
                        .expect("fields set"),
                )
                .send()
                .await
                .map_err(|e| SetupError::EnableTtl {
                    name: name.clone(),
                    message: e.to_string(),
                })?;
        }
        say!("table {name} created");
    }
    Ok(())
}

/// Creates the audio bucket if it does not exist (idempotent).
pub async fn create_bucket(client: &aws_sdk_s3::Client, bucket: &str) -> Result<(), SetupError> {
    if client.head_bucket().bucket(bucket).send().await.is_ok() {
        say!("bucket {bucket} exists");
        return Ok(());
    }
    client
        .create_bucket()
        .bucket(bucket)
        .send()
        .await
        .map_err(|e| SetupError::CreateBucket {
            bucket: bucket.to_string(),
            message: DisplayErrorContext(e).to_string(),
        })?;
    say!("bucket {bucket} created");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = include_str!("../../template.yaml");

    fn table(logical_id: &str) -> TableDefinition {
        tables_in_template(TEMPLATE)
            .unwrap()
            .into_iter()
            .find(|t| t.logical_id == logical_id)
            .unwrap()
    }

    #[test]
    fn template_tables_match_what_the_code_reads() {
        let entries = table("EntriesTable");
        assert_eq!(
            entries.key_schema,
            vec![("pk".into(), "HASH".into()), ("sk".into(), "RANGE".into())]
        );
        let by_word = entries
            .indexes
            .iter()
            .find(|i| i.name == shared::storage::items::BY_WORD_INDEX)
            .expect("ByWord index");
        assert_eq!(by_word.key_schema, vec![("wordKey".into(), "HASH".into())]);
        assert_eq!(by_word.projection, "ALL");

        let keys = table("KeysTable");
        assert_eq!(keys.ttl_attribute.as_deref(), Some("expiresAt"));
        assert!(keys
            .indexes
            .iter()
            .any(|i| i.name == shared::access::auth::BY_KEY_ID_INDEX));
    }

    #[test]
    fn every_template_table_has_a_configured_name() {
        // Every name variable set to a name of its own; the one number at
        // its default.
        let config =
            Config::from_lookup(|name| (name != "SNAPSHOT_CACHE_MB").then(|| name.to_lowercase()))
                .unwrap();
        for table in tables_in_template(TEMPLATE).unwrap() {
            table_name(&config, &table.logical_id).unwrap();
        }
    }
}
