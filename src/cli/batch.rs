//! `extrack batch INPUTS… -o OUTDIR [--jobs N]`: prepare many STEP/IGES files
//! into `OUTDIR/<input file name>.exs` (the bytes `extrack import` writes),
//! in parallel, with a progress bar, skipping the scenes that are up to date,
//! and a JSON-lines report (`extrack::batch`).

use crate::batch::{collision_report, output_path, process_file, FileOptions, FileReport};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Arguments of `extrack batch`.
#[derive(Args)]
pub struct BatchArgs {
    /// STEP (.step/.stp) or IGES (.igs/.iges) files.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output directory (created when missing): one `<input file name>.exs`
    /// per input, with its report `<input file name>.exs.json` beside it.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Files prepared at once (default: the number of CPUs).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// The JSON-lines report, one line per input (default: OUTDIR/report.jsonl).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Prepare every file, even when its scene is up to date.
    #[arg(long)]
    pub force: bool,
    /// Largest normal-cone half-angle of a convex piece, degrees (< 90).
    #[arg(long, default_value_t = 80.0)]
    pub max_cone_deg: f64,
    /// Write the plain in-place layout instead of the packed container.
    #[arg(long)]
    pub plain: bool,
}

/// The inputs in order, each with the earlier input whose output name it
/// repeats (if any).
fn collisions<'a>(inputs: &'a [PathBuf], out_dir: &Path) -> Vec<(&'a Path, Option<&'a Path>)> {
    let mut seen: HashMap<PathBuf, &Path> = HashMap::new();
    inputs
        .iter()
        .map(|i| match output_path(i, out_dir) {
            Ok(o) => match seen.get(&o) {
                Some(first) => (i.as_path(), Some(*first)),
                None => {
                    seen.insert(o, i.as_path());
                    (i.as_path(), None)
                }
            },
            Err(_) => (i.as_path(), None),
        })
        .collect()
}

/// Runs `batch`: every input is processed and reported; the command fails
/// (after the whole batch) when any file failed.
pub fn run(args: BatchArgs) -> Result<(), String> {
    std::fs::create_dir_all(&args.output).map_err(|e| format!("{}: {e}", args.output.display()))?;
    let report_path = args.report.clone().unwrap_or_else(|| args.output.join("report.jsonl"));
    let report_file = std::fs::File::create(&report_path).map_err(|e| format!("{}: {e}", report_path.display()))?;
    let report_file = Mutex::new(std::io::BufWriter::new(report_file));
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start {jobs} worker threads: {e}"))?;
    let opts = FileOptions {
        max_cone_deg: args.max_cone_deg,
        plain: args.plain,
    };
    let bar = ProgressBar::new(args.inputs.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("[{bar:40}] {pos}/{len} files, {elapsed} (eta {eta}) {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    let write_error = Mutex::new(None::<String>);
    let record = |r: &FileReport| {
        if let Some(e) = &r.error {
            bar.println(format!("error: {}: {e}", r.file));
        }
        let line = serde_json::to_string(r).unwrap_or_default();
        if let Ok(mut f) = report_file.lock() {
            if let Err(e) = writeln!(f, "{line}").and_then(|()| f.flush()) {
                if let Ok(mut w) = write_error.lock() {
                    w.get_or_insert_with(|| format!("{}: {e}", report_path.display()));
                }
            }
        }
        bar.set_message(r.file.clone());
        bar.inc(1);
    };
    let items = collisions(&args.inputs, &args.output);
    let reports: Vec<FileReport> = pool.install(|| {
        items
            .par_iter()
            .with_max_len(1)
            .map(|(input, first)| {
                let r = match first {
                    Some(first) => collision_report(input, &args.output, first),
                    None => process_file(input, &args.output, &opts, args.force, None),
                };
                record(&r);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let failed = reports.iter().filter(|r| r.error.is_some()).count();
    let current = reports.iter().filter(|r| r.up_to_date).count();
    println!(
        "{} files: {} prepared, {} up to date, {} failed; report {}",
        reports.len(),
        reports.len() - failed - current,
        current,
        failed,
        report_path.display()
    );
    if let Some(e) = write_error.into_inner().ok().flatten() {
        return Err(format!("cannot write the report: {e}"));
    }
    if failed > 0 {
        return Err(format!("{failed} of {} files failed (see the report)", reports.len()));
    }
    Ok(())
}
