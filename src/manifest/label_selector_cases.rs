//! apimachinery's own cases for `labels.Parse` (pkg/labels/selector_test.go:
//! TestSelectorParse, TestSetSelectorParser, TestSelectorMatches), as a named table.

use std::collections::BTreeMap;

use super::parse;

/// (selector, parses) from TestSelectorParse and TestSetSelectorParser.
const PARSES: &[(&str, bool)] = &[
    ("x=a,y=b,z=c", true),
    ("", true),
    ("x!=a,y=b", true),
    ("x=", true),
    ("x= ", true),
    ("x=,z= ", true),
    ("x= ,z= ", true),
    ("!x", true),
    ("x>1", true),
    ("x>1,z<5", true),
    ("x=a||y=b", false),
    ("x==a==b", false),
    ("!x=a", false),
    ("x<a", false),
    ("\rx", true),
    ("this-is-a-dns.domain.com/key-with-dash", true),
    ("this-is-another-dns.domain.com/key-with-dash in (so,what)", true),
    ("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", true),
    ("foo  in\t (abc)", true),
    ("x notin\n (abc)", true),
    ("x  notin\t\t\t(abc,def)", true),
    ("x in (abc,def)", true),
    ("x in (abc,)", true),
    ("x in ()", true),
    ("x in (a,,,,,,)", true),
    ("x notin (abc,,def),bar,z in (),w", true),
    ("x,y in (a)", true),
    ("x=a,y!=b,z in (h,i,j)", true),
    ("x,,y", false),
    (",x,y", false),
    ("x nott in (y)", false),
    ("x notin ( )", true),
    ("x notin (, a)", true),
    ("a in (xyz),", false),
    ("a in (xyz)b notin ()", false),
    ("a ", true),
    ("a in (x,y,notin, z,in)", true),
    ("a in (xyz abc)", false),
    ("a notin(", false),
    ("a (", false),
    ("(", false),
    ("x==a", true),
    ("notin=in", true),
    ("=x", false),
    ("app=x,", false),
    ("Bad Key=x", false),
    ("x=bad value!", false),
];

/// A pod's labels.
type Labels = &'static [(&'static str, &'static str)];

/// (selector, labels, matches) from TestSelectorMatches and TestSetSelectorParser.
const MATCHES: &[(&str, Labels, bool)] = &[
    ("", &[("x", "y")], true),
    ("x=y", &[("x", "y")], true),
    ("x=y,z=w", &[("x", "y"), ("z", "w")], true),
    ("x!=y,z!=w", &[("x", "z"), ("z", "a")], true),
    ("notin=in", &[("notin", "in")], true),
    ("x", &[("x", "z")], true),
    ("!x", &[("y", "z")], true),
    ("x>1", &[("x", "2")], true),
    ("x<1", &[("x", "0")], true),
    ("x=z", &[], false),
    ("x=y", &[("x", "z")], false),
    ("x=y,z=w", &[("x", "w"), ("z", "w")], false),
    ("x!=y,z!=w", &[("x", "z"), ("z", "w")], false),
    ("x", &[("y", "z")], false),
    ("!x", &[("x", "z")], false),
    ("x>1", &[("x", "0")], false),
    ("x<1", &[("x", "2")], false),
    ("x>1", &[("x", "two")], false),
    ("x!=y", &[], true),
    ("foo=bar", &[("foo", "bar"), ("baz", "blah")], true),
    ("foo=bar,baz=blah", &[("foo", "bar"), ("baz", "blah")], true),
    ("foo=blah", &[("foo", "bar"), ("baz", "blah")], false),
    ("foo=bar,foobar=bar,baz=blah", &[("foo", "bar"), ("baz", "blah")], false),
    ("x in (abc,def)", &[("x", "def")], true),
    ("x in (abc,def)", &[("x", "xyz")], false),
    ("x in (abc,def)", &[], false),
    ("x notin (abc)", &[], true),
    ("x notin (abc)", &[("x", "abc")], false),
    ("x in ()", &[("x", "")], true),
    ("a in (x,y,notin, z,in)", &[("a", "in")], true),
    ("app=x,app=y", &[("app", "x")], false),
    ("x==a", &[("x", "a")], true),
];

#[test]
fn parses_as_apimachinery() {
    for (s, ok) in PARSES {
        assert_eq!(parse(s).is_ok(), *ok, "{s:?}: {:?}", parse(s));
    }
}

#[test]
fn matches_as_apimachinery() {
    for (s, labels, want) in MATCHES {
        let labels: BTreeMap<String, String> = labels.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        let sel = parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        assert_eq!(sel.matches(&labels), Some(*want), "{s:?} on {labels:?}");
    }
}

#[test]
fn sets_and_errors_read_as_apimachinery_gives_them() {
    let sel = parse("x notin (abc,,def),bar,z in (),w").expect("parses");
    let got: Vec<(&str, &str, Vec<&str>)> = sel
        .match_expressions
        .iter()
        .map(|r| (r.key.as_str(), r.operator.as_str(), r.values.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        got,
        [
            ("bar", "Exists", vec![]),
            ("w", "Exists", vec![]),
            ("x", "NotIn", vec!["", "abc", "def"]),
            ("z", "In", vec![""]),
        ]
    );
    let e = |s: &str| parse(s).expect_err(s).to_string();
    assert_eq!(e("x,,y"), "found ',', expected: identifier after ','");
    assert_eq!(e("!x=a"), "found '=', expected: ',' or 'end of string'");
    assert_eq!(e("a b"), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
    assert_eq!(e("(x"), "found '(', expected: !, identifier, or 'end of string'");
}
