//! Every constant of `include/extrack.h` is usable from C and C++: a program
//! using each `#define EXT_*` macro and each enum constant (parsed out of the
//! header, so new ones are covered automatically) compiles with
//! `gcc -std=c11 -Wall -Werror -pedantic` and `g++ -std=c++17 -Wall -Werror`,
//! and prints the values the header promises.
//!
//! The compilers are `$CC` / `$CXX`, else `gcc` / `g++`. A missing compiler
//! prints a skip message, unless `EXTRACK_REQUIRE_CC=1` makes that a failure.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An object-like `#define EXT_*` macro of the header.
struct Macro {
    name: String,
    value: String,
}

/// An enum constant: its enum type, name and the value written in the header.
struct EnumConst {
    ty: String,
    name: String,
    value: u64,
}

fn parse(header: &str) -> (Vec<Macro>, Vec<EnumConst>) {
    let mut macros = Vec::new();
    let mut consts = Vec::new();
    let mut current_enum: Option<String> = None;
    for line in header.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("#define ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let after = &rest[name.len()..];
            // object-like only (`EXT_STRINGIFY_(x)` is a helper taking an argument)
            if name.starts_with("EXT_") && after.starts_with(char::is_whitespace) {
                macros.push(Macro {
                    name,
                    value: after.trim().to_owned(),
                });
            }
        } else if let Some(rest) = t.strip_prefix("enum ") {
            current_enum = Some(rest.trim_end_matches(" {").trim().to_owned());
        } else if t.starts_with("};") {
            current_enum = None;
        } else if let Some(ty) = &current_enum {
            if let Some((name, value)) = t.trim_end_matches(',').split_once(" = ") {
                if name.starts_with("EXT_") {
                    consts.push(EnumConst {
                        ty: ty.clone(),
                        name: name.to_owned(),
                        value: value
                            .parse()
                            .unwrap_or_else(|_| panic!("{name} = {value}: not a number")),
                    });
                }
            }
        }
    }
    (macros, consts)
}

/// The C / C++ program: every macro in a file-scope constant initialiser (a
/// constant expression, as a host would use it: array sizes, `case` labels,
/// static tables), every enum constant as a value of its enum type; `main`
/// prints `NAME=value` lines.
fn program(macros: &[Macro], consts: &[EnumConst]) -> String {
    let mut c = String::from("#include <stdio.h>\n#include \"extrack.h\"\n\n");
    let mut body = String::new();
    for m in macros {
        if m.value.contains('"') || macros.iter().any(|s| s.value.contains('"') && s.name == m.value) {
            writeln!(c, "static const char string_{0}[] = {0};", m.name).unwrap();
            writeln!(body, "    printf(\"{0}=%s\\n\", string_{0});", m.name).unwrap();
        } else {
            writeln!(
                c,
                "static const unsigned long long value_{0} = (unsigned long long)({0});",
                m.name
            )
            .unwrap();
            writeln!(body, "    printf(\"{0}=%llu\\n\", value_{0});", m.name).unwrap();
        }
    }
    for e in consts {
        writeln!(c, "static const {} enum_{1} = {1};", e.ty, e.name).unwrap();
        writeln!(
            body,
            "    printf(\"{0}=%llu\\n\", (unsigned long long)enum_{0});",
            e.name
        )
        .unwrap();
    }
    write!(c, "\nint main(void) {{\n{body}    return 0;\n}}\n").unwrap();
    c
}

fn compiler(var: &str, default: &str) -> Option<String> {
    let cc = std::env::var(var).unwrap_or_else(|_| default.into());
    let ok = Command::new(&cc)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        return Some(cc);
    }
    let msg = format!("no compiler `{cc}` (${var})");
    if std::env::var_os("EXTRACK_REQUIRE_CC").is_some_and(|v| v == "1") {
        panic!("{msg}, and EXTRACK_REQUIRE_CC=1");
    }
    println!("SKIP: {msg}; header constants not compiled with it");
    None
}

/// Compiles `src` with `cc` and `args`, runs it and returns its output lines.
fn compile_and_run(cc: &str, args: &[&str], src: &Path, exe: &Path) -> String {
    let out = Command::new(cc)
        .args(args)
        .arg("-I")
        .arg(root().join("include"))
        .arg(src)
        .arg("-o")
        .arg(exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{cc} {args:?} failed:\n{}\n--- program ---\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(src).unwrap()
    );
    let run = Command::new(exe).output().unwrap();
    assert!(run.status.success(), "{} failed", exe.display());
    String::from_utf8(run.stdout).unwrap()
}

#[test]
fn every_header_constant_compiles_in_c_and_cpp() {
    let header = std::fs::read_to_string(root().join("include/extrack.h")).unwrap();
    let (macros, consts) = parse(&header);
    let names: Vec<&str> = macros.iter().map(|m| m.name.as_str()).collect();
    for expected in ["EXT_NONE", "EXT_ALL_BODIES", "EXT_ABI_VERSION", "EXT_VERSION"] {
        assert!(
            names.contains(&expected),
            "{expected} not parsed out of the header: {names:?}"
        );
    }
    assert!(consts.iter().any(|e| e.name == "EXT_OK" && e.ty == "ext_status"));
    assert!(consts.iter().any(|e| e.name == "EXT_BODY_FACES"));

    // what the program must print
    let mut expected: Vec<String> = Vec::new();
    for m in &macros {
        let v = match m.name.as_str() {
            "EXT_VERSION" => env!("CARGO_PKG_VERSION").to_owned(),
            "EXT_NONE" => extrack::capi::EXT_NONE.to_string(),
            "EXT_ALL_BODIES" => extrack::capi::EXT_ALL_BODIES.to_string(),
            _ if m.value == "UINT32_MAX" => u32::MAX.to_string(),
            _ => m.value.parse::<u64>().map(|v| v.to_string()).unwrap_or_default(),
        };
        if !v.is_empty() {
            expected.push(format!("{}={v}", m.name));
        }
    }
    for e in &consts {
        expected.push(format!("{}={}", e.name, e.value));
    }

    let dir = tempfile::tempdir().unwrap();
    let c_src = dir.path().join("constants.c");
    let cpp_src = dir.path().join("constants.cpp");
    let text = program(&macros, &consts);
    std::fs::write(&c_src, &text).unwrap();
    std::fs::write(&cpp_src, &text).unwrap();
    let builds = [
        ("CC", "gcc", &["-std=c11", "-Wall", "-Werror", "-pedantic"][..], &c_src),
        ("CXX", "g++", &["-std=c++17", "-Wall", "-Werror"][..], &cpp_src),
    ];
    for (var, default, args, src) in builds {
        let Some(cc) = compiler(var, default) else { continue };
        let out = compile_and_run(&cc, args, src, &dir.path().join(format!("constants_{default}")));
        let lines: Vec<&str> = out.lines().collect();
        for want in &expected {
            assert!(lines.contains(&want.as_str()), "{cc}: no `{want}` in\n{out}");
        }
        assert_eq!(lines.len(), macros.len() + consts.len(), "{cc}:\n{out}");
    }
}
