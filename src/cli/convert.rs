//! `extrack convert IN OUT`: format conversion of the B-rep Model (STEP ↔
//! IGES, or the same format rewritten). The output format follows OUT's
//! extension (`.step`/`.stp`, `.igs`/`.iges`). Geometry, trims, names and
//! placements are kept exactly where the target can hold them; every
//! conversion the target forces is printed as a warning (formats/export.md).

use crate::export::{iges, step, Format};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `extrack convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// Input STEP (.step/.stp) or IGES (.igs/.iges) file.
    pub input: PathBuf,
    /// Output file; its extension (.step/.stp/.igs/.iges) picks the format.
    pub output: PathBuf,
    /// IGES output: 144/142 trimmed surfaces instead of the 186 B-rep.
    #[arg(long)]
    pub iges_faces: bool,
}

/// Runs `convert`.
pub fn run(args: ConvertArgs) -> Result<(), String> {
    let format = Format::from_path(&args.output).ok_or_else(|| {
        format!(
            "{}: output extension must be .step, .stp, .igs or .iges",
            args.output.display()
        )
    })?;
    let model = crate::import::import_file(&args.input).map_err(|e| format!("{}: {e}", args.input.display()))?;
    let written = match format {
        Format::Step => step::write_step(&model, &step::StepOptions::default()),
        Format::Iges => iges::write_iges(
            &model,
            &iges::IgesOptions {
                faces_mode: args.iges_faces,
                ..Default::default()
            },
        ),
    }
    .map_err(|e| format!("{}: {e}", args.output.display()))?;
    std::fs::write(&args.output, &written.bytes).map_err(|e| format!("{}: {e}", args.output.display()))?;
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    println!(
        "wrote {} ({} bodies, {} faces, {} warnings)",
        args.output.display(),
        model.bodies.len(),
        model.faces.len(),
        written.warnings.len()
    );
    Ok(())
}
