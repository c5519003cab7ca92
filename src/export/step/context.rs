//! The representation contexts: the length unit (SI millimetre or metre with
//! a prefix, else a conversion-based unit), radian and steradian, the
//! length uncertainty, the 3-D and 2-D geometric contexts and the product
//! contexts.

use super::encoding::{real, string};
use super::writer::W;
use crate::import::model::Model;

/// Entity ids of the contexts later entities refer to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Contexts {
    /// The 3-D geometric representation context (units, uncertainty).
    pub(super) ctx: usize,
    /// PRODUCT_CONTEXT.
    pub(super) pctx: usize,
    /// PRODUCT_DEFINITION_CONTEXT.
    pub(super) pdctx: usize,
}

/// Writes the application context, units, uncertainty and representation
/// contexts (setting `w.ctx2`, the 2-D parameter-space context).
pub(super) fn write_contexts(w: &mut W<'_>, model: &Model) -> Contexts {
    // contexts and units
    let app = w.add("APPLICATION_CONTEXT('automotive design')".into());
    w.add(format!(
        "APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,#{app})"
    ));
    let mm = length_unit(w, &model.units);
    let rad = w.add("(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.))".into());
    let sr = w.add("(NAMED_UNIT(*)SI_UNIT($,.STERADIAN.)SOLID_ANGLE_UNIT())".into());
    let tol = model
        .tolerance
        .filter(|t| t.is_finite() && *t > 0.0)
        .unwrap_or_else(|| crate::export::units::stable_div(1e-7, unit_factor(&model.units)));
    let unc = w.add(format!(
        "UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE({}),#{mm},'distance_accuracy_value','confusion accuracy')",
        real(tol)
    ));
    let ctx = w.add(format!(
        "(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#{unc}))GLOBAL_UNIT_ASSIGNED_CONTEXT((#{mm},#{rad},#{sr}))REPRESENTATION_CONTEXT('Context #1','3D Context with UNIT and UNCERTAINTY'))"
    ));
    w.ctx2 = w.add(
        "(GEOMETRIC_REPRESENTATION_CONTEXT(2)PARAMETRIC_REPRESENTATION_CONTEXT()REPRESENTATION_CONTEXT('2D SPACE',''))"
            .into(),
    );
    let pctx = w.add(format!("PRODUCT_CONTEXT('',#{app},'mechanical')"));
    let pdctx = w.add(format!("PRODUCT_DEFINITION_CONTEXT('part definition',#{app},'design')"));
    Contexts { ctx, pctx, pdctx }
}

/// The file's mm per length unit (1 when the Model's is unusable).
fn unit_factor(u: &crate::import::model::Units) -> f64 {
    if u.mm_per_unit.is_finite() && u.mm_per_unit > 0.0 {
        u.mm_per_unit
    } else {
        1.0
    }
}

/// The length unit instance: SI metre with a prefix when the factor and the
/// name are those of an SI prefix of the metre, else a CONVERSION_BASED_UNIT (named
/// `INCH`, `FOOT` or the Model's unit name) on the millimetre.
fn length_unit(w: &mut W<'_>, u: &crate::import::model::Units) -> usize {
    const SI: [(f64, &str, &str); 10] = [
        (1.0, ".MILLI.", "mm"),
        (1e3, "$", "m"),
        (1e-3, ".MICRO.", "um"),
        (1e-6, ".NANO.", "nm"),
        (10.0, ".CENTI.", "cm"),
        (100.0, ".DECI.", "dm"),
        (1e4, ".DECA.", "dam"),
        (1e5, ".HECTO.", "hm"),
        (1e6, ".KILO.", "km"),
        (1e-9, ".PICO.", "pm"),
    ];
    let f = unit_factor(u);
    // SI when the factor and the name are the SI unit's (a file's own
    // CONVERSION_BASED_UNIT name, e.g. 'millimetre', is kept)
    if let Some((_, p, _)) = SI
        .iter()
        .find(|(k, _, n)| *k == f && (*n == u.name || f == 1.0 && u.name.is_empty()))
    {
        return w.add(format!("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT({p},.METRE.))"));
    }
    let mm = w.add("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.))".into());
    let name = match u.name.to_ascii_lowercase().as_str() {
        "inch" | "in" => "INCH".to_string(),
        "foot" | "ft" => "FOOT".to_string(),
        n => n.to_ascii_uppercase(),
    };
    let dim = w.add("DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.)".into());
    let mwu = w.add(format!("LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE({}),#{mm})", real(f)));
    w.add(format!(
        "(CONVERSION_BASED_UNIT({},#{mwu})LENGTH_UNIT()NAMED_UNIT(#{dim}))",
        string(&name)
    ))
}
