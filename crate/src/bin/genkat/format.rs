//! The formats every vector file shares: a labelled deterministic byte stream, JSON
//! written field by field (the files are compared as bytes), per-party generators, and the
//! message log.

use std::collections::BTreeMap;

use quasar_pq::hash::{shake256, Squeeze};
use quasar_pq::party::sim::Sent;
use quasar_pq::PartyId;

/// A deterministic byte stream: SHAKE256 of a label.
pub(crate) struct Stream(sha3::Shake256Reader);

impl Stream {
    /// The stream for `label`.
    pub(crate) fn new(label: &str) -> Self {
        Stream(shake256(&[b"quasar-pq kat v1: ", label.as_bytes()]))
    }

    /// The next `n` bytes.
    pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        self.0.squeeze(&mut out);
        out
    }

    /// The next 32 bytes as an array.
    pub(crate) fn array32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        self.0.squeeze(&mut out);
        out
    }

    /// A length in `0..max` (for message and context lengths).
    pub(crate) fn below(&mut self, max: usize) -> usize {
        let b = self.bytes(4);
        (u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize) % max
    }
}

/// Lower-case hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// A JSON object written field by field, in order (the files are compared as bytes).
#[derive(Default)]
pub(crate) struct Obj(Vec<(String, Field)>);

/// One field's value: rendered JSON, or a list of objects (rendered one per line).
enum Field {
    Json(String),
    Objs(Vec<Obj>),
}

impl Obj {
    fn push(mut self, key: &str, json: String) -> Self {
        self.0.push((String::from(key), Field::Json(json)));
        self
    }

    /// Adds a hex-encoded byte string.
    pub(crate) fn bytes(self, key: &str, value: &[u8]) -> Self {
        let json = format!("\"{}\"", hex(value));
        self.push(key, json)
    }

    /// Adds a string (ASCII without quotes or backslashes).
    pub(crate) fn str(self, key: &str, value: &str) -> Self {
        debug_assert!(value.is_ascii() && !value.contains(['"', '\\']));
        self.push(key, format!("\"{value}\""))
    }

    /// Adds an integer.
    pub(crate) fn int(self, key: &str, value: u64) -> Self {
        self.push(key, format!("{value}"))
    }

    /// Adds an integer or `null`.
    pub(crate) fn opt_int(self, key: &str, value: Option<u64>) -> Self {
        let json = value.map_or_else(|| String::from("null"), |v| format!("{v}"));
        self.push(key, json)
    }

    /// Adds a list of integers, on one line.
    pub(crate) fn ints(self, key: &str, values: impl IntoIterator<Item = u64>) -> Self {
        let items: Vec<String> = values.into_iter().map(|v| format!("{v}")).collect();
        self.push(key, format!("[{}]", items.join(", ")))
    }

    /// Adds a boolean.
    pub(crate) fn signed_ints(self, key: &str, values: impl IntoIterator<Item = i64>) -> Self {
        let items: Vec<String> = values.into_iter().map(|v| format!("{v}")).collect();
        self.push(key, format!("[{}]", items.join(", ")))
    }

    pub(crate) fn bool(self, key: &str, value: bool) -> Self {
        self.push(key, format!("{value}"))
    }

    /// Adds a list of objects.
    pub(crate) fn objs(mut self, key: &str, values: Vec<Obj>) -> Self {
        self.0.push((String::from(key), Field::Objs(values)));
        self
    }

    /// Renders with the given indentation.
    pub(crate) fn render(&self, indent: usize) -> String {
        let pad = " ".repeat(indent + 2);
        let fields: Vec<String> = self
            .0
            .iter()
            .map(|(key, value)| match value {
                Field::Json(json) => format!("{pad}\"{key}\": {json}"),
                Field::Objs(objs) if objs.is_empty() => format!("{pad}\"{key}\": []"),
                Field::Objs(objs) => {
                    let inner = " ".repeat(indent + 4);
                    let items: Vec<String> = objs
                        .iter()
                        .map(|o| format!("{inner}{}", o.render_line()))
                        .collect();
                    format!("{pad}\"{key}\": [\n{}\n{pad}]", items.join(",\n"))
                }
            })
            .collect();
        format!("{{\n{}\n{}}}", fields.join(",\n"), " ".repeat(indent))
    }

    /// Renders on one line (list items).
    fn render_line(&self) -> String {
        let fields: Vec<String> = self
            .0
            .iter()
            .map(|(key, value)| match value {
                Field::Json(json) => format!("\"{key}\": {json}"),
                Field::Objs(objs) => {
                    let items: Vec<String> = objs.iter().map(Obj::render_line).collect();
                    format!("\"{key}\": [{}]", items.join(", "))
                }
            })
            .collect();
        format!("{{{}}}", fields.join(", "))
    }
}

/// Renders a vector file.
pub(crate) fn file(name: &str, cases: &[Obj]) -> String {
    let cases: Vec<String> = cases.iter().map(|c| format!("    {}", c.render(4))).collect();
    format!(
        "{{\n  \"name\": \"{name}\",\n  \"generator\": \"cargo run --bin genkat\",\n  \"cases\": [\n{}\n  ]\n}}\n",
        cases.join(",\n")
    )
}

// ---------------------------------------------------------------------------------------
// Shared by the protocol vectors.

/// Why a protocol vector could not be made: the code under test failed on its own run.
pub(crate) struct Failure(pub String);

impl<E: core::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(format!("{e}"))
    }
}

/// `Ok` if `ok`, else a failure saying `what` should have held.
pub(crate) fn ensure(ok: bool, what: &str) -> Result<(), Failure> {
    if ok {
        Ok(())
    } else {
        Err(Failure(format!("expected {what}")))
    }
}

/// Party `v` (non-zero).
pub(crate) fn pid(v: u16) -> Result<PartyId, Failure> {
    PartyId::new(v).ok_or_else(|| Failure(String::from("party id 0")))
}

/// Parties `range`.
pub(crate) fn pids(range: core::ops::RangeInclusive<u16>) -> Result<Vec<PartyId>, Failure> {
    range.map(pid).collect()
}

/// The integers of a list of parties, for [`Obj::ints`].
pub(crate) fn nums(parties: &[PartyId]) -> impl Iterator<Item = u64> + '_ {
    parties.iter().map(|p| u64::from(p.get()))
}

/// One `ChaCha20Rng` per party, each seeded from the stream (the seeds are recorded).
pub(crate) struct Rngs(BTreeMap<PartyId, rand_chacha::ChaCha20Rng>);

impl Rngs {
    /// Seeds one generator per party of `parties` from `stream`, in increasing order;
    /// returns them with the recorded `{"party", "seed"}` objects.
    pub(crate) fn new(stream: &mut Stream, parties: &[PartyId]) -> (Self, Vec<Obj>) {
        use rand_core::SeedableRng;
        let mut rngs = BTreeMap::new();
        let mut seeds = Vec::new();
        for &p in parties {
            let seed = stream.array32();
            seeds.push(
                Obj::default()
                    .int("party", u64::from(p.get()))
                    .bytes("seed", &seed),
            );
            rngs.insert(p, rand_chacha::ChaCha20Rng::from_seed(seed));
        }
        (Rngs(rngs), seeds)
    }

    /// Party `p`'s generator.
    pub(crate) fn of(&mut self, p: PartyId) -> Result<&mut rand_chacha::ChaCha20Rng, Failure> {
        self.0
            .get_mut(&p)
            .ok_or_else(|| Failure(format!("no generator for {p}")))
    }
}

/// SHA-256 of the messages of a run, overall and per phase (see the module docs).
#[derive(Default)]
pub(crate) struct MessageLog {
    all: sha2::Sha256,
    phase: sha2::Sha256,
    total: u64,
    count: u64,
    phases: Vec<Obj>,
}

impl MessageLog {
    /// Logs one message.
    pub(crate) fn push(&mut self, message: &[u8]) {
        use sha2::Digest;
        let len = u32::try_from(message.len())
            .expect("a message under 4 GiB")
            .to_be_bytes();
        for h in [&mut self.all, &mut self.phase] {
            h.update(len);
            h.update(message);
        }
        self.count += 1;
        self.total += 1;
    }

    /// Ends the current phase under `name`.
    pub(crate) fn end_phase(&mut self, name: &str) {
        use sha2::Digest;
        let digest = core::mem::take(&mut self.phase).finalize();
        self.phases.push(
            Obj::default()
                .str("phase", name)
                .int("messages", self.count)
                .bytes("sha256", &digest),
        );
        self.count = 0;
    }

    /// Adds `phases`, `messages` and `messages_sha256` to `obj`.
    pub(crate) fn record(self, obj: Obj) -> Obj {
        use sha2::Digest;
        obj.objs("phases", self.phases)
            .int("messages", self.total)
            .bytes("messages_sha256", &self.all.finalize())
    }
}

impl MessageLog {
    /// Logs everything a simulated run sent, in the simulator's order: round by round,
    /// each party in increasing order (as added), its broadcast and then its direct
    /// messages by increasing recipient.
    pub(crate) fn sent(&mut self, sent: &[Sent]) {
        for s in sent {
            if let Some(b) = &s.outgoing.broadcast {
                self.push(b);
            }
            for d in &s.outgoing.direct {
                self.push(&d.bytes);
            }
        }
    }
}

/// Runs a simulated network to the end, logging what it sent; every party must succeed.
pub(crate) fn run<O: Send + 'static>(
    net: quasar_pq::party::sim::Network<O>,
    log: &mut MessageLog,
) -> Result<BTreeMap<PartyId, O>, Failure> {
    let (outputs, sent) = net.run_logged();
    log.sent(&sent);
    outputs
        .into_iter()
        .map(|(p, o)| o.map(|o| (p, o)).map_err(|e| Failure(format!("{p}: {e}"))))
        .collect()
}
