//! What verification found: a verdict per leg and overall.

use super::{Error, Header, LegKind, Policy};

/// The verdict on one leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Required, present, structurally sound, quorum reached, signature valid.
    Valid,
    /// Required and failed (the report's `reason` says why).
    Invalid,
    /// Required but not examined: verification stopped at an earlier failure.
    NotChecked,
    /// Present but not required by the policy: never examined.
    NotRequired,
}

impl Verdict {
    /// The name used in reports, the CLI and JavaScript.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::NotChecked => "not-checked",
            Verdict::NotRequired => "not-required",
        }
    }
}

/// The report on one leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegReport {
    /// The leg.
    pub kind: LegKind,
    /// Whether the policy requires it.
    pub required: bool,
    /// Whether the certificate carries it.
    pub present: bool,
    /// The verdict.
    pub verdict: Verdict,
    /// Why it is invalid.
    pub reason: Option<Error>,
    /// How many validators signed (weighted legs, once their structure was checked).
    pub signers: Option<usize>,
    /// Their weight (weighted legs, once their structure was checked).
    pub weight: Option<u64>,
    /// Time spent on the leg's signature check, in nanoseconds, where a clock is available
    /// (natively with `std`; a WebAssembly host may pass one in [`super::Options`]).
    pub time_ns: Option<u64>,
}

impl LegReport {
    pub(crate) fn new(kind: LegKind, required: bool, present: bool) -> LegReport {
        LegReport {
            kind,
            required,
            present,
            verdict: if required {
                Verdict::NotChecked
            } else {
                Verdict::NotRequired
            },
            reason: None,
            signers: None,
            weight: None,
            time_ns: None,
        }
    }
}

/// The result of verifying one certificate against a trusted set under a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub(crate) policy: Policy,
    pub(crate) header: Option<Header>,
    pub(crate) legs: [Option<LegReport>; 5],
    pub(crate) error: Option<Error>,
    pub(crate) total_weight: u64,
    pub(crate) id: Option<[u8; 32]>,
}

impl Report {
    /// Whether the certificate is final under the policy: every required leg valid.
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }

    /// The certificate's identity, when it is final: a hash of its header and of exactly the
    /// legs this verification checked ([`super::CertificateView::id`] over the policy's
    /// legs). Legs the policy does not require are never examined, so they never reach the
    /// id: two encodings that differ only there (a relay stripped, added or corrupted a leg
    /// this policy does not need) have one id, and the bytes worth keeping are the canonical
    /// form ([`super::CertificateView::canonical`] over the policy's legs). Key stored or
    /// deduplicated certificates by this id, never by their raw bytes. A relay cannot know
    /// which legs its clients require: it forwards certificates unchanged.
    pub fn id(&self) -> Option<&[u8; 32]> {
        self.id.as_ref()
    }

    /// The first failure found (the overall reason), if any.
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// The first failure's code, if any.
    pub fn code(&self) -> Option<&'static str> {
        self.error.as_ref().map(Error::code)
    }

    /// The reports of every leg required or present, in kind order.
    pub fn legs(&self) -> impl Iterator<Item = &LegReport> {
        self.legs.iter().flatten()
    }

    /// The report on `kind`, if it was required or present.
    pub fn leg(&self, kind: LegKind) -> Option<&LegReport> {
        self.legs[kind.index()].as_ref()
    }

    /// The certificate's header, if it parsed.
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// The policy verified under.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The trusted set's total weight (the quorum's denominator).
    pub fn total_weight(&self) -> u64 {
        self.total_weight
    }

    /// The total time of the legs' signature checks, in nanoseconds, if timed.
    pub fn time_ns(&self) -> Option<u64> {
        self.legs().map(|l| l.time_ns).sum::<Option<u64>>()
    }
}

impl core::fmt::Display for Report {
    /// One line per leg, then the verdict: `bls valid 15/21 weight 15 of 21 (2.61 ms)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for leg in self.legs() {
            write!(f, "{:<10} {:<12}", leg.kind.name(), leg.verdict.name())?;
            if let (Some(s), Some(w)) = (leg.signers, leg.weight) {
                write!(f, " signers {s}, weight {w} of {}", self.total_weight)?;
            }
            if let Some(t) = leg.time_ns {
                write!(f, " ({}.{:03} ms)", t / 1_000_000, (t / 1000) % 1000)?;
            }
            if let Some(r) = &leg.reason {
                write!(f, " {}: {r}", r.code())?;
            }
            writeln!(f)?;
        }
        match &self.error {
            None => write!(f, "final under {}", self.policy),
            Some(e) => write!(f, "NOT final under {}: {}: {e}", self.policy, e.code()),
        }
    }
}
