//! `quasar cert build|verify`: finality certificates over files.
//!
//! `build` runs a deterministic devnet (`quasar_pq::cert::devnet`: the validators' keys from
//! the seed, the Pulsar custody group through the library's parties on the in-process
//! simulator) and writes its validator sets and certificates; `verify` follows them with the
//! library's light client and prints each report leg by leg.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use quasar_pq::cert::{LightClient, Policy, ValidatorSet, ValidatorSetView};

/// The usage text of `quasar cert --help`.
pub(crate) const USAGE: &str = "\
quasar cert — Quasar finality certificates over files

USAGE:
    quasar cert build --out DIR [--validators N] [--policy NAME] [--epochs E]
                      [--blocks B] [--magnetar 192s|192f|256s] [--seed HEX]
    quasar cert verify --set FILE [--next-set FILE]... [--policy NAME] [--full] CERT...

build: a deterministic devnet of N validators (default 4; BLS keys, ML-DSA-44 keys and a
Pulsar ML-DSA-65 custody group of threshold floor(2N/3) + 1, and Magnetar keys when the
policy needs them) signs B blocks per epoch (default 2) for E epochs (default 2): the
first floor(2N/3) + 1 validators sign every leg the policy needs. The last block of each
epoch commits to the next set (the first validator leaves, one joins; the Pulsar group is
reshared to it under the same key). Writes DIR/set-EPOCH.qvst and
DIR/cert-EPOCH-HEIGHT.qcrt.

verify: a light client trusting --set follows the certificates in order under --policy
(default pq-fast); a certificate that ends an epoch takes the --next-set file of the next
epoch. Prints each report; --full checks every leg even after a failure.

POLICIES: pq-off, pq-fast, pq-heavy, strict-pq-fast, strict-pq-heavy

EXIT STATUS:
    0 every certificate accepted, 1 a certificate refused (its reason is printed),
    2 bad arguments or unreadable files.
";

/// One line for stderr, and the exit code.
pub(crate) struct Failure(pub String, pub u8);

fn usage_error(msg: impl Into<String>) -> Failure {
    Failure(msg.into(), 2)
}

/// Flags and positional arguments: every flag takes one value except `--full`.
struct Parsed {
    flags: Vec<(String, String)>,
    full: bool,
    positional: Vec<String>,
}

fn parse(args: &[String], known: &[&str], repeatable: &[&str]) -> Result<Parsed, Failure> {
    let mut p = Parsed {
        flags: Vec::new(),
        full: false,
        positional: Vec::new(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--full" && known.contains(&"--full") {
            p.full = true;
            continue;
        }
        if !arg.starts_with('-') {
            p.positional.push(arg.clone());
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        if !known.contains(&flag.as_str()) {
            return Err(usage_error(format!(
                "unknown flag '{flag}' (try 'quasar cert --help')"
            )));
        }
        let value = match inline.or_else(|| rest.next().filter(|v| !v.starts_with("--")).cloned()) {
            Some(v) if !v.is_empty() => v,
            _ => return Err(usage_error(format!("{flag} needs a value"))),
        };
        if !repeatable.contains(&flag.as_str()) && p.flags.iter().any(|(f, _)| *f == flag) {
            return Err(usage_error(format!("{flag} given twice")));
        }
        p.flags.push((flag, value));
    }
    Ok(p)
}

impl Parsed {
    fn get(&self, flag: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }

    fn all(&self, flag: &str) -> Vec<&str> {
        self.flags
            .iter()
            .filter(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    fn number(&self, flag: &str, default: u64, lo: u64, hi: u64) -> Result<u64, Failure> {
        match self.get(flag) {
            None => Ok(default),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(usage_error(format!(
                    "{flag} must be a number between {lo} and {hi}, got '{v}'"
                ))),
            },
        }
    }

    fn policy(&self) -> Result<Policy, Failure> {
        let name = self.get("--policy").unwrap_or("pq-fast");
        Policy::from_name(name).map_err(|_| {
            usage_error(format!(
                "unknown policy '{name}' (expected pq-off, pq-fast, pq-heavy, strict-pq-fast or strict-pq-heavy)"
            ))
        })
    }
}

fn read(path: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| usage_error(format!("cannot read {path}: {e}")))
}

/// Runs `quasar cert …` (the arguments after `cert`).
pub(crate) fn run(args: &[String]) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        None => Err(usage_error(
            "cert needs build or verify (try 'quasar cert --help')",
        )),
        Some("-h" | "--help" | "help") => {
            say_raw!("{USAGE}");
            Ok(())
        }
        Some("build") => build(&args[1..]),
        Some("verify") => verify(&args[1..]),
        Some(other) => Err(usage_error(format!(
            "unknown cert command '{other}' (expected build or verify)"
        ))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg, code)) => {
            eprintln!("quasar: {msg}");
            ExitCode::from(code)
        }
    }
}

fn verify(args: &[String]) -> Result<(), Failure> {
    let p = parse(
        args,
        &["--set", "--next-set", "--policy", "--full"],
        &["--next-set"],
    )?;
    let policy = p.policy()?;
    let Some(set_path) = p.get("--set") else {
        return Err(usage_error(
            "cert verify needs --set FILE (the trusted validator set)",
        ));
    };
    if p.positional.is_empty() {
        return Err(usage_error("cert verify needs at least one certificate file"));
    }
    let set = ValidatorSet::from_bytes(&read(set_path)?)
        .map_err(|e| usage_error(format!("{set_path}: not a validator set: {}: {e}", e.code())))?;
    let next_sets: Vec<(String, Vec<u8>)> = p
        .all("--next-set")
        .into_iter()
        .map(|f| Ok((f.to_string(), read(f)?)))
        .collect::<Result<_, Failure>>()?;
    let options = quasar_pq::cert::Options {
        full: p.full,
        ..Default::default()
    };
    let mut client = LightClient::new(set, policy)
        .map_err(|e| usage_error(format!("{set_path}: {}: {e}", e.code())))?
        .with_options(options);
    say!(
        "light client: epoch {}, {} validators, total weight {}, policy {policy}",
        client.epoch(),
        client.trusted().set().len(),
        client.total_weight()
    );
    for path in &p.positional {
        let cert = read(path)?;
        let ends_epoch = quasar_pq::cert::CertificateView::parse(&cert)
            .map(|v| v.header().ends_epoch())
            .unwrap_or(false);
        let want = client.epoch() + 1;
        let next = next_sets
            .iter()
            .find(|(_, b)| ValidatorSetView::parse(b).is_ok_and(|v| v.epoch() == want))
            .filter(|_| ends_epoch);
        say!("{path}:");
        match client.update(&cert, next.map(|(_, b)| &b[..])) {
            Ok(a) => {
                say!("{}", indent(&a.report.to_string()));
                match a.new_epoch {
                    Some(e) => say!(
                        "  accepted: height {}; epoch change to {e} ({} validators, set {})",
                        a.header.height,
                        client.trusted().set().len(),
                        next.map_or("", |(f, _)| f.as_str())
                    ),
                    None => say!("  accepted: epoch {} height {}", a.header.epoch, a.header.height),
                }
            }
            Err(refused) => {
                if let Some(r) = &refused.report {
                    say!("{}", indent(&r.to_string()));
                }
                // The library names the fault; the CLI names the flag and the file that fix it.
                let hint = match refused.error {
                    quasar_pq::cert::Error::MissingNextSet => format!(
                        " (pass the epoch-{want} validator set with --next-set FILE; `cert build` writes it as set-{want}.qvst)"
                    ),
                    _ => String::new(),
                };
                return Err(Failure(format!("{path} refused: {refused}{hint}"), 1));
            }
        }
    }
    Ok(())
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn build(args: &[String]) -> Result<(), Failure> {
    use quasar_pq::cert::devnet::{two_thirds_plus_one, Devnet, DevnetConfig, Signers};
    use quasar_pq::cert::LegKind;

    let p = parse(
        args,
        &[
            "--out",
            "--validators",
            "--policy",
            "--epochs",
            "--blocks",
            "--magnetar",
            "--seed",
        ],
        &[],
    )?;
    if let Some(extra) = p.positional.first() {
        return Err(usage_error(format!(
            "unexpected argument '{extra}' (try 'quasar cert --help')"
        )));
    }
    let Some(out) = p.get("--out") else {
        return Err(usage_error("cert build needs --out DIR"));
    };
    let policy = p.policy()?;
    let n = usize::try_from(p.number("--validators", 4, 1, 128)?).unwrap_or(128);
    let epochs = p.number("--epochs", 2, 1, 16)?;
    let blocks = p.number("--blocks", 2, 1, 64)?;
    let magnetar = match p.get("--magnetar") {
        None => quasar_pq::magnetar::Mode::Shake192f,
        Some("192s") => quasar_pq::magnetar::Mode::Shake192s,
        Some("192f") => quasar_pq::magnetar::Mode::Shake192f,
        Some("256s") => quasar_pq::magnetar::Mode::Shake256s,
        Some(other) => {
            return Err(usage_error(format!(
                "unknown Magnetar set '{other}' (expected 192s, 192f or 256s)"
            )))
        }
    };
    let mut seed = [0u8; 32];
    if let Some(s) = p.get("--seed") {
        let digits = s.strip_prefix("0x").unwrap_or(s);
        let bytes: Option<Vec<u8>> = (0..digits.len())
            .step_by(2)
            .map(|i| digits.get(i..i + 2).and_then(|d| u8::from_str_radix(d, 16).ok()))
            .collect();
        match bytes {
            Some(b) if !b.is_empty() && b.len() <= 32 && digits.len() % 2 == 0 => {
                seed[..b.len()].copy_from_slice(&b)
            }
            _ => {
                return Err(usage_error(format!(
                    "--seed must be 1 to 32 bytes in hex, got '{s}'"
                )))
            }
        }
    }
    let needs = |k| policy.requires(k);
    let config = DevnetConfig {
        chain_id: 1,
        seed,
        bls: true,
        mldsa: Some(quasar_pq::mldsa::Mode::MlDsa44),
        magnetar: needs(LegKind::Magnetar).then_some(magnetar),
        pulsar: Some(quasar_pq::mldsa::Mode::MlDsa65),
    };
    let dir = PathBuf::from(out);
    std::fs::create_dir_all(&dir).map_err(|e| usage_error(format!("cannot create {out}: {e}")))?;
    let write = |name: String, bytes: &[u8]| -> Result<(), Failure> {
        let path = dir.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| usage_error(format!("cannot write {}: {e}", path.display())))?;
        say!("wrote {} ({} bytes)", display(&path), bytes.len());
        Ok(())
    };
    let failed = |e: quasar_pq::Error| Failure(format!("devnet: {}: {e}", e.code()), 1);
    let mut net = Devnet::new(config, &vec![1; n]).map_err(failed)?;
    write("set-0.qvst".into(), net.set().as_bytes())?;
    let mut height = 0u64;
    for _ in 0..epochs {
        let size = net.set().len();
        let k = two_thirds_plus_one(size);
        let mut signers = Signers::first(k, size);
        for (kind, list) in [
            (LegKind::Bls, &mut signers.bls),
            (LegKind::Pulsar, &mut signers.pulsar),
            (LegKind::Magnetar, &mut signers.magnetar),
            (LegKind::MlDsaSet, &mut signers.mldsa),
        ] {
            if !needs(kind) {
                list.clear();
            }
        }
        let epoch = net.epoch();
        for b in 0..blocks {
            height += 1;
            let hash = block_hash(&seed, height);
            if b + 1 < blocks {
                let cert = net.certificate(height, 0, hash, &signers).map_err(failed)?;
                write(format!("cert-{epoch}-{height}.qcrt"), &cert)?;
            } else {
                let (cert, next) = net
                    .end_epoch(height, 0, hash, &signers, &[0], &[1], false)
                    .map_err(failed)?;
                write(format!("cert-{epoch}-{height}.qcrt"), &cert)?;
                write(format!("set-{}.qvst", epoch + 1), next.as_bytes())?;
            }
        }
    }
    Ok(())
}

fn block_hash(seed: &[u8; 32], height: u64) -> [u8; 32] {
    let mut t = quasar_pq::hash::Transcript::new(quasar_pq::hash::tags::SIM_RNG);
    t.append(b"devnet block")
        .append(seed)
        .append(&height.to_be_bytes());
    t.finalize()
}

fn display(p: &Path) -> String {
    p.display().to_string()
}
