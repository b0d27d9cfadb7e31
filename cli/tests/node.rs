//! `quasar node` across separate processes on loopback: each test writes a roster, starts
//! one `quasar node serve` process per party and runs the conductor (`quasar node run`).
//! No verdict depends on wall-clock time: a killed party or a missing process must end the
//! run by the nodes' own bounded waits (the `--timeout` given), with a typed error; only a
//! run that never ends fails on time ([`HANG`]). Every serving process is killed at the end,
//! whatever happened.

#![allow(clippy::unwrap_used)] // test helpers

use core::time::Duration;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Instant;

fn quasar() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
}

/// A base port of its own for each test of this process (the tests run in parallel).
fn port(test: u16) -> u16 {
    let pid = u16::try_from(std::process::id() % 200).unwrap_or(0);
    20000 + pid * 200 + test * 12
}

/// The serving processes; killed when dropped.
struct Cluster(Vec<Child>);

impl Drop for Cluster {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn keys(dir: &Path, parties: u16, base: u16) {
    let out = quasar()
        .args(["node", "keys", "--dir"])
        .arg(dir)
        .args(["--parties", &parties.to_string(), "--port", &base.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Starts processes `1..=n`, each with `extra(i)` flags.
fn serve(dir: &Path, n: u16, timeout: u32, extra: impl Fn(u16) -> Vec<String>) -> Cluster {
    let mut children = Vec::new();
    for i in 1..=n {
        let child = quasar()
            .args(["node", "serve", "--once", "--dir"])
            .arg(dir)
            .args(["--process", &i.to_string(), "--timeout", &timeout.to_string()])
            .args(extra(i))
            // The passphrase of `--store` (ignored without it).
            .env("QUASAR_NODE_PASSPHRASE", "test passphrase")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        children.push(child);
    }
    Cluster(children)
}

/// `flags` for process `who` only (a drill), for [`serve`].
fn only(who: u16, flags: &[&str]) -> impl Fn(u16) -> Vec<String> {
    let flags: Vec<String> = flags.iter().map(|f| (*f).to_string()).collect();
    move |i| if i == who { flags.clone() } else { Vec::new() }
}

/// How long a conductor may run before the test calls it hung. A guard against a hang, not a
/// speed verdict: every run here ends by itself in seconds (each wait is bounded by the
/// `--timeout` it is given), so only a run that never ends trips it, however busy the machine.
const HANG: Duration = Duration::from_secs(600);

/// Runs the conductor with the demo options `demo`, killed (and the test failed) if it hangs.
fn conduct(dir: &Path, timeout: u32, demo: &[&str]) -> Output {
    let start = Instant::now();
    let mut child = quasar()
        .args(["node", "run", "--dir"])
        .arg(dir)
        .args(["--timeout", &timeout.to_string()])
        .args(demo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("the conductor hung (still running after {HANG:?})");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn pulsar_3_of_5_signs_reshares_and_activates_across_six_processes() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 5, port(0));
    let _cluster = serve(dir.path(), 5, 10, |_| Vec::new());
    let demo = [
        "--scheme",
        "pulsar",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--reshare",
        "5:3",
    ];
    let out = conduct(dir.path(), 10, &demo);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("6 processes on libp2p"), "{t}");
    assert!(
        t.contains("\"quasar demo: block 1\" verified by 5 with plain ML-DSA-65"),
        "{t}"
    );
    assert!(t.contains("verified by 5 with plain ML-DSA-65"), "{t}");
    assert!(
        t.contains("activation certificate: proofs of possession of parties 1-5"),
        "{t}"
    );
    assert!(t.contains("byte-identical"), "{t}");
}

#[test]
fn lens_2_of_3_signs_then_reshares_to_3_of_5_across_processes() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 5, port(1));
    let _cluster = serve(dir.path(), 5, 10, |_| Vec::new());
    let demo = [
        "--scheme",
        "lens",
        "--curve",
        "ed25519",
        "--parties",
        "3",
        "--threshold",
        "2",
        "--reshare",
        "5:3",
    ];
    let out = conduct(dir.path(), 10, &demo);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("verified by 3 with"), "{t}");
    assert!(t.contains("2-of-3 → 3-of-5"), "{t}");
    assert!(t.contains("byte-identical"), "{t}");
}

#[test]
fn a_party_killed_mid_dkg_ends_in_a_typed_failure_within_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 5, port(2));
    // Party 3 dies when the DKG's first step command reaches it (after its round-1 messages).
    let _cluster = serve(dir.path(), 5, 3, only(3, &["--crash-at", "5"]));
    let demo = ["--scheme", "pulsar", "--parties", "5", "--threshold", "3"];
    let out = conduct(dir.path(), 3, &demo);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    // The key ceremony needed party 3's share: the library's typed failure, nobody blamed
    // (a missing message proves nothing).
    assert!(
        t.contains("NOT_ENOUGH_VALID_SHARES") || t.contains("MISSING_MESSAGE"),
        "{t}"
    );
}

#[test]
fn committee_and_corona_sign_across_processes() {
    for (i, scheme) in ["committee", "corona"].into_iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        keys(dir.path(), 4, port(3 + u16::try_from(i).unwrap()));
        let _cluster = serve(dir.path(), 4, 10, |_| Vec::new());
        let demo = ["--scheme", scheme, "--parties", "4", "--threshold", "3"];
        let out = conduct(dir.path(), 10, &demo);
        let t = text(&out);
        assert!(out.status.success(), "{scheme}: {t}");
        assert!(t.contains("verified by 4 with"), "{scheme}: {t}");
    }
}

#[test]
fn a_process_missing_from_the_run_is_reported_not_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 3, port(5));
    // Only processes 1 and 2 of 3 are up.
    let _cluster = serve(dir.path(), 2, 2, |_| Vec::new());
    let demo = ["--scheme", "lens", "--parties", "3", "--threshold", "2"];
    let out = conduct(dir.path(), 2, &demo);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("TIMEOUT") && t.contains("process(es) 3 did not answer"),
        "{t}"
    );
}

#[test]
fn an_equivocating_broadcaster_is_named_by_every_honest_node_and_the_run_goes_on_without_it() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 5, port(6));
    // Process 5's router sends different (validly signed) broadcasts to different processes.
    let _cluster = serve(dir.path(), 5, 5, only(5, &["--equivocate"]));
    let demo = ["--scheme", "pulsar", "--parties", "5", "--threshold", "3"];
    let out = conduct(dir.path(), 5, &demo);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("party 5 named in DKG: EQUIVOCATION")
            && t.contains("by the combiner, party 1, party 2, party 3, party 4"),
        "{t}"
    );
    assert!(
        t.contains("key certified by proofs of possession of parties 1-4"),
        "{t}"
    );
    assert!(t.contains("verified by 4 with plain ML-DSA-65"), "{t}");
}

#[test]
fn an_equivocator_that_stalls_a_committee_key_generation_is_named_by_its_victims() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 3, port(10));
    let _cluster = serve(dir.path(), 3, 5, only(1, &["--equivocate"]));
    let demo = [
        "--scheme",
        "committee",
        "--set",
        "44",
        "--parties",
        "3",
        "--threshold",
        "3",
    ];
    let out = conduct(dir.path(), 5, &demo);
    let t = text(&out);
    // Not robust: the key generation cannot finish without party 1's broadcasts, which both
    // honest members dropped after the echo; the failure is theirs and names party 1.
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("party 1 drops out of Key generation"), "{t}");
    assert!(
        t.contains("it dropped party 1's: EQUIVOCATION") && t.contains("culprits: 1"),
        "{t}"
    );
}

#[test]
fn committee_and_corona_members_resume_from_their_stores_under_the_same_key() {
    for (i, scheme) in ["committee", "corona"].into_iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        keys(dir.path(), 4, port(14 + u16::try_from(i).unwrap()));
        let store = |i: u16| {
            vec![
                "--store".to_string(),
                dir.path().join(format!("store-{i}")).display().to_string(),
            ]
        };
        let demo = [
            "--scheme",
            scheme,
            "--set",
            "44",
            "--parties",
            "4",
            "--threshold",
            "3",
        ];
        let demo = if scheme == "corona" {
            [&demo[..2], &demo[4..]].concat()
        } else {
            demo.to_vec()
        };
        // First run: the key generation (committee) or the deal (Corona) keeps every share.
        let first = {
            let _cluster = serve(dir.path(), 4, 10, store);
            let out = conduct(dir.path(), 10, &demo);
            let t = text(&out);
            assert!(out.status.success(), "{scheme}: {t}");
            fingerprint(&t)
        };
        // New processes on the same stores: no key generation, the same key signs.
        let _cluster = serve(dir.path(), 4, 10, store);
        let out = conduct(dir.path(), 10, &[&demo[..], &["--resume"]].concat());
        let t = text(&out);
        assert!(out.status.success(), "{scheme}: {t}");
        assert!(!t.contains("Key generation"), "{scheme}: {t}");
        assert!(t.contains("verified by 4 with"), "{scheme}: {t}");
        assert_eq!(fingerprint(&t), first, "{scheme}: {t}");
    }
}

/// A run of `parties` processes in which the last one plays the drill `flags`, every wait
/// bounded by `timeout` seconds; returns whether it succeeded and its output.
fn drill(test: u16, parties: u16, timeout: u32, flags: &[&str], demo: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), parties, port(test));
    let _cluster = serve(dir.path(), parties, timeout, only(parties, flags));
    let n = parties.to_string();
    let mut args = demo.to_vec();
    args.extend(["--parties", &n]);
    let out = conduct(dir.path(), timeout, &args);
    (out.status.success(), text(&out))
}

const PULSAR_44_OF_3: [&str; 6] = ["--scheme", "pulsar", "--set", "44", "--threshold", "3"];

#[test]
fn a_partition_shorter_than_a_round_heals_and_nobody_drops_out() {
    // Process 5 is cut off for 2 s in the middle of the DKG; its peers' retries and its own
    // queued messages cross once the link heals, inside the 8 s round timeout.
    let (ok, t) = drill(11, 5, 8, &["--partition", "6:2"], &PULSAR_44_OF_3);
    assert!(ok, "{t}");
    assert!(!t.contains("drops out") && !t.contains("went silent"), "{t}");
    assert!(
        t.contains("key certified by proofs of possession of parties 1-5"),
        "{t}"
    );
    assert!(t.contains("verified by 5 with plain ML-DSA-44"), "{t}");
}

#[test]
fn a_node_cut_off_past_the_deadline_goes_silent_and_the_others_finish_without_it() {
    // Cut off for 12 s from the DKG's sixth command: longer than the conductor waits (3 × 3 s).
    let (ok, t) = drill(12, 5, 3, &["--partition", "6:12"], &PULSAR_44_OF_3);
    assert!(ok, "{t}");
    assert!(t.contains("party 5 went silent"), "{t}");
    assert!(t.contains("party 5 drops out of DKG (TIMEOUT"), "{t}");
    assert!(
        t.contains("key certified by proofs of possession of parties 1-4"),
        "{t}"
    );
    assert!(t.contains("verified by 4 with plain ML-DSA-44"), "{t}");
}

#[test]
fn a_node_slower_than_the_deadline_drops_out_of_every_path_and_the_quorum_signs() {
    // From its sixth command on, everything process 3 sends waits 8 s: past the conductor's
    // 3 × 2 s. Its late reports and frames are stale when they arrive, and dropped.
    let demo = ["--scheme", "lens", "--threshold", "2"];
    let (ok, t) = drill(13, 3, 2, &["--slow", "6:8000"], &demo);
    assert!(ok, "{t}");
    assert!(t.contains("party 3 went silent"), "{t}");
    assert!(t.contains("signed with the contributions of parties 1, 2"), "{t}");
    assert!(
        t.contains("verified by 2 with the Ed25519 (RFC 8032) verifier"),
        "{t}"
    );
}

/// Runs `quasar cert verify DIR --policy POLICY` (a light client that trusts DIR's set-0).
fn follow(dir: &Path, policy: &str) -> String {
    let out = quasar()
        .args(["cert", "verify"])
        .arg(dir)
        .args(["--policy", policy])
        .output()
        .unwrap();
    let t = text(&out);
    assert!(out.status.success(), "{policy}: {t}");
    t
}

/// A devnet of 5 processes, 4 of them its group (`scheme`, 3 of 4, ML-DSA-44) and node 5
/// only a validator, 2 blocks per epoch, the Corona leg; party 2's process plays the run's
/// cheat (a bad threshold contribution and a wrong BLS block signature). Returns the
/// output and the chain's directory (in the kept temporary directory).
fn devnet(test: u16, scheme: &[&str]) -> (String, std::path::PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 5, port(test));
    let _cluster = serve(dir.path(), 5, 10, only(2, &["--misbehave"]));
    let chain = dir.path().join("chain");
    let mut demo = vec![
        "--set",
        "44",
        "--parties",
        "4",
        "--threshold",
        "3",
        "--cheat",
        "2",
    ];
    demo.extend(["--blocks", "2", "--validators", "5", "--corona"]);
    demo.extend(["--chain", chain.to_str().unwrap()]);
    demo.extend(scheme);
    let out = conduct(dir.path(), 10, &demo);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    (t, chain, dir)
}

#[test]
fn a_devnet_across_processes_certifies_blocks_on_every_leg_through_an_epoch_change() {
    // Node 5 joins the group in the reshare; nodes 1-5 hold a Corona key (4 of 5) the
    // aggregator deals, and every block carries its leg, signed by the four not named.
    let (t, chain, _dir) = devnet(7, &["--scheme", "pulsar", "--reshare", "4:3"]);
    assert!(
        t.contains("party 2 named in Blocks, epoch 0: INVALID_BLS_SIGNATURE"),
        "{t}"
    );
    assert!(t.contains("4-of-5 Corona key dealt by the aggregator"), "{t}");
    assert!(
        t.contains("set-0.qvst: validators 1-5 with the Pulsar group key and the Corona one"),
        "{t}"
    );
    assert!(t.contains("Corona by parties 1, 3-5"), "{t}");
    assert!(
        t.contains("BLS, ML-DSA and Magnetar of 4 of 5 validators, Pulsar by parties"),
        "{t}"
    );
    assert!(t.contains("set-1.qvst: validators 1, 3-5"), "{t}");
    assert!(t.contains("BLS, ML-DSA and Magnetar of 4 of 4 validators"), "{t}");
    assert!(t.contains("committing to the next set"), "{t}");
    assert!(t.contains("block 4 in"), "{t}");
    // Independent light clients follow the chain the aggregator wrote, across the epoch
    // change, under policies that together check every leg.
    for policy in ["pq-heavy", "strict-pq-fast", "pq-strict", "strict-pq-strict"] {
        let report = follow(&chain, policy);
        assert!(
            report.contains("accepted: epoch 1 height 4"),
            "{policy}: {report}"
        );
    }
}

/// A committee signs the devnet's Pulsar leg across processes: no combiner, its three
/// signers hand the aggregator the signature they combined. Party 2's broken reveal is
/// named, and a new session goes without it.
#[test]
fn a_committee_devnet_across_processes_signs_the_pulsar_leg_with_no_combiner() {
    let (t, chain, _dir) = devnet(16, &["--scheme", "committee"]);
    assert!(
        t.contains("party 2 named in Blocks, epoch 0: SIGNING_ABORTED"),
        "{t}"
    );
    assert!(
        t.contains("party 2 named in Blocks, epoch 0: INVALID_BLS_SIGNATURE"),
        "{t}"
    );
    assert!(
        t.contains("block 2 in") && t.contains("BLS, ML-DSA and Magnetar of 4 of 5 validators, Pulsar by parties 1, 3, 4, Corona by parties 1, 3-5"),
        "{t}"
    );
    for policy in ["pq-heavy", "strict-pq-strict"] {
        let report = follow(&chain, policy);
        assert!(
            report.contains("accepted: epoch 0 height 2"),
            "{policy}: {report}"
        );
    }
}

/// The group key fingerprint a run printed last (after a reshare: the key after it).
fn fingerprint(t: &str) -> String {
    let line = t.lines().find(|l| l.contains("SHA3-256 fingerprint:")).unwrap();
    let hex = |w: &str| w.len() == 16 && w.bytes().all(|b| b.is_ascii_hexdigit());
    line.split([' ', ',']).rev().find(|w| hex(w)).unwrap().to_string()
}

#[test]
fn restarted_nodes_resume_from_their_stores_and_sign_under_the_same_key() {
    let dir = tempfile::tempdir().unwrap();
    keys(dir.path(), 5, port(8));
    let store = |i: u16| {
        vec![
            "--store".to_string(),
            dir.path().join(format!("store-{i}")).display().to_string(),
        ]
    };
    let demo = ["--scheme", "pulsar", "--set", "44", "--threshold", "3"];
    // First run: the key ceremony of parties 1-4, then a reshare to 1-5; every keyring goes
    // to its process's store, and the activation erases generation 0 there too.
    let first = {
        let _cluster = serve(dir.path(), 5, 10, store);
        let out = conduct(
            dir.path(),
            10,
            &[&demo[..], &["--parties", "4", "--reshare", "5:3"]].concat(),
        );
        let t = text(&out);
        assert!(out.status.success(), "{t}");
        fingerprint(&t)
    };
    for party in [1, 5] {
        let kept = dir.path().join(format!("store-{party}/party-{party}"));
        let files: Vec<String> = std::fs::read_dir(&kept)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            files.iter().any(|f| f.contains("00000000000000000001")),
            "{files:?}"
        );
        assert!(
            !files.iter().any(|f| f.contains("00000000000000000000")),
            "{files:?}"
        );
    }
    // New processes (--once: the first ones have exited), the same stores: no setup, and the
    // new generation signs under the group key of the first run.
    let _cluster = serve(dir.path(), 5, 10, store);
    let out = conduct(
        dir.path(),
        10,
        &[&demo[..], &["--parties", "5", "--resume"]].concat(),
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(!t.contains("DKG"), "{t}");
    assert!(t.contains("verified by 5 with plain ML-DSA-44"), "{t}");
    assert_eq!(fingerprint(&t), first, "{t}");
    // Without stores a resumed run has nothing to sign with: a typed failure, not a hang (the
    // parties fail with no share to publish; the combiner, first in the report, with no
    // record from them).
    let bare = tempfile::tempdir().unwrap();
    keys(bare.path(), 4, port(9));
    let _bare = serve(bare.path(), 4, 3, |_| Vec::new());
    let out = conduct(
        bare.path(),
        3,
        &[&demo[..], &["--parties", "4", "--resume"]].concat(),
    );
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("CONFLICTING_PUBLIC_DATA") || t.contains("no key share"),
        "{t}"
    );
}
