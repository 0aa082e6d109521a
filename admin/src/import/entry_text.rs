//! Builds an entry's `htmlContent` and `plainText` together, so that both say
//! the same thing in every dictionary. All source text is escaped here, and
//! the HTML is sanitized once more when finished.

use super::html::{escape, sanitize};
use shared::search::definitions::{GLOSS_TITLE, WORD_LIST_TITLES};

/// One sense as the importers hand it over.
#[derive(Debug, Default)]
pub struct SenseText {
    /// Domain or usage labels (`adm.`, `Obs.`), or a part of speech.
    pub labels: Vec<String>,
    /// The definition or the translations.
    pub text: String,
    pub notes: Vec<String>,
    /// What the sense means in the source language (a bilingual
    /// dictionary's glosses, WikDict's): shown under the sense, each on a
    /// line of its own titled [`GLOSS_TITLE`], which reverse lookup does
    /// not index: it reads the target language's words.
    pub glosses: Vec<String>,
    pub examples: Vec<String>,
}

pub struct EntryText {
    html: String,
    plain: Vec<String>,
    examples: Vec<String>,
}

impl EntryText {
    /// The headword line: word, IPA and part of speech.
    pub fn new(word: &str, phonetic: Option<&str>, part_of_speech: Option<&str>) -> Self {
        let mut html = format!(
            "<div class=\"entry\"><p class=\"headword\"><b>{}</b>",
            escape(word)
        );
        if let Some(ipa) = phonetic {
            html.push_str(&format!(
                " <span class=\"phonetic\">/{}/</span>",
                escape(ipa)
            ));
        }
        if let Some(pos) = part_of_speech {
            html.push_str(&format!(" <i class=\"pos\">{}</i>", escape(pos)));
        }
        html.push_str("</p>");
        Self {
            html,
            plain: Vec::new(),
            examples: Vec::new(),
        }
    }

    pub fn etymology(&mut self, etymology: &str) {
        self.html.push_str(&format!(
            "<p class=\"etymology\">[{}]</p>",
            escape(etymology)
        ));
    }

    /// The senses, as an ordered list; numbered in the plain text when there
    /// are several.
    pub fn senses(&mut self, senses: Vec<SenseText>) {
        let numbered = senses.len() > 1;
        self.html.push_str("<ol class=\"senses\">");
        for (n, sense) in senses.into_iter().enumerate() {
            let mut line = if numbered {
                format!("{}. ", n + 1)
            } else {
                String::new()
            };
            self.html.push_str("<li>");
            for label in &sense.labels {
                self.html
                    .push_str(&format!("<span class=\"label\">{}</span> ", escape(label)));
                line.push_str(&format!("[{label}] "));
            }
            self.html.push_str(&format!(
                "<span class=\"definition\">{}</span>",
                escape(&sense.text)
            ));
            line.push_str(&sense.text);
            for note in &sense.notes {
                self.html
                    .push_str(&format!(" <span class=\"note\">({})</span>", escape(note)));
                line.push_str(&format!(" ({note})"));
            }
            self.plain.push(line);
            for gloss in &sense.glosses {
                self.html.push_str(&format!(
                    "<div class=\"gloss\"><i>{GLOSS_TITLE}:</i> {}</div>",
                    escape(gloss)
                ));
                self.plain.push(format!("{GLOSS_TITLE}: {gloss}"));
            }
            if !sense.examples.is_empty() {
                self.html.push_str("<ul class=\"examples\">");
                for example in &sense.examples {
                    self.html
                        .push_str(&format!("<li><i>{}</i></li>", escape(example)));
                }
                self.html.push_str("</ul>");
            }
            self.html.push_str("</li>");
            self.examples.extend(sense.examples);
        }
        self.html.push_str("</ol>");
    }

    /// A titled list of words (`Synonyms: a, b`), if there are any. Its
    /// title is one of those reverse lookup knows are no definition.
    pub fn word_list(&mut self, class: &str, title: &str, words: &[String]) {
        assert!(
            WORD_LIST_TITLES.contains(&title),
            "{title} is not in WORD_LIST_TITLES: reverse lookup would index it"
        );
        if words.is_empty() {
            return;
        }
        let list = words
            .iter()
            .map(|w| escape(w))
            .collect::<Vec<_>>()
            .join(", ");
        self.html
            .push_str(&format!("<p class=\"{class}\"><b>{title}:</b> {list}</p>"));
        self.plain.push(format!("{title}: {}", words.join(", ")));
    }

    /// (htmlContent, plainText, examples). Examples follow the senses in the
    /// plain text when `examples_in_plain` is set (bilingual dictionaries, whose
    /// senses are short).
    pub fn finish(mut self, examples_in_plain: bool) -> (String, String, Vec<String>) {
        self.html.push_str("</div>");
        if examples_in_plain {
            self.plain.extend(self.examples.iter().cloned());
        }
        (sanitize(&self.html), self.plain.join("\n"), self.examples)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_and_plain_text_say_the_same() {
        let mut text = EntryText::new("Haus", Some("hˈaʊs"), Some("noun"));
        text.senses(vec![
            SenseText {
                labels: vec!["adm.".into()],
                text: "establishment".into(),
                ..Default::default()
            },
            SenseText {
                text: "house".into(),
                notes: vec!["building".into()],
                examples: vec!["ein Haus — a house".into()],
                ..Default::default()
            },
        ]);
        text.word_list("synonyms", "Synonyms", &["Heim".to_string()]);
        let (html, plain, examples) = text.finish(true);
        assert_eq!(
            plain,
            "1. [adm.] establishment\n2. house (building)\nSynonyms: Heim\nein Haus — a house"
        );
        assert_eq!(examples, vec!["ein Haus — a house"]);
        assert!(html.starts_with("<div class=\"entry\"><p class=\"headword\"><b>Haus</b> <span class=\"phonetic\">/hˈaʊs/</span>"));
        assert!(html.contains("<span class=\"label\">adm.</span>"));
        assert!(html.contains("<ul class=\"examples\"><li><i>ein Haus — a house</i></li></ul>"));
    }

    /// A source-language gloss is shown under its sense, in both texts.
    #[test]
    fn glosses_follow_their_sense() {
        let mut text = EntryText::new("jabłko", None, Some("noun"));
        text.senses(vec![
            SenseText {
                text: "kneecap".into(),
                glosses: vec!["(potocznie, potoczny) rzepka <w> kolanie".into()],
                ..Default::default()
            },
            SenseText {
                text: "apple".into(),
                glosses: vec!["owoc jabłoni".into(), "przedmiot".into()],
                ..Default::default()
            },
        ]);
        let (html, plain, _) = text.finish(true);
        assert_eq!(
            plain,
            "1. kneecap\nGloss: (potocznie, potoczny) rzepka <w> kolanie\n2. apple\nGloss: owoc jabłoni\nGloss: przedmiot"
        );
        assert!(
            html.contains("<li><span class=\"definition\">kneecap</span><div class=\"gloss\"><i>Gloss:</i> (potocznie, potoczny) rzepka &lt;w&gt; kolanie</div></li>"),
            "{html}"
        );
    }

    /// What reverse lookup indexes of an entry's plain text is its senses'
    /// text and notes: no number, label, gloss, word list or example.
    #[test]
    fn the_definition_text_is_the_senses_alone() {
        let mut text = EntryText::new("Haus", None, None);
        text.senses(vec![
            SenseText {
                labels: vec!["adm.".into()],
                text: "establishment".into(),
                glosses: vec!["Einrichtung".into()],
                ..Default::default()
            },
            SenseText {
                text: "house".into(),
                notes: vec!["building".into()],
                examples: vec!["ein Haus — a house".into()],
                ..Default::default()
            },
        ]);
        for title in WORD_LIST_TITLES {
            text.word_list("list", title, &["Heim".to_string()]);
        }
        let (_, plain_text, examples) = text.finish(true);
        let entry = shared::model::Entry {
            plain_text,
            examples,
            ..Default::default()
        };
        assert_eq!(
            shared::search::definitions::definition_text(&entry.plain_text, &entry.examples),
            "establishment\nhouse (building)"
        );
    }

    #[test]
    fn one_sense_is_not_numbered_and_text_is_escaped() {
        let mut text = EntryText::new("<b>", None, None);
        text.senses(vec![SenseText {
            text: "a < b & \"c\"".into(),
            ..Default::default()
        }]);
        let (html, plain, _) = text.finish(false);
        assert_eq!(plain, "a < b & \"c\"");
        assert!(
            html.contains("&lt;b&gt;") && html.contains("a &lt; b &amp;"),
            "{html}"
        );
    }
}
