//! The constant-flow check: every secret path of the library runs under Valgrind memcheck
//! with its secret inputs marked undefined (`quasar_pq::ct::secret_*`). A conditional jump
//! or a memory index that depends on a secret is then a memcheck error; values the
//! algorithm makes public are declassified inside the library, each with its reason. Each
//! path is reported on its own line with the errors it added; any error fails the run.
//!
//! Run through `node scripts/ct-check.mjs` (every opt-level, each path in its own Valgrind
//! process, findings classified against the declassifications inside dependencies, a
//! summary table), or by hand: `cargo build --profile ct-o3 --features
//! sim,hazmat,ct-check --bin ct-check && valgrind -q target/ct-o3/ct-check [PATH-PREFIX…]`
//! (the per-path counts then include what the script would classify as declassified in a
//! dependency). `--list` lists the paths, `--exact` matches names exactly. With
//! `CT_PORTABLE=1` the AVX2 paths are skipped (the WASM-like runs). Outside Valgrind every
//! path runs once as a smoke test and nothing is checked.

#[path = "ct_check/committee.rs"]
mod committee;
#[path = "ct_check/corona.rs"]
mod corona;
#[path = "ct_check/lens.rs"]
mod lens;
#[path = "ct_check/lss.rs"]
mod lss;
#[path = "ct_check/mldsa.rs"]
mod mldsa;
#[path = "ct_check/pulsar.rs"]
mod pulsar;
#[path = "ct_check/rng.rs"]
mod rng;
#[path = "ct_check/slhdsa.rs"]
mod slhdsa;
#[path = "ct_check/snapshot.rs"]
mod snapshot;

use std::process::ExitCode;

/// One secret path: a name (`module/operation[/variant]`) and the code that runs it.
pub struct Path {
    /// `module/operation[/variant]`, as the report names it.
    pub name: String,
    /// Runs the path once on marked secrets.
    pub run: Box<dyn Fn()>,
}

/// A path from a name and a closure.
pub fn path(name: impl Into<String>, run: impl Fn() + 'static) -> Path {
    Path {
        name: name.into(),
        run: Box::new(run),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let list = std::env::args().any(|a| a == "--list");
    let exact = std::env::args().any(|a| a == "--exact");
    let portable = std::env::var_os("CT_PORTABLE").is_some_and(|v| v == "1");
    // `--plant`: ML-DSA signing runs the planted leak, which the check must report.
    quasar_pq::ct::set_plant(std::env::args().any(|a| a == "--plant"));
    let mut paths = Vec::new();
    paths.extend(mldsa::paths());
    paths.extend(slhdsa::paths());
    paths.extend(lss::paths());
    paths.extend(committee::paths());
    paths.extend(corona::paths());
    paths.extend(lens::paths());
    paths.extend(pulsar::paths());
    paths.extend(snapshot::paths());
    paths.retain(|p| {
        let wanted = args.is_empty()
            || args.iter().any(|a| {
                if exact {
                    p.name == *a
                } else {
                    p.name.starts_with(a.as_str())
                }
            });
        wanted && !(portable && p.name.ends_with("/avx2"))
    });
    if list {
        for p in &paths {
            println!("{}", p.name);
        }
        return ExitCode::SUCCESS;
    }
    let checked = quasar_pq::ct::on_valgrind();
    if !checked {
        println!("ct: not running under Valgrind: each path runs once as a smoke test, nothing is checked");
    }
    let (mut passed, mut failed) = (0, 0);
    for p in &paths {
        let before = quasar_pq::ct::error_count();
        (p.run)();
        let found = quasar_pq::ct::error_count() - before;
        let verdict = match (checked, found) {
            (false, _) => "ran (unchecked)".to_string(),
            (true, 0) => "clean".to_string(),
            (true, n) => format!("FOUND {n} error(s)"),
        };
        println!("ct: {:<40} {verdict}", p.name);
        if found == 0 {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
