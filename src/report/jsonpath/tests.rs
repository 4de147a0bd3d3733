//! client-go's `jsonpath_test.go` and `parser_test.go` cases, as a table: each case names the
//! Go test it comes from. Go structs become JSON objects, whose keys an unstructured object
//! (what kubectl runs templates on) keeps sorted, so `*` and `..` list them in that order.

use serde_json::{json, Value};

use super::{relaxed, JsonPath};

/// A case: its name, the template, the input, and the output or the error's words.
struct Case {
    name: &'static str,
    template: &'static str,
    input: Value,
    expect: Result<&'static str, &'static str>,
}

fn case(name: &'static str, template: &'static str, input: &Value, expect: Result<&'static str, &'static str>) -> Case {
    Case { name, template, input: input.clone(), expect }
}

fn check(cases: &[Case], allow_missing: bool) {
    for c in cases {
        let got = JsonPath::parse(c.template)
            .map_err(|e| e.to_string())
            .and_then(|j| j.print(&c.input, allow_missing).map_err(|e| e.to_string()));
        match (&got, c.expect) {
            (Ok(out), Ok(want)) => assert_eq!(out, want, "{}: {}", c.name, c.template),
            (Err(e), Err(want)) => assert_eq!(e, want, "{}: {}", c.name, c.template),
            _ => panic!("{}: {}: got {got:?}, want {:?}", c.name, c.template, c.expect),
        }
    }
}

fn types() -> Value {
    json!({
        "bools": [true, false, true, false],
        "integers": [1, 2, 3, 4],
        "floats": [1.0, 2.2, 3.3, 4.0],
        "strings": ["one", "two", "three", "four"],
        "interfaces": [true, "one", 1, 1.1],
        "maps": [
            {"name": "one", "value": 1}, {"name": "two", "value": 2.02},
            {"name": "three", "value": 3.03}, {"name": "four", "value": 4.04}
        ],
    })
}

#[test]
fn types_input() {
    let t = types();
    check(
        &[
            case("boolSlice", "{ .bools }", &t, Ok("[true,false,true,false]")),
            case("boolSliceIndex", "{ .bools[0] }", &t, Ok("true")),
            case("boolSliceIndex", "{ .bools[-1] }", &t, Ok("false")),
            case("boolSubSlice", "{ .bools[0:2] }", &t, Ok("true false")),
            case("boolSubSliceFirst2", "{ .bools[:2] }", &t, Ok("true false")),
            case("boolSubSliceStep2", "{ .bools[:4:2] }", &t, Ok("true true")),
            case("integerSlice", "{ .integers }", &t, Ok("[1,2,3,4]")),
            case("integerSliceIndexReverse", "{ .integers[-2] }", &t, Ok("3")),
            case("integerSubSliceStep2", "{ .integers[:4:2] }", &t, Ok("1 3")),
            case("floatSlice", "{ .floats }", &t, Ok("[1,2.2,3.3,4]")),
            case("floatSliceIndex", "{ .floats[0] }", &t, Ok("1")),
            case("floatSliceIndexReverse", "{ .floats[-2] }", &t, Ok("3.3")),
            case("floatSubSliceFirst2", "{ .floats[0:2] }", &t, Ok("1 2.2")),
            case("stringSlice", "{ .strings }", &t, Ok(r#"["one","two","three","four"]"#)),
            case("stringSliceIndexReverse", "{ .strings[-2] }", &t, Ok("three")),
            case("stringSubSliceStep2", "{ .strings[:4:2] }", &t, Ok("one three")),
            case("interfaceSlice", "{ .interfaces }", &t, Ok(r#"[true,"one",1,1.1]"#)),
            case("interfaceSubSliceFirst2", "{ .interfaces[0:2] }", &t, Ok("true one")),
            case("interfaceSubSliceStep2", "{ .interfaces[:4:2] }", &t, Ok("true 1")),
            case("mapSliceIndex", "{ .maps[0] }", &t, Ok(r#"{"name":"one","value":1}"#)),
            case(
                "mapSubSliceStepOdd",
                "{ .maps[::2] }",
                &t,
                Ok(r#"{"name":"one","value":1} {"name":"three","value":3.03}"#),
            ),
            case(
                "mapSubSliceStepEven",
                "{ .maps[1::2] }",
                &t,
                Ok(r#"{"name":"two","value":2.02} {"name":"four","value":4.04}"#),
            ),
        ],
        false,
    );
}

fn store() -> Value {
    json!({
        "Name": "jsonpath",
        "Book": [
            {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
            {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
            {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99}
        ],
        "Bicycle": [{"Color": "red", "Price": 19.95, "IsNew": true}, {"Color": "green", "Price": 20.01, "IsNew": false}],
        "Labels": {"engieer": 10, "web/html": 15, "k8s-app": 20},
        "Employees": {"jason": "manager", "dan": "clerk"},
    })
}

#[test]
fn struct_input() {
    let s = store();
    let null = Value::Null;
    check(
        &[
            case("plain", "hello jsonpath", &null, Ok("hello jsonpath")),
            case("recursive", "{..}", &json!([1, 2, 3]), Ok("[1,2,3]")),
            case("filter", "{[?(@<5)]}", &json!([2, 6, 3, 7]), Ok("2 3")),
            case("quote", r#"{"{"}"#, &null, Ok("{")),
            case("union", "{[1,3,4]}", &json!([0, 1, 2, 3, 4]), Ok("1 3 4")),
            case("array", "{[0:2]}", &json!(["Monday", "Tudesday"]), Ok("Monday Tudesday")),
            case("variable", "hello {.Name}", &s, Ok("hello jsonpath")),
            case("dict/", "{$.Labels.web/html}", &s, Ok("15")),
            case("dict/", "{$.Employees.jason}", &s, Ok("manager")),
            case("dict-", "{.Labels.k8s-app}", &s, Ok("20")),
            case("nest", "{.Bicycle[*].Color}", &s, Ok("red green")),
            case("allarray", "{.Book[*].Author}", &s, Ok("Nigel Rees Evelyn Waugh Herman Melville")),
            case(
                "allfields",
                r#"{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}"#,
                &s,
                Ok("{red true 19.95} {green false 20.01} "),
            ),
            case("recurfields", "{..Price}", &s, Ok("19.95 20.01 8.95 12.99 8.99")),
            case("recurdotfields", "{...Price}", &s, Ok("19.95 20.01 8.95 12.99 8.99")),
            case("superrecurfields", "{......Price}", &s, Err("invalid multiple recursive descent")),
            case(
                "allstructs",
                r#"{range .Bicycle[*]}{ @ }{ " " }{end}"#,
                &s,
                Ok(r#"{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} "#),
            ),
            case(
                "lastarray",
                "{.Book[-1:]}",
                &s,
                Ok(r#"{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}"#),
            ),
            case(
                "recurarray",
                "{..Book[2]}",
                &s,
                Ok(r#"{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}"#),
            ),
            case("bool", "{.Bicycle[?(@.IsNew==true)].Color}", &s, Ok("red")),
        ],
        false,
    );
    check(
        &[
            case("nonexistent field", "{.hello}", &s, Ok("")),
            case("nonexistent field 2", "before-{.hello}after", &s, Ok("before-after")),
        ],
        true,
    );
    check(
        &[
            case("invalid identifier", "{hello}", &s, Err("unrecognized identifier hello")),
            case("nonexistent field", "{.hello}", &s, Err("hello is not found")),
            case("invalid array", "{.Labels[0]}", &s, Err("map[string]interface {} is not array or slice")),
            case("invalid filter operator", "{.Book[?(@.Price<>10)]}", &s, Err("unrecognized filter operator <>")),
            case("redundant end", "{range .Labels.*}{@}{end}{end}", &s, Err("not in range, nothing to end")),
        ],
        false,
    );
}

#[test]
fn json_input() {
    let points = json!([
        {"id": "i1", "x": 4, "y": -5}, {"id": "i2", "x": -2, "y": -5, "z": 1},
        {"id": "i3", "x": 8, "y": 3}, {"id": "i4", "x": -6, "y": -1},
        {"id": "i5", "x": 0, "y": 2, "z": 1}, {"id": "i6", "x": 1, "y": 4}
    ]);
    check(
        &[
            case("exists filter", "{[?(@.z)].id}", &points, Ok("i2 i5")),
            case("bracket key", "{[0]['id']}", &points, Ok("i1")),
        ],
        false,
    );
}

fn nodes() -> Value {
    json!({
        "kind": "List",
        "items": [
            {"kind": "None", "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
             "status": {"capacity": {"cpu": "4"}, "ready": true,
                        "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
            {"kind": "None", "metadata": {"name": "127.0.0.2", "labels": {"kubernetes.io/hostname": "127.0.0.2"}},
             "status": {"capacity": {"cpu": "8"}, "ready": false,
                        "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.2"},
                                      {"type": "another", "address": "127.0.0.3"}]}}
        ],
        "users": [{"name": "myself", "user": {}}, {"name": "e2e", "user": {"username": "admin", "password": "secret"}}]
    })
}

#[test]
fn kubernetes() {
    let n = nodes();
    check(
        &[
            case("range item", "{range .items[*]}{.metadata.name}, {end}{.kind}", &n, Ok("127.0.0.1, 127.0.0.2, List")),
            case(
                "range item with quote",
                r#"{range .items[*]}{.metadata.name}{"\t"}{end}"#,
                &n,
                Ok("127.0.0.1\t127.0.0.2\t"),
            ),
            case("range addresss", "{.items[*].status.addresses[*].address}", &n, Ok("127.0.0.1 127.0.0.2 127.0.0.3")),
            case(
                "double range",
                "{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}",
                &n,
                Ok("127.0.0.1, 127.0.0.2, 127.0.0.3, "),
            ),
            case("item name", "{.items[*].metadata.name}", &n, Ok("127.0.0.1 127.0.0.2")),
            case(
                "union nodes capacity",
                "{.items[*]['metadata.name', 'status.capacity']}",
                &n,
                Ok(r#"127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}"#),
            ),
            case(
                "range nodes capacity",
                "{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}",
                &n,
                Ok(r#"[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] "#),
            ),
            case("user password", r#"{.users[?(@.name=="e2e")].user.password}"#, &n, Ok("secret")),
            case("hostname", r"{.items[0].metadata.labels.kubernetes\.io/hostname}", &n, Ok("127.0.0.1")),
            case(
                "hostname filter",
                r#"{.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind}"#,
                &n,
                Ok("None"),
            ),
            case("bool item", "{.items[?(@..ready==true)].metadata.name}", &n, Ok("127.0.0.1")),
            case("recursive name", "{..name}", &n, Ok("127.0.0.1 127.0.0.2 myself e2e")),
        ],
        false,
    );
}

#[test]
fn empty_range() {
    let empty = json!({"items": []});
    check(
        &[
            case("empty range", "{range .items[*]}{.metadata.name}{end}", &empty, Ok("")),
            case(
                "empty nested range",
                "{range .items[*]}{.metadata.name}{\":\"}{range @.spec.containers[*]}{.name}{\",\"}{end}{\"+\"}{end}",
                &empty,
                Ok(""),
            ),
        ],
        true,
    );
}

#[test]
fn fail_parser() {
    let null = Value::Null;
    check(
        &[
            case("unclosed action", "{.hello", &null, Err("unclosed action")),
            case("unrecognized character", "{*}", &null, Err("unrecognized character in action: U+002A '*'")),
            case("invalid number", "{+12.3.0}", &null, Err("cannot parse number +12.3.0")),
            case("unterminated array", "{[1}", &null, Err("unterminated array")),
            case("unterminated filter", "{[?(.price]}", &null, Err("unterminated filter")),
            case("invalid multiple recursive descent", "{......}", &null, Err("invalid multiple recursive descent")),
            case("invalid array index", "{[a]}", &null, Err("invalid array index a")),
            case("unterminated quote", r#"{"a}"#, &null, Err("unterminated quoted string")),
            case("bad escape", r#"{"\q"}"#, &null, Err(r#"unquote string "\q" error invalid syntax"#)),
        ],
        false,
    );
}

#[test]
fn slices_and_bounds_as_client_go() {
    let a = json!({"a": [0, 1, 2, 3]});
    check(
        &[
            case("index past the end", "{.a[4]}", &a, Err("array index out of bounds: index 4, length 4")),
            case("negative past the start", "{.a[-5]}", &a, Err("array index out of bounds: index -1, length 4")),
            case("end past the end", "{.a[1:9]}", &a, Err("array index out of bounds: index 8, length 4")),
            case("empty slice", "{.a[2:2]}", &a, Ok("")),
            case("step 0", "{.a[0:2:0]}", &a, Err("step must be > 0")),
            case("start after end", "{.a[3:1]}", &a, Err("starting index 3 is greater than ending index 1")),
            case("all", "{.a[*]}", &a, Ok("0 1 2 3")),
            case("last", "{.a[-1]}", &a, Ok("3")),
            case("compare kinds", "{.a[?(@==1.0)]}", &a, Err("incompatible types for comparison")),
            case("filter a map", "{.a[0][?(@.x)]}", &a, Err("0 is not array or slice and cannot be filtered")),
            case("whole object", "{@}", &a, Ok(r#"{"a":[0,1,2,3]}"#)),
            case("an empty key", "{.}", &a, Err(" is not found")),
            case("escapes", r#"{"a\tb\n"}{'\'x\''}{"\u00e9"}"#, &a, Ok("a\tb\n'x'é")),
        ],
        false,
    );
}

#[test]
fn values_from_the_object_are_escaped_and_the_templates_text_is_not() {
    let pod = json!({"metadata": {"name": "a\u{1b}[2Jb", "labels": {"x": "<&>"}}});
    let j = JsonPath::parse("{.metadata.name}{\"\\n\"}{.metadata.labels}").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(j.print(&pod, true).as_deref(), Ok("a\\x1b[2Jb\n{\"x\":\"\\u003c\\u0026\\u003e\"}"));
}

#[test]
fn relaxed_paths_are_kubectls() {
    for (given, want) in [
        (".status.phase", "{.status.phase}"),
        ("status.phase", "{.status.phase}"),
        ("{.a.b}", "{.a.b}"),
        ("{a}", "{.a}"),
    ] {
        assert_eq!(relaxed(given).as_deref(), Ok(want), "{given}");
    }
    assert!(relaxed("{.a").is_err() && relaxed("{}").is_err());
}

#[test]
fn work_and_size_are_bounded() {
    let deep = "{".repeat(3) + &"[?(@".repeat(40);
    assert!(JsonPath::parse(&deep).is_err());
    assert!(JsonPath::parse(&"x".repeat(super::MAX_TEMPLATE + 1)).is_err());
    let ranges = "{range @}".repeat(40);
    assert_eq!(JsonPath::parse(&ranges), Err(super::ParseError::TooDeep));
    // Each `..` over a wide list multiplies the values: the budget ends it.
    let wide = Value::Array((0..2000).map(|i| json!({"a": [i, i]})).collect());
    let j = JsonPath::parse("{..a..a..a}").unwrap_or_else(|e| panic!("{e}"));
    assert!(j.find(&wide, true).is_ok());
    // A union of ten at each of seven levels would make ten million.
    let nested = json!([[[[[[[1]]]]]]]);
    let j = JsonPath::parse(&format!("{{{}}}", "[0,0,0,0,0,0,0,0,0,0]".repeat(7))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(j.find(&nested, true).map(|_| ()), Err(super::ExecError::TooMany(super::MAX_VALUES)));
}
