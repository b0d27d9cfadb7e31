//! One error vocabulary: every error variant of every module (mldsa, wire,
//! vss, lss — activation faults included —, lens, pulsar (custody and committee), party,
//! keystore, magnetar,
//! quorum) and every
//! `BlameReason`, constructed, with its stable code: codes are UPPER_SNAKE, the
//! crate-wide error keeps each module's code, wrappers report their inner error's code,
//! and no code names two different faults. The codes shared on purpose are listed in
//! [`SHARED`], each with the one fault it names everywhere.
//!
//! Run: `cargo test --features sim,hazmat --test suite error_codes::`.
#![cfg(all(feature = "std", feature = "threshold"))]

use std::collections::{BTreeMap, BTreeSet};

use quasar_pq::cert::{self, LegKind as K};
use quasar_pq::keystore::{self, Corruption};
use quasar_pq::lens::{self, Curve, KeyEpoch};
use quasar_pq::lss::{self, ActivationFault};
use quasar_pq::magnetar::{self, ValidatorId};
use quasar_pq::party::{self, Blame, BlameReason};
use quasar_pq::pulsar::{self, committee};
use quasar_pq::{keyfmt, mldsa, quorum, slhdsa, vss, wire, PartyId};

fn pid(v: u16) -> PartyId {
    PartyId::new(v).expect("non-zero id")
}

/// The codes more than one variant uses, deliberately: each names one fault, whichever
/// module reports it (a module that can meet the fault a peer's message shows reports it
/// with the blame code, so JavaScript and the CLI show one code for one fault).
const SHARED: &[(&str, &str)] = &[
    // vss, lss (ceremony setup), lens and pulsar (signer lists): a list names a party twice.
    ("DUPLICATE_PARTY", "a party list names a party twice"),
    // vss, lss and lens: a threshold outside 1..=n.
    ("INVALID_THRESHOLD", "threshold outside 1..=n"),
    // lens and pulsar errors, and the blame reason: a party with no role in the key or
    // session sent or is named.
    ("UNKNOWN_PARTY", "a party without the role"),
    // lens (epoch), pulsar (a share of another generation) and the blame reason: an
    // object of another generation of the key.
    ("WRONG_GENERATION", "another generation"),
    // lens and the blame reason: a message's `from` is not its transport sender.
    ("SENDER_MISMATCH", "from differs from the transport sender"),
    // the party layer (still waiting) and lens: an expected message did not arrive.
    ("MISSING_MESSAGE", "an expected message is missing"),
    // vss (share check), lens (a dealer's share) and the blame reason (Pulsar: a released
    // share): a share that does not open the commitments at its owner's id.
    ("INVALID_SHARE", "a share that does not open the commitments"),
    // lss and lens: an object over another group than the one in use.
    ("WRONG_CURVE", "an object over another group"),
    // pulsar custody and committee: a share or key of another group (committee key).
    ("GROUP_MISMATCH", "a share or key of another group"),
    // pulsar custody and committee: the share's owner is not in the signing set.
    ("NOT_A_SIGNER", "not a signer of the session"),
    // mldsa and the committee: a FIPS 204 context over 255 bytes.
    ("CONTEXT_TOO_LONG", "context too long"),
    // lens and pulsar: a signing set below the threshold.
    ("NOT_ENOUGH_SIGNERS", "fewer signers than the threshold"),
    // mldsa and wire: a mode byte that names no parameter set or format mode.
    ("UNKNOWN_MODE", "a mode byte naming nothing"),
    // wire and vss: a length that must equal another does not.
    ("LENGTH_MISMATCH", "a length differs from the required one"),
    // mldsa, lens, magnetar (an aggregate certificate's signatures) and cert (a leg's
    // signature): a signature that does not verify.
    ("INVALID_SIGNATURE", "a signature that does not verify"),
    // magnetar and cert (its legs): a signer the registry or validator set lacks, or
    // listed twice; a certificate or leg naming nobody.
    ("UNKNOWN_SIGNER", "a signer outside the registry"),
    ("DUPLICATE_SIGNER", "a certificate names a signer twice"),
    ("NO_SIGNERS", "a certificate naming no signer"),
    // quorum and cert: too little weight; sums past u64.
    ("DUPLICATE_VALIDATOR", "a registry names a validator twice"),
    // magnetar (SLH-DSA keys) and cert (ML-DSA keys): two validators registered one key.
    ("DUPLICATE_KEY", "a validator set holding one key twice"),
    ("WEIGHT_OVERFLOW", "weights summing past u64"),
    ("QUORUM_NOT_MET", "a signed weight not above the rule's share"),
];

/// Every constructible error, each with the fault it names (the same string for the same
/// fault in every module) and the module the crate-wide error must report.
fn all_errors() -> Vec<(&'static str, quasar_pq::Error, &'static str)> {
    let p = pid(1);
    let epoch = KeyEpoch {
        generation: 0,
        transcript: [0; 32],
    };
    let w = |e: wire::Error| quasar_pq::Error::from(e);
    let m = |e: mldsa::Error| quasar_pq::Error::from(e);
    let v = |e: vss::Error| quasar_pq::Error::from(e);
    let l = |e: lss::Error| quasar_pq::Error::from(e);
    let n = |e: lens::Error| quasar_pq::Error::from(e);
    let u = |e: pulsar::Error| quasar_pq::Error::from(e);
    let o = |e: committee::Error| quasar_pq::Error::from(e);
    let y = |e: party::Error| quasar_pq::Error::from(e);
    let s = |e: keystore::Error| quasar_pq::Error::from(e);
    let g = |e: magnetar::Error| quasar_pq::Error::from(e);
    let q = |e: quorum::Error| quasar_pq::Error::from(e);
    let v_id = ValidatorId([7; 32]);
    let sets = magnetar::Mode::Shake192s;
    let fault = |f: ActivationFault| l(lss::Error::InvalidActivation(f));
    let c = |e: cert::Error| quasar_pq::Error::from(e);
    let k = |e: keyfmt::Error| quasar_pq::Error::from(e);
    vec![
        // mldsa
        (
            "ML-DSA input of the wrong length",
            m(mldsa::Error::InvalidLength {
                what: "signature",
                expected: 2420,
                got: 1,
            }),
            "mldsa",
        ),
        (
            "context too long",
            m(mldsa::Error::ContextTooLong { len: 256 }),
            "mldsa",
        ),
        (
            "malformed secret key",
            m(mldsa::Error::MalformedSecretKey),
            "mldsa",
        ),
        (
            "a signature that does not verify",
            m(mldsa::Error::InvalidSignature),
            "mldsa",
        ),
        (
            "a mode byte naming nothing",
            m(mldsa::Error::UnknownMode(0)),
            "mldsa",
        ),
        // keyfmt
        ("key encoding ends early", k(keyfmt::Error::Truncated), "keyfmt"),
        (
            "bytes after a key",
            k(keyfmt::Error::TrailingData { extra: 1 }),
            "keyfmt",
        ),
        (
            "a DER element with another tag",
            k(keyfmt::Error::UnexpectedTag {
                expected: 0x30,
                got: 0x31,
            }),
            "keyfmt",
        ),
        (
            "a non-minimal DER or CBOR encoding",
            k(keyfmt::Error::NonMinimal("length")),
            "keyfmt",
        ),
        (
            "a malformed key encoding",
            k(keyfmt::Error::Malformed("x")),
            "keyfmt",
        ),
        (
            "an algorithm not implemented",
            k(keyfmt::Error::UnknownAlgorithm),
            "keyfmt",
        ),
        (
            "algorithm parameters present",
            k(keyfmt::Error::ParametersPresent),
            "keyfmt",
        ),
        (
            "a OneAsymmetricKey version not allowed",
            k(keyfmt::Error::UnsupportedVersion(2)),
            "keyfmt",
        ),
        (
            "a key part of the wrong length",
            k(keyfmt::Error::KeyLength {
                what: "seed",
                expected: 32,
                got: 31,
            }),
            "keyfmt",
        ),
        (
            "key parts that do not belong together",
            k(keyfmt::Error::KeyMismatch("x")),
            "keyfmt",
        ),
        ("bad PEM", k(keyfmt::Error::BadPem("x")), "keyfmt"),
        ("bad base64", k(keyfmt::Error::BadBase64), "keyfmt"),
        ("bad JSON", k(keyfmt::Error::BadJson("x")), "keyfmt"),
        ("bad CBOR", k(keyfmt::Error::BadCbor("x")), "keyfmt"),
        (
            "a missing key field",
            k(keyfmt::Error::MissingField("pub")),
            "keyfmt",
        ),
        (
            "a key field given twice",
            k(keyfmt::Error::DuplicateField("pub")),
            "keyfmt",
        ),
        (
            "a key type other than AKP",
            k(keyfmt::Error::WrongKeyType),
            "keyfmt",
        ),
        (
            "an encoding needing a seed the key lacks",
            k(keyfmt::Error::NoSeed),
            "keyfmt",
        ),
        (
            "a format without an encoding for the algorithm",
            k(keyfmt::Error::UnsupportedFormat("x")),
            "keyfmt",
        ),
        // wire
        (
            "input too short",
            w(wire::Error::TooShort { needed: 2, got: 1 }),
            "wire",
        ),
        (
            "trailing bytes",
            w(wire::Error::TrailingBytes { extra: 1 }),
            "wire",
        ),
        (
            "bad magic",
            w(wire::Error::BadMagic {
                found: *b"XXXX",
                expected: *b"LSD1",
            }),
            "wire",
        ),
        ("bad version", w(wire::Error::BadVersion(9)), "wire"),
        (
            "a mode byte naming nothing",
            w(wire::Error::UnknownMode(7)),
            "wire",
        ),
        (
            "a length differs from the required one",
            w(wire::Error::LengthMismatch { expected: 1, got: 2 }),
            "wire",
        ),
        (
            "count too large",
            w(wire::Error::CountTooLarge { got: 9, max: 1 }),
            "wire",
        ),
        (
            "a value outside its domain",
            w(wire::Error::InvalidValue("x")),
            "wire",
        ),
        // vss
        ("empty set", v(vss::Error::EmptySet), "vss"),
        (
            "a party list names a party twice",
            v(vss::Error::DuplicateParty { party: p }),
            "vss",
        ),
        (
            "party not in the set",
            v(vss::Error::PartyNotInSet { party: p }),
            "vss",
        ),
        (
            "threshold outside 1..=n",
            v(vss::Error::InvalidThreshold {
                threshold: 0,
                parties: 1,
            }),
            "vss",
        ),
        (
            "a share that does not open the commitments",
            v(vss::Error::InvalidShare { party: p }),
            "vss",
        ),
        ("commitment mode mismatch", v(vss::Error::ModeMismatch), "vss"),
        (
            "a length differs from the required one",
            v(vss::Error::LengthMismatch { expected: 1, got: 2 }),
            "vss",
        ),
        ("degenerate interpolation set", v(vss::Error::Degenerate), "vss"),
        // lss
        (
            "a party list names a party twice",
            l(lss::Error::DuplicateParty { party: p }),
            "lss",
        ),
        ("unsorted party list", l(lss::Error::UnsortedParties), "lss"),
        (
            "not a participant",
            l(lss::Error::NotAParticipant { party: p }),
            "lss",
        ),
        (
            "old share missing",
            l(lss::Error::MissingOldShare { party: p }),
            "lss",
        ),
        (
            "old share of another group or party",
            l(lss::Error::OldShareMismatch { party: p }),
            "lss",
        ),
        (
            "threshold outside 1..=n",
            l(lss::Error::InvalidThreshold {
                threshold: 0,
                parties: 1,
            }),
            "lss",
        ),
        (
            "too few dealers announced",
            l(lss::Error::NotEnoughDealers { needed: 2, got: 1 }),
            "lss",
        ),
        (
            "dealer not in the old set",
            l(lss::Error::DealerNotInOldSet { party: p }),
            "lss",
        ),
        (
            "too few dealers qualified",
            l(lss::Error::NotEnoughQualified {
                needed: 2,
                qualified: 1,
                culprits: vec![p],
            }),
            "lss",
        ),
        (
            "the group commitment changed",
            l(lss::Error::GroupKeyChanged),
            "lss",
        ),
        (
            "a new share inconsistent with the commitments",
            l(lss::Error::InconsistentShare),
            "lss",
        ),
        (
            "a torsion component in a sum of torsion-free deals",
            l(lss::Error::InconsistentCommitments),
            "lss",
        ),
        (
            "too few proofs of possession",
            l(lss::Error::NotEnoughPossessionProofs {
                needed: 2,
                got: 1,
                culprits: vec![p],
            }),
            "lss",
        ),
        (
            "an object over another group",
            l(lss::Error::WrongCurve {
                expected: vss::CurveId::Ed25519,
                found: vss::CurveId::Secp256k1,
            }),
            "lss",
        ),
        (
            "certificate of another scheme or group",
            fault(ActivationFault::WrongGroup),
            "lss",
        ),
        (
            "certificate of another key",
            fault(ActivationFault::WrongKey),
            "lss",
        ),
        (
            "certificate of another generation",
            fault(ActivationFault::WrongGeneration { expected: 2, got: 1 }),
            "lss",
        ),
        (
            "certificate of another dealing",
            fault(ActivationFault::WrongTranscript),
            "lss",
        ),
        (
            "certificate with too few members",
            fault(ActivationFault::TooFewMembers { needed: 3, got: 2 }),
            "lss",
        ),
        (
            "certificate naming a non-member",
            fault(ActivationFault::NotAMember { party: p }),
            "lss",
        ),
        (
            "certificate with invalid proofs",
            fault(ActivationFault::InvalidProof { members: vec![p] }),
            "lss",
        ),
        // lens
        (
            "an object over another group",
            n(lens::Error::WrongCurve {
                expected: Curve::Ed25519,
                found: Curve::Secp256k1,
            }),
            "lens",
        ),
        (
            "threshold outside 1..=n",
            n(lens::Error::InvalidThreshold {
                threshold: 0,
                parties: 1,
            }),
            "lens",
        ),
        (
            "a party without the role",
            n(lens::Error::UnknownParty { party: p }),
            "lens",
        ),
        (
            "a party list names a party twice",
            n(lens::Error::DuplicateSigner { party: p }),
            "lens",
        ),
        (
            "from differs from the transport sender",
            n(lens::Error::SenderMismatch { party: p, claimed: p }),
            "lens",
        ),
        (
            "an expected message is missing",
            n(lens::Error::MissingMessage { party: p }),
            "lens",
        ),
        (
            "fewer signers than the threshold",
            n(lens::Error::NotEnoughSigners { needed: 2, got: 1 }),
            "lens",
        ),
        (
            "another generation",
            n(lens::Error::EpochMismatch {
                party: Some(p),
                expected: epoch,
                found: epoch,
            }),
            "lens",
        ),
        (
            "signing package without this signer's commitments",
            n(lens::Error::CommitmentMismatch { party: p }),
            "lens",
        ),
        (
            "a signature share that does not verify",
            n(lens::Error::InvalidSignatureShare { culprits: vec![p] }),
            "lens",
        ),
        (
            "a share that does not open the commitments",
            n(lens::Error::InvalidSecretShare { culprit: Some(p) }),
            "lens",
        ),
        (
            "a signature that does not verify",
            n(lens::Error::InvalidSignature),
            "lens",
        ),
        (
            "a message reserved for activation",
            n(lens::Error::ReservedMessage),
            "lens",
        ),
        ("internal invariant", n(lens::Error::Internal("x")), "lens"),
        // pulsar
        (
            "a party without the role",
            u(pulsar::Error::UnknownParty { party: p }),
            "pulsar",
        ),
        (
            "a party list names a party twice",
            u(pulsar::Error::DuplicateSigner { party: p }),
            "pulsar",
        ),
        (
            "too few valid shares",
            u(pulsar::Error::NotEnoughValidShares {
                needed: 2,
                got: 1,
                culprits: vec![p],
                blame: vec![Blame::new(p, BlameReason::InvalidShare)],
            }),
            "pulsar",
        ),
        (
            "fewer signers than the threshold",
            u(pulsar::Error::NotEnoughSigners { needed: 2, got: 1 }),
            "pulsar",
        ),
        (
            "not a signer of the session",
            u(pulsar::Error::NotASigner { party: p }),
            "pulsar",
        ),
        (
            "another generation",
            u(pulsar::Error::GenerationMismatch { expected: 1, got: 0 }),
            "pulsar",
        ),
        (
            "a share or key of another group",
            u(pulsar::Error::GroupMismatch),
            "pulsar",
        ),
        (
            "a sharing that is not Pedersen",
            u(pulsar::Error::NotPedersen),
            "pulsar",
        ),
        (
            "the rebuilt key is not the group key",
            u(pulsar::Error::GroupKeyMismatch),
            "pulsar",
        ),
        (
            "the combiner key is not the session's",
            u(pulsar::Error::CombinerMismatch),
            "pulsar",
        ),
        (
            "an operation of another purpose",
            u(pulsar::Error::PurposeMismatch),
            "pulsar",
        ),
        (
            "an invalid group-key announcement",
            u(pulsar::Error::InvalidAnnouncement),
            "pulsar",
        ),
        (
            "a context reserved for activation",
            u(pulsar::Error::ReservedContext),
            "pulsar",
        ),
        // pulsar committee
        (
            "an invalid committee",
            o(committee::Error::InvalidCommittee("2 ≤ T ≤ N ≤ 6")),
            "committee",
        ),
        (
            "a signing set that is not exactly T",
            o(committee::Error::WrongSignerCount { needed: 3, got: 2 }),
            "committee",
        ),
        (
            "a party list names a party twice",
            o(committee::Error::DuplicateSigner { party: p }),
            "committee",
        ),
        (
            "a party without the role",
            o(committee::Error::UnknownParty { party: p }),
            "committee",
        ),
        (
            "not a signer of the session",
            o(committee::Error::NotASigner { party: p }),
            "committee",
        ),
        (
            "a share or key of another group",
            o(committee::Error::KeyMismatch),
            "committee",
        ),
        (
            "context too long",
            o(committee::Error::ContextTooLong { len: 256 }),
            "committee",
        ),
        (
            "a committee session that a signer broke",
            o(committee::Error::Aborted {
                culprits: vec![p],
                blame: vec![Blame::new(p, BlameReason::BrokenReveal)],
            }),
            "committee",
        ),
        (
            "every run of a committee session failed",
            o(committee::Error::RunsExhausted { runs: 32 }),
            "committee",
        ),
        (
            "a combined signature that does not verify",
            o(committee::Error::CombinedSignatureInvalid),
            "committee",
        ),
        // magnetar
        (
            "an object of another parameter set",
            g(magnetar::Error::WrongMode {
                expected: sets,
                got: magnetar::Mode::Shake256s,
            }),
            "magnetar",
        ),
        (
            "a signer outside the registry",
            g(magnetar::Error::UnknownSigner { id: v_id }),
            "magnetar",
        ),
        (
            "a certificate names a signer twice",
            g(magnetar::Error::DuplicateSigner { id: v_id }),
            "magnetar",
        ),
        (
            "a certificate naming no signer",
            g(magnetar::Error::NoSigners),
            "magnetar",
        ),
        (
            "a signature that does not verify",
            g(magnetar::Error::InvalidSignatures { failed: vec![v_id] }),
            "magnetar",
        ),
        (
            "a registry names a validator twice",
            g(magnetar::Error::DuplicateValidator { id: v_id }),
            "magnetar",
        ),
        (
            "a validator set holding one key twice",
            g(magnetar::Error::DuplicateKey {
                first: v_id,
                second: v_id,
            }),
            "magnetar",
        ),
        (
            "a validator set over its size limit",
            g(magnetar::Error::TooManyValidators { got: 2000, max: 1024 }),
            "magnetar",
        ),
        // quorum
        (
            "a quorum rule outside 0 <= n < d",
            q(quorum::Error::InvalidQuorum {
                numerator: 3,
                denominator: 3,
            }),
            "quorum",
        ),
        (
            "a total weight of zero",
            q(quorum::Error::ZeroTotalWeight),
            "quorum",
        ),
        (
            "weights summing past u64",
            q(quorum::Error::WeightOverflow),
            "quorum",
        ),
        (
            "a signed weight above the total",
            q(quorum::Error::WeightExceedsTotal { signed: 2, total: 1 }),
            "quorum",
        ),
        (
            "a signed weight not above the rule's share",
            q(quorum::Error::QuorumNotMet {
                signed: 2,
                total: 3,
                numerator: 2,
                denominator: 3,
            }),
            "quorum",
        ),
        // party
        ("a step after the end", y(party::Error::Finished), "party"),
        (
            "an expected message is missing",
            y(party::Error::Waiting { party: p }),
            "party",
        ),
        // keystore
        (
            "a snapshot that does not decode",
            s(keystore::Error::Malformed(wire::Error::TrailingBytes {
                extra: 1,
            })),
            "keystore",
        ),
        (
            "a damaged or altered snapshot",
            s(keystore::Error::Corrupt(Corruption::Digest)),
            "keystore",
        ),
        (
            "a snapshot under another key",
            s(keystore::Error::WrongKey),
            "keystore",
        ),
        (
            "a snapshot sealed without a passphrase",
            s(keystore::Error::NotPassphraseSealed),
            "keystore",
        ),
        (
            "invalid KDF parameters",
            s(keystore::Error::InvalidKdfParams("m")),
            "keystore",
        ),
        (
            "KDF parameters over the limits",
            s(keystore::Error::KdfTooCostly { m_kib: 1, t: 1, p: 1 }),
            "keystore",
        ),
        (
            "KDF memory unavailable",
            s(keystore::Error::KdfMemory { m_kib: 1 }),
            "keystore",
        ),
        (
            "invalid snapshot metadata",
            s(keystore::Error::InvalidMetadata("x")),
            "keystore",
        ),
        (
            "payload too large",
            s(keystore::Error::PayloadTooLarge { len: 2, max: 1 }),
            "keystore",
        ),
        (
            "no stored generation",
            s(keystore::Error::UnknownGeneration(3)),
            "keystore",
        ),
        ("an empty store", s(keystore::Error::EmptyStore), "keystore"),
        (
            "a save below the high-water mark",
            s(keystore::Error::StaleGeneration {
                generation: 1,
                high_water: 2,
            }),
            "keystore",
        ),
        (
            "a generation argument that differs from the snapshot's",
            s(keystore::Error::GenerationMismatch {
                expected: 1,
                found: 2,
            }),
            "keystore",
        ),
        (
            "a rollback that is not earlier",
            s(keystore::Error::RollbackNotEarlier { to: 2, current: 1 }),
            "keystore",
        ),
        (
            "a rollback below the activated generation",
            s(keystore::Error::RollbackBeforeActivation { to: 1, activated: 2 }),
            "keystore",
        ),
        (
            "an activation older than the activated generation",
            s(keystore::Error::StaleActivation {
                generation: 1,
                activated: 2,
            }),
            "keystore",
        ),
        (
            "a decrypted payload that is not a keyring entry",
            s(keystore::Error::EntryMalformed(wire::Error::TrailingBytes {
                extra: 1,
            })),
            "keystore",
        ),
        (
            "a keyring whose activation the store did not record",
            s(keystore::Error::ActivationNotRecorded { generation: 2 }),
            "keystore",
        ),
        (
            "an activation receipt for another keyring",
            s(keystore::Error::ReceiptMismatch { generation: 2 }),
            "keystore",
        ),
        (
            "a file too large",
            s(keystore::Error::FileTooLarge {
                path: "f".into(),
                len: 2,
                max: 1,
            }),
            "keystore",
        ),
        (
            "a state file that does not decode",
            s(keystore::Error::StateMalformed(wire::Error::TrailingBytes {
                extra: 1,
            })),
            "keystore",
        ),
        (
            "a damaged or altered state file",
            s(keystore::Error::StateCorrupt(Corruption::Authentication)),
            "keystore",
        ),
        (
            "a file-system error",
            s(keystore::Error::Io {
                op: "read",
                kind: "NotFound".into(),
                path: "f".into(),
            }),
            "keystore",
        ),
        // cert
        ("a leg kind naming no leg", c(cert::Error::UnknownLeg(9)), "cert"),
        (
            "a leg repeated or out of order",
            c(cert::Error::DuplicateLeg(K::Pulsar)),
            "cert",
        ),
        (
            "validator ids out of order",
            c(cert::Error::UnsortedValidators { index: 1 }),
            "cert",
        ),
        (
            "a registry names a validator twice",
            c(cert::Error::DuplicateValidator { index: 1 }),
            "cert",
        ),
        (
            "a validator of weight zero",
            c(cert::Error::ZeroWeight { index: 0 }),
            "cert",
        ),
        (
            "a validator set holding one key twice",
            c(cert::Error::DuplicateMlDsaKey { first: 0, second: 1 }),
            "cert",
        ),
        ("weights summing past u64", c(cert::Error::WeightOverflow), "cert"),
        (
            "a certificate for another chain",
            c(cert::Error::WrongChain { expected: 1, got: 2 }),
            "cert",
        ),
        (
            "a certificate for another epoch",
            c(cert::Error::WrongEpoch { expected: 1, got: 2 }),
            "cert",
        ),
        (
            "a header naming another validator set",
            c(cert::Error::SetRootMismatch),
            "cert",
        ),
        (
            "a header naming another key era",
            c(cert::Error::KeyEraMismatch { expected: 0, got: 1 }),
            "cert",
        ),
        (
            "a required leg absent",
            c(cert::Error::MissingLeg(K::Bls)),
            "cert",
        ),
        (
            "a set without keys for a required leg",
            c(cert::Error::MissingKeys(K::MlDsaSet)),
            "cert",
        ),
        (
            "a leg of another parameter set than the set's",
            c(cert::Error::LegModeMismatch(K::Pulsar)),
            "cert",
        ),
        (
            "a bitmap sized for another set",
            c(cert::Error::BitmapSize {
                kind: K::Bls,
                expected: 4,
                got: 5,
            }),
            "cert",
        ),
        (
            "a signer outside the registry",
            c(cert::Error::UnknownSigner {
                kind: K::Bls,
                index: 4,
            }),
            "cert",
        ),
        (
            "a certificate names a signer twice",
            c(cert::Error::DuplicateSigner {
                kind: K::Bls,
                index: 0,
            }),
            "cert",
        ),
        (
            "a certificate naming no signer",
            c(cert::Error::NoSigners(K::Bls)),
            "cert",
        ),
        (
            "a signed weight not above the rule's share",
            c(cert::Error::QuorumNotMet {
                kind: K::Bls,
                signed: 2,
                total: 4,
            }),
            "cert",
        ),
        (
            "a signature that does not verify",
            c(cert::Error::InvalidSignature {
                kind: K::Bls,
                signer: None,
            }),
            "cert",
        ),
        (
            "a policy that cannot be used",
            c(cert::Error::InvalidPolicy("no leg")),
            "cert",
        ),
        ("a name naming no policy", c(cert::Error::UnknownPolicy), "cert"),
        (
            "a certificate older than the client's state",
            c(cert::Error::StaleCertificate {
                epoch: 0,
                height: 1,
                current_epoch: 0,
                current_height: 1,
            }),
            "cert",
        ),
        (
            "an epoch change skipped",
            c(cert::Error::SkippedEpoch { current: 0, got: 2 }),
            "cert",
        ),
        (
            "an epoch's last block without its next set",
            c(cert::Error::MissingNextSet),
            "cert",
        ),
        (
            "a next set with a block that commits to none",
            c(cert::Error::UnexpectedNextSet),
            "cert",
        ),
        (
            "a next set other than the committed one",
            c(cert::Error::NextSetMismatch),
            "cert",
        ),
        (
            "a key era going back",
            c(cert::Error::KeyEraRegression { current: 2, got: 1 }),
            "cert",
        ),
        (
            "a key era kept with another key",
            c(cert::Error::EraKeyChanged(0)),
            "cert",
        ),
    ]
}

/// Every blame reason, with the fault it names.
fn all_blame() -> Vec<(&'static str, BlameReason)> {
    let p = pid(2);
    vec![
        (
            "bytes that do not decode",
            BlameReason::Malformed(wire::Error::TrailingBytes { extra: 1 }),
        ),
        ("a message of another kind", BlameReason::WrongKind),
        ("a party without the role", BlameReason::UnknownParty),
        (
            "from differs from the transport sender",
            BlameReason::SenderMismatch { claimed: p },
        ),
        ("a message of another session", BlameReason::WrongSession),
        (
            "a private message for another party",
            BlameReason::WrongRecipient { to: p },
        ),
        (
            "another generation",
            BlameReason::WrongGeneration { expected: 1, got: 0 },
        ),
        (
            "a message bound to another message to sign",
            BlameReason::WrongMessage,
        ),
        ("a message with other parameters", BlameReason::ParameterMismatch),
        ("a copy of a message", BlameReason::DuplicateMessage),
        (
            "two different messages of one kind",
            BlameReason::ConflictingMessage,
        ),
        ("no deal", BlameReason::MissingDeal),
        ("a deal of the wrong shape", BlameReason::MalformedDeal),
        (
            "a proof of knowledge that does not verify",
            BlameReason::InvalidProof,
        ),
        ("a dealer changing the secret", BlameReason::WrongConstant),
        (
            "commitments outside the prime-order group",
            BlameReason::InvalidCommitment,
        ),
        (
            "an unanswered complaint",
            BlameReason::UnansweredComplaint { complainer: p },
        ),
        (
            "an opening that does not match",
            BlameReason::InvalidOpening { complainer: p },
        ),
        (
            "a provably false complaint",
            BlameReason::FalseComplaint { dealer: p },
        ),
        (
            "a complaint against a non-dealer",
            BlameReason::InvalidComplaint { dealer: p },
        ),
        (
            "a share that does not open the commitments",
            BlameReason::InvalidShare,
        ),
        (
            "a proof of possession that does not verify",
            BlameReason::InvalidPossessionProof,
        ),
        ("a reveal that breaks its commitment", BlameReason::BrokenReveal),
    ]
}

fn is_upper_snake(code: &str) -> bool {
    !code.is_empty()
        && code
            .split('_')
            .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
        && code.starts_with(|c: char| c.is_ascii_uppercase())
}

#[test]
fn codes_are_upper_snake_and_no_code_names_two_faults() {
    let errors = all_errors();
    let blame = all_blame();
    assert_eq!(blame.len(), 23, "every BlameReason variant");
    let mut by_code: BTreeMap<&'static str, BTreeSet<&'static str>> = BTreeMap::new();
    let mut count: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (fault, e, module) in &errors {
        let code = e.code();
        assert!(is_upper_snake(code), "{code}");
        assert_eq!(e.module(), *module, "{code}");
        assert!(!e.to_string().is_empty());
        by_code.entry(code).or_default().insert(fault);
        *count.entry(code).or_default() += 1;
    }
    for (fault, r) in &blame {
        let code = r.code();
        assert!(is_upper_snake(code), "{code}");
        assert!(!r.to_string().is_empty());
        by_code.entry(code).or_default().insert(fault);
        *count.entry(code).or_default() += 1;
    }
    // One fault per code.
    for (code, faults) in &by_code {
        assert_eq!(faults.len(), 1, "{code} names several faults: {faults:?}");
    }
    // The shared codes are exactly the deliberate ones, each naming its listed fault.
    let shared: BTreeSet<&str> = count.iter().filter(|(_, n)| **n > 1).map(|(c, _)| *c).collect();
    let listed: BTreeSet<&str> = SHARED.iter().map(|(c, _)| *c).collect();
    assert_eq!(shared, listed, "the codes used by more than one variant");
    for (code, fault) in SHARED {
        assert_eq!(by_code[code].iter().next().unwrap(), fault, "{code}");
    }
    // The blame reasons have distinct codes among themselves.
    let blame_codes: BTreeSet<&str> = blame.iter().map(|(_, r)| r.code()).collect();
    assert_eq!(blame_codes.len(), blame.len());
    assert!(count.len() > 90, "{} codes", count.len());
}

#[test]
fn certificate_wrappers_report_their_inner_code() {
    let wrapped = [
        (
            cert::Error::Decode(wire::Error::TrailingBytes { extra: 1 }),
            "TRAILING_BYTES",
        ),
        (
            cert::Error::InvalidBlsKey {
                index: 2,
                error: quasar_pq::bls::Error::InvalidProofOfPossession { index: 2 },
            },
            "INVALID_PROOF_OF_POSSESSION",
        ),
        (
            cert::Error::InvalidMlDsaKey(mldsa::Error::UnknownMode(7)),
            "UNKNOWN_MODE",
        ),
        (
            cert::Error::MalformedSignature {
                kind: K::Bls,
                error: quasar_pq::bls::Error::NotOnCurve { what: "signature" },
            },
            "NOT_ON_CURVE",
        ),
        (
            cert::Error::Magnetar(quasar_pq::magnetar::Error::NoSigners),
            "NO_SIGNERS",
        ),
    ];
    for (e, code) in wrapped {
        assert_eq!(e.code(), code);
        let e = quasar_pq::Error::from(e);
        assert_eq!((e.code(), e.module()), (code, "cert"));
        assert!(e.culprits().is_empty());
    }
    assert_eq!(
        cert::Error::Magnetar(quasar_pq::magnetar::Error::NoSigners).leg(),
        Some(K::Magnetar)
    );
    assert_eq!(
        cert::Error::QuorumNotMet {
            kind: K::MlDsaSet,
            signed: 1,
            total: 3
        }
        .leg(),
        Some(K::MlDsaSet)
    );
    assert_eq!(cert::Error::SetRootMismatch.leg(), None);
}

#[test]
fn wrappers_report_their_inner_code_and_culprits() {
    let p = pid(3);
    let inner = vss::Error::InvalidShare { party: p };
    let nested = [
        quasar_pq::Error::from(lss::Error::Vss(inner.clone())),
        quasar_pq::Error::from(lens::Error::Lss(lss::Error::Vss(inner.clone()))),
        quasar_pq::Error::from(pulsar::Error::Lss(lss::Error::Vss(inner))),
    ];
    for e in &nested {
        assert_eq!(e.code(), "INVALID_SHARE");
    }
    assert_eq!(
        quasar_pq::Error::from(lens::Error::Decode(wire::Error::TrailingBytes { extra: 1 })).code(),
        "TRAILING_BYTES"
    );
    assert_eq!(
        quasar_pq::Error::from(pulsar::Error::Decode(wire::Error::BadVersion(2))).code(),
        "BAD_VERSION"
    );
    assert_eq!(
        quasar_pq::Error::from(pulsar::Error::MlDsa(mldsa::Error::InvalidSignature)).code(),
        "INVALID_SIGNATURE"
    );
    let in_generation = keystore::Error::InGeneration {
        generation: 4,
        error: Box::new(keystore::Error::WrongKey),
    };
    assert_eq!(in_generation.code(), "WRONG_KEY");
    assert_eq!(in_generation.generation(), Some(4));
    // Magnetar wraps decoding, SLH-DSA and quorum errors under its own module.
    for (inner, code) in [
        (
            magnetar::Error::from(wire::Error::TrailingBytes { extra: 1 }),
            "TRAILING_BYTES",
        ),
        (
            magnetar::Error::from(slhdsa::Error::InvalidLength {
                what: "signature",
                expected: 16224,
                got: 1,
            }),
            "INVALID_LENGTH",
        ),
        (
            magnetar::Error::from(slhdsa::Error::InvalidSignature),
            "INVALID_SIGNATURE",
        ),
        (
            magnetar::Error::from(quorum::Error::ZeroTotalWeight),
            "ZERO_TOTAL_WEIGHT",
        ),
    ] {
        let top = quasar_pq::Error::from(inner);
        assert_eq!((top.code(), top.module()), (code, "magnetar"));
        assert!(top.culprits().is_empty());
    }
    // Culprits travel through every wrapper.
    let qualified = lss::Error::NotEnoughQualified {
        needed: 3,
        qualified: 2,
        culprits: vec![p],
    };
    assert_eq!(quasar_pq::Error::from(qualified.clone()).culprits(), &[p]);
    assert_eq!(
        quasar_pq::Error::from(lens::Error::Lss(qualified.clone())).culprits(),
        &[p]
    );
    assert_eq!(
        quasar_pq::Error::from(pulsar::Error::Lss(qualified)).culprits(),
        &[p]
    );
    assert_eq!(
        quasar_pq::Error::from(lens::Error::InvalidSignatureShare { culprits: vec![p] }).culprits(),
        &[p]
    );
    // Nobody is blamed for what no message proves.
    for e in [
        quasar_pq::Error::from(party::Error::Waiting { party: p }),
        quasar_pq::Error::from(lens::Error::MissingMessage { party: p }),
        quasar_pq::Error::from(lss::Error::InvalidActivation(ActivationFault::WrongKey)),
    ] {
        assert!(e.culprits().is_empty(), "{e}");
    }
}

#[test]
fn blame_reasons_fall_in_two_groups() {
    let message_faults: BTreeSet<&str> = [
        "MALFORMED_MESSAGE",
        "WRONG_KIND",
        "UNKNOWN_PARTY",
        "SENDER_MISMATCH",
        "WRONG_SESSION",
        "WRONG_RECIPIENT",
        "WRONG_GENERATION",
        "WRONG_MESSAGE",
        "PARAMETER_MISMATCH",
        "DUPLICATE_MESSAGE",
        "CONFLICTING_MESSAGE",
    ]
    .into();
    let disqualifying: BTreeSet<&str> = [
        "MISSING_DEAL",
        "MALFORMED_DEAL",
        "INVALID_PROOF",
        "WRONG_CONSTANT",
        "INVALID_COMMITMENT",
        "UNANSWERED_COMPLAINT",
        "INVALID_OPENING",
    ]
    .into();
    for (_, r) in all_blame() {
        assert_eq!(
            r.is_message_fault(),
            message_faults.contains(r.code()),
            "{}",
            r.code()
        );
        assert_eq!(
            r.disqualifies_dealer(),
            disqualifying.contains(r.code()),
            "{}",
            r.code()
        );
        assert!(!(r.is_message_fault() && r.disqualifies_dealer()));
    }
    assert_eq!(BlameReason::WrongRecipient { to: pid(6) }.related(), Some(pid(6)));
    assert_eq!(
        BlameReason::InvalidOpening { complainer: pid(4) }.related(),
        Some(pid(4))
    );
    assert_eq!(BlameReason::MissingDeal.related(), None);
    let b = Blame::new(pid(1), BlameReason::WrongRecipient { to: pid(6) });
    assert_eq!(
        b.to_string(),
        "party 1 sent a private message addressed to party 6"
    );
    assert_eq!(
        party::culprits([
            [Blame::new(pid(3), BlameReason::WrongKind)].as_slice(),
            [
                Blame::new(pid(1), BlameReason::MissingDeal),
                Blame::new(pid(3), BlameReason::InvalidProof)
            ]
            .as_slice(),
        ]),
        vec![pid(1), pid(3)]
    );
}
