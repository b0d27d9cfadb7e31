//! Command-line parsing, by hand (std only). Every mistake is one line for stderr.

use quasar_pq::lens::Curve;
use quasar_pq::mldsa::Mode;
use quasar_pq::party::hazmat::Cheat;

/// The most parties a demo runs (one thread each).
pub(crate) const MAX_PARTIES: u16 = 256;
/// The most validators of a devnet (`--validators`): the Pulsar group stays within
/// [`MAX_PARTIES`], the rest only sign blocks.
pub(crate) const MAX_VALIDATORS: u16 = 1024;
/// Blocks per epoch of a devnet (`--chain`) by default, and at most.
const DEFAULT_BLOCKS: u16 = 3;
const MAX_BLOCKS: u16 = 64;

/// The most parties of a committee (the scheme's parameters stop at 6).
pub(crate) const COMMITTEE_MAX_PARTIES: u16 = 6;
/// Corona's default group: small, for each signer's round 1 is about 615 KB to every other
/// signer.
pub(crate) const CORONA_DEFAULT_PARTIES: u16 = 5;

/// The usage text printed by `quasar --help`.
pub(crate) const USAGE: &str = "\
quasar — post-quantum threshold signing, natively, one thread per party

USAGE:
    quasar demo --scheme pulsar|lens|committee|corona [OPTIONS]
    quasar cert build|verify [OPTIONS]    (finality certificates: quasar cert --help)
    quasar node keys|serve|run [OPTIONS]  (the demo across processes on libp2p, below)
    quasar --help

The demo runs a full pipeline with one thread per party; each thread holds the
library's protocol party and the parties exchange only bytes, through an in-process
router that counts messages and bytes:
  pulsar: DKG → key ceremony → key certification → sign → verify with plain ML-DSA
  lens:   DKG → sign → verify with the standard Ed25519 / BIP-340 / RFC 9591 verifier
  committee: key generation (nobody ever holds the key) → sign (exactly T signers,
          leaderless; a failed run restarts itself) → verify with plain ML-DSA
  corona: key generation by a trusted dealer (it erases the key after the deal; no
          DKG) → sign (any T to N signers, two rounds, leaderless) → verify on public
          inputs with the group key
[pulsar and lens: → reshare to a new (t, n), ending with the activation certificate (proofs of
possession of the new shares) → every old party verifies it, then erases its old share
→ the new set signs again under the unchanged group key], then prints per-phase timings.

OPTIONS:
    --scheme pulsar|lens|committee|corona
                             Pulsar custody (threshold ML-DSA, FIPS 204 signatures; a
                             combiner rebuilds the key while it signs), Lens (FROST:
                             Ed25519, BIP-340 or ristretto255 signatures), the Pulsar
                             committee (threshold ML-DSA with no reconstruction: no
                             party and no combiner ever holds the key; 2 to 6 parties,
                             never reshared: a new committee is a new key) or Corona
                             (a two-round t-of-n threshold lattice signature of the
                             Ringtail family; a trusted dealer deals the key and
                             erases it; never reshared)
    --parties N              parties, 2 to 256 (committee: 2 to 6) [default: 21;
                             committee: 4; corona: 5]
    --threshold T            signers needed, 1 to N (Lens, committee, corona: 2 to N)
                             [default: more than two thirds, floor(2N/3) + 1]
    --signers K              Corona only: how many parties sign, T to N [default: T]
    --reshare N:T            after signing, reshare to N parties with threshold T
                             (the first N ids not named for misbehaving: old ids are
                             kept, new ones join)
    --curve NAME             Lens only: ed25519 (default), secp256k1, ristretto255
    --set 44|65|87           Pulsar and committee: ML-DSA parameter set
                             [default: 65; committee: 44]
    --seed HEX               seed of every party's randomness, 1 to 32 bytes in hex
                             [default: 00]; the same seed gives the same keys
    --cheat PARTY[:KIND]     that party misbehaves (the library's cheating-party model):
                             bad-shares (dealings: DKG and reshare), misaddress
                             (dealings), bad-contribution (signing), garbage (any
                             round); without KIND, bad-shares in dealings and
                             bad-contribution in signing. Honest parties name it with
                             the library's blame codes and exclude it. Committee:
                             bad-contribution only (a reveal that breaks its
                             commitment, in signing; its key generation has no
                             misbehaviour hook, and a garbage sender would only stall
                             a scheme that is not robust). Corona: bad-contribution
                             (the default: a wrong response, which nobody can
                             attribute: the session ends without a signature, exit 1)
                             or garbage (named MALFORMED_MESSAGE, then a new session
                             without it); the dealer is trusted, so nothing to cheat
                             in its key generation
    --chain DIR              Pulsar or committee: run the pipeline as a live devnet:
                             every party is also a validator with its own BLS, ML-DSA-44
                             and Magnetar keys; each signing becomes --blocks certificates
                             (every leg, the Pulsar leg by the custody group or the
                             committee), written to DIR as they are made (set-E.qvst,
                             cert-E-H.qcrt: `quasar cert verify DIR` follows them);
                             --reshare (custody) becomes an epoch change
    --blocks B               blocks per epoch with --chain, 1 to 64 [default: 3]
    --validators V           validators of a devnet (--chain), N to 1024: parties 1-N
                             are the Pulsar group, all V sign every block with their own
                             keys [default: N]
    --corona                 a devnet's certificates also carry the Corona leg: nodes
                             1-M (M = min(8, V)) hold shares of a Corona key the
                             aggregator deals once as a trusted dealer; floor(2M/3) + 1
                             of them sign every block (never reshared)
    --resume                 Pulsar, committee, Corona, across processes: no setup; the
                             parties sign with the shares their stores kept (quasar node
                             serve --store DIR)
    -h, --help               print this help

EXAMPLES:
    quasar demo --scheme pulsar --parties 21 --threshold 15
    quasar demo --scheme lens --curve secp256k1 --parties 64 --threshold 43
    quasar demo --scheme pulsar --parties 21 --threshold 15 --reshare 64:43 --cheat 3
    quasar demo --scheme lens --parties 5 --threshold 3 --cheat 2:bad-contribution
    quasar demo --scheme committee --parties 5 --threshold 3 --cheat 2
    quasar demo --scheme corona --parties 5 --threshold 3 --signers 4 --cheat 2:garbage
    quasar demo --scheme pulsar --set 44 --parties 5 --threshold 3 --reshare 6:4 --chain out
    quasar demo --scheme pulsar --set 44 --parties 5 --validators 12 --corona --chain out

NODE (the same pipelines, every party in a process of its own, on libp2p):
    quasar node keys  --dir D --parties N [--per K] [--port P] [--browser B]
                                                                  roster + one key per process
    quasar node serve --dir D --process I [--timeout S] [--once] [--store DIR] [--rtt MS]
                      [--misbehave] [--equivocate] [--crash-at N] [--slow N:MS] [--partition N:S]
    quasar node run   --dir D [--timeout S] [--rtt MS] --scheme … [the demo's options]
    --store DIR keeps each party's share (a Pulsar keyring, a committee or Corona share)
    sealed in the library's snapshot store
    (passphrase: QUASAR_NODE_PASSPHRASE), so a restarted process loses no share; a run with
    --resume then signs with what the stores kept. --rtt MS makes every message a process
    sends wait MS / 2 (a wide-area round trip on loopback, for benchmarks). --browser B makes
    the last B processes browser processes: a page (www/node/, `npm start` serves it) plays
    them over WebSocket, which every native process then also listens on (port + 100 + index);
    a browser member plays committee and Corona runs. keys --parties goes to 1024 (a
    devnet's --validators).

EXIT STATUS:
    0 success (misbehaving parties named and excluded included), 1 protocol failure
    (the typed error and its culprits are printed), 2 bad arguments.
";

/// Which protocol the demo runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// Pulsar custody over an LSS Pedersen sharing, with one ML-DSA parameter set.
    Pulsar(Mode),
    /// Lens (FROST) on one curve.
    Lens(Curve),
    /// The Pulsar committee (threshold ML-DSA, no reconstruction) with one parameter set.
    Committee(Mode),
    /// Corona (the two-round threshold lattice signature, keys from a trusted dealer).
    Corona,
}

/// A validated `demo` invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Demo {
    /// The scheme (and its parameter set or curve).
    pub scheme: Scheme,
    /// Number of parties `n` (ids 1..=n).
    pub parties: u16,
    /// Threshold `t`.
    pub threshold: u16,
    /// Reshare target `(n', t')`.
    pub reshare: Option<(u16, u16)>,
    /// How many parties sign (`--signers`, Corona only; `None`: the threshold).
    pub signers: Option<u16>,
    /// Seed bytes of every party's randomness.
    pub seed: Vec<u8>,
    /// The misbehaving party.
    pub cheat: Option<Cheating>,
    /// `--chain DIR`: run the Pulsar pipeline as a devnet writing its chain here.
    pub chain: Option<std::path::PathBuf>,
    /// Blocks per epoch of a devnet (`--blocks`).
    pub blocks: u16,
    /// Validators of a devnet (`--validators`, at least `parties`): the first `parties` of
    /// them are the Pulsar group.
    pub validators: u16,
    /// `--corona`: a devnet's certificates carry the Corona leg too.
    pub corona: bool,
    /// `--resume`: the parties sign with the shares their stores kept (no setup).
    pub resume: bool,
    /// Where this process's parties keep their keyrings (`quasar node serve --store`; never
    /// an option of the run itself).
    pub store: Option<std::path::PathBuf>,
}

/// A misbehaving party and how it misbehaves (`--cheat PARTY[:KIND]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cheating {
    /// The party.
    pub party: u16,
    /// The misbehaviour; `None`: bad shares in dealings, a bad contribution in signing.
    pub kind: Option<Cheat>,
}

/// How one party misbehaves in dealings and in signing sessions (`None`: honestly).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Acts {
    /// In dealings (DKG, reshare).
    pub dealing: Option<Cheat>,
    /// In signing sessions.
    pub signing: Option<Cheat>,
}

impl Cheating {
    /// How it misbehaves in a dealing (DKG, reshare), if at all.
    pub(crate) fn in_dealing(&self) -> Option<Cheat> {
        match self.kind {
            None => Some(Cheat::BadShares),
            Some(k) => Some(k).filter(|k| k.in_dealing()),
        }
    }

    /// How it misbehaves in a signing session (the Pulsar key ceremony included), if at
    /// all.
    pub(crate) fn in_signing(&self) -> Option<Cheat> {
        match self.kind {
            None => Some(Cheat::BadContribution),
            Some(k) => Some(k).filter(|k| k.in_signing()),
        }
    }

    /// How party `party` acts, when `cheat` is the run's misbehaving party (honest: none).
    pub(crate) fn acts(cheat: Option<Cheating>, party: u16) -> Acts {
        match cheat.filter(|c| c.party == party) {
            None => Acts::default(),
            Some(c) => Acts {
                dealing: c.in_dealing(),
                signing: c.in_signing(),
            },
        }
    }

    /// `PARTY[:KIND]`, as on the command line.
    pub(crate) fn arg(&self) -> String {
        match self.kind {
            None => self.party.to_string(),
            Some(k) => format!("{}:{}", self.party, k.name()),
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    /// Print the usage.
    Help,
    /// Run a demo.
    Demo(Demo),
    /// `quasar cert …`: the arguments after `cert` (parsed by the `cert` module).
    Cert(Vec<String>),
    /// `quasar node …`: the arguments after `node` (parsed by the `node` module).
    Node(Vec<String>),
}

/// `floor(2n/3) + 1`: more than two thirds (15 of 21, 43 of 64), at most `n`.
pub(crate) fn default_threshold(n: u16) -> u16 {
    (2 * n / 3 + 1).min(n)
}

/// A value a range check between two `u16` bounds has already admitted.
fn narrow(v: u32) -> u16 {
    u16::try_from(v).unwrap_or(u16::MAX)
}

fn number(flag: &str, value: &str, lo: u16, hi: u16) -> Result<u16, String> {
    match value.parse::<u32>() {
        Ok(v) if (u32::from(lo)..=u32::from(hi)).contains(&v) => Ok(narrow(v)),
        Ok(v) => Err(format!("{flag} must be between {lo} and {hi}, got {v}")),
        Err(_) => Err(format!(
            "{flag} must be a number between {lo} and {hi}, got '{value}'"
        )),
    }
}

fn hex(value: &str) -> Result<Vec<u8>, String> {
    let digits = value.strip_prefix("0x").unwrap_or(value);
    let bad = || format!("--seed must be 1 to 32 bytes in hex (an even number of hex digits), got '{value}'");
    if digits.is_empty() || !digits.len().is_multiple_of(2) || digits.len() > 64 {
        return Err(bad());
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(digits.get(i..i + 2).ok_or_else(bad)?, 16).map_err(|_| bad()))
        .collect()
}

/// Parses the arguments after the program name. `Err` is the one line to print (without
/// the `quasar: ` prefix).
pub(crate) fn parse(args: &[String]) -> Result<Command, String> {
    let Some(first) = args.first() else {
        return Err("missing command (try 'quasar --help')".into());
    };
    match first.as_str() {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "demo" => {}
        "cert" => return Ok(Command::Cert(args[1..].to_vec())),
        "node" => return Ok(Command::Node(args[1..].to_vec())),
        other if other.starts_with('-') => {
            return Err(format!(
                "expected a command before '{other}' (try 'quasar demo --help')"
            ))
        }
        other => return Err(format!("unknown command '{other}' (try 'quasar --help')")),
    }

    // Raw flag values, each at most once.
    let mut scheme = None;
    let mut parties = None;
    let mut threshold = None;
    let mut reshare = None;
    let mut curve = None;
    let mut set = None;
    let mut seed = None;
    let mut cheat = None;
    let mut signers = None;
    let mut chain = None;
    let mut blocks = None;
    let mut validators = None;
    let mut resume = false;
    let mut corona_leg = false;
    let mut rest = args[1..].iter();
    while let Some(arg) = rest.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help);
        }
        // The flags without a value.
        match arg.as_str() {
            "--resume" => {
                resume = true;
                continue;
            }
            "--corona" => {
                corona_leg = true;
                continue;
            }
            _ => {}
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let slot = match flag {
            "--scheme" => &mut scheme,
            "--parties" | "-n" => &mut parties,
            "--threshold" | "-t" => &mut threshold,
            "--reshare" => &mut reshare,
            "--curve" => &mut curve,
            "--set" => &mut set,
            "--seed" => &mut seed,
            "--cheat" => &mut cheat,
            "--signers" | "-k" => &mut signers,
            "--chain" => &mut chain,
            "--blocks" => &mut blocks,
            "--validators" => &mut validators,
            f if f.starts_with('-') => return Err(format!("unknown flag '{f}' (try 'quasar --help')")),
            other => return Err(format!("unexpected argument '{other}' (try 'quasar --help')")),
        };
        let value = match inline {
            Some(v) => v,
            None => match rest.next() {
                Some(v) if !v.starts_with("--") => v.clone(),
                _ => return Err(format!("{flag} needs a value")),
            },
        };
        if value.is_empty() {
            return Err(format!("{flag} needs a value"));
        }
        if slot.is_some() {
            return Err(format!("{flag} given twice"));
        }
        *slot = Some(value);
    }

    let Some(scheme_name) = scheme else {
        return Err("demo needs --scheme pulsar, lens, committee or corona".into());
    };
    let mldsa_set = |default: Mode| match set.as_deref() {
        None => Ok(default),
        Some("44") => Ok(Mode::MlDsa44),
        Some("65") => Ok(Mode::MlDsa65),
        Some("87") => Ok(Mode::MlDsa87),
        Some(other) => Err(format!("unknown ML-DSA set '{other}' (expected 44, 65 or 87)")),
    };
    let scheme = match scheme_name.as_str() {
        "pulsar" | "committee" => {
            if curve.is_some() {
                return Err(format!(
                    "--curve applies to --scheme lens only (--scheme {scheme_name} signs ML-DSA)"
                ));
            }
            if scheme_name == "pulsar" {
                Scheme::Pulsar(mldsa_set(Mode::MlDsa65)?)
            } else {
                Scheme::Committee(mldsa_set(Mode::MlDsa44)?)
            }
        }
        "corona" => {
            if curve.is_some() || set.is_some() {
                return Err(
                    "--curve and --set do not apply to --scheme corona (it has one parameter set)".into(),
                );
            }
            Scheme::Corona
        }
        "lens" => {
            if set.is_some() {
                return Err(
                    "--set applies to --scheme pulsar and committee only (it picks the ML-DSA parameter set)"
                        .into(),
                );
            }
            let c = match curve.as_deref() {
                None | Some("ed25519") => Curve::Ed25519,
                Some("secp256k1") => Curve::Secp256k1,
                Some("ristretto255") => Curve::Ristretto255,
                Some(other) => {
                    return Err(format!(
                        "unknown curve '{other}' (expected ed25519, secp256k1 or ristretto255)"
                    ))
                }
            };
            Scheme::Lens(c)
        }
        other => {
            return Err(format!(
                "unknown scheme '{other}' (expected pulsar, lens, committee or corona)"
            ))
        }
    };
    let committee = matches!(scheme, Scheme::Committee(_));
    let corona = scheme == Scheme::Corona;
    // FROST, the committee and Corona need t ≥ 2.
    let min_t: u16 = if matches!(scheme, Scheme::Pulsar(_)) { 1 } else { 2 };
    let lens_note = if min_t == 2 {
        format!(" for --scheme {scheme_name}")
    } else {
        String::new()
    };
    let max_n = if committee {
        COMMITTEE_MAX_PARTIES
    } else {
        MAX_PARTIES
    };

    let n = match parties {
        Some(v) => number("--parties", &v, 2, max_n)?,
        None if committee => 4,
        None if corona => CORONA_DEFAULT_PARTIES,
        None => 21,
    };
    let t = match threshold {
        Some(v) => match v.parse::<u32>() {
            Ok(t) if (u32::from(min_t)..=u32::from(n)).contains(&t) => narrow(t),
            Ok(t) => {
                return Err(format!(
                    "--threshold must be between {min_t} and --parties ({n}){lens_note}, got {t}"
                ))
            }
            Err(_) => {
                return Err(format!(
                    "--threshold must be a number between {min_t} and --parties ({n}), got '{v}'"
                ))
            }
        },
        None => default_threshold(n).max(min_t),
    };
    let reshare = match reshare {
        None => None,
        Some(_) if committee => {
            return Err(
                "--reshare does not apply to --scheme committee: a committee key is never reshared \
                 (short pieces of a short secret would reveal it); a new committee is a new key"
                    .into(),
            )
        }
        Some(_) if corona => {
            return Err(
                "--reshare does not apply to --scheme corona: its key is dealer-generated (a trusted dealer \
                 dealt the shares and the pairwise keys), and resharing is not built for it; a new group \
                 is a new deal"
                    .into(),
            )
        }
        Some(v) => {
            let malformed =
                || format!("--reshare must be N:T (new parties:new threshold), e.g. 64:43, got '{v}'");
            let (a, b) = v.split_once(':').ok_or_else(malformed)?;
            if a.is_empty() || b.is_empty() || !a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit()) {
                return Err(malformed());
            }
            let new_n = number("--reshare parties", a, 2, MAX_PARTIES)?;
            let new_t = match b.parse::<u32>() {
                Ok(t) if (u32::from(min_t)..=u32::from(new_n)).contains(&t) => narrow(t),
                _ => {
                    return Err(format!(
                        "--reshare threshold must be between {min_t} and its parties ({new_n}){lens_note}, got {b}"
                    ))
                }
            };
            Some((new_n, new_t))
        }
    };
    let seed = match seed {
        Some(v) => hex(&v)?,
        None => vec![0],
    };
    let cheat = match cheat {
        None => None,
        Some(v) => {
            let (party, kind) = match v.split_once(':') {
                Some((p, k)) => (p, Some(k)),
                None => (v.as_str(), None),
            };
            let party = match party.parse::<u32>() {
                Ok(p) if (1..=u32::from(n)).contains(&p) => narrow(p),
                _ => {
                    return Err(format!(
                        "--cheat must be a party id between 1 and --parties ({n}), got '{party}'"
                    ))
                }
            };
            let kind = match kind {
                None => None,
                Some(k) => Some(Cheat::from_name(k).ok_or_else(|| {
                    let names: Vec<&str> = Cheat::ALL.iter().map(|c| c.name()).collect();
                    format!("unknown --cheat kind '{k}' (expected {})", names.join(", "))
                })?),
            };
            if committee && !matches!(kind, None | Some(Cheat::BadContribution)) {
                return Err(
                    "--scheme committee takes --cheat PARTY or PARTY:bad-contribution only (a reveal that \
                     breaks its commitment; the key generation has no misbehaviour hook)"
                        .into(),
                );
            }
            if corona && !matches!(kind, None | Some(Cheat::BadContribution | Cheat::Garbage)) {
                return Err(
                    "--scheme corona takes --cheat PARTY, PARTY:bad-contribution or PARTY:garbage (signing \
                     only: its key comes from a trusted dealer, and the parties deal nothing)"
                        .into(),
                );
            }
            Some(Cheating { party, kind })
        }
    };
    let signers = match signers {
        None => None,
        Some(_) if !corona => {
            return Err(format!(
                "--signers applies to --scheme corona only (--scheme {scheme_name} signs with T parties)"
            ))
        }
        Some(v) => match v.parse::<u32>() {
            Ok(k) if (u32::from(t)..=u32::from(n)).contains(&k) => Some(narrow(k)),
            _ => {
                return Err(format!(
                    "--signers must be between --threshold ({t}) and --parties ({n}), got '{v}'"
                ))
            }
        },
    };
    if chain.is_some() && !matches!(scheme, Scheme::Pulsar(_) | Scheme::Committee(_)) {
        return Err(format!(
            "--chain applies to --scheme pulsar or committee (the devnet's Pulsar leg: custody or a committee; --scheme {scheme_name} is not a Pulsar leg; --corona adds Corona's)"
        ));
    }
    if resume && (matches!(scheme, Scheme::Lens(_)) || chain.is_some()) {
        return Err(
            "--resume applies to --scheme pulsar, committee or corona without --chain (the parties sign with the shares their stores kept)"
                .into(),
        );
    }
    let blocks = match blocks {
        None => DEFAULT_BLOCKS,
        Some(_) if chain.is_none() => return Err("--blocks applies with --chain DIR only".into()),
        Some(v) => number("--blocks", &v, 1, MAX_BLOCKS)?,
    };
    let validators = match validators {
        None => n,
        Some(_) if chain.is_none() => return Err("--validators applies with --chain DIR only".into()),
        Some(v) => number("--validators", &v, n, MAX_VALIDATORS)?,
    };
    if corona_leg && chain.is_none() {
        return Err("--corona applies with --chain DIR only (the devnet's Corona leg; --scheme corona runs Corona itself)".into());
    }
    Ok(Command::Demo(Demo {
        scheme,
        parties: n,
        threshold: t,
        reshare,
        signers,
        seed,
        cheat,
        chain: chain.map(std::path::PathBuf::from),
        blocks,
        validators,
        corona: corona_leg,
        resume,
        store: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<Command, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args)
    }

    fn demo(line: &str) -> Demo {
        match run(line) {
            Ok(Command::Demo(d)) => d,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn good_lines() {
        let d = demo("demo --scheme committee");
        assert_eq!(d.scheme, Scheme::Committee(Mode::MlDsa44));
        assert_eq!((d.parties, d.threshold, d.reshare), (4, 3, None));
        let d = demo("demo --scheme committee --set 87 -n 6 -t 2 --cheat 3:bad-contribution");
        assert_eq!(d.scheme, Scheme::Committee(Mode::MlDsa87));
        assert_eq!((d.parties, d.threshold), (6, 2));
        let d = demo("demo --scheme pulsar --parties 21 --threshold 15 --reshare 64:43");
        assert_eq!(d.scheme, Scheme::Pulsar(Mode::MlDsa65));
        assert_eq!((d.parties, d.threshold, d.reshare), (21, 15, Some((64, 43))));
        let d = demo("demo --scheme=lens --curve=secp256k1 -n 5 --seed 0a0b --cheat 2");
        assert_eq!(d.scheme, Scheme::Lens(Curve::Secp256k1));
        let two = Cheating { party: 2, kind: None };
        assert_eq!(
            (d.parties, d.threshold, d.seed, d.cheat),
            (5, 4, vec![10, 11], Some(two))
        );
        assert_eq!(two.in_dealing(), Some(Cheat::BadShares));
        assert_eq!(two.in_signing(), Some(Cheat::BadContribution));
        let d = demo("demo --scheme pulsar -n 5 -t 3 --cheat 2:bad-shares");
        let c = d.cheat.unwrap();
        assert_eq!(
            (c.party, c.kind, c.arg()),
            (2, Some(Cheat::BadShares), "2:bad-shares".into())
        );
        assert_eq!(c.in_signing(), None);
        let c = demo("demo --scheme lens -n 5 -t 3 --cheat 3:garbage")
            .cheat
            .unwrap();
        assert_eq!(
            (c.in_dealing(), c.in_signing()),
            (Some(Cheat::Garbage), Some(Cheat::Garbage))
        );
        assert_eq!(demo("demo --scheme pulsar").threshold, 15);
        assert_eq!(demo("demo --scheme pulsar -n 64").threshold, 43);
        assert_eq!(
            demo("demo --scheme pulsar -n 2 -t 1 --set 44").scheme,
            Scheme::Pulsar(Mode::MlDsa44)
        );
        assert_eq!(run("--help"), Ok(Command::Help));
        assert_eq!(run("demo --scheme lens --help"), Ok(Command::Help));
    }

    #[test]
    fn corona_lines() {
        let d = demo("demo --scheme corona");
        assert_eq!(d.scheme, Scheme::Corona);
        assert_eq!(
            (d.parties, d.threshold, d.signers, d.reshare, d.cheat),
            (5, 4, None, None, None)
        );
        let d = demo("demo --scheme corona --parties 5 --threshold 3");
        assert_eq!((d.parties, d.threshold, d.signers), (5, 3, None));
        let d = demo("demo --scheme corona -n 21 -t 14 --signers 21");
        assert_eq!((d.parties, d.threshold, d.signers), (21, 14, Some(21)));
        let d = demo("demo --scheme=corona -n 5 -t 3 --signers=3 --cheat 2:garbage");
        assert_eq!(d.signers, Some(3));
        let c = d.cheat.unwrap();
        assert_eq!((c.party, c.in_signing()), (2, Some(Cheat::Garbage)));
        let c = demo("demo --scheme corona -n 5 -t 3 -k 4 --cheat 5")
            .cheat
            .unwrap();
        assert_eq!(c.in_signing(), Some(Cheat::BadContribution));
        let c = demo("demo --scheme corona -n 5 -t 3 --cheat 1:bad-contribution")
            .cheat
            .unwrap();
        assert_eq!(c.in_signing(), Some(Cheat::BadContribution));
    }

    #[test]
    fn devnet_lines() {
        let d = demo("demo --scheme pulsar -n 4 -t 3 --chain out --blocks 5");
        assert_eq!(d.chain.as_deref(), Some(std::path::Path::new("out")));
        assert_eq!(d.blocks, 5);
        assert_eq!(demo("demo --scheme pulsar --chain out").blocks, DEFAULT_BLOCKS);
        assert_eq!(demo("demo --scheme pulsar -n 4 --chain out").validators, 4);
        assert_eq!(
            demo("demo --scheme pulsar -n 4 --chain out --validators 500").validators,
            500
        );
        assert!(demo("demo --scheme pulsar --chain out --corona").corona);
        assert!(!demo("demo --scheme pulsar --chain out").corona);
        for (line, want) in [
            (
                "demo --scheme lens --chain out",
                "--chain applies to --scheme pulsar or committee",
            ),
            (
                "demo --scheme corona --chain out",
                "--chain applies to --scheme pulsar or committee",
            ),
            (
                "demo --scheme pulsar --blocks 3",
                "--blocks applies with --chain DIR only",
            ),
            (
                "demo --scheme pulsar --chain out --blocks 0",
                "--blocks must be between 1 and 64, got 0",
            ),
            (
                "demo --scheme pulsar --chain out --blocks 65",
                "--blocks must be between 1 and 64, got 65",
            ),
            ("demo --scheme pulsar --chain", "--chain needs a value"),
            (
                "demo --scheme pulsar --corona",
                "--corona applies with --chain DIR only",
            ),
            (
                "demo --scheme pulsar -n 4 --validators 8",
                "--validators applies with --chain DIR only",
            ),
            (
                "demo --scheme pulsar -n 4 --chain out --validators 3",
                "--validators must be between 4 and 1024, got 3",
            ),
            (
                "demo --scheme pulsar -n 4 --chain out --validators 1025",
                "--validators must be between 4 and 1024, got 1025",
            ),
        ] {
            let err = run(line).expect_err(line);
            assert!(err.contains(want), "{line}: {err}");
        }
    }

    #[test]
    fn corona_bad_lines() {
        for (line, want) in [
            (
                "demo --scheme corona -n 5 -t 3 --reshare 7:5",
                "--reshare does not apply to --scheme corona: its key is dealer-generated",
            ),
            (
                "demo --scheme corona -n 5 -t 1",
                "--threshold must be between 2 and --parties (5) for --scheme corona, got 1",
            ),
            (
                "demo --scheme corona -n 5 -t 3 --signers 2",
                "--signers must be between --threshold (3) and --parties (5), got '2'",
            ),
            (
                "demo --scheme corona -n 5 -t 3 --signers 6",
                "--signers must be between --threshold (3) and --parties (5), got '6'",
            ),
            (
                "demo --scheme corona -n 5 -t 3 --signers many",
                "--signers must be between --threshold (3) and --parties (5), got 'many'",
            ),
            ("demo --scheme corona --signers", "--signers needs a value"),
            ("demo --scheme corona -k 3 --signers 3", "--signers given twice"),
            (
                "demo --scheme lens -n 5 -t 3 --signers 4",
                "--signers applies to --scheme corona only (--scheme lens signs with T parties)",
            ),
            (
                "demo --scheme committee --signers 3",
                "--signers applies to --scheme corona only",
            ),
            (
                "demo --scheme corona -n 5 --cheat 2:bad-shares",
                "--scheme corona takes --cheat PARTY, PARTY:bad-contribution or PARTY:garbage",
            ),
            (
                "demo --scheme corona -n 5 --cheat 2:misaddress",
                "--scheme corona takes --cheat PARTY",
            ),
            ("demo --scheme corona --set 65", "do not apply to --scheme corona"),
            (
                "demo --scheme corona --curve ed25519",
                "do not apply to --scheme corona",
            ),
            (
                "demo --scheme ringtail",
                "unknown scheme 'ringtail' (expected pulsar, lens, committee or corona)",
            ),
        ] {
            let err = run(line).expect_err(line);
            assert!(err.contains(want), "{line}: {err}");
            assert!(!err.contains('\n'), "{line}: one line");
        }
    }

    #[test]
    fn bad_lines() {
        for (line, want) in [
            ("", "missing command"),
            ("frobnicate", "unknown command 'frobnicate'"),
            ("demo", "demo needs --scheme"),
            ("demo --scheme rsa", "unknown scheme 'rsa'"),
            ("demo --scheme pulsar --bogus 1", "unknown flag '--bogus'"),
            ("demo --scheme pulsar --parties", "--parties needs a value"),
            (
                "demo --scheme pulsar --parties --threshold 3",
                "--parties needs a value",
            ),
            (
                "demo --scheme pulsar --parties 1",
                "--parties must be between 2 and 256, got 1",
            ),
            (
                "demo --scheme pulsar --parties 257",
                "--parties must be between 2 and 256, got 257",
            ),
            ("demo --scheme pulsar --parties x", "--parties must be a number"),
            (
                "demo --scheme pulsar --parties 21 --threshold 30",
                "--threshold must be between 1 and --parties (21), got 30",
            ),
            (
                "demo --scheme pulsar --threshold 0",
                "--threshold must be between 1",
            ),
            (
                "demo --scheme lens --threshold 1",
                "between 2 and --parties (21) for --scheme lens",
            ),
            ("demo --scheme pulsar --reshare 64", "--reshare must be N:T"),
            ("demo --scheme pulsar --reshare 64:", "--reshare must be N:T"),
            ("demo --scheme pulsar --reshare a:b", "--reshare must be N:T"),
            (
                "demo --scheme pulsar --reshare 300:5",
                "--reshare parties must be between 2 and 256",
            ),
            (
                "demo --scheme pulsar --reshare 7:8",
                "--reshare threshold must be between 1 and its parties (7)",
            ),
            ("demo --scheme lens --curve p256", "unknown curve 'p256'"),
            (
                "demo --scheme pulsar --curve ed25519",
                "--curve applies to --scheme lens only",
            ),
            ("demo --scheme pulsar --set 50", "unknown ML-DSA set '50'"),
            (
                "demo --scheme lens --set 65",
                "--set applies to --scheme pulsar and committee only",
            ),
            ("demo --scheme pulsar --seed xyz", "--seed must be"),
            ("demo --scheme pulsar --seed abc", "--seed must be"),
            (
                "demo --scheme pulsar -n 5 --cheat 6",
                "--cheat must be a party id between 1 and --parties (5)",
            ),
            (
                "demo --scheme pulsar -n 5 --cheat 2:lies",
                "unknown --cheat kind 'lies' (expected bad-shares, misaddress, bad-contribution, garbage)",
            ),
            (
                "demo --scheme pulsar -n 5 --cheat :bad-shares",
                "--cheat must be a party id",
            ),
            ("demo --scheme pulsar --scheme lens", "--scheme given twice"),
            ("demo extra", "unexpected argument 'extra'"),
        ] {
            let err = run(line).expect_err(line);
            assert!(err.contains(want), "{line}: {err}");
            assert!(!err.contains('\n'), "{line}: one line");
        }
    }
}
