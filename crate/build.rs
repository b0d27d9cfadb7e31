//! Tells the library whether libcrux-ml-kem compiled its AVX2 code. Its build script builds
//! the `avx2` modules on x86_64 unless `LIBCRUX_DISABLE_SIMD256` is set (the constant-flow
//! check's portable levels set it), or on any target with `LIBCRUX_ENABLE_SIMD256`; the
//! Pulsar envelope opener names those modules only under `cfg(mlkem_avx2)`.
//!
//! Also sets `cfg(curve_lanes)` where `vss::group::ifma` is built: x86-64 with `std`,
//! `fast-dealing`, `in-process-sharing` and a Curve25519 group (one name for the six places
//! that would otherwise repeat the condition).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(mlkem_avx2)");
    println!("cargo:rerun-if-env-changed=LIBCRUX_DISABLE_SIMD256");
    println!("cargo:rerun-if-env-changed=LIBCRUX_ENABLE_SIMD256");
    let set = |key: &str| matches!(std::env::var(key).as_deref(), Ok("1" | "y" | "Y"));
    let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "x86_64");
    if (x86_64 || set("LIBCRUX_ENABLE_SIMD256")) && !set("LIBCRUX_DISABLE_SIMD256") {
        println!("cargo:rustc-cfg=mlkem_avx2");
    }
    println!("cargo:rustc-check-cfg=cfg(curve_lanes)");
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    if x86_64
        && feature("STD")
        && feature("FAST_DEALING")
        && feature("IN_PROCESS_SHARING")
        && (feature("RISTRETTO255") || feature("ED25519"))
    {
        println!("cargo:rustc-cfg=curve_lanes");
    }
}
