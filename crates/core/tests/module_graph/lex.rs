//! Reduces a Rust source file to the text the module graph reads: comments gone, every string
//! and character literal emptied (so a path in a message or a brace in a format string is not
//! taken for code), and every `#[cfg(test)]` item cut out (test code may import anything).

/// The code of `text` without comments, literal contents or `#[cfg(test)]` items.
pub fn code(text: &str) -> String {
    cut_test_items(&blank(text))
}

/// Comments removed, string and char literals emptied; lines are kept so attributes stay put.
/// Test code is kept (the plug-in import test reads it too: a test imports as a plug-in does).
pub fn blank(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && !ident_before(&s, i) {
            // A raw string: r"..." or r#"..."#, with as many hashes at the end as at the start.
            let mut j = i + 1;
            let mut hashes = 0;
            while s.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if s.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < s.len() {
                if s[j] == '"' && (0..hashes).all(|h| s.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if c == '\'' && is_char_literal(&s, i) {
            let mut j = i + 1;
            while j < s.len() && s[j] != '\'' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(s: &[char], i: usize) -> bool {
    i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_')
}

/// `'x'` or `'\n'` is a char literal; `'a` in `&'a str` is a lifetime.
fn is_char_literal(s: &[char], i: usize) -> bool {
    match s.get(i + 1) {
        Some('\\') => true,
        Some(_) => s.get(i + 2) == Some(&'\''),
        None => false,
    }
}

/// Removes each `#[cfg(test)]` item: the attribute, any attributes after it, and the item up to
/// its `;` or its closing brace.
fn cut_test_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0usize;
        let mut end = item.len();
        let mut bracket = 0usize;
        for (j, c) in item.char_indices() {
            match c {
                '[' => bracket += 1,
                ']' => bracket = bracket.saturating_sub(1),
                ';' if depth == 0 && bracket == 0 => {
                    end = j + 1;
                    break;
                }
                '{' if bracket == 0 => depth += 1,
                '}' if bracket == 0 => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn literals_comments_and_test_items_are_not_code() {
    let text = "use crate::a; // crate::b\nconst S: &str = \"crate::c {\";\nfn f<'x>() -> char { '{' }\n/* crate::d */ #[cfg(test)]\n#[allow(x)]\nmod tests { use crate::e; }\nlet r = r#\"crate::f\"#;\n";
    let code = code(text);
    assert!(code.contains("crate::a"));
    for gone in ["crate::b", "crate::c", "crate::d", "crate::e", "crate::f"] {
        assert!(!code.contains(gone), "{gone} in {code}");
    }
    assert!(code.contains("fn f<'x>()"));
}
