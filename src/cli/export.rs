//! `extrack export SCENE.exs --format step|iges -o FILE`: the pieces as separate
//! exact faces (`crate::export::scene`; `--by-class` gives one body per
//! convexity class).
//!
//! `extrack export SCENE.exs --format obj|gltf -o FILE`: a tessellation of the
//! scene's pieces coloured by convexity class (Wavefront OBJ with a `.mtl`
//! next to it, or one glTF 2.0 file with an embedded buffer, see
//! [`crate::scene::gltf`]), in world coordinates (body placements applied). Triangles of
//! trimmed pieces whose centre lies outside the piece's trim loops are left out.

use crate::geom::NurbsSurface;
use crate::scene::{ConvexityClass, SceneFile};
use clap::{Args, ValueEnum};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Output format.
#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// Wavefront OBJ + MTL.
    Obj,
    /// glTF 2.0 (JSON with an embedded base64 buffer).
    Gltf,
    /// STEP AP214: every piece a face (rational Bézier patch with its trims).
    Step,
    /// IGES 5.3: every piece a 144 trimmed surface.
    Iges,
}

/// Arguments of `extrack export`.
#[derive(Args)]
pub struct ExportArgs {
    /// A scene file (.exs).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "obj")]
    pub format: ExportFormat,
    /// Output file (the .mtl is written next to it).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Grid resolution per piece and direction (obj).
    #[arg(long, default_value_t = 12)]
    pub grid: usize,
    /// STEP / IGES: one body per convexity class.
    #[arg(long)]
    pub by_class: bool,
}

fn run_exact(args: &ExportArgs, format: crate::export::Format) -> Result<(), String> {
    let scene = SceneFile::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let data = scene.view().to_data();
    let (bytes, warnings) = crate::export::write_scene(&data, format, args.by_class)
        .map_err(|e| format!("{}: {e}", args.output.display()))?;
    std::fs::write(&args.output, bytes).map_err(|e| format!("{}: {e}", args.output.display()))?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    println!(
        "wrote {} ({} pieces, {} warnings)",
        args.output.display(),
        data.pieces.len(),
        warnings.len()
    );
    Ok(())
}

use crate::scene::gltf::class_colour as colour;

/// Runs `export`.
pub fn run(args: ExportArgs) -> Result<(), String> {
    match args.format {
        ExportFormat::Step => return run_exact(&args, crate::export::Format::Step),
        ExportFormat::Iges => return run_exact(&args, crate::export::Format::Iges),
        ExportFormat::Obj | ExportFormat::Gltf => {}
    }
    let scene = SceneFile::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let data = scene.view().to_data();
    let n = args.grid.clamp(1, 256);
    if let ExportFormat::Gltf = args.format {
        let text = crate::scene::gltf::to_gltf(&data, n);
        std::fs::write(&args.output, text).map_err(|e| format!("{}: {e}", args.output.display()))?;
        println!("wrote {}", args.output.display());
        return Ok(());
    }
    let mtl_path = args.output.with_extension("mtl");
    let mtl_name = mtl_path
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut mtl = String::new();
    for c in ConvexityClass::ALL {
        let [r, g, b] = colour(c);
        let _ = writeln!(mtl, "newmtl {}\nKd {r} {g} {b}\n", c.name());
    }
    let mut obj = format!("# extrack export of {}\nmtllib {mtl_name}\n", data.meta.source_name);
    let mut base = 1usize;
    for (k, p) in data.pieces.iter().enumerate() {
        let Ok(s) = NurbsSurface::bezier(p.degree_u as usize, p.degree_v as usize, p.poles.clone()) else {
            continue;
        };
        let pl = data
            .bodies
            .get(p.body as usize)
            .map_or(crate::scene::IDENTITY_PLACEMENT, |b| b.placement);
        let _ = writeln!(obj, "o piece_{k}\nusemtl {}", p.class.name());
        for i in 0..=n {
            for j in 0..=n {
                let q = s.eval(i as f64 / n as f64, j as f64 / n as f64);
                let w: [f64; 3] = std::array::from_fn(|r| {
                    pl[4 * r] * q.x + pl[4 * r + 1] * q.y + pl[4 * r + 2] * q.z + pl[4 * r + 3]
                });
                let _ = writeln!(obj, "v {} {} {}", w[0], w[1], w[2]);
            }
        }
        for i in 0..n {
            for j in 0..n {
                if p.trimmed && !p.trim_contains((i as f64 + 0.5) / n as f64, (j as f64 + 0.5) / n as f64) {
                    continue;
                }
                let a = base + i * (n + 1) + j;
                let (b, c, d) = (a + n + 1, a + n + 2, a + 1);
                let (b, d) = if p.reversed { (d, b) } else { (b, d) };
                let _ = writeln!(obj, "f {a} {b} {c}\nf {a} {c} {d}");
            }
        }
        base += (n + 1) * (n + 1);
    }
    std::fs::write(&args.output, obj).map_err(|e| format!("{}: {e}", args.output.display()))?;
    std::fs::write(&mtl_path, mtl).map_err(|e| format!("{}: {e}", mtl_path.display()))?;
    println!("wrote {} and {}", args.output.display(), mtl_path.display());
    Ok(())
}
