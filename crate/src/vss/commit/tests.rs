//! Commitments and shares: they open, encode and decode as the wire format says, and
//! batched checks agree with the per-share ones.

use super::*;
use crate::vss::batch::batch_weights;
use crate::vss::{Ed25519, Ristretto255, Secp256k1};
use rand_core::SeedableRng;

fn pid(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

/// Commitments encode as their points do one by one, also with a zero coefficient (an
/// identity point, which a batch encoding must not meet).
fn encodings_match_points<C: Curve>() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
    let mut coefficients: Vec<C::Scalar> = (0..5).map(|_| C::Scalar::random(&mut rng)).collect();
    for zero in [None, Some(2)] {
        if let Some(k) = zero {
            coefficients[k] = C::Scalar::ZERO;
        }
        let f = Polynomial::<C>::from_coefficients(coefficients.clone()).unwrap();
        let g = Polynomial::<C>::from_coefficients(coefficients.iter().rev().copied().collect()).unwrap();
        for mode in [Mode::Pedersen, Mode::Feldman] {
            let c = Commitments::<C>::commit(mode, &f, Some(&g)).unwrap();
            // The constant term asked for first: where the commitments were made in lanes,
            // before any point is decoded.
            let constant = match mode {
                Mode::Feldman => C::mul_base(&coefficients[0]),
                Mode::Pedersen => C::mul_base_h(&coefficients[0], &coefficients[4]),
            };
            assert_eq!(*c.clone().constant(), constant);
            assert_eq!(c.threshold(), 5);
            // Lent to the process and read back: the same body, not a copy (where the
            // encoding was made with the points; secp256k1's is made when first written).
            #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
            if c.body.encoded().is_some() {
                c.lend_decoding();
                let mut lent = Writer::new();
                c.write(&mut lent);
                let bytes = lent.into_bytes();
                let read =
                    Commitments::<C>::read_unchecked_subgroup(mode, 64, &mut Reader::new(&bytes)).unwrap();
                assert!(Arc::ptr_eq(&read.body, &c.body));
            }
            let mut w = Writer::new();
            c.write(&mut w);
            let mut one_by_one = Writer::new();
            one_by_one.u16(5);
            for p in c.points() {
                crate::vss::group::write_point::<C>(p, &mut one_by_one);
            }
            assert_eq!(w.into_bytes(), one_by_one.into_bytes());
            let expected = match mode {
                Mode::Feldman => C::mul_base(&coefficients[1]),
                Mode::Pedersen => C::mul_base_h(&coefficients[1], &coefficients[3]),
            };
            assert_eq!(c.points()[1], expected);
        }
    }
}

#[test]
fn encodings_match_points_on_every_curve() {
    encodings_match_points::<Ed25519>();
    encodings_match_points::<Ristretto255>();
    encodings_match_points::<Secp256k1>();
}

/// What `lend_decoding` rests on: the unchecked decoder accepts every encoding the encoder
/// makes and returns the point encoded, the identity and (Ed25519) torsion included; and
/// commitments lent by their maker read back equal to them.
fn decoding_round_trips<C: Curve>(extra: &[C::Point]) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
    let mut points: Vec<C::Point> = (0..4)
        .map(|_| C::mul_base(&C::Scalar::random(&mut rng)))
        .collect();
    points.push(C::Point::identity());
    points.extend_from_slice(extra);
    let c = Commitments::<C>::from_points(Mode::Feldman, points.clone()).unwrap();
    let mut w = Writer::new();
    c.write(&mut w);
    let bytes = w.into_bytes();
    assert_eq!(
        decode_unchecked_subgroup::<C>(&bytes[2..]).unwrap().points(),
        &points[..]
    );
    c.lend_decoding();
    let read =
        Commitments::<C>::read_unchecked_subgroup(Mode::Feldman, 64, &mut Reader::new(&bytes)).unwrap();
    assert_eq!(read, c);
    // Equality by kept encodings agrees with equality by points.
    let unencoded = Commitments::<C>::from_points(Mode::Feldman, points.clone()).unwrap();
    assert_eq!(unencoded, read);
    let mut other = points.clone();
    other[1] = other[0];
    let other = Commitments::<C>::from_points(Mode::Feldman, other).unwrap();
    assert_ne!(other, read);
    other.write(&mut Writer::new());
    assert_ne!(other, read);
    assert_ne!(
        read,
        Commitments::<C>::from_points(Mode::Pedersen, points.clone()).unwrap()
    );
    // A checked read of lent points still checks them.
    let checked = Commitments::<C>::read(Mode::Feldman, 64, &mut Reader::new(&bytes));
    assert_eq!(checked.is_ok(), extra.iter().all(C::is_torsion_free_vartime));
}

#[test]
fn decoding_round_trips_on_every_curve() {
    use curve25519_dalek::constants::EIGHT_TORSION;
    let torsion = EIGHT_TORSION[1];
    decoding_round_trips::<Ed25519>(&[
        torsion,
        torsion + curve25519_dalek::constants::ED25519_BASEPOINT_POINT,
    ]);
    decoding_round_trips::<Ristretto255>(&[]);
    decoding_round_trips::<Secp256k1>(&[]);
}

/// A refresh's commitments (zero constants) made without the constant's multiplication
/// equal the ordinary ones, points and encoding, in both modes and with threshold one.
fn zero_constant_commitments_match<C: Curve>() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(12);
    for t in [1, 2, 5] {
        let f = Polynomial::<C>::random(C::Scalar::ZERO, t, &mut rng).unwrap();
        let g = Polynomial::<C>::random(C::Scalar::ZERO, t, &mut rng).unwrap();
        for mode in [Mode::Pedersen, Mode::Feldman] {
            let plain = Commitments::<C>::commit(mode, &f, Some(&g)).unwrap();
            let lean = Commitments::<C>::commit_zero_constant(mode, &f, Some(&g)).unwrap();
            assert_eq!(lean.points(), plain.points());
            assert!(bool::from(lean.constant().is_identity()));
            let (mut a, mut b) = (Writer::new(), Writer::new());
            plain.write(&mut a);
            lean.write(&mut b);
            assert_eq!(a.into_bytes(), b.into_bytes());
        }
        let short = Polynomial::<C>::random(C::Scalar::ZERO, t + 1, &mut rng).unwrap();
        assert!(Commitments::<C>::commit_zero_constant(Mode::Pedersen, &f, Some(&short)).is_err());
        assert!(Commitments::<C>::commit_zero_constant(Mode::Pedersen, &f, None).is_err());
    }
}

#[test]
fn zero_constant_commitments_match_on_every_curve() {
    zero_constant_commitments_match::<Ed25519>();
    zero_constant_commitments_match::<Ristretto255>();
    zero_constant_commitments_match::<Secp256k1>();
}

fn shares_verify<C: Curve>() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let f = Polynomial::<C>::random(C::Scalar::random(&mut rng), 4, &mut rng).unwrap();
    let g = Polynomial::<C>::random(C::Scalar::random(&mut rng), 4, &mut rng).unwrap();
    for mode in [Mode::Pedersen, Mode::Feldman] {
        let c = Commitments::<C>::commit(mode, &f, Some(&g)).unwrap();
        for id in [1u16, 2, 77, 65534] {
            let blind = if mode == Mode::Pedersen {
                g.evaluate(pid(id))
            } else {
                C::Scalar::ZERO
            };
            let s = Share::<C>::new(f.evaluate(pid(id)), blind);
            c.verify_share(pid(id), &s).unwrap();
            let bad = Share::<C>::new(*s.value() + C::Scalar::ONE, *s.blind());
            assert_eq!(
                c.verify_share(pid(id), &bad),
                Err(Error::InvalidShare { party: pid(id) })
            );
            assert_eq!(
                c.verify_share(pid(id + 1), &s),
                Err(Error::InvalidShare { party: pid(id + 1) })
            );
        }
        let mut w = Writer::new();
        c.write(&mut w);
        let bytes = w.into_bytes();
        let mut r = Reader::new(&bytes);
        let read = Commitments::<C>::read(mode, 4, &mut r).unwrap();
        assert_eq!(read, c);
        r.finish().unwrap();
        // The bytes kept from reading are what the points encode to afresh.
        let fresh = Commitments::<C>::from_points(mode, read.points().to_vec()).unwrap();
        let (mut w1, mut w2) = (Writer::new(), Writer::new());
        read.write(&mut w1);
        fresh.write(&mut w2);
        assert_eq!(w1.into_bytes(), bytes);
        assert_eq!(w2.into_bytes(), bytes);
        let mut r = Reader::new(&bytes);
        assert!(Commitments::<C>::read(mode, 3, &mut r).is_err());
    }
    // Pedersen commitments to the same value with different blinds differ (hiding).
    let c1 = Commitments::<C>::commit(Mode::Pedersen, &f, Some(&g)).unwrap();
    let g2 = Polynomial::<C>::random(C::Scalar::random(&mut rng), 4, &mut rng).unwrap();
    let c2 = Commitments::<C>::commit(Mode::Pedersen, &f, Some(&g2)).unwrap();
    assert_ne!(c1.constant(), c2.constant());
}

#[test]
fn commitments() {
    shares_verify::<Ristretto255>();
    shares_verify::<Ed25519>();
    shares_verify::<Secp256k1>();
}

fn shares_verify_at_once<C: Curve>() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
    let f = Polynomial::<C>::random(C::Scalar::random(&mut rng), 5, &mut rng).unwrap();
    let g = Polynomial::<C>::random(C::Scalar::random(&mut rng), 5, &mut rng).unwrap();
    let ids = [1u16, 2, 5, 9, 300, 65535];
    let rho = batch_weights::<C>("TEST", b"seed", b"label", ids.len());
    assert_eq!(rho.len(), ids.len());
    assert_ne!(rho[0], rho[1]);
    for mode in [Mode::Pedersen, Mode::Feldman] {
        let c = Commitments::<C>::commit(mode, &f, Some(&g)).unwrap();
        let blind = |id: u16| match mode {
            Mode::Pedersen => g.evaluate(pid(id)),
            Mode::Feldman => C::Scalar::ZERO,
        };
        let honest = || -> Vec<(PartyId, Share<C>)> {
            ids.iter()
                .map(|&id| (pid(id), Share::new(f.evaluate(pid(id)), blind(id))))
                .collect()
        };
        assert!(c.verify_shares_weighted(&honest(), &rho));
        assert!(c.verify_shares_weighted(&honest()[..1], &rho[..1]));
        // One wrong share, wherever it sits.
        for bad in 0..ids.len() {
            let mut shares = honest();
            shares[bad].1 = Share::new(*shares[bad].1.value() + C::Scalar::ONE, *shares[bad].1.blind());
            assert!(!c.verify_shares_weighted(&shares, &rho), "{mode:?} bad at {bad}");
        }
        // A share presented as another party's.
        let mut shares = honest();
        shares[2].0 = pid(3);
        assert!(!c.verify_shares_weighted(&shares, &rho));
        // Errors made to cancel in an unweighted sum: caught by the weights (the unit
        // weights show they do cancel there).
        let (i, j) = (1, 4);
        let mut shares = honest();
        shares[i].1 = Share::new(*shares[i].1.value() + C::Scalar::ONE, *shares[i].1.blind());
        shares[j].1 = Share::new(*shares[j].1.value() - C::Scalar::ONE, *shares[j].1.blind());
        let ones = alloc::vec![C::Scalar::ONE; ids.len()];
        assert!(c.verify_shares_weighted(&shares, &ones));
        assert!(!c.verify_shares_weighted(&shares, &rho));
    }
}

#[test]
fn shares_checked_at_once() {
    shares_verify_at_once::<Ristretto255>();
    shares_verify_at_once::<Ed25519>();
    shares_verify_at_once::<Secp256k1>();
}
