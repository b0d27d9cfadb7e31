//! The light-client sequences of `kats/cert.json`: a client trusting an epoch-0 set follows
//! certificates (and next sets) of the file step by step, each step's verdict recorded and
//! checked, into epoch 1 — the custody chain (one key, reshared), the committee chain and the
//! strict chain (a new key in key era 1).

use quasar_pq::cert::{LightClient, Policy, ValidatorSet};

use super::splice::Cert;
use crate::format::{ensure, Failure, Obj};

/// The sequences over `sets` (by name) and `certs`, each step checked against its expected
/// code.
pub(super) fn sequences(sets: &[(&str, &ValidatorSet)], certs: &[Cert]) -> Result<Vec<Obj>, Failure> {
    // A light client following epoch 0 into epoch 1 under PQ-fast: the custody chain (one
    // key, reshared) and the committee chain (a new key in key era 1); and under PQ-strict,
    // the strict chain (a new Corona key in key era 1).
    type Plan<'a> = &'a [(&'a str, Option<&'a str>, &'a str)];
    let plans: [(&str, &str, Policy, u64, Plan<'_>); 3] = [
        (
            "follow-epoch-change",
            "epoch-0",
            Policy::PQ_FAST,
            0,
            &[
                ("fast", None, ""),
                ("heavy", None, ""),
                ("fast", None, "STALE_CERTIFICATE"),
                ("end-of-epoch-0", Some("epoch-1-forged"), "NEXT_SET_MISMATCH"),
                ("end-of-epoch-0", None, "MISSING_NEXT_SET"),
                ("epoch-1", None, "SKIPPED_EPOCH"),
                ("end-of-epoch-0", Some("epoch-1"), ""),
                ("epoch-1", None, ""),
                ("bls-only", None, "STALE_CERTIFICATE"),
            ],
        ),
        (
            "follow-committee-key-era",
            "committee-epoch-0",
            Policy::PQ_FAST,
            1,
            &[
                ("committee-1", None, ""),
                ("committee-epoch-1", None, "SKIPPED_EPOCH"),
                ("committee-end-of-epoch-0", Some("committee-epoch-1"), ""),
                ("committee-epoch-1", None, ""),
            ],
        ),
        (
            "follow-corona-key-era",
            "strict-epoch-0",
            Policy::PQ_STRICT,
            1,
            &[
                ("strict-corona-broken", None, "INVALID_SIGNATURE"),
                ("strict-1", None, ""),
                ("strict-end-of-epoch-0", Some("strict-epoch-1"), ""),
                ("strict-epoch-1", None, ""),
            ],
        ),
    ];
    let find = |name: &str| {
        certs
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| Failure(format!("no {name}")))
    };
    let mut light = Vec::new();
    for (seq, start, policy, key_era, plan) in plans {
        let first = sets
            .iter()
            .find(|(n, _)| *n == start)
            .map(|(_, s)| (*s).clone())
            .ok_or_else(|| Failure(format!("no set {start}")))?;
        let mut client = LightClient::new(first, policy)?;
        let mut steps = Vec::new();
        for (cert, next, code) in plan {
            let bytes = &find(cert)?.bytes;
            let next_bytes = next
                .and_then(|n| sets.iter().find(|(s, _)| *s == n))
                .map(|(_, s)| s.as_bytes());
            let result = client.update(bytes, next_bytes);
            let got = result.as_ref().err().map_or("", |e| e.code());
            ensure(got == *code, &format!("light step {cert}: {code:?}, got {got:?}"))?;
            steps.push(
                Obj::default()
                    .str("certificate", cert)
                    .str("next_set", next.unwrap_or(""))
                    .bool("accepted", result.is_ok())
                    .str("code", got)
                    .int("epoch", client.epoch()),
            );
        }
        ensure(client.epoch() == 1, "the client ends at epoch 1")?;
        ensure(
            client.trusted().set().key_era() == key_era,
            "the client ends in the expected key era",
        )?;
        light.push(
            Obj::default()
                .str("name", seq)
                .str("set", start)
                .str("policy", policy.name())
                .int("key_era", key_era)
                .objs("steps", steps),
        );
    }
    Ok(light)
}
