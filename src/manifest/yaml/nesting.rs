//! A linear pre-scan of YAML text for how deeply it nests, run before serde_yaml sees it.
//!
//! serde_yaml's scanner (libyaml) does work proportional to the flow nesting depth for every
//! token, and parses a whole document before its deserializer checks depth: 100,000 nested
//! `[` took 48 s to end in "recursion limit exceeded". This scan follows YAML's tokens as far
//! as nesting is concerned (quotes, comments, block scalars, plain scalars, flow and block
//! collections, indentless sequences, single-pair mappings in flow sequences) in one pass,
//! and stops at the first place deeper than [`MAX_DEPTH`], which it names. It also notes
//! where each document starts, so that errors serde_yaml cannot place (the alias repetition
//! limit) can be placed at their document.
//!
//! It errs towards counting deeper than serde_yaml would (a `[` at the start of a plain
//! scalar's continuation line, say), never shallower: the fuzz test (`fuzz_tests.rs`) checks that
//! on every input serde_yaml parses.

/// The deepest nesting podrun reads. The objects podrun reads are about 15 levels deep (a
/// Pod's `spec.affinity...matchExpressions[0].values` is 11; a workload's template adds 2, a
/// `List` 2 more); other kinds in the same file (CustomResourceDefinitions, whose schemas nest
/// two levels per field) reach 40 or so. 100 leaves that margin and stays below serde_yaml's
/// own limit of 128, so deeper input is refused here, at once.
pub const MAX_DEPTH: usize = 100;

/// Where the text first nests deeper than the limit (1-based line and column, in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    pub line: usize,
    pub column: usize,
    pub limit: usize,
}

/// What the scan learned: the deepest nesting met, and the line each document starts on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    pub max_depth: usize,
    /// 1-based line of each document, in the order serde_yaml yields them.
    pub doc_lines: Vec<usize>,
    /// Documents that hold something (not only `---` and comments).
    pub nonempty_docs: usize,
    /// Byte offsets of the quotes around scalars tagged `!!int`, `!!float`, `!!bool` or
    /// `!!null` (`!!int "80"`): see [`unquote_tagged`].
    pub tagged_quotes: Vec<usize>,
}

/// `text` with the quotes of explicitly typed quoted scalars (`!!int "80"`) made spaces.
///
/// Kubernetes' YAML reader resolves such a scalar by its tag (the number 80), and so does
/// serde_yaml for a plain one (`!!int 80`), but serde_yaml refuses a quoted one where a
/// number is expected. Only scalars whose text could be written plain are listed, and a
/// quote becomes one space, so every line and column stays where it was.
pub fn unquote_tagged<'t>(text: &'t str, outline: &Outline) -> std::borrow::Cow<'t, str> {
    if outline.tagged_quotes.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for &at in &outline.tagged_quotes {
        if let Some(b @ (b'"' | b'\'')) = bytes.get_mut(at) {
            *b = b' ';
        }
    }
    // Only ASCII quotes became ASCII spaces: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned()))
}

/// Scans `text`; an error at the first place deeper than `limit`.
pub fn scan(text: &str, limit: usize) -> Result<Outline, TooDeep> {
    let mut s = Scan { limit, ..Scan::default() };
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut line = 1;
    while start <= bytes.len() {
        let (end, next) = line_end(bytes, start);
        let raw = &bytes[start..end];
        if let Some(rest) = raw.strip_prefix("\u{feff}".as_bytes()) {
            // libyaml skips a byte order mark at a line's start as one column of indentation:
            // a space in its place, offsets into the text kept.
            s.line_start = start + 2;
            s.line(&[b" ", rest].concat(), line)?;
        } else {
            s.line_start = start;
            s.line(raw, line)?;
        }
        if next > bytes.len() || next == start {
            break;
        }
        start = next;
        line += 1;
    }
    Ok(Outline {
        max_depth: s.max_depth,
        doc_lines: s.doc_lines,
        nonempty_docs: s.nonempty_docs,
        tagged_quotes: s.tagged_quotes,
    })
}

/// The end of the line starting at `from` and the start of the next, with libyaml's line
/// breaks: LF, CR LF, CR, NEL, LS and PS (a comment ends at any of them).
fn line_end(b: &[u8], from: usize) -> (usize, usize) {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\n' => return (i, i + 1),
            b'\r' => return (i, if b.get(i + 1) == Some(&b'\n') { i + 2 } else { i + 1 }),
            0xC2 if b.get(i + 1) == Some(&0x85) => return (i, i + 2),
            0xE2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)) => return (i, i + 3),
            _ => i += 1,
        }
    }
    (b.len(), b.len() + 1)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Map,
    Seq,
    /// A sequence at its mapping's own indentation (`key:\n- a`): ends at a line that is
    /// not an entry.
    IndentlessSeq,
}

#[derive(Debug, Clone, Copy)]
struct Level {
    column: usize,
    kind: Kind,
}

/// A block scalar (`|`, `>`) being skipped: its lines are text, whatever they hold.
#[derive(Debug, Clone, Copy)]
struct BlockScalar {
    /// The indentation of the collection around it (libyaml's `indent`), -1 at the top.
    parent: isize,
    /// The content's indentation: given (`|2`) or learnt from its first non-blank line.
    indent: Option<usize>,
}

#[derive(Debug, Default)]
struct Scan {
    limit: usize,
    max_depth: usize,
    block: Vec<Level>,
    /// `[`, `{`, or `p` for the single-pair mapping of `[a: b]`.
    flow: Vec<u8>,
    /// The deepest each open flow level has reached inside it, beside `flow`.
    flow_peaks: Vec<usize>,
    /// The deepest the flow collection just closed reached, until the next token: a `: `
    /// after it makes it a key, and the mapping that opens then holds all of it.
    closed_peak: Option<usize>,
    /// The last flow token was a plain scalar that ended at a blank: libyaml reads on in it,
    /// so a `:` or `?` next is text (`{a :b}` is one scalar), where at any other token's
    /// start it is an indicator (`{"a":1}`, `[?a]`).
    after_plain: bool,
    /// A quoted scalar that continues on the next line.
    quote: Option<u8>,
    block_scalar: Option<BlockScalar>,
    /// The line ended in a plain scalar, which more indented lines continue.
    plain_continues: bool,
    /// Whether a node may start at the current position (after `- `, `: `, `[`, `,`, ...).
    node_start: bool,
    in_doc: bool,
    doc_lines: Vec<usize>,
    /// Whether the current document holds a node yet.
    doc_has_node: bool,
    nonempty_docs: usize,
    /// Offset of the current line in the text.
    line_start: usize,
    tagged_quotes: Vec<usize>,
}

fn blank(b: Option<&u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t'))
}

fn flow_indicator(b: Option<&u8>) -> bool {
    matches!(b, Some(b',' | b'[' | b']' | b'{' | b'}'))
}

fn column(line: &[u8], i: usize) -> usize {
    line[..i.min(line.len())].iter().filter(|b| (**b & 0xC0) != 0x80).count() + 1
}

impl Scan {
    fn depth(&self) -> usize {
        self.block.len() + self.flow.len()
    }

    fn top_column(&self) -> isize {
        self.block.last().map_or(-1, |l| l.column as isize)
    }

    fn check(&mut self, line: &[u8], ln: usize, i: usize) -> Result<(), TooDeep> {
        let depth = self.depth();
        self.max_depth = self.max_depth.max(depth);
        if depth > self.limit {
            return Err(TooDeep { line: ln, column: column(line, i), limit: self.limit });
        }
        Ok(())
    }

    fn content(&mut self, ln: usize) {
        if !self.in_doc {
            self.in_doc = true;
            self.doc_has_node = false;
            self.doc_lines.push(ln);
        }
    }

    fn node(&mut self) {
        if !self.doc_has_node {
            self.doc_has_node = true;
            self.nonempty_docs += 1;
        }
    }

    fn push_block(&mut self, col: usize, kind: Kind, line: &[u8], ln: usize) -> Result<(), TooDeep> {
        self.block.push(Level { column: col, kind });
        self.check(line, ln, col)
    }

    fn push_flow(&mut self, c: u8, line: &[u8], ln: usize, i: usize) -> Result<(), TooDeep> {
        self.flow.push(c);
        self.flow_peaks.push(self.depth());
        self.check(line, ln, i)
    }

    /// Closes the innermost flow level; the deepest it reached, handed to the one around it.
    fn pop_flow(&mut self) -> usize {
        self.flow.pop();
        let peak = self.flow_peaks.pop().unwrap_or(0);
        if let Some(outer) = self.flow_peaks.last_mut() {
            *outer = (*outer).max(peak);
        }
        peak
    }

    /// A collection just closed became a key of a mapping that opened below it: it sits one
    /// level deeper than it was counted (`[[a]: b]`, `{a: [b]}: c`).
    fn key_was_a_collection(&mut self, line: &[u8], ln: usize, i: usize) -> Result<(), TooDeep> {
        let Some(peak) = self.closed_peak.take() else { return Ok(()) };
        let depth = peak + 1;
        self.max_depth = self.max_depth.max(depth);
        if depth > self.limit {
            return Err(TooDeep { line: ln, column: column(line, i), limit: self.limit });
        }
        Ok(())
    }

    /// A mapping key starting at `col` (block context): a new mapping when more indented.
    fn key(&mut self, col: usize, line: &[u8], ln: usize) -> Result<(), TooDeep> {
        if col as isize > self.top_column() {
            self.push_block(col, Kind::Map, line, ln)?;
        }
        Ok(())
    }

    fn line(&mut self, l: &[u8], ln: usize) -> Result<(), TooDeep> {
        // An implicit key is written on one line.
        self.closed_peak = None;
        let mut i = 0;
        if let Some(q) = self.quote {
            if self.document_marker(l) {
                // libyaml refuses a document marker inside a quoted scalar; the parse ends.
                self.quote = None;
            } else {
                match quote_end(l, 0, q) {
                    Some(end) => {
                        self.quote = None;
                        i = end;
                        self.node_start = false;
                    }
                    None => return Ok(()),
                }
            }
        }
        if self.quote.is_none() && i == 0 && self.in_block_scalar(l) {
            return Ok(());
        }
        if self.flow.is_empty() && i == 0 {
            match self.block_line_start(l, ln)? {
                Some(start) => i = start,
                None => return Ok(()),
            }
        } else if !self.flow.is_empty() {
            self.content(ln);
        }
        self.tokens(l, ln, i)
    }

    /// Whether line `l` is text of the block scalar being skipped; a line that is not ends it.
    fn in_block_scalar(&mut self, l: &[u8]) -> bool {
        let Some(bs) = self.block_scalar else { return false };
        let ind = l.iter().take_while(|b| **b == b' ').count();
        if ind == l.len() {
            return true;
        }
        let needed = (bs.parent + 1).max(1) as usize;
        match bs.indent {
            Some(n) if ind >= n => true,
            None if ind >= needed => {
                self.block_scalar = Some(BlockScalar { indent: Some(ind), ..bs });
                true
            }
            _ => {
                self.block_scalar = None;
                false
            }
        }
    }

    /// The start of a line in block context, outside any scalar: blank lines, comments,
    /// document markers, directives, the continuation of a plain scalar, and the block
    /// collections the line's indentation closes. Where its tokens start, or `None` when
    /// nothing more on it counts.
    fn block_line_start(&mut self, l: &[u8], ln: usize) -> Result<Option<usize>, TooDeep> {
        let ind = l.iter().take_while(|b| **b == b' ').count();
        let rest = &l[ind..];
        if rest.iter().all(|b| matches!(b, b' ' | b'\t')) {
            return Ok(None); // blank lines do not end a plain scalar
        }
        if rest.first() == Some(&b'#') {
            self.plain_continues = false;
            return Ok(None);
        }
        if self.document_marker(l) {
            return Ok(self.document_start(l, ln));
        }
        if ind == 0 && rest.first() == Some(&b'%') {
            return Ok(None); // a directive
        }
        self.content(ln);
        if self.plain_continues && ind as isize > self.top_column() {
            // A continuation line of a plain scalar: text, indicators included.
            return self.plain_rest(l, ind).map(|()| None);
        }
        self.plain_continues = false;
        while self.block.last().is_some_and(|t| t.column > ind) {
            self.block.pop();
        }
        let entry = rest.first() == Some(&b'-') && blank(rest.get(1));
        if let Some(t) = self.block.last() {
            if t.kind == Kind::IndentlessSeq && t.column == ind && !entry {
                self.block.pop();
            }
        }
        self.node_start = true;
        Ok(Some(ind))
    }

    /// A document marker line (`---`, `...`): every collection ends there, and `---` starts a
    /// document, whose first node may follow on the line (from the returned offset).
    fn document_start(&mut self, l: &[u8], ln: usize) -> Option<usize> {
        self.block.clear();
        self.flow.clear();
        self.flow_peaks.clear();
        self.closed_peak = None;
        self.plain_continues = false;
        if l.starts_with(b"...") {
            self.in_doc = false;
            return None;
        }
        self.in_doc = false;
        self.content(ln);
        self.node_start = true;
        Some(3)
    }

    /// Notes the quotes of `!!int "80"` when the tag `l[i..end]` is one of the core scalar types.
    fn tagged_quote(&mut self, l: &[u8], i: usize, end: usize) {
        if !matches!(&l[i..end], b"!!int" | b"!!float" | b"!!bool" | b"!!null") {
            return;
        }
        let open = end + l[end..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
        let Some(&q @ (b'"' | b'\'')) = l.get(open) else { return };
        let Some(close) = quote_end(l, open + 1, q).map(|e| e - 1) else { return };
        let inner = &l[open + 1..close];
        let plain = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'_' | b'~');
        if open > end && !inner.is_empty() && inner.iter().all(plain) {
            self.tagged_quotes.extend([self.line_start + open, self.line_start + close]);
        }
    }

    fn document_marker(&self, l: &[u8]) -> bool {
        (l.starts_with(b"---") || l.starts_with(b"...")) && blank(l.get(3))
    }

    /// The rest of a plain scalar's continuation line: only a comment matters.
    fn plain_rest(&mut self, l: &[u8], from: usize) -> Result<(), TooDeep> {
        for i in from.max(1)..l.len() {
            if l[i] == b'#' && matches!(l[i - 1], b' ' | b'\t') {
                self.plain_continues = false;
                break;
            }
        }
        Ok(())
    }

    fn tokens(&mut self, l: &[u8], ln: usize, mut i: usize) -> Result<(), TooDeep> {
        // The column of the node being written in block context: a key's column when `:` follows.
        let mut node_col: Option<usize> = None;
        while i < l.len() {
            let c = l[i];
            if matches!(c, b' ' | b'\t') {
                i += 1;
                continue;
            }
            if c == b'#' && (i == 0 || matches!(l[i - 1], b' ' | b'\t')) {
                self.plain_continues = false;
                return Ok(());
            }
            self.node();
            if !self.flow.is_empty() {
                i = self.flow_token(l, ln, i)?;
                continue;
            }
            match self.block_token(l, ln, i, &mut node_col)? {
                Some(next) => i = next,
                None => return Ok(()),
            }
        }
        Ok(())
    }

    /// One token in block context; returns where the next one starts, or `None` when nothing
    /// more on the line counts. `node_col`: the column of the node being written.
    fn block_token(
        &mut self,
        l: &[u8],
        ln: usize,
        i: usize,
        node_col: &mut Option<usize>,
    ) -> Result<Option<usize>, TooDeep> {
        let c = l[i];
        let next = l.get(i + 1);
        if c != b':' {
            self.closed_peak = None;
        }
        Ok(match c {
            b'-' if self.node_start && blank(next) => {
                self.sequence_entry(l, ln, i)?;
                *node_col = None;
                Some(i + 1)
            }
            b'?' if self.node_start && blank(next) => {
                self.key(i, l, ln)?;
                *node_col = None;
                Some(i + 1)
            }
            b':' if blank(next) => {
                let before = self.block.len();
                self.key(node_col.unwrap_or(i), l, ln)?;
                if self.block.len() > before {
                    self.key_was_a_collection(l, ln, i)?;
                }
                self.closed_peak = None;
                *node_col = None;
                self.node_start = true;
                Some(i + 1)
            }
            b'[' | b'{' if self.node_start => {
                node_col.get_or_insert(i);
                self.push_flow(c, l, ln, i)?;
                self.node_start = true;
                Some(i + 1)
            }
            b'"' | b'\'' if self.node_start => {
                node_col.get_or_insert(i);
                self.node_start = false;
                let end = quote_end(l, i + 1, c);
                if end.is_none() {
                    self.quote = Some(c);
                }
                end
            }
            b'|' | b'>' if self.node_start => {
                self.block_scalar_header(l, i);
                self.plain_continues = false;
                None // the header's line holds nothing more than a comment
            }
            b'&' | b'!' if self.node_start => {
                node_col.get_or_insert(i);
                let end = skip_property(l, i);
                self.tagged_quote(l, i, end);
                Some(end)
            }
            b'*' if self.node_start => {
                node_col.get_or_insert(i);
                self.node_start = false;
                Some(skip_property(l, i))
            }
            _ if self.node_start => {
                node_col.get_or_insert(i);
                self.node_start = false;
                self.block_plain(l, i)
            }
            // Something libyaml refuses here (`"a" b`); the parse ends there.
            _ => None,
        })
    }

    /// A block sequence entry (`- `) at `i`: a new sequence when more indented than the
    /// collection around it, or an indentless one at its mapping's own column.
    fn sequence_entry(&mut self, l: &[u8], ln: usize, i: usize) -> Result<(), TooDeep> {
        let kind = self.block.last().map(|t| (t.column, t.kind));
        match kind {
            Some((col, _)) if col > i => {}
            Some((col, Kind::Map)) if col == i => self.push_block(i, Kind::IndentlessSeq, l, ln)?,
            Some((col, _)) if col == i => {}
            _ => self.push_block(i, Kind::Seq, l, ln)?,
        }
        Ok(())
    }

    /// A block scalar's header (`|`, `>2-`) at `i`: the lines after it are skipped, to the
    /// indentation it gives or its first line sets.
    fn block_scalar_header(&mut self, l: &[u8], i: usize) {
        self.block_scalar = Some(BlockScalar { parent: self.top_column(), indent: None });
        let mut j = i + 1;
        while let Some(&d) = l.get(j) {
            match d {
                b'1'..=b'9' => {
                    let parent = self.top_column().max(0) as usize;
                    let m = (d - b'0') as usize;
                    let indent = if self.top_column() >= 0 { parent + m } else { m };
                    self.block_scalar = Some(BlockScalar { parent: self.top_column(), indent: Some(indent) });
                }
                b'+' | b'-' => {}
                _ => break,
            }
            j += 1;
        }
    }

    /// A plain scalar in block context from `i`: to `: `, ` #` or the end of the line, where
    /// the next line may continue it (then `None`).
    fn block_plain(&mut self, l: &[u8], i: usize) -> Option<usize> {
        let mut j = i;
        loop {
            match l.get(j) {
                None => {
                    self.plain_continues = true;
                    return None;
                }
                Some(b':') if blank(l.get(j + 1)) => return Some(j),
                Some(b'#') if j > i && matches!(l[j - 1], b' ' | b'\t') => return Some(j),
                _ => j += 1,
            }
        }
    }

    /// One token in flow context; returns where the next one starts.
    fn flow_token(&mut self, l: &[u8], ln: usize, i: usize) -> Result<usize, TooDeep> {
        let c = l[i];
        let next = l.get(i + 1);
        let top = self.flow.last().copied();
        let closed = self.closed_peak.take();
        let after_plain = std::mem::take(&mut self.after_plain);
        Ok(match c {
            b'[' | b'{' => {
                self.push_flow(c, l, ln, i)?;
                self.node_start = true;
                i + 1
            }
            b']' | b'}' => {
                if top == Some(b'p') {
                    self.pop_flow();
                }
                self.closed_peak = Some(self.pop_flow());
                self.node_start = false;
                i + 1
            }
            b',' => {
                if top == Some(b'p') {
                    self.pop_flow();
                }
                self.node_start = true;
                i + 1
            }
            // `:` is a value indicator before a blank or an indicator, and right after a quoted
            // key (`{"a":1}`); `?` an explicit key. In a sequence, either makes a pair.
            b':' | b'?' if blank(next) || flow_indicator(next) || !after_plain => {
                if top == Some(b'[') {
                    self.push_flow(b'p', l, ln, i)?;
                    self.closed_peak = closed.filter(|_| c == b':');
                    self.key_was_a_collection(l, ln, i)?;
                }
                self.node_start = true;
                i + 1
            }
            b'"' | b'\'' if self.node_start => {
                self.node_start = false;
                match quote_end(l, i + 1, c) {
                    Some(end) => end,
                    None => {
                        self.quote = Some(c);
                        l.len()
                    }
                }
            }
            b'&' | b'!' if self.node_start => {
                let end = skip_property(l, i);
                self.tagged_quote(l, i, end);
                end
            }
            _ => {
                // A plain scalar (or an alias): to a blank, an indicator or `:` before one.
                self.node_start = false;
                let mut j = i + 1;
                while let Some(&d) = l.get(j) {
                    if matches!(d, b' ' | b'\t' | b',' | b'[' | b']' | b'{' | b'}')
                        || (d == b':' && (blank(l.get(j + 1)) || flow_indicator(l.get(j + 1))))
                    {
                        break;
                    }
                    j += 1;
                }
                // A plain scalar that ends at a blank leaves `:` to the next round, which
                // needs to know a key was written, and that libyaml reads on past the blank.
                self.after_plain = c != b'*';
                j
            }
        })
    }
}

/// Past the closing quote of a scalar opened before `from`, or `None` if it goes on.
fn quote_end(l: &[u8], from: usize, q: u8) -> Option<usize> {
    let mut j = from;
    while j < l.len() {
        match (q, l[j]) {
            (b'"', b'\\') => j += 2,
            (b'"', b'"') => return Some(j + 1),
            (b'\'', b'\'') if l.get(j + 1) == Some(&b'\'') => j += 2,
            (b'\'', b'\'') => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Past an anchor, alias or tag.
fn skip_property(l: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    if l[i] == b'!' {
        while j < l.len() && !matches!(l[j], b' ' | b'\t' | b'{' | b'}') {
            j += 1;
        }
    } else {
        while j < l.len() && (l[j].is_ascii_alphanumeric() || matches!(l[j], b'-' | b'_')) {
            j += 1;
        }
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(text: &str) -> usize {
        scan(text, usize::MAX).unwrap().max_depth
    }

    #[test]
    fn block_and_flow_collections_count_one_level_each() {
        assert_eq!(depth("a: 1\n"), 1);
        assert_eq!(depth("a:\n  b:\n    c: [1, {d: 2}]\n"), 5);
        assert_eq!(depth("- - - a\n"), 3);
        assert_eq!(depth("a:\n- b:\n  - c\n"), 4, "indentless sequences count");
        assert_eq!(depth("[a: [b: c]]\n"), 4, "pairs in flow sequences are mappings");
        assert_eq!(depth("- a: 1\n  b: 2\n- c\n"), 2);
        assert_eq!(depth("plain\n"), 0);
    }

    #[test]
    fn a_collection_as_a_key_nests_below_its_mapping() {
        assert_eq!(depth("{a: [b]}: c\n"), 3, "a block mapping around a flow key");
        assert_eq!(depth("[[a]: b]\n"), 3, "a pair in a flow sequence around a flow key");
        assert_eq!(depth("[{a: [b]}: c]\n"), 4);
        assert_eq!(depth("- [[a]]\n- b: c\n"), 3, "a key on another line is another node");
        assert_eq!(depth("{a :'b}\nc: [[d]]\n"), 3, "a colon inside a plain scalar opens no quote");
        assert_eq!(depth("{\"a\":[b]}\n"), 2);
        assert_eq!(depth("[?h, -c]\n"), 2, "`?` starting a token in a flow sequence is a key");
        assert_eq!(depth("[sh,?-c]\n"), 2);
        let deep = format!("{}{}: x\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(scan(&deep, MAX_DEPTH).unwrap_err(), TooDeep { line: 1, column: 201, limit: 100 });
    }

    #[test]
    fn quotes_comments_and_block_scalars_hide_brackets() {
        assert_eq!(depth("a: '[[[['\nb: \"{{\\\"[[\"\n"), 1);
        assert_eq!(depth("a: x # [[[[\n"), 1);
        assert_eq!(depth("a: |\n  [[[[\n  {{{\nb: 1\n"), 1);
        assert_eq!(depth("- >-\n    [[[\n- b\n"), 1);
        assert_eq!(depth("a: echo [x] {y}\n"), 1, "brackets inside a plain scalar are text");
        assert_eq!(depth("a: 'it''s [' \nb: \"multi\n  [[[ line\"\n"), 1);
        assert_eq!(depth("a: it's [fine]\n"), 1);
        assert_eq!(depth("a: b\n  [continued\n"), 1, "a plain scalar's continuation line");
    }

    #[test]
    fn a_block_scalar_ends_where_its_indentation_does() {
        // Content must be indented more than the mapping holding the key (column 2 here).
        let text = "- key: |\n  other: [[[\n";
        assert_eq!(depth(text), 5, "`other` is a key beside `key`, not text of the scalar");
        assert_eq!(depth("a: |2\n    [[[[\nb: [c]\n"), 2);
    }

    #[test]
    fn deep_input_is_refused_at_its_place() {
        let deep = "[".repeat(100_000);
        let e = scan(&deep, MAX_DEPTH).unwrap_err();
        assert_eq!(e, TooDeep { line: 1, column: 101, limit: 100 });
        let block: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        assert_eq!(scan(&block, MAX_DEPTH).unwrap_err().line, 101);
        let dashes = "- ".repeat(100_000);
        assert_eq!(scan(&dashes, MAX_DEPTH).unwrap_err().column, 201);
        let at_limit = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(scan(&at_limit, MAX_DEPTH).unwrap().max_depth, 100);
    }

    #[test]
    fn typed_quoted_scalars_are_unquoted_in_place() {
        let text = "a: !!int \"80\"\nb: [!!bool 'true', !!str \"5\", !!int \"8 0\"]\n";
        let outline = scan(text, MAX_DEPTH).unwrap();
        assert_eq!(unquote_tagged(text, &outline), "a: !!int  80 \nb: [!!bool  true , !!str \"5\", !!int \"8 0\"]\n");
    }

    #[test]
    fn a_byte_order_mark_at_a_lines_start_is_one_column_of_indentation() {
        assert_eq!(depth("a:\n  b:\n\u{feff}   c: [d]\n"), 4);
    }

    #[test]
    fn other_line_breaks_end_comments() {
        assert_eq!(depth("# c\r[[a]]\r"), 2);
        assert_eq!(depth("# c\u{2028}[[a]]"), 2);
    }

    #[test]
    fn documents_are_found_by_their_first_line() {
        let text = "# head\na: 1\n---\nb: 2\n...\n\n# c\nd: 3\n--- |\n  x\n";
        assert_eq!(scan(text, MAX_DEPTH).unwrap().doc_lines, [2, 3, 8, 9]);
        assert_eq!(scan(text, MAX_DEPTH).unwrap().nonempty_docs, 4);
        assert!(scan("# nothing\n", MAX_DEPTH).unwrap().doc_lines.is_empty());
        let empty_ones = scan("---\na: 1\n---\n# only a comment\n---\n", MAX_DEPTH).unwrap();
        assert_eq!((empty_ones.doc_lines.len(), empty_ones.nonempty_docs), (3, 1));
    }
}
