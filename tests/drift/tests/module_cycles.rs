//! No module imports itself back: within `engine`, `shared` and `dictadmin`,
//! the modules that one module names (`crate::…`, `super::…`, or a child
//! module by name) never lead back to it. A cycle is where a layer reaches
//! up instead of down (docs/architecture.md draws the layers). And within
//! `shared`, no module imports a layer above its own ([`SHARED_LAYERS`]): the
//! API calls services, services read storage, never the reverse.

use drift::repo_root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`search::engine`; the crate root is ``) → its source text,
/// comments removed.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.insert(module_path(src, &path), without_comments(&path));
            }
        }
    }
    found
}

fn module_path(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

fn without_comments(file: &PathBuf) -> String {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest module that `path` (segments from the crate root) names.
fn resolve(modules: &BTreeMap<String, String>, path: &[&str]) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| modules.contains_key(m))
}

/// Every module that `module` names, other than itself and its ancestors.
fn dependencies(modules: &BTreeMap<String, String>, module: &str) -> BTreeSet<String> {
    let text = &modules[module];
    let own: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    let parent: Vec<&str> = own[..own.len().saturating_sub(1)].to_vec();
    let mut named = BTreeSet::new();
    let mut add = |path: Vec<&str>| {
        if let Some(target) = resolve(modules, &path) {
            let ancestor = module == target || module.starts_with(&format!("{target}::"));
            if !ancestor {
                named.insert(target);
            }
        }
    };
    // `crate::a::b`, `super::a`, and each item of `crate::a::{b, c::d}`
    // (whitespace inside a group removed, so that a group is one token).
    let compact = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(", ", ",")
        .replace("{ ", "{")
        .replace(" }", "}");
    let tokens: Vec<&str> = compact
        .split(|c: char| {
            !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{' || c == '}' || c == ',')
        })
        .collect();
    for token in tokens {
        // A path right after a brace (`{ crate::a::f() }`, compacted).
        let token = token.trim_start_matches('{');
        let (base, rest) = if let Some(rest) = token.strip_prefix("crate::") {
            (Vec::new(), rest)
        } else if let Some(rest) = token.strip_prefix("super::") {
            (parent.clone(), rest)
        } else {
            continue;
        };
        let (head, group) = match rest.strip_prefix('{') {
            Some(group) => ("", Some(group.trim_end_matches([',', '}']))),
            None => match rest.split_once("::{") {
                Some((head, group)) => (head, Some(group.trim_end_matches([',', '}']))),
                None => (rest.trim_end_matches([',', '}']), None),
            },
        };
        let mut path = base.clone();
        path.extend(head.split("::").filter(|s| !s.is_empty() && *s != "{"));
        match group {
            None => add(path),
            Some(group) => {
                for item in group.split(',') {
                    let mut full = path.clone();
                    full.extend(item.split("::").filter(|s| !s.is_empty() && *s != "self"));
                    add(full);
                }
            }
        }
    }
    // A child module named bare (`write::x`) or through `self::`.
    for line in text.lines() {
        let Some(child) = line
            .trim()
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ")
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        else {
            continue;
        };
        let full = if module.is_empty() {
            child.to_string()
        } else {
            format!("{module}::{child}")
        };
        let named_bare = text.match_indices(&format!("{child}::")).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            before.is_none_or(|c| {
                !(c.is_alphanumeric() || c == '_') || text[..at].ends_with("self::")
            }) && !text[..at].ends_with("crate::")
                && !text[..at].ends_with("super::")
        });
        if modules.contains_key(&full) && named_bare {
            named.insert(full);
        }
    }
    named
}

/// A cycle of module dependencies, if there is one.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

fn cycle_in(src: &str) -> Option<Vec<String>> {
    let src = repo_root().join(src);
    let modules = modules(&src);
    assert!(modules.len() > 5, "{} holds its modules", src.display());
    let edges = modules
        .keys()
        .map(|m| (m.clone(), dependencies(&modules, m)))
        .collect();
    find_cycle(&edges)
}

#[test]
fn no_module_of_shared_imports_itself_back() {
    assert_eq!(cycle_in("shared/src"), None);
}

#[test]
fn no_module_of_the_engine_imports_itself_back() {
    assert_eq!(cycle_in("engine/src"), None);
}

#[test]
fn no_module_of_dictadmin_imports_itself_back() {
    assert_eq!(cycle_in("admin/src"), None);
}

/// The check finds a cycle where there is one.
#[test]
fn a_cycle_is_found() {
    let mut modules = BTreeMap::new();
    modules.insert(String::new(), "mod a;\nmod b;\n".to_string());
    modules.insert("a".to_string(), "use crate::b::thing;\n".to_string());
    modules.insert("b".to_string(), "use crate::{a, c};\n".to_string());
    let edges = modules
        .keys()
        .map(|m| (m.clone(), dependencies(&modules, m)))
        .collect();
    let cycle = find_cycle(&edges).expect("a and b import each other");
    assert!(cycle.contains(&"a".to_string()) && cycle.contains(&"b".to_string()));
    let mut parent_and_child = BTreeMap::new();
    parent_and_child.insert(String::new(), "mod w;\nuse w::f;\n".to_string());
    parent_and_child.insert("w".to_string(), "use super::g;\n".to_string());
    parent_and_child.insert("x".to_string(), String::new());
    let edges = parent_and_child
        .keys()
        .map(|m| (m.clone(), dependencies(&parent_and_child, m)))
        .collect();
    assert_eq!(
        find_cycle(&edges),
        None,
        "a module's ancestors are no cycle"
    );
}

/// `shared`'s layers, top first, by top-level module: a module may name
/// modules of its own top-level module and of lower layers only. The
/// engine crate is below them all (crate_layers.rs holds that).
const SHARED_LAYERS: &[&[&str]] = &[
    // Everything that knows HTTP or GraphQL.
    &["api"],
    // The product's rules.
    &["service"],
    // A request's typed parameters; what a function builds at cold start.
    &["queries", "runtime"],
    // Keys and quotas; the stored shapes and their reads.
    &["access", "storage"],
    // Resources and errors.
    &["model", "error"],
];

/// The imports of `modules` that reach a layer above their own, as
/// `module -> module`.
fn upward_imports(modules: &BTreeMap<String, String>, layers: &[&[&str]]) -> Vec<String> {
    let rank = |module: &str| {
        let top = module.split("::").next().unwrap_or_default();
        layers.iter().position(|layer| layer.contains(&top))
    };
    let mut upward = Vec::new();
    for module in modules.keys() {
        let Some(own) = rank(module) else { continue };
        let top = module.split("::").next().unwrap_or_default();
        for target in dependencies(modules, module) {
            let same_module = target.split("::").next() == Some(top);
            if rank(&target).is_some_and(|r| r < own) && !same_module {
                upward.push(format!("{module} -> {target}"));
            }
        }
    }
    upward
}

#[test]
fn no_module_of_shared_imports_a_layer_above_its_own() {
    let modules = modules(&repo_root().join("shared/src"));
    for layer in SHARED_LAYERS {
        for top in *layer {
            assert!(
                modules.keys().any(|m| m.split("::").next() == Some(top)),
                "shared/src has no module {top}: update SHARED_LAYERS"
            );
        }
    }
    let unlisted: Vec<&String> = modules
        .keys()
        .filter(|m| !m.is_empty())
        .filter(|m| {
            let top = m.split("::").next().unwrap_or_default();
            !SHARED_LAYERS.iter().any(|layer| layer.contains(&top))
        })
        .collect();
    assert!(unlisted.is_empty(), "modules of no layer: {unlisted:?}");
    assert_eq!(
        upward_imports(&modules, SHARED_LAYERS),
        Vec::<String>::new()
    );
}

/// The check finds an import of a higher layer where there is one.
#[test]
fn an_upward_import_is_found() {
    let mut modules = BTreeMap::new();
    modules.insert(String::new(), "mod api;\nmod storage;\n".to_string());
    modules.insert(
        "api".to_string(),
        "use crate::storage::Store;\n".to_string(),
    );
    modules.insert(
        "storage".to_string(),
        "fn f() { crate::api::rest::search(); }\n".to_string(),
    );
    assert_eq!(
        upward_imports(&modules, &[&["api"], &["storage"]]),
        ["storage -> api"]
    );
}
