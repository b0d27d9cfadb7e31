//! The light client: follows finalized blocks and validator-set changes, epoch by epoch.
//!
//! # Rules
//!
//! The client keeps the epoch, the trusted set (root, total weight, prepared keys), the
//! caller's policy and the last finalized height. [`LightClient::update`] takes a
//! certificate and, on an epoch's last block, the next epoch's validator set, and accepts
//! only if, in this order (cheap checks first):
//!
//! 1. the certificate parses and is for the client's chain;
//! 2. it is for the client's epoch — an earlier epoch, or the same epoch at a height not
//!    above the last finalized one, is [`Error::StaleCertificate`]; a later epoch is
//!    [`Error::SkippedEpoch`] (the client must see every epoch change);
//! 3. a next set is given exactly when the header commits to one ([`Error::MissingNextSet`],
//!    [`Error::UnexpectedNextSet`]), its root is the committed one
//!    ([`Error::NextSetMismatch`]: a forged next set), it is for the same chain and for the
//!    next epoch ([`Error::SkippedEpoch`]), and its key era follows the era rule below;
//! 4. the certificate is final under the current set and the policy ([`super::verify`]);
//! 5. the next set's keys validate (every BLS proof of possession, once).
//!
//! Then the client moves to the next set (epoch + 1, its root, weight and prepared keys) or
//! records the new height. Nothing changes on a refusal.
//!
//! # The threshold group keys across epochs (key era)
//!
//! The Pulsar and Corona group keys are part of each epoch's validator set (`QVST` carries
//! their `PULG` and `CORG` frames and their key era), so they are trusted exactly as the set
//! is: through the previous set's certificate. What follows says it for Pulsar; a Corona key
//! follows the same rule (it is never reshared: a new Corona group is a new key, in a new
//! era). **A reshare or refresh keeps the key era**: the ML-DSA key is byte-identical
//! after it (the LSS kernel keeps the secret), only the custody shares and their holders
//! change, and nothing a verifier holds changes with them; a next set with the same era
//! must carry the same keys ([`Error::EraKeyChanged`]). **A new key ceremony (a fresh DKG)
//! starts a new era**, at an epoch change: the next set carries the new key with a larger
//! era, committed to by the old set's quorum; an era never goes back
//! ([`Error::KeyEraRegression`]). The header names the era too, so a certificate is bound to
//! the key it was signed under.
//!
//! What this does not do: resharing cannot revoke the key from old holders who kept their
//! shares past activation (at least `t` of them could still sign together); only a new era
//! — a new key — does.

use alloc::boxed::Box;

use super::set::ValidatorSet;
use super::view::CertificateView;
use super::{verify, Error, Header, Options, Policy, Report, TrustedSet};

/// A light client following one chain (see the module docs for the rules).
#[derive(Debug, Clone)]
pub struct LightClient {
    trusted: TrustedSet,
    policy: Policy,
    options: Options,
    latest: Option<Header>,
}

/// An accepted update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The finalized header.
    pub header: Header,
    /// The verification report.
    pub report: Report,
    /// The epoch the client moved to, if the certificate ended an epoch.
    pub new_epoch: Option<u64>,
}

/// A refused update: why, and the verification report if verification ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The reason.
    pub error: Error,
    /// The report, when the refusal came from (or after) verifying the certificate.
    pub report: Option<Box<Report>>,
}

impl Refused {
    fn before_verifying(error: Error) -> Refused {
        Refused { error, report: None }
    }

    /// The reason's code.
    pub fn code(&self) -> &'static str {
        self.error.code()
    }
}

impl core::fmt::Display for Refused {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.error.code(), self.error)
    }
}

impl LightClient {
    /// A client that trusts `set` (a checkpoint the caller obtained out of band) and
    /// requires `policy` of every certificate.
    ///
    /// # Errors
    /// As [`TrustedSet::new`].
    pub fn new(set: ValidatorSet, policy: Policy) -> Result<LightClient, Error> {
        Ok(LightClient {
            trusted: TrustedSet::new(set)?,
            policy,
            options: Options::default(),
            latest: None,
        })
    }

    /// The same client verifying with `options` (the full report, a clock).
    pub fn with_options(mut self, options: Options) -> LightClient {
        self.options = options;
        self
    }

    /// The current epoch.
    pub fn epoch(&self) -> u64 {
        self.trusted.epoch()
    }

    /// The current trusted set.
    pub fn trusted(&self) -> &TrustedSet {
        &self.trusted
    }

    /// The current set's root.
    pub fn root(&self) -> &[u8; 32] {
        self.trusted.root()
    }

    /// The current set's total weight.
    pub fn total_weight(&self) -> u64 {
        self.trusted.total_weight()
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The last finalized header, if any.
    pub fn latest(&self) -> Option<&Header> {
        self.latest.as_ref()
    }

    /// Verifies a certificate against the current set without changing anything.
    pub fn verify(&self, certificate: &[u8]) -> Report {
        verify(certificate, &self.trusted, &self.policy, &self.options)
    }

    /// The longest certificate the current set admits ([`super::max_certificate_len`]):
    /// [`LightClient::update`] and [`LightClient::verify`] refuse longer ones (`TOO_LONG`)
    /// before parsing them.
    pub fn max_certificate_len(&self) -> usize {
        super::max_certificate_len(self.trusted.set().len())
    }

    /// Follows one certificate (and, on an epoch's last block, the next set), under the
    /// rules of the module docs. A certificate whose verification succeeds is identified by
    /// its report's [`Report::id`], which covers exactly the legs the policy checked.
    ///
    /// # Errors
    /// A [`Refused`] naming the first rule broken; the client is unchanged.
    pub fn update(&mut self, certificate: &[u8], next_set: Option<&[u8]>) -> Result<Accepted, Refused> {
        let max = self.max_certificate_len();
        if certificate.len() > max {
            return Err(Refused::before_verifying(Error::TooLong {
                what: "certificate",
                len: certificate.len(),
                max,
            }));
        }
        let view = match CertificateView::parse(certificate) {
            Ok(view) => view,
            Err(error) => {
                return Err(Refused {
                    error,
                    report: Some(Box::new(self.verify(certificate))),
                })
            }
        };
        let header = *view.header();
        self.check_progress(&header).map_err(Refused::before_verifying)?;
        let next = match (header.next_set_root, next_set) {
            (None, None) => None,
            (Some(_), None) => return Err(Refused::before_verifying(Error::MissingNextSet)),
            (None, Some(_)) => return Err(Refused::before_verifying(Error::UnexpectedNextSet)),
            (Some(root), Some(bytes)) => {
                Some(self.check_next(&root, bytes).map_err(Refused::before_verifying)?)
            }
        };
        let report = self.verify(certificate);
        if let Some(error) = report.error().cloned() {
            return Err(Refused {
                error,
                report: Some(Box::new(report)),
            });
        }
        let new_epoch = match next {
            Some(set) => {
                let trusted = TrustedSet::new(set).map_err(|error| Refused {
                    error,
                    report: Some(Box::new(report.clone())),
                })?;
                self.trusted = trusted;
                Some(self.trusted.epoch())
            }
            None => None,
        };
        self.latest = Some(header);
        Ok(Accepted {
            header,
            report,
            new_epoch,
        })
    }

    /// Rule 2: the certificate moves the client forward within its epoch.
    fn check_progress(&self, h: &Header) -> Result<(), Error> {
        let current = self.epoch();
        if h.chain_id != self.trusted.set().chain_id() {
            return Err(Error::WrongChain {
                expected: self.trusted.set().chain_id(),
                got: h.chain_id,
            });
        }
        let current_height = self.latest.map_or(0, |l| l.height);
        let stale = Error::StaleCertificate {
            epoch: h.epoch,
            height: h.height,
            current_epoch: current,
            current_height,
        };
        if h.epoch < current {
            return Err(stale);
        }
        if h.epoch > current {
            return Err(Error::SkippedEpoch {
                current,
                got: h.epoch,
            });
        }
        if self.latest.is_some_and(|l| h.height <= l.height) {
            return Err(stale);
        }
        Ok(())
    }

    /// Rule 3: the next set is the committed one, for the next epoch, with a valid era.
    fn check_next(&self, root: &[u8; 32], bytes: &[u8]) -> Result<ValidatorSet, Error> {
        let next = ValidatorSet::from_bytes(bytes)?;
        if next.root() != root {
            return Err(Error::NextSetMismatch);
        }
        let current = self.trusted.set();
        if next.chain_id() != current.chain_id() {
            return Err(Error::WrongChain {
                expected: current.chain_id(),
                got: next.chain_id(),
            });
        }
        if Some(next.epoch()) != current.epoch().checked_add(1) {
            return Err(Error::SkippedEpoch {
                current: current.epoch(),
                got: next.epoch(),
            });
        }
        if next.key_era() < current.key_era() {
            return Err(Error::KeyEraRegression {
                current: current.key_era(),
                got: next.key_era(),
            });
        }
        if next.key_era() == current.key_era()
            && (next.view().pulsar_group_key() != current.view().pulsar_group_key()
                || next.view().corona_group_key() != current.view().corona_group_key())
        {
            return Err(Error::EraKeyChanged(current.key_era()));
        }
        Ok(next)
    }
}
