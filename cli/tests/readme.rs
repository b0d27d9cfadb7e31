//! The README's CLI lines, run exactly as written.
//!
//! Every line of a `sh` block in README.md that starts with `quasar ` or with
//! `cargo run --release --bin quasar -- ` runs through `sh -c`, in README order, in one
//! fresh folder, with `quasar` on `PATH` as the binary cargo built for this test; the only
//! change to a line is that `cargo run` prefix, replaced by the same binary's path. Each must
//! exit 0, write nothing to stderr, and print what its command promises: a demo its
//! parties and threshold, the group key (unchanged across a reshare) and the cheater it was
//! told about named; `cert build` its files; `cert verify` every certificate of the chain
//! accepted. A `cargo install --path DIR` line is checked, not run (a fat-LTO release
//! build): DIR must be this package, which builds `quasar` and asks for no feature. Any
//! other line that runs `quasar` (`--features …` before `--bin quasar`, say) fails the test.
//!
//! Run: `cargo test -p quasar-cli --test readme`.
#![cfg(unix)]
// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

const CARGO_RUN: &str = "cargo run --release --bin quasar --";

/// The repository root (this package is `cli/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The lines of the README's `sh` blocks, a line ending in `\` joined to the next.
fn sh_lines(readme: &str) -> Vec<String> {
    let (mut lines, mut in_sh, mut pending) = (Vec::new(), false, String::new());
    for line in readme.lines().map(str::trim_end) {
        if !in_sh {
            in_sh = line == "```sh";
        } else if line.starts_with("```") {
            in_sh = false;
        } else if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
        } else {
            pending.push_str(line);
            lines.push(core::mem::take(&mut pending).trim().to_string());
        }
    }
    lines
}

/// What a README line is to this test.
enum Line {
    /// A line that runs `quasar`: the script for `sh -c`.
    Run(String),
    /// `cargo install --path DIR`: the DIR.
    Install(String),
    /// Anything else (`npm test`, …).
    Other,
}

fn classify(line: &str, exe: &str) -> Line {
    if let Some(rest) = line.strip_prefix(CARGO_RUN).filter(|r| r.starts_with(' ')) {
        return Line::Run(format!("'{exe}'{rest}"));
    }
    if line.starts_with("quasar ") {
        return Line::Run(line.to_string());
    }
    let code = line.split('#').next().unwrap();
    let words: Vec<&str> = code.split_whitespace().collect();
    if let ["cargo", "install", "--path", dir] = words[..] {
        return Line::Install(dir.to_string());
    }
    assert!(
        !words.contains(&"quasar") && !code.contains("--bin quasar"),
        "a README line runs quasar in a form this test does not know: {line}"
    );
    Line::Other
}

/// `cargo install --path DIR` builds this package, whose `quasar` needs no feature flag.
fn check_install(dir: &str) {
    let path = root().join(dir);
    assert_eq!(
        path.canonicalize().unwrap(),
        Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().unwrap(),
        "README installs {dir}, not the package this test builds"
    );
    let manifest = std::fs::read_to_string(path.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("[[bin]]\nname = \"quasar\""), "{manifest}");
    assert!(!manifest.contains("required-features"), "{manifest}");
}

/// The commands of a script (split at `&&`), each as its words after `quasar`.
fn commands(script: &str) -> Vec<Vec<&str>> {
    script
        .split("&&")
        .map(|c| c.split_whitespace().skip(1).collect())
        .collect()
}

fn flag<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|w| *w == name)
        .and_then(|i| words.get(i + 1).copied())
}

/// The output a demo promises: its parties and threshold, its phases, the group key
/// (byte-identical across a reshare), and a cheater named only when one was asked for.
fn check_demo(words: &[&str], out: &str) {
    let (n, t) = (
        flag(words, "--parties").unwrap(),
        flag(words, "--threshold").unwrap(),
    );
    assert!(out.contains(&format!("{t}-of-{n}")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("Total ")), "{out}");
    let key = out.lines().find(|l| l.starts_with("Group key")).unwrap();
    if let Some(to) = flag(words, "--reshare") {
        let (n, t) = to.split_once(':').unwrap();
        assert!(out.contains(&format!("reshare to {t}-of-{n}")), "{out}");
        assert!(key.ends_with("byte-identical"), "{key}");
    }
    match flag(words, "--cheat") {
        Some(cheat) => {
            let party = cheat.split(':').next().unwrap();
            assert!(out.contains(&format!("party {party} named in ")), "{out}");
        }
        None => assert!(!out.contains("Named"), "{out}"),
    }
}

/// `cert verify`: every certificate of the chain it names (DIR, or the folder of `--set`)
/// followed and accepted, none refused.
fn check_verify(words: &[&str], out: &str, work: &Path) {
    let dir = words[2..]
        .iter()
        .find(|w| !w.starts_with('-') && work.join(w).is_dir())
        .map(|d| work.join(d))
        .unwrap_or_else(|| work.join(flag(words, "--set").unwrap()).parent().unwrap().into());
    let mut chain: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("cert-") && n.ends_with(".qcrt"))
        .collect();
    let mut followed: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_suffix(".qcrt:"))
        .map(|p| format!("{}.qcrt", p.rsplit('/').next().unwrap()))
        .collect();
    chain.sort();
    followed.sort();
    assert!(!chain.is_empty(), "no certificates in {}", dir.display());
    assert_eq!(followed, chain, "{out}");
    assert_eq!(out.matches("\n  accepted: ").count(), chain.len(), "{out}");
    assert!(!out.contains("refused"), "{out}");
}

#[test]
fn readme_cli_lines_run_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let exe = env!("CARGO_BIN_EXE_quasar");
    let tmp = tempfile::tempdir().unwrap();
    let (bin, work) = (tmp.path().join("bin"), tmp.path().join("work"));
    std::fs::create_dir(&bin).unwrap();
    std::fs::create_dir(&work).unwrap();
    std::os::unix::fs::symlink(exe, bin.join("quasar")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());

    let mut seen: Vec<String> = Vec::new();
    for line in sh_lines(&readme) {
        let script = match classify(&line, exe) {
            Line::Run(script) => script,
            Line::Install(dir) => {
                check_install(&dir);
                seen.push("install".into());
                continue;
            }
            Line::Other => continue,
        };
        let o = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(&work)
            .env("PATH", &path)
            .output()
            .unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(o.status.success(), "README line failed: {line}\n{out}\n{err}");
        assert!(err.is_empty(), "README line wrote to stderr: {line}\n{err}");
        for words in commands(&script) {
            match words[..] {
                ["demo", ..] => check_demo(&words, &out),
                ["cert", "build", ..] => {
                    let dir = flag(&words, "--out").unwrap();
                    assert!(out.contains(&format!("wrote {dir}/set-0.qvst")), "{out}");
                    assert!(work.join(dir).join("set-0.qvst").is_file());
                }
                ["cert", "verify", ..] => check_verify(&words, &out, &work),
                _ => panic!("a README line this test has no check for: {line}"),
            }
            seen.push(match words[0] {
                "cert" => words[..2].join(" "),
                first => first.to_string(),
            });
        }
    }
    // The lines the README is known to show, so a lost block fails here.
    for want in ["install", "demo", "cert build", "cert verify"] {
        assert!(seen.iter().any(|s| s == want), "no `{want}` line found: {seen:?}");
    }
    assert!(seen.iter().filter(|s| *s == "demo").count() >= 3, "{seen:?}");
}
