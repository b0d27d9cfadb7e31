//! A validator of the devnet: its own keys, its enrollment (what the aggregator puts in the
//! set), its block signatures, and the check the aggregator makes of them.

use std::collections::BTreeMap;

use quasar_pq::cert::{Validator, ValidatorSet, MAGNETAR_CONTEXT, MLDSA_CONTEXT};
use quasar_pq::{bls, magnetar, mldsa};
use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

use super::{builder, Block, MAGNETAR, MLDSA, SIGNED_BLOCK};
use crate::conduct::Label;
use crate::driver::Publication;
use crate::report::Failure;

/// One validator's public keys as it enrolls: party number, BLS key and proof of
/// possession, ML-DSA key, Magnetar key (fixed lengths, in this order).
pub(super) fn enrollment_len() -> usize {
    2 + bls::PUBLIC_KEY_LEN + bls::SIGNATURE_LEN + MLDSA.public_key_len() + MAGNETAR.public_key_len()
}

/// An enrollment's party and the validator it enrolls, whose id is SHA3-256 of the
/// enrollment (so it names the keys); `None` if malformed.
pub(super) fn validator(bytes: &[u8]) -> Option<(u16, Validator)> {
    if bytes.len() != enrollment_len() {
        return None;
    }
    let (party, rest) = bytes.split_at(2);
    let (bls_pk, rest) = rest.split_at(bls::PUBLIC_KEY_LEN);
    let (pop, rest) = rest.split_at(bls::SIGNATURE_LEN);
    let (mldsa_pk, slh_pk) = rest.split_at(MLDSA.public_key_len());
    let party = u16::from_be_bytes([party[0], party[1]]);
    Some((
        party,
        Validator {
            id: crate::conduct::digest(bytes),
            weight: 1,
            bls: Some((bls_pk.try_into().ok()?, pop.try_into().ok()?)),
            mldsa: Some(mldsa_pk.to_vec()),
            slhdsa: Some(slh_pk.to_vec()),
        },
    ))
}

/// Whether `v`'s BLS proof of possession verifies (a key without one could be a rogue key,
/// chosen to forge the aggregate).
pub(super) fn proves_possession(v: &Validator) -> bool {
    v.bls.as_ref().is_some_and(|(pk, pop)| {
        let (Ok(key), Ok(proof)) = (
            bls::VerifyingKey::from_bytes(pk),
            bls::ProofOfPossession::from_bytes(pop),
        ) else {
            return false;
        };
        key.verify_possession(&proof).is_ok()
    })
}

/// A validator's keys and the sets it was told (a party's node).
pub(crate) struct Keys {
    party: u16,
    /// Its validator id (SHA3-256 of its enrollment).
    id: [u8; 32],
    bls: bls::SigningKey,
    mldsa: (Vec<u8>, Zeroizing<Vec<u8>>),
    magnetar: magnetar::SigningKey,
    sets: BTreeMap<u64, ValidatorSet>,
}

impl Keys {
    /// Fresh keys for `party`, from `rng`.
    pub(crate) fn generate(party: u16, rng: &mut ChaCha20Rng) -> Result<Keys, Failure> {
        let mut seed = Zeroizing::new([0u8; 64]);
        rng.fill_bytes(&mut seed[..]);
        let bls = bls::SigningKey::keygen(&seed[..32], b"")?;
        let mut ml = Zeroizing::new([0u8; 32]);
        ml.copy_from_slice(&seed[32..]);
        let mldsa = mldsa::keygen(MLDSA, &ml);
        let mut slh = Zeroizing::new(vec![0u8; MAGNETAR.seed_len()]);
        rng.fill_bytes(&mut slh);
        let magnetar = magnetar::SigningKey::from_seed(MAGNETAR, &slh)?;
        let mut keys = Keys {
            party,
            id: [0; 32],
            bls,
            mldsa,
            magnetar,
            sets: BTreeMap::new(),
        };
        keys.id = crate::conduct::digest(&keys.enrollment());
        Ok(keys)
    }

    /// The enrollment: what the aggregator puts in the set.
    pub(crate) fn enrollment(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(enrollment_len());
        out.extend_from_slice(&self.party.to_be_bytes());
        out.extend_from_slice(&self.bls.verifying_key().to_bytes());
        out.extend_from_slice(&self.bls.prove_possession().to_bytes());
        out.extend_from_slice(&self.mldsa.0);
        out.extend_from_slice(self.magnetar.public_key().as_bytes());
        out
    }

    /// Keeps the set of `epoch` the aggregator announced, checking that it holds this
    /// validator's keys if it names it.
    pub(crate) fn told(&mut self, epoch: u64, bytes: &[u8], member: bool) -> Result<(), Failure> {
        let set = ValidatorSet::from_bytes(bytes)?;
        if set.view().epoch() != epoch || self.listed(&set) != member {
            return Err(Failure::local(
                "BAD_SET",
                format!("the announced set of epoch {epoch} does not list this validator as expected"),
            ));
        }
        self.sets.insert(epoch, set);
        Ok(())
    }

    /// Whether `set` lists this validator's keys.
    fn listed(&self, set: &ValidatorSet) -> bool {
        set.view().position(&self.id).is_some()
    }

    /// The message of `block`, computed from the sets this node holds.
    pub(crate) fn message(&self, block: &Block) -> Result<[u8; 32], Failure> {
        Ok(builder(&self.sets, block)?.message())
    }

    /// This validator's signatures on `block` ([`SIGNED_BLOCK`] ‖ BLS ‖ ML-DSA ‖ Magnetar
    /// frame), or nothing if it is not in the epoch's set. A validator that `cheats` (the
    /// run's misbehaving party) signs another message with BLS, which the aggregator must
    /// name and leave out.
    pub(crate) fn sign(
        &self,
        block: &Block,
        cheats: bool,
        rng: &mut ChaCha20Rng,
    ) -> Result<Vec<Publication>, Failure> {
        let Some(set) = self.sets.get(&block.epoch) else {
            return Ok(Vec::new());
        };
        if !self.listed(set) {
            return Ok(Vec::new());
        }
        let message = self.message(block)?;
        let mut rnd = [0u8; 32];
        rng.fill_bytes(&mut rnd);
        let mut out = SIGNED_BLOCK.to_vec();
        let mut bls_message = message;
        bls_message[0] ^= u8::from(cheats);
        out.extend(self.bls.sign(&bls_message).to_bytes());
        out.extend(mldsa::sign(
            MLDSA,
            &self.mldsa.1,
            &message,
            MLDSA_CONTEXT,
            Some(&rnd),
        )?);
        out.extend(self.magnetar.sign_deterministic(&message, MAGNETAR_CONTEXT)?);
        Ok(vec![Publication::to_hub(out)])
    }
}

/// A validator's checked signatures: BLS, ML-DSA, Magnetar frame.
pub(super) type Checked<'a> = (bls::Signature, &'a [u8], &'a [u8]);

/// A validator's BLS, ML-DSA and Magnetar signatures on `message`, each checked against its
/// enrolled key; the failing leg's code otherwise.
pub(super) fn check<'a>(v: &Validator, message: &[u8; 32], bytes: &'a [u8]) -> Result<Checked<'a>, Label> {
    let (sig, rest) = bytes
        .split_at_checked(bls::SIGNATURE_LEN)
        .ok_or("MALFORMED_MESSAGE")?;
    let (ml, mag) = rest
        .split_at_checked(MLDSA.signature_len())
        .ok_or("MALFORMED_MESSAGE")?;
    let sig = bls::Signature::from_bytes(sig.try_into().map_err(|_| "MALFORMED_MESSAGE")?)
        .map_err(|_| "MALFORMED_MESSAGE")?;
    let (Some((bls_pk, _)), Some(ml_pk), Some(slh_pk)) = (&v.bls, &v.mldsa, &v.slhdsa) else {
        return Err("MISSING_KEYS");
    };
    bls::VerifyingKey::from_bytes(bls_pk)
        .and_then(|k| k.verify(message, &sig))
        .map_err(|_| "INVALID_BLS_SIGNATURE")?;
    mldsa::verify(MLDSA, ml_pk, message, MLDSA_CONTEXT, ml).map_err(|_| "INVALID_MLDSA_SIGNATURE")?;
    magnetar::PublicKey::from_bytes(MAGNETAR, slh_pk)
        .and_then(|k| k.verify(message, MAGNETAR_CONTEXT, mag))
        .map_err(|_| "INVALID_MAGNETAR_SIGNATURE")?;
    Ok((sig, ml, mag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn an_enrollment_parses_to_its_keys_and_a_rogue_bls_key_is_refused() {
        let keys = Keys::generate(7, &mut ChaCha20Rng::from_seed([1; 32])).unwrap();
        let bytes = keys.enrollment();
        let (party, v) = validator(&bytes).unwrap();
        assert_eq!(party, 7);
        assert_eq!(v.id, keys.id);
        assert!(proves_possession(&v));
        // Another validator's proof of possession: well formed, but not for this key.
        let other = Keys::generate(8, &mut ChaCha20Rng::from_seed([2; 32]))
            .unwrap()
            .enrollment();
        let at = 2 + bls::PUBLIC_KEY_LEN;
        let mut rogue = bytes.clone();
        rogue[at..at + bls::SIGNATURE_LEN].copy_from_slice(&other[at..at + bls::SIGNATURE_LEN]);
        let (_, v) = validator(&rogue).unwrap();
        assert!(!proves_possession(&v));
        // Truncated or extended: not an enrollment.
        assert!(validator(&bytes[..bytes.len() - 1]).is_none());
        assert!(validator(&[bytes.as_slice(), &[0]].concat()).is_none());
    }

    #[test]
    fn a_validators_signatures_are_checked_leg_by_leg() {
        let keys = Keys::generate(1, &mut ChaCha20Rng::from_seed([3; 32])).unwrap();
        let (_, v) = validator(&keys.enrollment()).unwrap();
        let message = [9u8; 32];
        let mut signed = keys.bls.sign(&message).to_bytes().to_vec();
        signed.extend(mldsa::sign(MLDSA, &keys.mldsa.1, &message, MLDSA_CONTEXT, Some(&[0; 32])).unwrap());
        signed.extend(
            keys.magnetar
                .sign_deterministic(&message, MAGNETAR_CONTEXT)
                .unwrap(),
        );
        assert!(check(&v, &message, &signed).is_ok());
        assert_eq!(check(&v, &[8; 32], &signed).err(), Some("INVALID_BLS_SIGNATURE"));
        let ml = bls::SIGNATURE_LEN + 10;
        let mut bad = signed.clone();
        bad[ml] ^= 1;
        assert_eq!(check(&v, &message, &bad).err(), Some("INVALID_MLDSA_SIGNATURE"));
        let mut bad = signed.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert_eq!(
            check(&v, &message, &bad).err(),
            Some("INVALID_MAGNETAR_SIGNATURE")
        );
        assert_eq!(
            check(&v, &message, &signed[..50]).err(),
            Some("MALFORMED_MESSAGE")
        );
    }

    #[test]
    fn an_announced_set_is_kept_only_for_its_epoch_and_only_if_it_lists_this_validator_as_said() {
        let mut keys = Keys::generate(1, &mut ChaCha20Rng::from_seed([4; 32])).unwrap();
        let other = Keys::generate(2, &mut ChaCha20Rng::from_seed([5; 32])).unwrap();
        let set = |epoch, who: &[&Keys]| {
            let params = quasar_pq::cert::SetParams {
                chain_id: 1,
                epoch,
                key_era: 0,
                bls: true,
                mldsa: Some(MLDSA),
                slhdsa: Some(MAGNETAR.slhdsa()),
                pulsar_group_key: None,
                corona_group_key: None,
            };
            let validators = who
                .iter()
                .map(|k| validator(&k.enrollment()).unwrap().1)
                .collect();
            ValidatorSet::new(&params, validators)
                .unwrap()
                .as_bytes()
                .to_vec()
        };
        let bad_set = |r: Result<(), Failure>| r.err().map(|f| f.code);
        // Another epoch than announced; a set without it although it is a member; a set with
        // it although it is not; bytes that are no set.
        assert_eq!(bad_set(keys.told(0, &set(1, &[&keys]), true)), Some("BAD_SET"));
        assert_eq!(bad_set(keys.told(0, &set(0, &[&other]), true)), Some("BAD_SET"));
        assert_eq!(bad_set(keys.told(0, &set(0, &[&keys]), false)), Some("BAD_SET"));
        assert!(keys.told(0, b"not a set", true).is_err());
        assert!(keys.sets.is_empty());
        // As announced: kept.
        keys.told(0, &set(0, &[&keys, &other]), true).unwrap();
        assert!(keys.sets.contains_key(&0));
    }
}
