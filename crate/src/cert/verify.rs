//! Checking a certificate against a trusted set and a policy: structure first, then the
//! signatures, cheapest first.

use super::bitmap::Bitmap;
use super::report::{LegReport, Report, Verdict};
use super::view::{max_certificate_len, CertificateView, LegView};
use super::{
    Error, LegKind, Policy, TrustedSet, CORONA_CONTEXT, MAGNETAR_CONTEXT, MLDSA_CONTEXT, PULSAR_CONTEXT,
};
use crate::magnetar;

/// How to verify.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Check every required leg even after a failure (the full report), instead of
    /// stopping at the first.
    pub full: bool,
    /// A monotonic clock in nanoseconds to time each leg with. [`Options::default`] uses
    /// `std::time::Instant` natively with `std`; there is none on WebAssembly unless the
    /// host passes one.
    pub clock: Option<fn() -> u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            full: false,
            clock: native_clock(),
        }
    }
}

impl Options {
    /// The default options with the full report.
    pub fn full() -> Options {
        Options {
            full: true,
            ..Options::default()
        }
    }
}

#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
fn native_clock() -> Option<fn() -> u64> {
    fn now() -> u64 {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let elapsed = START.get_or_init(std::time::Instant::now).elapsed();
        u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX)
    }
    Some(now)
}

#[cfg(not(all(feature = "std", not(target_arch = "wasm32"))))]
fn native_clock() -> Option<fn() -> u64> {
    None
}

/// What the structural checks found for one leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Signers (weighted legs).
    pub signers: Option<usize>,
    /// Their weight (weighted legs).
    pub weight: Option<u64>,
}

/// A certificate whose structure passed every check against a trusted set and a policy:
/// what remains is signature work.
#[derive(Debug, Clone, Copy)]
pub struct Checked<'a> {
    /// The certificate.
    pub view: CertificateView<'a>,
    tallies: [Tally; 5],
}

impl Checked<'_> {
    /// The signers and weight of a required leg.
    pub fn tally(&self, kind: LegKind) -> Tally {
        self.tallies[kind.index()]
    }
}

/// The header against the trusted set: chain, epoch, set root, key era.
fn check_header(view: &CertificateView<'_>, trusted: &TrustedSet) -> Result<(), Error> {
    let h = view.header();
    let set = trusted.set();
    if h.chain_id != set.chain_id() {
        return Err(Error::WrongChain {
            expected: set.chain_id(),
            got: h.chain_id,
        });
    }
    if h.epoch != set.epoch() {
        return Err(Error::WrongEpoch {
            expected: set.epoch(),
            got: h.epoch,
        });
    }
    if &h.set_root != set.root() {
        return Err(Error::SetRootMismatch);
    }
    if h.key_era != set.key_era() {
        return Err(Error::KeyEraMismatch {
            expected: set.key_era(),
            got: h.key_era,
        });
    }
    Ok(())
}

/// A bitmap's size against the set, the signers' weight against the quorum.
fn tally_bitmap(
    kind: LegKind,
    signers: &Bitmap<'_>,
    trusted: &TrustedSet,
    policy: &Policy,
) -> Result<Tally, Error> {
    if signers.size() != trusted.set().len() {
        return Err(Error::BitmapSize {
            kind,
            expected: trusted.set().len(),
            got: signers.size(),
        });
    }
    // At most 2^16 weights of < 2^64 each: no overflow in u128, and the set's total fits u64.
    let signed: u64 = signers.signers().map(|i| trusted.weight(i)).sum();
    quorum(kind, signed, trusted, policy)?;
    Ok(Tally {
        signers: Some(signers.count()),
        weight: Some(signed),
    })
}

/// The signers' weight against the policy's quorum of the set's total.
fn quorum(kind: LegKind, signed: u64, trusted: &TrustedSet, policy: &Policy) -> Result<(), Error> {
    let total = trusted.total_weight();
    if policy.quorum().is_met(signed, total).unwrap_or(false) {
        Ok(())
    } else {
        Err(Error::QuorumNotMet { kind, signed, total })
    }
}

/// A Magnetar aggregate's mode, signers (each in the set) and their weight against the
/// quorum: binary searches in the set, no allocation.
fn tally_magnetar(
    aggregate: &magnetar::AggregateCertificate<'_>,
    trusted: &TrustedSet,
    policy: &Policy,
) -> Result<Tally, Error> {
    let kind = LegKind::Magnetar;
    let registry = trusted.magnetar().ok_or(Error::MissingKeys(kind))?;
    if registry.mode() != aggregate.mode() {
        return Err(Error::LegModeMismatch(kind));
    }
    let view = trusted.view();
    let mut signed = 0u64;
    for (index, id) in aggregate.signers().enumerate() {
        let at = view.position(&id.0).ok_or(Error::UnknownSigner { kind, index })?;
        signed = signed.saturating_add(trusted.weight(at));
    }
    quorum(kind, signed, trusted, policy)?;
    Ok(Tally {
        signers: Some(aggregate.len()),
        weight: Some(signed),
    })
}

/// One required leg's structure against the trusted set and the policy.
fn check_leg(
    kind: LegKind,
    view: &CertificateView<'_>,
    trusted: &TrustedSet,
    policy: &Policy,
) -> Result<Tally, Error> {
    let leg = view.leg(kind).ok_or(Error::MissingLeg(kind))?;
    match leg {
        LegView::Bls { signers, .. } => {
            if trusted.bls().is_none() {
                return Err(Error::MissingKeys(kind));
            }
            tally_bitmap(kind, signers, trusted, policy)
        }
        LegView::Pulsar { frame } => {
            let key = trusted.pulsar().ok_or(Error::MissingKeys(kind))?;
            if key.mode() != frame.mode {
                return Err(Error::LegModeMismatch(kind));
            }
            Ok(Tally::default())
        }
        LegView::MlDsaSet { signers, mode, .. } => {
            let set_mode = trusted.mldsa_mode().ok_or(Error::MissingKeys(kind))?;
            if set_mode != *mode {
                return Err(Error::LegModeMismatch(kind));
            }
            tally_bitmap(kind, signers, trusted, policy)
        }
        LegView::Magnetar { aggregate } => tally_magnetar(aggregate, trusted, policy),
        LegView::Corona { .. } => {
            trusted.corona().ok_or(Error::MissingKeys(kind))?;
            Ok(Tally::default())
        }
    }
}

/// Every structural check of a parsed certificate against `trusted` under `policy` — the
/// header (chain, epoch, set root, key era), each required leg present and keyed by the set,
/// its modes, its bitmap's size and the signers' weight against the quorum — with no
/// signature work and no allocation.
///
/// # Errors
/// The first failure: [`Error::WrongChain`], [`Error::WrongEpoch`], [`Error::SetRootMismatch`],
/// [`Error::KeyEraMismatch`], [`Error::MissingLeg`], [`Error::MissingKeys`],
/// [`Error::LegModeMismatch`], [`Error::BitmapSize`], [`Error::QuorumNotMet`].
pub fn check<'a>(
    view: &CertificateView<'a>,
    trusted: &TrustedSet,
    policy: &Policy,
) -> Result<Checked<'a>, Error> {
    check_header(view, trusted)?;
    let mut tallies = [Tally::default(); 5];
    for kind in policy.legs().iter() {
        tallies[kind.index()] = check_leg(kind, view, trusted, policy)?;
    }
    Ok(Checked { view: *view, tallies })
}

/// One required leg's signature(s) on `message`.
fn verify_leg(
    leg: &LegView<'_>,
    trusted: &TrustedSet,
    policy: &Policy,
    message: &[u8; 32],
) -> Result<(), Error> {
    let kind = leg.kind();
    let invalid = |signer| Error::InvalidSignature { kind, signer };
    match leg {
        LegView::Bls { signers, signature } => {
            let set = trusted.bls().ok_or(Error::MissingKeys(kind))?;
            set.verify_aggregate_bytes(message, &signature[..], signers.as_bytes())
                .map_err(|e| match e {
                    crate::bls::Error::InvalidSignature => invalid(None),
                    e => Error::MalformedSignature { kind, error: e },
                })
        }
        LegView::Pulsar { frame } => {
            let key = trusted.pulsar().ok_or(Error::MissingKeys(kind))?;
            key.verify(message, PULSAR_CONTEXT, frame.signature)
                .map_err(|_| invalid(None))
        }
        LegView::MlDsaSet {
            signers,
            mode,
            signatures,
        } => {
            for (i, sig) in signers
                .signers()
                .zip(signatures.chunks_exact(mode.signature_len()))
            {
                let key = trusted.mldsa_key(i).ok_or(Error::MissingKeys(kind))?;
                key.verify(message, MLDSA_CONTEXT, sig)
                    .map_err(|_| invalid(Some(i)))?;
            }
            Ok(())
        }
        LegView::Magnetar { aggregate } => {
            let registry = trusted.magnetar().ok_or(Error::MissingKeys(kind))?;
            match aggregate.verify(registry, message, MAGNETAR_CONTEXT, policy.quorum()) {
                Ok(_) => Ok(()),
                Err(magnetar::Error::InvalidSignatures { failed }) => Err(invalid(
                    failed.first().and_then(|id| trusted.view().position(&id.0)),
                )),
                Err(e) => Err(Error::Magnetar(e)),
            }
        }
        LegView::Corona { signature } => {
            let key = trusted.corona().ok_or(Error::MissingKeys(kind))?;
            key.verify(message, CORONA_CONTEXT, signature)
                .map_err(|e| match e {
                    crate::corona::Error::InvalidSignature => invalid(None),
                    e => Error::Corona(e),
                })
        }
    }
}

/// Verifies the certificate `bytes` against the trusted set under the caller's `policy`:
/// its length against what the set admits ([`max_certificate_len`]), parse, header, every required leg's structure and quorum, then the signatures cheapest
/// first (see the module docs of [`super`]). Never fails: a bad certificate gives a report
/// whose [`Report::error`] says why. Stops at the first failure unless `options.full`.
pub fn verify(bytes: &[u8], trusted: &TrustedSet, policy: &Policy, options: &Options) -> Report {
    let mut report = Report {
        policy: *policy,
        header: None,
        legs: Default::default(),
        error: None,
        total_weight: trusted.total_weight(),
        id: None,
    };
    for kind in policy.legs().iter() {
        report.legs[kind.index()] = Some(LegReport::new(kind, true, false));
    }
    let fail = |report: &mut Report, kind: Option<LegKind>, e: Error| {
        if let Some(leg) = kind.and_then(|k| report.legs[k.index()].as_mut()) {
            leg.verdict = Verdict::Invalid;
            leg.reason = Some(e.clone());
        }
        if report.error.is_none() {
            report.error = Some(e);
        }
    };
    let max = max_certificate_len(trusted.set().len());
    if bytes.len() > max {
        let e = Error::TooLong {
            what: "certificate",
            len: bytes.len(),
            max,
        };
        fail(&mut report, None, e);
        return report;
    }
    let view = match CertificateView::parse(bytes) {
        Ok(v) => v,
        Err(e) => {
            fail(&mut report, e.leg(), e);
            return report;
        }
    };
    report.header = Some(*view.header());
    for leg in view.legs() {
        let kind = leg.kind();
        match &mut report.legs[kind.index()] {
            Some(r) => r.present = true,
            slot => *slot = Some(LegReport::new(kind, false, true)),
        }
    }
    if let Err(e) = check_header(&view, trusted) {
        fail(&mut report, None, e);
        return report;
    }
    // Structure of every required leg, in kind order.
    let mut sound = [false; 5];
    for kind in policy.legs().iter() {
        match check_leg(kind, &view, trusted, policy) {
            Ok(t) => {
                sound[kind.index()] = true;
                if let Some(r) = report.legs[kind.index()].as_mut() {
                    r.signers = t.signers;
                    r.weight = t.weight;
                }
            }
            Err(e) => {
                if let (Error::QuorumNotMet { signed, .. }, Some(r)) =
                    (&e, report.legs[kind.index()].as_mut())
                {
                    r.weight = Some(*signed);
                    r.signers = view.leg(kind).and_then(LegView::signer_count);
                }
                fail(&mut report, Some(kind), e);
                if !options.full {
                    return report;
                }
            }
        }
    }
    // Signatures, cheapest first.
    let message = view.header().message();
    for kind in LegKind::BY_COST {
        let Some(leg) = view.leg(kind).filter(|_| sound[kind.index()]) else {
            continue;
        };
        let start = options.clock.map(|c| c());
        let result = verify_leg(leg, trusted, policy, &message);
        let elapsed = options.clock.zip(start).map(|(c, s)| c().saturating_sub(s));
        if let Some(r) = report.legs[kind.index()].as_mut() {
            r.time_ns = elapsed;
        }
        match result {
            Ok(()) => {
                if let Some(r) = report.legs[kind.index()].as_mut() {
                    r.verdict = Verdict::Valid;
                }
            }
            Err(e) => {
                fail(&mut report, Some(kind), e);
                if !options.full {
                    return report;
                }
            }
        }
    }
    if report.error.is_none() {
        report.id = Some(view.id(policy.legs()));
    }
    report
}
