//! Units of a representation context: GLOBAL_UNIT_ASSIGNED_CONTEXT with
//! LENGTH_UNIT / PLANE_ANGLE_UNIT as SI_UNIT (with prefix) or
//! CONVERSION_BASED_UNIT (inch, foot, degree, ...), and
//! GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT's length uncertainty.

use super::access::Args;
use super::builder::Builder;
use super::error::StepError;

/// Units of one representation context.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextUnits {
    /// Millimetres per length unit.
    pub mm: f64,
    /// Length unit name (`mm`, `inch`, ...).
    pub name: String,
    /// Radians per plane-angle unit.
    pub rad: f64,
    /// Length uncertainty in mm, when given.
    pub uncertainty: Option<f64>,
}

impl Default for ContextUnits {
    fn default() -> Self {
        Self {
            mm: 1.0,
            name: "mm".into(),
            rad: 1.0,
            uncertainty: None,
        }
    }
}

fn prefix_factor(p: &[u8]) -> Option<(f64, &'static str)> {
    Some(match &*super::access::upper(p) {
        b"EXA" => (1e18, "E"),
        b"PETA" => (1e15, "P"),
        b"TERA" => (1e12, "T"),
        b"GIGA" => (1e9, "G"),
        b"MEGA" => (1e6, "M"),
        b"KILO" => (1e3, "k"),
        b"HECTO" => (1e2, "h"),
        b"DECA" => (1e1, "da"),
        b"DECI" => (1e-1, "d"),
        b"CENTI" => (1e-2, "c"),
        b"MILLI" => (1e-3, "m"),
        b"MICRO" => (1e-6, "u"),
        b"NANO" => (1e-9, "n"),
        b"PICO" => (1e-12, "p"),
        b"FEMTO" => (1e-15, "f"),
        b"ATTO" => (1e-18, "a"),
        _ => return None,
    })
}

/// What a unit instance measures and its factor to mm / rad.
enum UnitKind {
    Length(f64, String),
    Angle(f64),
    Other,
}

impl<'e, 'a> Builder<'e, 'a> {
    fn unit(&mut self, idx: usize, depth: usize) -> Result<UnitKind, StepError> {
        if depth > 8 {
            return Err(StepError::Cycle {
                at: super::access::at_of(self.ex, idx),
                what: "unit definition".into(),
            });
        }
        let is_length = self.has(idx, b"LENGTH_UNIT");
        let is_angle = self.has(idx, b"PLANE_ANGLE_UNIT");
        self.records(idx);
        if let Some(si) = self.part(idx, b"SI_UNIT") {
            // simple SI_UNIT(dims, prefix, name) or complex part SI_UNIT(prefix, name)
            let off = if si.args.len() >= 3 { 1 } else { 0 };
            let prefix = match si.get(off)? {
                super::arena::Param::Enum(s) => {
                    let p = s.of(si.ex.src);
                    Some(
                        prefix_factor(p)
                            .ok_or_else(|| si.err(format!("unknown SI prefix .{}.", crate::import::escape::escape_bytes(p))))?,
                    )
                }
                _ => None,
            };
            let name = super::access::upper(si.enumeration(off + 1)?);
            let (f, sym) = prefix.unwrap_or((1.0, ""));
            return Ok(match &*name {
                b"METRE" => Length(f * 1000.0, format!("{sym}m")),
                b"RADIAN" => Angle(f),
                _ => Other,
            });
        }
        if let Some(cb) = self.part(idx, b"CONVERSION_BASED_UNIT") {
            let name = cb.string(0)?;
            let mwu = cb.reference(1)?;
            let (value, base) = self.measure_with_unit(mwu)?;
            let base = self.unit(base, depth + 1)?;
            return Ok(match base {
                Length(f, _) => Length(value * f, name.trim().to_ascii_lowercase()),
                Angle(f) => Angle(value * f),
                Other if is_length => Length(value, name.trim().to_ascii_lowercase()),
                Other if is_angle => Angle(value),
                Other => Other,
            });
        }
        Ok(Other)
    }

    /// MEASURE_WITH_UNIT-like instance → (value, unit instance).
    fn measure_with_unit(&mut self, idx: usize) -> Result<(f64, usize), StepError> {
        let a: Args<'_, '_> = match self.part(idx, b"MEASURE_WITH_UNIT") {
            Some(a) => a,
            None => self.simple(idx),
        };
        self.records(idx);
        let value = a.real(0)?;
        let unit = a.reference(1)?;
        if !(value.is_finite() && value > 0.0) {
            return Err(a.geom_err(format!("unit conversion factor {value}")));
        }
        Ok((value, unit))
    }

    /// Units of a representation context instance.
    /// Read once per context (every later request is a copy: placements
    /// switch contexts item by item).
    pub fn context_units(&mut self, ctx: usize) -> Result<ContextUnits, StepError> {
        if let Some(cu) = self.context_cache.get(&ctx) {
            return Ok(cu.clone());
        }
        let cu = self.context_units_uncached(ctx)?;
        self.context_cache.insert(ctx, cu.clone());
        Ok(cu)
    }

    fn context_units_uncached(&mut self, ctx: usize) -> Result<ContextUnits, StepError> {
        let mut cu = ContextUnits::default();
        self.records(ctx);
        if let Some(g) = self.part(ctx, b"GLOBAL_UNIT_ASSIGNED_CONTEXT") {
            for u in g.refs(0)? {
                match self.unit(u, 0)? {
                    Length(f, name) => {
                        if !(f.is_finite() && f > 0.0) {
                            return Err(g.geom_err(format!("length unit factor {f}")));
                        }
                        cu.mm = f;
                        cu.name = name;
                    }
                    Angle(f) => cu.rad = f,
                    Other => {}
                }
            }
        }
        if let Some(g) = self.part(ctx, b"GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT") {
            for u in g.refs(0)? {
                let ua = self.simple(u);
                if let (Ok(v), Ok(unit)) = (ua.real(0), ua.reference(1)) {
                    if let Length(f, _) = self.unit(unit, 0)? {
                        let tol = v * f;
                        if tol.is_finite() && tol > 0.0 {
                            cu.uncertainty = Some(cu.uncertainty.map_or(tol, |t: f64| t.min(tol)));
                        }
                    }
                }
            }
        }
        Ok(cu)
    }
}

use UnitKind::{Angle, Length, Other};
