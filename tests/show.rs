//! `comb show`: the text picture of both games line for line, the SVG picture read back as XML
//! (its pieces, hands and arrows), and the refusals (exit status 2 and a reason).

use std::collections::HashMap;

mod common;
use common::{comb, stderr, stdout};

/// A Base game in which White's beetle climbed onto its queen: one stack of two.
const STACKED: &str = r"Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \wQ;bB1 bQ\;wB1 wQ";

/// `comb show ARGS…` must succeed; its standard output.
fn show(args: &[&str]) -> String {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    let out = comb(&all);
    assert_eq!(out.status.code(), Some(0), "comb {all:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn hive_text_shows_hands_grid_and_stacks() {
    let expected = "\
game: Base
state: InProgress
turn: Black[4]
to move: Black
last move: wB1 wQ
in hand, White: wS2 wB2 wG1 wG2 wG3 wA1 wA2 wA3
in hand, Black: bS2 bB2 bG1 bG2 bG3 bA1 bA2 bA3

     .     .     .     .     .     .
  .   wB1^2  wS1   bS1   bQ     .
     .     .     .     .    bB1    .
  .     .     .     .     .     .

stack wB1^2: wB1 on wQ
";
    assert_eq!(show(&[STACKED]), expected);
}

#[test]
fn hive_text_of_a_new_and_of_a_finished_game() {
    let new = show(&["Base+MLP"]);
    assert!(
        new.starts_with("game: Base+MLP\nstate: NotStarted\nturn: White[1]\nto move: White\nin hand, White: wQ wS1 ")
    );
    assert!(new.ends_with("\n(no pieces on the board)\n"), "{new}");
    assert!(new.contains("\nin hand, Black: bQ bS1 bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2 bA3 bM bL bP\n"), "{new}");

    let won = r"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1";
    let text = show(&[won]);
    let header = "game: Base\nstate: WhiteWins (queen surrounded)\nturn: Black[8]\nto move: nobody (the game is over)\nlast move: wQ /bG1\n";
    assert!(text.starts_with(header), "{text}");
    assert!(text.contains("\n     .    wQ    bQ    wA1    .\n"), "{text}");
    // Nothing is legal any more, so no move can be drawn.
    let out = comb(&["show", won, "--svg", "-", "--arrow", "bA1 bQ-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("The game is over."), "{}", stderr(&out));
}

#[test]
fn intellector_text_is_the_59_hexes_with_their_names() {
    let expected = "\
game: Intellector
state: NotStarted
turn: White[1]
to move: White
rules: Modern
quiet plies: 0 (a draw at 60)

  a      b      c      d      e      f      g      h      i
  a7*bD         c7*bA         e7*bI         g7*bA         i7*bD
         b6 bL         d6 bF         f6 bF         h6 bL
  a6 bP         c6 bP         e6 bP         g6 bP         i6 bP
         b5*           d5*           f5*           h5*
  a5            c5            e5            g5            i5
         b4            d4            f4            h4
  a4*           c4*           e4*           g4*           i4*
         b3            d3            f3            h3
  a3            c3            e3            g3            i3
         b2*           d2*           f2*           h2*
  a2 wP         c2 wP         e2 wP         g2 wP         i2 wP
         b1 wL         d1 wF         f1 wF         h1 wL
  a1*wD         c1*wA         e1*wI         g1*wA         i1*wD
  a      b      c      d      e      f      g      h      i
";
    assert_eq!(show(&["Intellector"]), expected);
    let played = show(&["Intellector;InProgress;White[2];e2e3;g7c1"]);
    assert!(played.contains("\nturn: White[2]\nto move: White\nlast move: g7c1\n"), "{played}");
    assert!(played.contains("\n  a1*wD         c1*bA         e1*wI"), "{played}");
    assert!(played.contains("  e3 wP"), "{played}");
}

/// One element of an XML document: its name, attributes and the index of its parent.
#[derive(Debug)]
struct Element {
    name: String,
    attributes: HashMap<String, String>,
    parent: Option<usize>,
}

impl Element {
    fn attribute(&self, name: &str) -> &str {
        self.attributes.get(name).map_or("", String::as_str)
    }

    fn has_class(&self, class: &str) -> bool {
        self.attribute("class").split(' ').any(|c| c == class)
    }
}

/// The elements of `xml` in document order, after checking that it is well-formed: one root,
/// every tag closed in order, attributes quoted and unique, no stray `<` or `&` in text.
fn parse_xml(xml: &str) -> Result<Vec<Element>, String> {
    let mut rest = xml
        .strip_prefix("<?xml")
        .map_or(Ok(xml), |r| r.split_once("?>").map(|(_, after)| after).ok_or("unterminated XML declaration"))?;
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut roots = 0;
    while let Some(at) = rest.find('<') {
        check_text(&rest[..at])?;
        if open.is_empty() && !rest[..at].trim().is_empty() {
            return Err("text outside the root element".into());
        }
        rest = &rest[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.split_once("-->").ok_or("unterminated comment")?.1;
            continue;
        }
        let end = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let index = open.pop().ok_or(format!("</{name}> closes nothing"))?;
            if elements[index].name != name.trim() {
                return Err(format!("</{name}> closes <{}>", elements[index].name));
            }
            continue;
        }
        let (tag, closed) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let (name, attributes) = parse_tag(tag)?;
        if open.is_empty() {
            roots += 1;
        }
        elements.push(Element { name, attributes, parent: open.last().copied() });
        if !closed {
            open.push(elements.len() - 1);
        }
    }
    check_text(rest)?;
    match (roots, open.last(), rest.trim().is_empty()) {
        (1, None, true) => Ok(elements),
        (_, Some(&i), _) => Err(format!("<{}> is never closed", elements[i].name)),
        _ => Err(format!("{roots} root elements, or text after the root")),
    }
}

/// A tag's name and attributes (`name a="1" b='2'`).
fn parse_tag(tag: &str) -> Result<(String, HashMap<String, String>), String> {
    let tag = tag.trim();
    let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
    let name = &tag[..name_end];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':' || c == '_') {
        return Err(format!("bad tag name in <{tag}>"));
    }
    let mut attributes = HashMap::new();
    let mut rest = tag[name_end..].trim_start();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=').ok_or(format!("attribute without value in <{tag}>"))?;
        let after = after.trim_start();
        let quote =
            after.chars().next().filter(|&q| q == '"' || q == '\'').ok_or(format!("unquoted value in <{tag}>"))?;
        let (value, after) = after[1..].split_once(quote).ok_or(format!("unterminated value in <{tag}>"))?;
        if value.contains('<') {
            return Err(format!("`<` in an attribute of <{tag}>"));
        }
        check_text(value)?;
        if attributes.insert(key.trim().to_string(), value.to_string()).is_some() {
            return Err(format!("attribute {key} twice in <{tag}>"));
        }
        rest = after.trim_start();
    }
    Ok((name.to_string(), attributes))
}

/// Text between tags: every `&` starts a known entity.
fn check_text(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        rest = &rest[at + 1..];
        let entity = rest.split_once(';').map(|(e, _)| e).ok_or("`&` without `;`")?;
        let known = ["amp", "lt", "gt", "quot", "apos"].contains(&entity)
            || entity.strip_prefix('#').is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if !known {
            return Err(format!("unknown entity &{entity};"));
        }
    }
    Ok(())
}

#[test]
fn the_xml_check_rejects_what_is_not_well_formed() {
    assert!(parse_xml(r#"<?xml version="1.0"?><a x="1"><b/>t &amp; u</a>"#).is_ok());
    for bad in ["<a><b></a></b>", "<a>", "<a/><b/>", r#"<a x=1/>"#, r#"<a x="1" x="2"/>"#, "<a>&nbsp;</a>", "<a>x</a>y"]
    {
        assert!(parse_xml(bad).is_err(), "{bad}");
    }
}

/// The SVG picture `comb show --svg - ARGS…` draws, parsed.
fn picture(args: &[&str]) -> Vec<Element> {
    let mut all = vec!["--svg", "-"];
    all.extend_from_slice(args);
    let svg = show(&all);
    assert!(svg.starts_with("<?xml"), "{svg}");
    let elements = parse_xml(&svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"));
    assert_eq!(elements[0].name, "svg");
    assert_eq!(elements[0].attribute("xmlns"), "http://www.w3.org/2000/svg");
    elements
}

/// `(data-piece, data-color)` of the elements of a class, sorted.
fn labelled(elements: &[Element], class: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = elements
        .iter()
        .filter(|e| e.has_class(class))
        .map(|e| (e.attribute("data-piece").to_string(), e.attribute("data-color").to_string()))
        .collect();
    out.sort();
    out
}

/// `(data-role, data-move)` of every arrow, in drawing order.
fn arrows(elements: &[Element]) -> Vec<(String, String)> {
    elements
        .iter()
        .filter(|e| e.has_class("arrow"))
        .map(|e| (e.attribute("data-role").to_string(), e.attribute("data-move").to_string()))
        .collect()
}

/// The fill of the last polygon inside element `index` (a piece's own hex or disc is drawn
/// after anything under it).
fn fill_of(elements: &[Element], index: usize) -> String {
    elements
        .iter()
        .rev()
        .find(|e| e.parent == Some(index) && (e.name == "polygon" || e.name == "circle"))
        .map(|e| e.attribute("fill").to_string())
        .unwrap_or_default()
}

/// Fills of a class's elements by side: exactly one fill per side, and the two differ.
fn fills_by_side(elements: &[Element], class: &str) -> HashMap<String, String> {
    let mut fills: HashMap<String, String> = HashMap::new();
    for (i, e) in elements.iter().enumerate().filter(|(_, e)| e.has_class(class)) {
        let fill = fill_of(elements, i);
        let side = e.attribute("data-color").to_string();
        let seen = fills.entry(side.clone()).or_insert_with(|| fill.clone());
        assert_eq!(*seen, fill, "{side} {class} of two fills");
    }
    assert_eq!(fills.len(), 2, "{fills:?}");
    assert_ne!(fills["white"], fills["black"]);
    fills
}

fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|&(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn hive_svg_draws_every_stack_once_and_the_hands() {
    let elements = picture(&[STACKED]);
    // Every piece, the queen under the beetle included.
    let expected =
        [("bB1", "black"), ("bQ", "black"), ("bS1", "black"), ("wB1", "white"), ("wQ", "white"), ("wS1", "white")];
    assert_eq!(labelled(&elements, "piece"), owned(&expected));
    let index = |name: &str| elements.iter().position(|e| e.attribute("data-piece") == name && e.has_class("piece"));
    let stack = index("wB1").unwrap();
    assert_eq!(elements[stack].attribute("data-height"), "2");
    let under = index("wQ").unwrap();
    assert_eq!(elements[under].attribute("data-height"), "1");
    assert_eq!(elements[under].parent, Some(stack), "drawn inside its stack");
    assert_eq!(elements.iter().filter(|e| e.has_class("height")).count(), 1, "one height badge");
    let hands = labelled(&elements, "hand");
    assert_eq!(hands.len(), 16);
    assert!(hands.contains(&("wS2".into(), "white".into())) && hands.contains(&("bA3".into(), "black".into())));
    let pieces = fills_by_side(&elements, "piece");
    assert_eq!(fills_by_side(&elements, "hand"), pieces, "hands are filled as the board's pieces");
    // The last move is drawn by default.
    assert_eq!(arrows(&elements), owned(&[("last", "wB1 wQ")]));
}

#[test]
fn hive_svg_draws_asked_moves_as_arrows_in_their_canonical_form() {
    let elements = picture(&[STACKED, "--arrow", "bb1 bq", "--arrow", "bA1 bQ-"]);
    assert_eq!(arrows(&elements), owned(&[("last", "wB1 wQ"), ("asked", "bB1 bQ"), ("asked", "bA1 bB1/")]));
    let elements = picture(&[STACKED, "--no-last-move", "--arrow", "bB1 bQ"]);
    assert_eq!(arrows(&elements), owned(&[("asked", "bB1 bQ")]));
    // A new game: nothing on the board, no last move, and the first placement still drawn.
    let elements = picture(&["Base", "--arrow", "wS1"]);
    assert_eq!(labelled(&elements, "piece"), []);
    assert_eq!(arrows(&elements), owned(&[("asked", "wS1")]));
}

#[test]
fn intellector_svg_draws_59_hexes_28_pieces_and_arrows() {
    let elements = picture(&["Intellector", "--arrow", "e2e3", "--arrow", "E1:D1"]);
    assert_eq!(elements.iter().filter(|e| e.has_class("hex")).count(), 59);
    let pieces = labelled(&elements, "piece");
    assert_eq!(pieces.len(), 28);
    for (kind, count) in [("I", 1), ("D", 2), ("A", 2), ("F", 2), ("L", 2), ("P", 5)] {
        for side in ["white", "black"] {
            let name = format!("{}{kind}", &side[..1]);
            let n = pieces.iter().filter(|(p, c)| *p == name && c == side).count();
            assert_eq!(n, count, "{name}");
        }
    }
    let intellector = elements.iter().find(|e| e.attribute("data-piece") == "wI").unwrap();
    assert_eq!(intellector.attribute("data-hex"), "e1");
    fills_by_side(&elements, "piece");
    assert_eq!(arrows(&elements), owned(&[("asked", "e2e3"), ("asked", "e1d1")]));
    // A swap has a head at both ends.
    let swap = elements.iter().position(|e| e.attribute("data-move") == "e1d1").unwrap();
    let line = elements.iter().find(|e| e.parent == Some(swap) && e.name == "line").unwrap();
    assert!(!line.attribute("marker-start").is_empty() && !line.attribute("marker-end").is_empty());

    let elements = picture(&["Intellector;InProgress;Black[1];e2e3"]);
    assert_eq!(arrows(&elements), owned(&[("last", "e2e3")]));
    let moved = elements.iter().find(|e| e.has_class("piece") && e.attribute("data-hex") == "e3").unwrap();
    assert_eq!((moved.attribute("data-piece"), moved.attribute("data-color")), ("wP", "white"));
}

#[test]
fn svg_goes_to_the_file_it_is_given() {
    let dir = std::env::temp_dir().join(format!("comb-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hive.svg");
    let out = comb(&["show", STACKED, "--svg", path.to_str().unwrap()]);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), ""), "{}", stderr(&out));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg, show(&["--svg", "-", STACKED]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_positions_moves_and_files_exit_2_with_a_reason() {
    let cases: [(&[&str], &str); 6] = [
        (&["show", "Base+X"], "Base+X"),
        (&["show", "Base;InProgress;White[2];wS1;bQ zz"], "bQ zz"),
        (&["show", STACKED, "--svg", "-", "--arrow", "wQ bQ"], "cannot draw the move \"wQ bQ\""),
        (&["show", STACKED, "--svg", "-", "--arrow", "nonsense"], "Unable to parse move \"nonsense\""),
        (&["show", "Intellector", "--svg", "/nonexistent/dir/x.svg"], "/nonexistent/dir/x.svg"),
        (&["show", "Base", "--arrow", "wS1"], "--svg"),
    ];
    for (args, reason) in cases {
        let out = comb(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}: nothing on standard output");
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
}
