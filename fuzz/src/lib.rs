//! The mutation driver shared by the stable-toolchain fuzzing harnesses
//! (`stable_step`, `stable_iges`, `stable_scene`): a deterministic PRNG, the format-neutral
//! byte edits, and the time-boxed run loop that catches panics and saves
//! crashing inputs. Each harness adds its own tokens and format-aware edits.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// xorshift64* PRNG (deterministic per run seed).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.bits() % n as u64) as usize
        }
    }
}

/// The format-neutral part of a harness's mutator.
pub struct Mutator {
    /// Tokens of the format, inserted at random places.
    pub tokens: &'static [&'static [u8]],
    /// Longest chunk duplicated inside an input.
    pub max_dup: usize,
    /// Longest chunk spliced in from another seed.
    pub max_splice: usize,
    /// Number of edit kinds: 0–6 are the generic edits of this module, the
    /// rest are offered to the harness's own edits.
    pub kinds: usize,
}

impl Mutator {
    /// Applies 1–8 random edits to `input`. Edit kinds 0–6 are generic (byte
    /// overwrite, chunk deletion, token insertion, chunk duplication,
    /// truncation, digit change, splice from another seed); kinds from 7 on
    /// go to `special`, which returns false when it did not apply. An edit
    /// that does not apply inserts a random byte instead.
    pub fn mutate(
        &self,
        rng: &mut Rng,
        input: &mut Vec<u8>,
        seeds: &[Vec<u8>],
        mut special: impl FnMut(usize, &mut Rng, &mut Vec<u8>) -> bool,
    ) {
        let n = 1 + rng.below(8);
        for _ in 0..n {
            let kind = rng.below(self.kinds);
            let done = if kind < 7 {
                self.generic(kind, rng, input, seeds)
            } else {
                special(kind, rng, input)
            };
            if !done {
                let i = rng.below(input.len() + 1);
                input.insert(i, rng.bits() as u8);
            }
        }
    }

    /// One generic edit of kind `kind` (0–6); false when it does not apply.
    fn generic(&self, kind: usize, rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>]) -> bool {
        let len = input.len();
        match kind {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.bits() as u8;
            }
            1 if len > 0 => {
                let i = rng.below(len);
                let k = 1 + rng.below(64.min(len - i));
                input.drain(i..i + k);
            }
            2 => {
                let i = rng.below(len + 1);
                let t = self.tokens[rng.below(self.tokens.len())];
                input.splice(i..i, t.iter().copied());
            }
            3 if len > 0 => {
                // duplicate a chunk
                let i = rng.below(len);
                let k = 1 + rng.below(self.max_dup.min(len - i));
                let chunk: Vec<u8> = input[i..i + k].to_vec();
                let j = rng.below(input.len() + 1);
                input.splice(j..j, chunk);
            }
            4 if len > 0 => input.truncate(rng.below(len)),
            5 if len > 0 => {
                // change a digit
                let i = rng.below(len);
                if input[i].is_ascii_digit() {
                    input[i] = b'0' + rng.below(10) as u8;
                }
            }
            6 if !seeds.is_empty() => {
                // splice from another seed
                let s = &seeds[rng.below(seeds.len())];
                if !s.is_empty() {
                    let i = rng.below(s.len());
                    let k = 1 + rng.below(self.max_splice.min(s.len() - i));
                    let j = rng.below(input.len() + 1);
                    input.splice(j..j, s[i..i + k].iter().copied());
                }
            }
            _ => return false,
        }
        true
    }
}

/// The harness main loop: `PROGRAM SECONDS SEED_FILES...` from the command
/// line; for that many seconds, picks a seed (often cut short when large),
/// mutates it, runs `import` on it (true = the input was accepted) and
/// catches panics, saving each panicking input to
/// `fuzz/artifacts/<name>/crash-<run>.<ext>`. Prints progress to stderr and
/// a summary line to stdout; exits 1 when anything panicked.
pub fn run(
    name: &str,
    ext: &str,
    mut mutate: impl FnMut(&mut Rng, &mut Vec<u8>, &[Vec<u8>]),
    import: impl Fn(&[u8]) -> bool,
) {
    let args: Vec<String> = std::env::args().collect();
    let secs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seeds: Vec<Vec<u8>> = args[2.min(args.len())..]
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    if seeds.is_empty() {
        eprintln!("usage: stable_{name} SECONDS SEED_FILES...");
        std::process::exit(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64);
    let start = Instant::now();
    let deadline = Duration::from_secs(secs);
    let (mut runs, mut ok, mut crashes) = (0u64, 0u64, 0u64);
    let dir = format!("fuzz/artifacts/{name}");
    std::fs::create_dir_all(&dir).ok();
    while start.elapsed() < deadline {
        let mut input = seeds[rng.below(seeds.len())].clone();
        // smaller inputs run faster: often cut the seed down first
        if input.len() > 20_000 && rng.below(2) == 0 {
            let cut = 2000 + rng.below(input.len() - 2000);
            input.truncate(cut);
        }
        mutate(&mut rng, &mut input, &seeds);
        runs += 1;
        match catch_unwind(AssertUnwindSafe(|| import(&input))) {
            Ok(true) => ok += 1,
            Ok(false) => {}
            Err(_) => {
                crashes += 1;
                let path = format!("{dir}/crash-{runs}.{ext}");
                std::fs::write(&path, &input).ok();
                eprintln!("PANIC on input saved to {path}");
            }
        }
        if runs % 20_000 == 0 {
            eprintln!(
                "{:>6.0}s {runs} runs, {ok} imported, {crashes} panics",
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "stable_{name}: {runs} runs in {:.0} s, {ok} inputs imported, {crashes} panics",
        start.elapsed().as_secs_f64()
    );
    if crashes > 0 {
        std::process::exit(1);
    }
}

/// Loads `bytes` as a scene file (plain or packed) and, when accepted, dumps
/// it, builds the runtime geometry and answers one cold closest-point query
/// per body: none of it may panic. True when the scene was accepted.
pub fn exercise_scene(bytes: &[u8]) -> bool {
    let Ok(file) = extrack::scene::SceneFile::from_file_bytes(bytes) else {
        return false;
    };
    let view = file.view();
    let _ = extrack::scene::dump(&view);
    if let Ok(ts) = extrack::track::TrackScene::new(&view) {
        let pose = extrack::geom::Pose::identity();
        for index in 0..view.bodies().len() as u32 {
            let _ = extrack::track::closest_point(
                &ts,
                &extrack::track::Target::Body { index, pose },
                extrack::geom::Vec3::new(1.0, 2.0, 3.0),
            );
        }
    }
    true
}

/// One input through the whole pipeline: import (with the sanity pass),
/// bounded preparation, and a closest-point query at the first body's box
/// corner. Panics when an error message quotes a control character of the
/// input (the messages must escape it).
pub fn pipeline(data: &[u8]) {
    use extrack::geom::{Pose, Vec3};
    use extrack::prepare::{prepare, PrepareOptions};
    use extrack::track::{closest_point, Target, TrackScene};
    let check = |msg: String| {
        assert!(!msg.chars().any(char::is_control), "raw control character in {msg:?}");
    };
    let model = match extrack::import::import_bytes(data, "fuzz") {
        Ok(m) => m,
        Err(e) => return check(e.to_string()),
    };
    let opts = PrepareOptions {
        time_limit: Some(std::time::Duration::from_secs(10)),
        ..PrepareOptions::default()
    };
    let scene = match prepare(&model, &opts) {
        Ok(s) => s,
        Err(e) => return check(e.to_string()),
    };
    let Ok(ts) = TrackScene::from_data(&scene) else {
        return;
    };
    if let Some(b) = ts.bodies.first() {
        let q = b.hi + Vec3::new(1.0, 1.0, 1.0);
        let _ = closest_point(&ts, &Target::All { pose: Pose::identity() }, q);
    }
}
