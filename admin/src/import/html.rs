//! `htmlContent` is "safe to render directly" (decisions.md, "Entries"): every
//! piece of source text is escaped when the HTML is built, and the result is run
//! through an allow-list sanitizer as a second line of defence.

use std::collections::HashSet;
use std::sync::LazyLock;

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// Keeps only the allow-listed tags of the contract: p, div, span, ol, ul, li,
/// b, i, em, strong, sup, sub, br, h1-h4, `a` with an http(s) href, and class
/// attributes. Scripts, styles, event handlers and other URL schemes go.
pub fn sanitize(html: &str) -> String {
    SANITIZER.clean(html).to_string()
}

/// Built once: building the sanitizer's tables cost as much as cleaning an
/// entry, on every one of the tens of thousands an import converts.
static SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let tags: HashSet<&str> = [
        "p", "div", "span", "ol", "ul", "li", "b", "i", "em", "strong", "sup", "sub", "br", "h1",
        "h2", "h3", "h4", "a",
    ]
    .into_iter()
    .collect();
    let mut builder = ammonia::Builder::default();
    builder
        .tags(tags)
        .generic_attributes(["class"].into_iter().collect())
        .tag_attributes(
            [("a", ["href"].into_iter().collect())]
                .into_iter()
                .collect(),
        )
        .url_schemes(["http", "https"].into_iter().collect())
        .link_rel(Some("noopener noreferrer nofollow"))
        .url_relative(ammonia::UrlRelative::Deny);
    builder
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_characters() {
        assert_eq!(
            escape(r#"<b onclick="x">&'"#),
            "&lt;b onclick=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn scripts_handlers_and_bad_schemes_are_removed() {
        let dirty = r#"<p class="def" onclick="steal()">ok<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><a href="https://wordnet.princeton.edu/">wn</a><style>p{}</style><img src=x onerror=alert(1)>"#;
        let clean = sanitize(dirty);
        assert!(!clean.contains("script"), "{clean}");
        assert!(!clean.contains("onclick"), "{clean}");
        assert!(!clean.contains("javascript"), "{clean}");
        assert!(
            !clean.contains("onerror") && !clean.contains("<img"),
            "{clean}"
        );
        assert!(!clean.contains("<style"), "{clean}");
        assert!(clean.contains(r#"<p class="def">ok</p>"#), "{clean}");
        assert!(
            clean.contains(r#"href="https://wordnet.princeton.edu/""#),
            "{clean}"
        );
    }

    #[test]
    fn allowed_structure_survives() {
        let html = r#"<div class="entry"><ol><li><i>n.</i> bank<br><sup>1</sup></li></ol><h2>x</h2></div>"#;
        assert_eq!(sanitize(html), html);
    }
}
