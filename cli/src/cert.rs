//! `quasar cert build|verify`: finality certificates over files.
//!
//! `build` runs a deterministic devnet (`quasar_pq::cert::devnet`: the validators' keys from
//! the seed, the Pulsar custody group or committee through the library's parties on the
//! in-process simulator) and writes its validator sets and certificates; `verify` follows them with the
//! library's light client — the directory `build` wrote (`chain`, `from_dir`), or files named
//! one by one — and prints each report leg by leg. A refusal names the flag or the file that
//! fixes it (`hint`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use quasar_pq::cert::{LightClient, Policy, ValidatorSet, ValidatorSetView};

/// The usage text of `quasar cert --help`.
pub(crate) const USAGE: &str = "\
quasar cert — Quasar finality certificates over files

USAGE:
    quasar cert build --out DIR [--validators N] [--policy NAME] [--epochs E]
                      [--blocks B] [--magnetar 192s|192f|256s] [--seed HEX]
                      [--pulsar custody|committee] [--pulsar-set 44|65|87]
    quasar cert verify DIR [--set FILE] [--policy NAME] [--full]
    quasar cert verify --set FILE [--next-set FILE]... [--policy NAME] [--full] CERT...

build: a deterministic devnet of N validators (default 4; BLS keys, ML-DSA-44 keys, a
Pulsar group (ML-DSA-65 unless --pulsar-set says otherwise), Magnetar keys when the
policy needs them, and a Corona group when it needs the Corona leg: the first min(N, 8)
validators hold shares of a key the devnet deals, threshold floor(2M/3) + 1 of its M
members, dealt anew in the next key era when its members change) signs B blocks per epoch (default 2) for E epochs (default 2): the
first floor(2N/3) + 1 validators sign every leg the policy needs. The last block of each
epoch commits to the next set (the first validator leaves, one joins). Writes
DIR/set-EPOCH.qvst and DIR/cert-EPOCH-HEIGHT.qcrt.

The Pulsar leg (--pulsar):
  custody    (default) a custody group of all N validators, threshold floor(2N/3) + 1:
             the key is Shamir-shared, and a combiner rebuilds it while it signs; reshared
             to the next set under the same key
  committee  a committee of the first min(N, 6) validators, threshold floor(2M/3) + 1 of
             its M members, keyed by a distributed key generation: no machine ever holds
             the key, not even while signing (threshold ML-DSA); a committee whose members
             change gets a new key in the next key era. ML-DSA-44 is much cheaper here
             (--pulsar-set 44)
Either way the leg is one plain ML-DSA signature: verify needs no option for it.

verify: a light client trusting a validator set follows the certificates in order under
--policy (default pq-fast; give the one the chain was built with); a certificate that ends
an epoch takes the next epoch's set. With DIR (as build wrote it), it trusts --set or
DIR's lowest set-EPOCH.qvst, follows every cert-EPOCH-HEIGHT.qcrt by epoch and height, and
finds each next set in DIR. With files, it trusts --set, follows the certificates in the
order given, and takes next sets from the --next-set files. Prints each report; --full
checks every leg even after a failure.

POLICIES: pq-off, pq-fast, pq-strict, pq-heavy, strict-pq-fast, strict-pq-strict, strict-pq-heavy

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
                "unknown policy '{name}' (expected pq-off, pq-fast, pq-strict, pq-heavy, strict-pq-fast, strict-pq-strict or strict-pq-heavy)"
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

/// What `cert verify` follows: the trusted set, the next sets on offer (file, epoch, bytes),
/// the certificates in order (with the epoch in their name, for `cert verify DIR`), and the
/// chain directory of `cert verify DIR`.
struct Chain {
    set: String,
    next_sets: Vec<(String, u64, Vec<u8>)>,
    certs: Vec<(Option<u64>, String)>,
    dir: Option<String>,
}

/// The files of `cert verify DIR` or of `cert verify --set FILE [--next-set FILE]... CERT...`.
fn chain(p: &Parsed) -> Result<Chain, Failure> {
    match p.positional.as_slice() {
        [dir] if Path::new(dir).is_dir() => from_dir(p, dir),
        [] => Err(usage_error(match p.get("--set") {
            Some(set) => format!("cert verify --set {set} needs certificate files after it"),
            None => "cert verify needs a chain directory (cert verify DIR, as `cert build --out DIR` \
                     writes it) or --set FILE and certificate files"
                .into(),
        })),
        files => {
            for f in files {
                std::fs::metadata(f).map_err(|e| usage_error(format!("cannot read {f}: {e}")))?;
            }
            if let Some(dir) = files.iter().find(|f| Path::new(f).is_dir()) {
                return Err(usage_error(format!(
                    "{dir} is a directory: give cert verify one chain directory alone, or --set FILE and certificate files"
                )));
            }
            let Some(set) = p.get("--set") else {
                return Err(usage_error(
                    "cert verify needs --set FILE (the trusted validator set) before certificate files, \
                     or one chain directory: cert verify DIR",
                ));
            };
            let next_sets = p
                .all("--next-set")
                .into_iter()
                .map(|f| next_set(f.to_string(), "--next-set "))
                .collect::<Result<_, _>>()?;
            Ok(Chain {
                set: set.to_string(),
                next_sets,
                certs: files.iter().map(|f| (None, f.clone())).collect(),
                dir: None,
            })
        }
    }
}

/// `cert verify DIR`: the `set-EPOCH.qvst` and `cert-EPOCH-HEIGHT.qcrt` files a `cert build`
/// wrote, certificates by epoch then height; the trusted set is `--set` or the lowest
/// epoch's (the certificates of earlier epochs than the trusted set's are skipped), and every
/// other set is on offer as a next set (the client takes the one for the epoch a
/// certificate ends). Other files are left alone.
fn from_dir(p: &Parsed, dir: &str) -> Result<Chain, Failure> {
    if p.get("--next-set").is_some() {
        return Err(usage_error(format!(
            "--next-set goes with certificate files: cert verify {dir} takes each epoch's next set from {dir} (set-EPOCH.qvst)"
        )));
    }
    let unreadable = |e: std::io::Error| usage_error(format!("cannot read {dir}: {e}"));
    let mut sets = Vec::new();
    let mut certs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let name = entry.map_err(unreadable)?.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = display(&Path::new(dir).join(name));
        match (
            numbered(name, "set-", ".qvst").as_deref(),
            numbered(name, "cert-", ".qcrt").as_deref(),
        ) {
            (Some(&[epoch]), _) => sets.push((epoch, path)),
            (_, Some(&[epoch, height])) => certs.push(((epoch, height), path)),
            _ => {}
        }
    }
    sets.sort();
    certs.sort();
    if certs.is_empty() {
        return Err(usage_error(format!(
            "{dir} holds no certificates (cert-EPOCH-HEIGHT.qcrt, as `quasar cert build --out {dir}` writes them)"
        )));
    }
    let set = match (p.get("--set"), sets.first()) {
        (Some(f), _) => f.to_string(),
        (None, Some((_, f))) => f.clone(),
        (None, None) => {
            return Err(usage_error(format!(
                "{dir} holds no validator set (set-EPOCH.qvst): pass the trusted one with --set FILE"
            )))
        }
    };
    let next_sets = sets
        .into_iter()
        .filter(|(_, f)| *f != set)
        .map(|(_, f)| next_set(f, ""))
        .collect::<Result<_, _>>()?;
    Ok(Chain {
        set,
        next_sets,
        certs: certs.into_iter().map(|((e, _), f)| (Some(e), f)).collect(),
        dir: Some(dir.to_string()),
    })
}

/// The numbers of `PREFIX1-2-3SUFFIX` (`set-1.qvst` → `[1]`), if the name is one.
fn numbered(name: &str, prefix: &str, suffix: &str) -> Option<Vec<u64>> {
    let middle = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    middle
        .split('-')
        .map(|n| n.parse().ok().filter(|_| n.bytes().all(|b| b.is_ascii_digit())))
        .collect()
}

/// A next set on offer: its file, its epoch and its bytes; `flag` names where it came from.
fn next_set(path: String, flag: &str) -> Result<(String, u64, Vec<u8>), Failure> {
    let bytes = read(&path)?;
    let epoch = ValidatorSetView::parse(&bytes)
        .map_err(|e| usage_error(format!("{flag}{path}: not a validator set: {}: {e}", e.code())))?
        .epoch();
    Ok((path, epoch, bytes))
}

fn verify(args: &[String]) -> Result<(), Failure> {
    let p = parse(
        args,
        &["--set", "--next-set", "--policy", "--full"],
        &["--next-set"],
    )?;
    let policy = p.policy()?;
    let chain = chain(&p)?;
    let set_path = chain.set.as_str();
    let set = ValidatorSet::from_bytes(&read(set_path)?)
        .map_err(|e| usage_error(format!("{set_path}: not a validator set: {}: {e}", e.code())))?;
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
    let start = client.epoch();
    if let Some(dir) = &chain.dir {
        match p.get("--set") {
            None => say!("trusting {set_path}, the first set in {dir} (--set FILE trusts another)"),
            Some(_) => {
                let before = chain.certs.iter().filter(|(e, _)| e.is_some_and(|e| e < start));
                say!(
                    "skipping {} certificates of {dir} before epoch {start}",
                    before.count()
                );
            }
        }
    }
    let certs = chain.certs.iter().filter(|(e, _)| e.is_none_or(|e| e >= start));
    for (_, path) in certs {
        let cert = read(path)?;
        let ends_epoch = quasar_pq::cert::CertificateView::parse(&cert)
            .map(|v| v.header().ends_epoch())
            .unwrap_or(false);
        let want = client.epoch() + 1;
        let next = chain
            .next_sets
            .iter()
            .find(|(_, epoch, _)| *epoch == want)
            .filter(|_| ends_epoch);
        say!("{path}:");
        match client.update(&cert, next.map(|(_, _, b)| &b[..])) {
            Ok(a) => {
                say!("{}", indent(&a.report.to_string()));
                match a.new_epoch {
                    Some(e) => say!(
                        "  accepted: height {}; epoch change to {e} ({} validators, set {})",
                        a.header.height,
                        client.trusted().set().len(),
                        next.map_or("", |(f, _, _)| f.as_str())
                    ),
                    None => say!("  accepted: epoch {} height {}", a.header.epoch, a.header.height),
                }
            }
            Err(refused) => {
                if let Some(r) = &refused.report {
                    say!("{}", indent(&r.to_string()));
                }
                let hint = hint(&refused.error, &chain, &client, next.map(|(f, _, _)| f.as_str()));
                return Err(Failure(format!("{path} refused: {refused}{hint}"), 1));
            }
        }
    }
    Ok(())
}

/// The library names the fault; the CLI names the flag or the file that fixes it.
fn hint(error: &quasar_pq::cert::Error, chain: &Chain, client: &LightClient, next: Option<&str>) -> String {
    use quasar_pq::cert::Error;
    let want = client.epoch() + 1;
    match (error, &chain.dir) {
        (Error::MissingNextSet, None) => format!(
            " (pass the epoch-{want} validator set with --next-set FILE; `cert build` writes it as set-{want}.qvst)"
        ),
        (Error::MissingNextSet, Some(dir)) => format!(
            " ({dir} has no validator set for epoch {want}: `cert build` writes it as {})",
            display(&Path::new(dir).join(format!("set-{want}.qvst")))
        ),
        (Error::NextSetMismatch | Error::KeyEraRegression { .. } | Error::EraKeyChanged(_), _) => {
            next.map_or(String::new(), |f| format!(" (next set {f})"))
        }
        (Error::MissingLeg(_), _) => format!(
            " (verified under --policy {}: give the --policy the chain was built with)",
            client.policy()
        ),
        (Error::StaleCertificate { .. } | Error::SkippedEpoch { .. }, _) => format!(
            " (the client trusts {} and is at epoch {}: give every certificate from that set's epoch on, in order)",
            chain.set,
            client.epoch()
        ),
        _ => String::new(),
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn build(args: &[String]) -> Result<(), Failure> {
    use quasar_pq::cert::devnet::{
        block_hash, two_thirds_plus_one, Devnet, DevnetConfig, PulsarSigning, Signers,
    };
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
            "--pulsar",
            "--pulsar-set",
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
    let pulsar_signing = match p.get("--pulsar") {
        None => PulsarSigning::Custody,
        Some(name) => PulsarSigning::from_name(name).ok_or_else(|| {
            usage_error(format!(
                "unknown Pulsar signing '{name}' (expected custody or committee)"
            ))
        })?,
    };
    let pulsar_set = match p.get("--pulsar-set") {
        None => quasar_pq::mldsa::Mode::MlDsa65,
        Some(level) => level
            .parse::<u16>()
            .ok()
            .and_then(quasar_pq::mldsa::Mode::from_level)
            .ok_or_else(|| usage_error(format!("unknown ML-DSA set '{level}' (expected 44, 65 or 87)")))?,
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
        pulsar: Some(pulsar_set),
        pulsar_signing,
        corona: needs(LegKind::Corona),
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
            (LegKind::Corona, &mut signers.corona),
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

fn display(p: &Path) -> String {
    p.display().to_string()
}
