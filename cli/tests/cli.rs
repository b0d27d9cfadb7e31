//! The `quasar` binary: the native demo end to end (one thread per party holding the
//! library's party, bytes through the router), misbehaving parties named with the
//! library's blame codes, and one clear line for every bad argument.
//!
//! Run: `cargo test -p quasar-cli`.
// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

fn quasar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("the quasar binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs `quasar demo <args>` (split at white space), which must succeed; returns its
/// stdout.
fn demo_ok(args: &str) -> String {
    let all: Vec<&str> = ["demo"].into_iter().chain(args.split_whitespace()).collect();
    let o = quasar(&all);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{args} failed:\n{out}\n{err}");
    assert!(err.is_empty(), "{args} wrote to stderr: {err}");
    out
}

/// The table row of `phase`: its numeric columns (`-` as `None`).
fn row(out: &str, phase: &str) -> Vec<Option<f64>> {
    let line = out
        .lines()
        .find(|l| {
            l.strip_prefix(phase).is_some_and(|rest| {
                rest.starts_with("  ") && rest.trim_start().starts_with(|c: char| c.is_ascii_digit())
            })
        })
        .unwrap_or_else(|| panic!("no table row for {phase}:\n{out}"));
    line[phase.len()..]
        .split_whitespace()
        .map(|v| v.replace(',', "").parse::<f64>().ok())
        .collect()
}

/// Columns: wall, party min, median, max, parties, hub, msgs, bytes.
fn check_table(out: &str, phases: &[(&str, usize)]) {
    for &(phase, parties) in phases {
        let r = row(out, phase);
        assert_eq!(r.len(), 8, "{phase}: {r:?}");
        assert!(r[0].is_some_and(|w| w > 0.0), "{phase}: wall");
        assert_eq!(
            r[4],
            Some(f64::from(u32::try_from(parties).unwrap())),
            "{phase}: parties"
        );
        if parties > 0 {
            let (lo, mid, hi) = (r[1].unwrap(), r[2].unwrap(), r[3].unwrap());
            assert!(lo <= mid && mid <= hi, "{phase}: min ≤ median ≤ max");
        }
    }
    let total = row(out, "Total");
    assert!(
        total[6].is_some_and(|m| m > 0.0) && total[7].is_some_and(|b| b > 0.0),
        "traffic counted"
    );
}

/// The before/after fingerprints, which must be byte-identical.
fn check_same_key(out: &str) {
    let line = out
        .lines()
        .find(|l| l.starts_with("Group key"))
        .unwrap_or_else(|| panic!("no group key line:\n{out}"));
    let before = line
        .split("before reshare ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let after = line
        .split("after reshare ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(before.len(), 16, "{line}");
    assert_eq!(before, after, "{line}");
    assert!(line.ends_with("byte-identical"), "{line}");
}

/// The (first) group key fingerprint printed.
fn fingerprint(out: &str) -> String {
    let line = out.lines().find(|l| l.starts_with("Group key")).unwrap();
    let rest = line.split("fingerprint: ").nth(1).unwrap();
    let rest = rest.strip_prefix("before reshare ").unwrap_or(rest);
    rest[..16].to_string()
}

#[test]
fn pulsar_3_of_5_reshared_to_5_of_7() {
    let out = demo_ok("--scheme pulsar --parties 5 --threshold 3 --reshare 7:5");
    check_table(
        &out,
        &[
            ("DKG", 5),
            ("Key ceremony", 3),
            ("Key certification", 5),
            ("Sign", 3),
            ("Verify", 5),
            ("Reshare", 7),
            ("Erase old shares", 5),
            ("Sign (gen 1)", 5),
            ("Verify (gen 1)", 7),
        ],
    );
    check_same_key(&out);
    assert!(
        out.contains("verified by 5 with plain ML-DSA-65 mldsa::verify"),
        "{out}"
    );
    assert!(
        out.contains("key certified by proofs of possession of parties 1-5"),
        "{out}"
    );
    assert!(
        out.contains("activation certificate: proofs of possession of parties 1-7"),
        "{out}"
    );
    assert!(
        out.contains(
            "parties 1-5 verified the activation certificate, then erased their generation-0 shares"
        ),
        "{out}"
    );
    assert!(
        out.contains("verified by 7 with plain ML-DSA-65 mldsa::verify"),
        "{out}"
    );
    assert!(out.contains("Trust model: Pulsar custody"), "{out}");
    assert!(!out.contains("Named"), "{out}");
    // The same seed gives the same key; another seed another one.
    let again = demo_ok("--scheme pulsar --parties 5 --threshold 3 --set 65");
    let other = demo_ok("--scheme pulsar --parties 5 --threshold 3 --seed 01");
    assert_eq!(fingerprint(&again), fingerprint(&out));
    assert_ne!(fingerprint(&again), fingerprint(&other));
}

#[test]
fn lens_ed25519_3_of_5_reshared_to_3_of_4() {
    let out = demo_ok("--scheme lens --curve ed25519 --parties 5 --threshold 3 --reshare 4:3");
    check_table(
        &out,
        &[
            ("DKG", 5),
            ("Sign", 3),
            ("Verify", 5),
            ("Reshare", 4),
            ("Erase old shares", 5),
            ("Sign (gen 1)", 3),
            ("Verify (gen 1)", 4),
        ],
    );
    check_same_key(&out);
    assert!(out.contains("Ed25519 (RFC 8032) verifier"), "{out}");
    assert!(out.contains("Trust model: Lens"), "{out}");
    assert!(
        out.contains("activation certificate: proofs of possession of parties 1-4"),
        "{out}"
    );
}

/// The scenario the browser test runs too: the same choice, the same code.
#[test]
fn pulsar_cheating_dealer_is_named_in_the_dkg_by_every_honest_party() {
    let out = demo_ok("--scheme pulsar --parties 5 --threshold 3 --cheat 2:bad-shares");
    assert!(
        out.contains("party 2 named in DKG: INVALID_OPENING — opened a share for party "),
        "{out}"
    );
    assert!(out.contains("by every honest party (1, 3-5)"), "{out}");
    // The run completes: the key ceremony with honest signers, the signature verifies.
    assert!(
        out.contains("ML-DSA-65 key derived from the shares of parties 1, 3, 4, announced"),
        "{out}"
    );
    assert!(
        out.contains("signed with the contributions of parties 1, 3, 4"),
        "{out}"
    );
    assert!(
        out.contains("verified by 5 with plain ML-DSA-65 mldsa::verify"),
        "{out}"
    );
    assert!(out.contains("Named (and excluded"), "{out}");
    check_table(
        &out,
        &[("DKG", 5), ("Key ceremony", 3), ("Sign", 3), ("Verify", 5)],
    );
}

#[test]
fn cheating_signers_are_named_and_excluded() {
    // Lens: a corrupted signature share; the coordinator names it and the session is
    // retried without it.
    let out = demo_ok("--scheme lens --parties 5 --threshold 3 --cheat 3:bad-contribution");
    assert!(
        out.contains("party 3 named in Sign: INVALID_SIGNATURE_SHARE"),
        "{out}"
    );
    assert!(out.contains("retrying with parties 1, 2, 4"), "{out}");
    assert!(
        out.contains("signed with the contributions of parties 1, 2, 4"),
        "{out}"
    );

    // Pulsar: a released share that does not open the commitments; the combiner names it
    // and derives the key from the others.
    let out = demo_ok("--scheme pulsar --parties 5 --threshold 3 --cheat 2:bad-contribution");
    assert!(
        out.contains("party 2 named in Key ceremony: INVALID_SHARE — released a share that does not match"),
        "{out}"
    );
    assert!(
        out.contains("derived from the shares of parties 1, 3, 4"),
        "{out}"
    );

    // Without enough honest parties the run fails cleanly, naming the culprit.
    let o = quasar(&[
        "demo",
        "--scheme",
        "pulsar",
        "--parties",
        "3",
        "--threshold",
        "3",
        "--cheat",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("quasar: DKG failed") && err.contains("NOT_ENOUGH_QUALIFIED"),
        "{err}"
    );
    assert!(err.trim_end().ends_with("culprits: 2"), "{err}");
}

/// A contraction: old parties that neither deal nor stay learn the activation
/// certificate from the dealers, verify it, and only then erase their shares.
#[test]
fn reshare_with_activation_retires_every_old_share() {
    let out = demo_ok(
        "--scheme lens --curve secp256k1 --parties 5 --threshold 3 --reshare 3:2 --cheat 2:misaddress",
    );
    assert!(
        out.contains("party 2 named in DKG: WRONG_RECIPIENT — sent a private message addressed to party"),
        "{out}"
    );
    // Party 2 is left out of the new set; 1, 3, 4 deal and receive; 2 and 5 are told.
    assert!(
        out.contains("3-of-5 → 2-of-3 (parties 1, 3, 4), dealt by parties 1, 3, 4"),
        "{out}"
    );
    assert!(
        out.contains(
            "parties 1-5 verified the activation certificate, then erased their generation-0 shares"
        ),
        "{out}"
    );
    assert!(out.contains("BIP-340 verifier"), "{out}");
    check_table(
        &out,
        &[("Reshare", 3), ("Erase old shares", 5), ("Verify (gen 1)", 3)],
    );
    let erase = row(&out, "Erase old shares");
    assert!(
        erase[6].is_some_and(|m| m > 0.0),
        "the outsiders were told: {erase:?}"
    );
    check_same_key(&out);
}

#[test]
fn bad_arguments_get_one_line_and_a_nonzero_exit() {
    for (args, want) in [
        (&[][..], "missing command"),
        (&["launch"][..], "unknown command 'launch'"),
        (&["demo"][..], "--scheme"),
        (&["demo", "--scheme", "rsa"][..], "unknown scheme 'rsa'"),
        (
            &["demo", "--scheme", "pulsar", "--frobnicate"][..],
            "unknown flag '--frobnicate'",
        ),
        (
            &["demo", "--scheme", "pulsar", "--parties"][..],
            "--parties needs a value",
        ),
        (
            &["demo", "--scheme", "pulsar", "--parties", "1"][..],
            "--parties must be between 2 and 256, got 1",
        ),
        (
            &["demo", "--scheme", "pulsar", "--parties", "300"][..],
            "--parties must be between 2 and 256, got 300",
        ),
        (
            &[
                "demo",
                "--scheme",
                "pulsar",
                "--parties",
                "21",
                "--threshold",
                "30",
            ][..],
            "--threshold must be between 1 and --parties (21), got 30",
        ),
        (
            &["demo", "--scheme", "pulsar", "--threshold", "0"][..],
            "--threshold must be between 1",
        ),
        (
            &["demo", "--scheme", "pulsar", "--reshare", "64"][..],
            "--reshare must be N:T",
        ),
        (
            &["demo", "--scheme", "pulsar", "--reshare", "7:9"][..],
            "--reshare threshold",
        ),
        (
            &["demo", "--scheme", "lens", "--curve", "p256"][..],
            "unknown curve 'p256'",
        ),
        (
            &["demo", "--scheme", "pulsar", "--set", "50"][..],
            "unknown ML-DSA set '50'",
        ),
        (&["demo", "--scheme", "pulsar", "--seed", "xyz"][..], "--seed"),
        (
            &["demo", "--scheme", "pulsar", "--parties", "5", "--cheat", "9"][..],
            "--cheat",
        ),
        (
            &[
                "demo",
                "--scheme",
                "pulsar",
                "--parties",
                "5",
                "--cheat",
                "2:evil",
            ][..],
            "unknown --cheat kind 'evil'",
        ),
        (
            &["demo", "--scheme", "committee", "--parties", "7"][..],
            "--parties must be between 2 and 6, got 7",
        ),
        (
            &["demo", "--scheme", "committee", "--threshold", "1"][..],
            "--threshold must be between 2",
        ),
        (
            &["demo", "--scheme", "committee", "--reshare", "5:3"][..],
            "never reshared",
        ),
        (
            &["demo", "--scheme", "committee", "--cheat", "2:garbage"][..],
            "bad-contribution only",
        ),
        (
            &["demo", "--scheme", "committee", "--curve", "ed25519"][..],
            "--curve applies to --scheme lens only",
        ),
    ] {
        let o = quasar(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
        assert!(
            err.starts_with("quasar: ") && err.contains(want),
            "{args:?}: {err}"
        );
    }
    let o = quasar(&["--help"]);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("quasar demo --scheme pulsar|lens|committee"));
}

/// `quasar demo --scheme committee`: the distributed key generation gives every member the
/// same ML-DSA key, exactly T sign (leaderless, no combiner), every member verifies with
/// plain ML-DSA; a signer whose reveal breaks its commitment is named by the honest signers
/// and a new session goes without it; with no T honest members left, a typed failure.
#[test]
fn committee_keygen_sign_verify_and_a_cheater_named() {
    let out = demo_ok("--scheme committee --parties 4 --threshold 3");
    check_table(out.as_str(), &[("Key generation", 4), ("Sign", 3), ("Verify", 4)]);
    assert!(out.contains("Pulsar committee (ML-DSA-44) · 3-of-4"), "{out}");
    assert!(out.contains("every member holds the same key"), "{out}");
    assert!(
        out.contains("verified by 4 with plain ML-DSA-44 mldsa::verify"),
        "{out}"
    );
    assert!(out.contains("no combiner"), "{out}");

    let out = demo_ok("--scheme committee --set 65 --parties 5 --threshold 3 --cheat 2");
    assert!(
        out.contains("party 2 named in Sign: SIGNING_ABORTED") && out.contains("a new session without them"),
        "{out}"
    );
    assert!(
        out.contains("parties 1, 3, 4 each combined and verified the same signature"),
        "{out}"
    );
    assert!(out.contains("verified by 5 with plain ML-DSA-65"), "{out}");

    // Six of six with a cheater: no six honest members remain.
    let o = quasar(&[
        "demo",
        "--scheme",
        "committee",
        "--parties",
        "6",
        "--threshold",
        "6",
        "--cheat",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("TOO_FEW_SIGNERS"), "{}", text(&o.stderr));
}

/// `quasar demo --scheme corona`: the hub deals (each member loads its own package and holds
/// the same group key), K signers sign in two rounds, every member verifies on public inputs;
/// a garbage sender is named by the honest signers and a new session goes without it; a
/// wrong response ends the session without a signature, nobody named, exit status 1.
#[test]
fn corona_dealt_key_signed_by_any_k_and_cheaters() {
    let out = demo_ok("--scheme corona --parties 5 --threshold 3 --signers 4");
    check_table(out.as_str(), &[("Key generation", 5), ("Sign", 4), ("Verify", 5)]);
    assert!(
        out.contains("Corona (two-round threshold lattice signature) · 3-of-5 · 4 signers"),
        "{out}"
    );
    assert!(
        out.contains("erased everything and keeps nothing. No DKG is offered"),
        "{out}"
    );
    assert!(
        out.contains("every member loaded its share and holds the same group key"),
        "{out}"
    );
    assert!(out.contains("4 of 5 signers (parties 1-4)"), "{out}");
    assert!(out.contains("verified by 5 with GroupKey::verify"), "{out}");

    let out = demo_ok("--scheme corona --parties 5 --threshold 3 --cheat 2:garbage");
    assert!(
        out.contains("party 2 named in Sign: MISSING_MESSAGE")
            && out.contains("party 2's: MALFORMED_MESSAGE")
            && out.contains("a new session"),
        "{out}"
    );
    assert!(out.contains("3 of 5 signers (parties 1, 3, 4)"), "{out}");
    // Two signers left: each counts its own signature when it verifies (nobody publishes to
    // itself, so one other copy alone is no majority of two).
    let out = demo_ok("--scheme corona --parties 3 --threshold 2 --signers 3 --cheat 1:garbage");
    assert!(out.contains("2 of 3 signers (parties 2, 3)"), "{out}");
    assert!(out.contains("verified by 3 with GroupKey::verify"), "{out}");

    let o = quasar(&[
        "demo",
        "--scheme",
        "corona",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--cheat",
        "2:bad-contribution",
    ]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("ended the session without a signature: UNATTRIBUTABLE_ABORT"),
        "{out}"
    );
    assert!(out.contains("nobody can be named"), "{out}");
    assert!(
        err.contains("UNATTRIBUTABLE_ABORT (corona)") && err.contains("nobody blamed"),
        "{err}"
    );
}

/// `quasar cert build` writes a two-epoch chain; `quasar cert verify` follows it with the
/// light client (the epoch change included), refuses a tampered certificate with its code
/// and exit status 1, and a bad argument with one line and status 2.
#[test]
fn cert_build_then_verify_across_an_epoch_change() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let o = quasar(&[
        "cert",
        "build",
        "--out",
        out,
        "--validators",
        "4",
        "--policy",
        "pq-fast",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for f in [
        "set-0.qvst",
        "set-1.qvst",
        "cert-0-1.qcrt",
        "cert-0-2.qcrt",
        "cert-1-3.qcrt",
    ] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    let path = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let (set0, set1) = (path("set-0.qvst"), path("set-1.qvst"));
    let chain = [
        path("cert-0-1.qcrt"),
        path("cert-0-2.qcrt"),
        path("cert-1-3.qcrt"),
    ];
    let mut args = vec![
        "cert",
        "verify",
        "--set",
        &set0,
        "--next-set",
        &set1,
        "--policy",
        "pq-fast",
    ];
    args.extend(chain.iter().map(String::as_str));
    let o = quasar(&args);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    assert_eq!(stdout.matches("final under pq-fast").count(), 3, "{stdout}");
    assert!(stdout.contains("epoch change to 1"), "{stdout}");
    assert!(stdout.contains("bls        valid"), "{stdout}");

    // The epoch-ending certificate without the next set: refused, naming the flag and file.
    let o = quasar(&["cert", "verify", "--set", &set0, &chain[0], &chain[1]]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("MISSING_NEXT_SET"), "{err}");
    assert!(err.contains("--next-set") && err.contains("set-1.qvst"), "{err}");

    // The last byte of the first certificate (inside the Pulsar signature) flipped.
    let mut bad = std::fs::read(&chain[0]).unwrap();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let bad_path = path("bad.qcrt");
    std::fs::write(&bad_path, &bad).unwrap();
    let o = quasar(&["cert", "verify", "--set", &set0, &bad_path]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("refused: INVALID_SIGNATURE"), "{err}");
    assert!(
        text(&o.stdout).contains("pulsar     invalid"),
        "{}",
        text(&o.stdout)
    );
    // An epoch-1 certificate under the epoch-0 set: the client must see the change first.
    let o = quasar(&["cert", "verify", "--set", &set0, &chain[2]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("SKIPPED_EPOCH"), "{}", text(&o.stderr));

    for args in [
        vec!["cert"],
        vec!["cert", "sign"],
        vec!["cert", "verify", "--set", &set0],
        vec![
            "cert",
            "verify",
            "--set",
            &set0,
            "--policy",
            "pq-medium",
            &chain[0],
        ],
        vec!["cert", "verify", "--set", "/nonexistent/set.qvst", &chain[0]],
        vec!["cert", "build"],
        vec!["cert", "build", "--out", out, "--validators", "0"],
        vec!["cert", "verify", "--set", &chain[0], &chain[0]],
    ] {
        let o = quasar(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("quasar: "), "{args:?}: {err}");
    }
}

/// `quasar cert build --pulsar committee`: the Pulsar leg signed by a committee (threshold
/// ML-DSA, no machine holds the key) of the first six of seven validators; `cert verify`
/// follows the chain with no option for it (the leg is plain ML-DSA), each committee change a
/// new key era; the set files carry the committee's key, not the custody group's.
#[test]
fn cert_build_with_a_committee_signing_the_pulsar_leg() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    let (committee, custody) = (dir("committee"), dir("custody"));
    let build = |out: &str, pulsar: &str| {
        let o = quasar(&[
            "cert",
            "build",
            "--out",
            out,
            "--validators",
            "7",
            "--pulsar",
            pulsar,
            "--pulsar-set",
            "44",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    };
    build(&committee, "committee");
    build(&custody, "custody");
    let o = quasar(&["cert", "verify", &committee]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert_eq!(out.matches("  accepted:").count(), 4, "{out}");
    assert_eq!(out.matches("pulsar     valid").count(), 4, "{out}");
    let set = |d: &str| std::fs::read(format!("{d}/set-0.qvst")).unwrap();
    assert_ne!(
        set(&committee),
        set(&custody),
        "a committee key is not the custody key"
    );

    // A flipped byte in the committee's signature is refused.
    let first = format!("{committee}/cert-0-1.qcrt");
    let mut bad = std::fs::read(&first).unwrap();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&first, &bad).unwrap();
    let o = quasar(&["cert", "verify", &committee]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("INVALID_SIGNATURE"),
        "{}",
        text(&o.stderr)
    );

    for args in [
        vec!["cert", "build", "--out", &custody, "--pulsar", "dealer"],
        vec!["cert", "build", "--out", &custody, "--pulsar-set", "128"],
    ] {
        let o = quasar(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// `quasar cert build --policy pq-strict`: a Corona group (the set's first validators, a key
/// the devnet deals) signs the Corona leg; `cert verify` follows the chain under pq-strict, the
/// group dealt anew in the next key era at the epoch change; a flipped byte in the leg is
/// refused naming it, and the same chain still verifies under pq-fast (the leg not required).
#[test]
fn cert_build_with_the_corona_leg_under_pq_strict() {
    let tmp = tempfile::tempdir().unwrap();
    let chain = tmp.path().join("strict").to_str().unwrap().to_string();
    let o = quasar(&[
        "cert",
        "build",
        "--out",
        &chain,
        "--validators",
        "4",
        "--policy",
        "pq-strict",
        "--pulsar-set",
        "44",
        "--blocks",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = quasar(&["cert", "verify", &chain, "--policy", "pq-strict"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert_eq!(out.matches("  accepted:").count(), 2, "{out}");
    assert_eq!(out.matches("corona     valid").count(), 2, "{out}");
    let set = |e: u32| std::fs::read(format!("{chain}/set-{e}.qvst")).unwrap();
    assert_eq!(
        u16::from_be_bytes([set(0)[4], set(0)[5]]),
        2,
        "a set with a Corona key"
    );

    // The Corona leg is the certificate's last but the ML-DSA set's (absent here): its last
    // byte is the certificate's.
    let first = format!("{chain}/cert-0-1.qcrt");
    let good = std::fs::read(&first).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&first, &bad).unwrap();
    let o = quasar(&["cert", "verify", &chain, "--policy", "pq-strict"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("INVALID_SIGNATURE") && err.contains("corona"),
        "{err}"
    );
    let o = quasar(&["cert", "verify", &chain, "--policy", "pq-fast"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// `quasar cert verify DIR` finds what `cert build --out DIR` wrote: the first set trusted,
/// the certificates by epoch and height (numerically: height 10 after 9), each epoch's next
/// set; a refusal names the flag or the file it wants.
#[test]
fn cert_verify_dir_follows_what_cert_build_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    let chain = dir("chain");
    let o = quasar(&["cert", "build", "--out", &chain, "--blocks", "6"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = quasar(&["cert", "verify", &chain]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    let accepted: Vec<&str> = out.lines().filter(|l| l.starts_with("  accepted:")).collect();
    assert_eq!(accepted.len(), 12, "{out}");
    for (i, line) in accepted.iter().enumerate() {
        assert!(line.contains(&format!("height {}", i + 1)), "{line}");
    }
    assert!(out.contains("trusting ") && out.contains("set-0.qvst"), "{out}");
    assert!(out.contains("epoch change to 2"), "{out}");

    // Trusting epoch 1's set: the epoch-0 certificates are skipped.
    let set1 = format!("{chain}/set-1.qvst");
    let o = quasar(&["cert", "verify", "--set", &set1, &chain]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert_eq!(out.matches("  accepted:").count(), 6, "{out}");

    // Refusals name what they want.
    let partial = dir("partial");
    std::fs::create_dir(&partial).unwrap();
    for entry in std::fs::read_dir(&chain).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name != "set-2.qvst" {
            std::fs::copy(format!("{chain}/{name}"), format!("{partial}/{name}")).unwrap();
        }
    }
    let o = quasar(&["cert", "verify", &partial]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("MISSING_NEXT_SET"), "{err}");
    assert!(err.contains(&format!("{partial}/set-2.qvst")), "{err}");

    let pq_off = dir("pq-off");
    assert!(quasar(&["cert", "build", "--out", &pq_off, "--policy", "pq-off"])
        .status
        .success());
    let o = quasar(&["cert", "verify", &pq_off]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--policy"), "{}", text(&o.stderr));
    let o = quasar(&["cert", "verify", &pq_off, "--policy", "pq-off"]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    let empty = dir("empty");
    std::fs::create_dir(&empty).unwrap();
    let sets_only = dir("sets-only");
    std::fs::create_dir(&sets_only).unwrap();
    std::fs::copy(&set1, format!("{sets_only}/set-1.qvst")).unwrap();
    let certs_only = dir("certs-only");
    std::fs::create_dir(&certs_only).unwrap();
    std::fs::copy(
        format!("{chain}/cert-0-1.qcrt"),
        format!("{certs_only}/cert-0-1.qcrt"),
    )
    .unwrap();
    let missing = dir("missing");
    for (args, want) in [
        (vec!["cert", "verify", &chain, "--next-set", &set1], "--next-set"),
        (vec!["cert", "verify", &empty], "cert-EPOCH-HEIGHT.qcrt"),
        (vec!["cert", "verify", &sets_only], "cert-EPOCH-HEIGHT.qcrt"),
        (vec!["cert", "verify", &certs_only], "--set FILE"),
        (vec!["cert", "verify", &missing], "cannot read"),
        (vec!["cert", "verify", &chain, &set1], "one chain directory"),
        (vec!["cert", "verify"], "cert verify DIR"),
    ] {
        let o = quasar(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
