//! `quasar node`: the demo's pipelines across processes, on libp2p.
//!
//! ```text
//! quasar node keys  --dir D --parties N [--per K] [--port P] [--browser B]
//!                                                               roster.json + one key per process
//! quasar node serve --dir D --process I [--timeout S] [--once]
//!                   [--misbehave] [--equivocate] [--crash-at N] [--slow N:MS] [--partition N:S]
//!                                                               (every process but 0)
//! quasar node run   --dir D [--timeout S] --scheme … [demo options]  (process 0: conductor + hub)
//! ```
//!
//! `keys --browser B` makes the last B processes browser processes: a page plays them with
//! the npm package's `node` host (`www/node/`), dialling every native process's WebSocket
//! address (`ws` in the roster) — the same messages, the same checks.
//!
//! `serve --store DIR` keeps each party's share (a Pulsar keyring, a committee member's or a
//! Corona party's share) in the library's snapshot store
//! (`store`; passphrase from `QUASAR_NODE_PASSPHRASE`), so a restarted process loses no share,
//! and a run with `--resume` signs with what the stores kept.
//!
//! `--rtt MS` (serve and run) makes every message a process sends wait MS / 2 before it
//! leaves: a wide-area round trip on loopback, for benchmarks.
//!
//! Process 0 conducts: it says hello to every process with the run's public parameters (the
//! `quasar demo` options), waits until each is ready, then runs the same conductor and the
//! same lifecycle parties as `quasar demo` — only the bytes now travel between processes
//! (TCP, Noise, Yamux; `transport`), checked by each process's switchboard against the
//! roster (`host`). The conductor is trusted for liveness only: it sees commands and
//! reports (counts, events, blame), never a party's randomness — every node draws its own
//! from the operating system — and never a share. Every wait is bounded: a node waits at
//! most `--timeout` for a round's frames and then steps with what arrived (the protocol
//! names or excludes the absent); the conductor fails the nodes that have not reported
//! within three timeouts, with `TIMEOUT`, and the others go on as the protocol allows.
//!
//! Fault drills: `--misbehave` lets a serving process play the `--cheat` the run names for
//! one of its parties (otherwise it stays honest whatever the conductor says);
//! `--equivocate` makes its router send different (validly signed) broadcasts to different
//! processes, which the echo round exposes; `--crash-at N` ends the process abruptly when
//! command `N` arrives, as if it were killed; `--slow N:MS` delays everything it sends from
//! command `N` on by MS; `--partition N:S` cuts it off for S seconds from command `N` (`drill`).

mod drill;
mod echo;
mod host;
mod roster;
mod switchboard;
mod transport;
pub(crate) mod wire;

use core::time::Duration;
use std::path::PathBuf;
use std::process::ExitCode;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use drill::Drills;
pub(crate) use host::Network;
use roster::Roster;
use switchboard::Control;

use crate::args::{self, Command, Demo};

/// Where a pipeline's nodes run.
pub(crate) enum Place<'a> {
    /// One thread per node in this process (`quasar demo`).
    Threads,
    /// Process 0 of a network: the conductor and node 0 (`quasar node run`).
    Conduct {
        /// The network.
        net: &'a Network,
        /// The demo's arguments, for the hello.
        args: Vec<String>,
    },
    /// Another process of a network: its nodes (`quasar node serve`).
    Serve {
        /// The network.
        net: &'a Network,
        /// The run.
        run: [u8; 32],
    },
}

impl Place<'_> {
    /// How many processes the nodes run in, and how many of them are browser processes
    /// (`None`: threads of this one).
    pub(crate) fn processes(&self) -> Option<(usize, usize)> {
        match self {
            Place::Threads => None,
            Place::Conduct { net, .. } | Place::Serve { net, .. } => Some((
                net.processes.len(),
                net.processes.iter().filter(|p| p.listen.is_none()).count(),
            )),
        }
    }
}

/// 32 bytes from the operating system.
pub(crate) fn fresh_bytes() -> [u8; 32] {
    let mut b = [0u8; 32];
    // A process that cannot read OS randomness must not run a ceremony.
    if let Err(e) = getrandom::getrandom(&mut b) {
        panic!("no operating-system randomness: {e}");
    }
    b
}

/// A node's randomness on a network: seeded from the operating system, never from the run.
pub(crate) fn fresh_rng() -> ChaCha20Rng {
    ChaCha20Rng::from_seed(fresh_bytes())
}

/// How long a serving process waits for the conductor before giving up on a run.
const IDLE: Duration = Duration::from_secs(600);

struct Opts {
    dir: Option<PathBuf>,
    parties: Option<u16>,
    per: u16,
    port: u16,
    /// How many of the processes `keys` writes are browser processes.
    browser: usize,
    process: Option<usize>,
    timeout: Duration,
    misbehave: bool,
    drills: Drills,
    equivocate: bool,
    once: bool,
    /// The round trip a benchmark simulates: every message this process sends waits half.
    rtt: Duration,
    /// Where this process's parties keep their keyrings (`serve --store DIR`).
    store: Option<PathBuf>,
    demo: Vec<String>,
}

/// The options of `quasar node SUB`; what is not `node`'s own is the demo's (`run`).
fn parse(sub: &str, args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        dir: None,
        parties: None,
        per: 1,
        port: 47000,
        browser: 0,
        process: None,
        timeout: Duration::from_secs(20),
        misbehave: false,
        drills: Drills::default(),
        equivocate: false,
        once: false,
        rtt: Duration::ZERO,
        store: None,
        demo: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        let num = |flag: &str, v: String| {
            v.parse::<u32>()
                .map_err(|_| format!("{flag}: not a number: '{v}'"))
        };
        match a.as_str() {
            "--dir" => o.dir = Some(PathBuf::from(value(a)?)),
            "--parties" if sub == "keys" => {
                let v = value(a)?;
                o.parties = Some(u16::try_from(num(a, v)?).map_err(|_| "--parties too large".to_string())?);
            }
            "--per" => {
                let v = value(a)?;
                o.per = u16::try_from(num(a, v)?)
                    .map_err(|_| "--per too large".to_string())?
                    .max(1);
            }
            "--port" => {
                let v = value(a)?;
                o.port = u16::try_from(num(a, v)?).map_err(|_| "--port too large".to_string())?;
            }
            "--browser" if sub == "keys" => {
                let v = value(a)?;
                o.browser = num(a, v)? as usize;
            }
            "--process" => {
                let v = value(a)?;
                o.process = Some(num(a, v)? as usize);
            }
            "--timeout" => {
                let v = value(a)?;
                o.timeout = Duration::from_secs(u64::from(num(a, v)?.clamp(1, 3600)));
            }
            "--misbehave" => o.misbehave = true,
            "--equivocate" => o.equivocate = true,
            "--crash-at" => {
                let v = value(a)?;
                o.drills.crash_at = Some(num(a, v)?);
            }
            "--slow" if sub == "serve" => {
                let v = value(a)?;
                o.drills.slow = Some(drill::parse(a, &v, Duration::from_millis)?);
            }
            "--partition" if sub == "serve" => {
                let v = value(a)?;
                o.drills.partition = Some(drill::parse(a, &v, Duration::from_secs)?);
            }
            "--once" => o.once = true,
            "--store" if sub == "serve" => o.store = Some(PathBuf::from(value(a)?)),
            "--rtt" => {
                let v = value(a)?;
                o.rtt = Duration::from_millis(u64::from(num(a, v)?.min(10_000)));
            }
            _ => o.demo.push(a.clone()),
        }
    }
    Ok(o)
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("quasar node: {msg}");
    ExitCode::from(2)
}

/// `quasar node …`: the arguments after `node`.
pub(crate) fn run(args: &[String]) -> ExitCode {
    let Some(sub) = args.first() else {
        return fail("expected keys, serve or run (try 'quasar --help')");
    };
    let o = match parse(sub, &args[1..]) {
        Ok(o) => o,
        Err(e) => return fail(&e),
    };
    let Some(dir) = o.dir.clone() else {
        return fail("--dir is required");
    };
    match sub.as_str() {
        "keys" => {
            let max = crate::args::MAX_VALIDATORS;
            let Some(n) = o.parties.filter(|&n| (1..=max).contains(&n)) else {
                return fail(&format!(
                    "keys needs --parties N (1 to {max}: a devnet's validators)"
                ));
            };
            match Roster::generate(&dir, n, o.per, o.port, o.browser) {
                Ok(r) => {
                    say!(
                        "wrote {} ({} processes: node 0 and the conductor in process 0, parties 1-{n} in groups of {})",
                        dir.join(roster::FILE).display(),
                        r.processes.len(),
                        o.per
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e),
            }
        }
        "serve" => serve(&dir, &o),
        "run" => conduct(&dir, &o),
        other => fail(&format!(
            "unknown subcommand '{other}' (expected keys, serve or run)"
        )),
    }
}

fn join(dir: &std::path::Path, me: usize, o: &Opts) -> Result<Network, String> {
    let processes = Roster::load(dir)?;
    let (key, kem) = Roster::keys(dir, me)?;
    Network::join(processes, me, (key, kem), o.timeout, o.drills, o.rtt / 2)
}

fn demo_of(args: &[String]) -> Result<Demo, String> {
    let mut full = vec!["demo".to_string()];
    full.extend_from_slice(args);
    match args::parse(&full)? {
        Command::Demo(d) => Ok(d),
        _ => Err("expected demo options (--scheme …)".into()),
    }
}

fn conduct(dir: &std::path::Path, o: &Opts) -> ExitCode {
    let mut d = match demo_of(&o.demo) {
        Ok(d) => d,
        Err(e) => return fail(&e),
    };
    // Fresh session ids for every run unless the user pins them.
    if !o.demo.iter().any(|a| a == "--seed" || a.starts_with("--seed=")) {
        d.seed = fresh_bytes().to_vec();
    }
    let net = match join(dir, 0, o) {
        Ok(n) => n,
        Err(e) => return fail(&e),
    };
    let args = crate::hello_args(&d);
    let code = crate::demo(&d, &Place::Conduct { net: &net, args });
    net.bye();
    let dropped = net.dropped.load(core::sync::atomic::Ordering::Relaxed);
    if dropped > 0 {
        say!("process 0 dropped {dropped} message(s) that failed the roster's checks");
    }
    net.close();
    code
}

fn serve(dir: &std::path::Path, o: &Opts) -> ExitCode {
    let Some(me) = o.process.filter(|&p| p > 0) else {
        return fail("serve needs --process I (1 or more; process 0 runs 'quasar node run')");
    };
    match Roster::load(dir).map(|r| r.get(me).map(|p| p.listen.is_none())) {
        Ok(Some(true)) => return fail(&format!("process {me} is a browser process: a page plays it")),
        Err(e) => return fail(&e),
        Ok(_) => {}
    }
    let mut net = match join(dir, me, o) {
        Ok(n) => n,
        Err(e) => return fail(&e),
    };
    net.equivocate = o.equivocate;
    say!("process {me}: nodes {:?}, waiting for the conductor", net.local());
    let mut code = ExitCode::SUCCESS;
    loop {
        let (run, args) = match net.control.recv_timeout(IDLE) {
            Ok(Control::Hello { run, args }) => (run, args),
            Ok(_) => continue,
            Err(_) => break,
        };
        let mut d = match demo_of(&args) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("quasar node: process {me}: a hello with bad options: {e}");
                continue;
            }
        };
        // Where the parties keep their keyrings is this operator's choice, never the run's.
        d.store.clone_from(&o.store);
        // A node misbehaves only if its operator said so.
        if !o.misbehave {
            d.cheat = d.cheat.filter(|c| !net.local().contains(&c.party));
        }
        let result = crate::run_scheme(&d, &Place::Serve { net: &net, run });
        match result {
            Ok(_) => say!("process {me}: run {} done", crate::hex(&run[..8])),
            Err(f) => {
                eprintln!("quasar node: process {me}: {f}");
                code = ExitCode::from(1);
            }
        }
        if o.once {
            break;
        }
    }
    net.close();
    code
}
