//! Subcommands of the `extrack` binary (one file per command).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub mod batch;
pub mod convert;
pub mod demo;
pub mod distance;
pub mod dump;
pub mod export;
pub mod import;
pub mod inspect;
pub mod pair_track;
pub mod query;
pub mod track;
pub mod verify;

/// Exact real-time extremal-distance tracking on NURBS CAD models.
#[derive(Parser)]
#[command(name = "extrack", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The `extrack` command line: parses the arguments and runs the subcommand.
pub fn main() -> ExitCode {
    let args = Cli::parse();
    match run(args.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("extrack: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// All subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Track a moving point over the PG-GUAS Table I patch and two moving NURBS ellipsoids (embedded models).
    Demo(demo::DemoArgs),
    /// Summarise a STEP or IGES file: format, producer, units, counts, surface types, warnings.
    Inspect(inspect::InspectArgs),
    /// Print a scene file (.exs) as deterministic text: sections, metadata, bodies, pieces, edges, vertices, BVH.
    Dump(dump::DumpArgs),
    /// Import a STEP/IGES file, prepare it into convex nice pieces and write a scene (.exs).
    Import(import::ImportArgs),
    /// Write a scene's pieces: a tessellation coloured by convexity class (OBJ + MTL), or STEP / IGES faces.
    Export(export::ExportArgs),
    /// Closest points, signed distances and normals of a scene's bodies for a list of points (cold starts, in parallel).
    Query(query::QueryArgs),
    /// Minimum distance (or penetration) between two bodies at their placements, with witness points and normal.
    Distance(distance::DistanceArgs),
    /// Drive a point–body tracker along a path (t,x,y,z CSV), or a body–body tracker along a motion of two bodies: one trace row per update, timing summary, optional plot.
    Track(track::TrackArgs),
    /// Convert a STEP/IGES file to STEP or IGES (format from the output extension), keeping exact geometry.
    Convert(convert::ConvertArgs),
    /// Prepare many STEP/IGES files into OUTDIR/<file name>.exs in parallel, skipping up-to-date scenes, with a JSON-lines report.
    Batch(batch::BatchArgs),
    /// Self-check a prepared scene against the imported Model: every face accounted for, covered, contained and bounded (exit 1 when a face fails).
    Verify(verify::VerifyArgs),
}

/// Writes `text` to stdout; a closed pipe (`extrack dump F | head`) ends the
/// output quietly instead of panicking like `print!` would.
pub fn write_stdout(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write to stdout: {e}")),
    }
}

/// Runs one subcommand; errors become one line on stderr and exit code 1.
pub fn run(cmd: Command) -> Result<(), String> {
    match cmd {
        Command::Demo(a) => demo::run(a),
        Command::Inspect(a) => inspect::run(a),
        Command::Dump(a) => dump::run(a),
        Command::Import(a) => import::run(a),
        Command::Export(a) => export::run(a),
        Command::Query(a) => query::run(a),
        Command::Distance(a) => distance::run(a),
        Command::Track(a) => track::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Verify(a) => verify::run(a),
    }
}
