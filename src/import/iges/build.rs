//! From independent (root) entities to Model bodies: 186 solids, 514 shells,
//! loose faces (144, 143, 510, bounded 108, untrimmed surfaces), and 408
//! subfigure instances of 308 definitions. A solid / shell whose placement is
//! rigid keeps it as the body placement (geometry in body coordinates;
//! instances of one entity share faces); other placements are applied to the
//! geometry (formats/iges.md, "Bodies").
//! Everything else is skipped with a counted warning.

use super::brep::BrepCache;
use super::directory::{DirEntry, Subordinate};
use super::error::IgesError;
use super::reader::Reader;
use super::transform::Affine;
use crate::geom::{Pose, Vec3};
use crate::import::model::{Body, BodyKind, Model, Shell};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion};

/// Why an entity type is not turned into geometry (for the warning), or `None` when it is mapped.
pub fn skip_reason(entity: i64) -> Option<&'static str> {
    Some(match entity {
        100 | 102 | 104 | 106 | 110 | 112 | 126 | 130 => "free curve, not part of a surface",
        116 => "free point",
        123 => "free direction",
        124 => "transformation matrix not referenced",
        125 => "flash (annotation)",
        132 => "connect point",
        134 | 136 | 138 | 146 | 148 => "finite-element entity",
        150..=184 => "CSG primitive or Boolean tree (not supported)",
        202..=230 => "annotation",
        302 | 304 | 306 | 310 | 312 | 320 | 322 => "definition entity (not supported)",
        314 => "colour definition",
        316 | 402 | 420 => "associativity / group",
        406 => "property",
        404 => "drawing",
        410 => "view",
        412..=418 | 422..=430 => "instance entity (not supported)",
        502 | 504 | 508 => "topology not used by a face",
        0 => "null entity",
        _ => return None,
    })
}

impl Reader<'_> {
    /// Converts every root entity into the Model.
    pub fn build(&mut self, m: &mut Model) -> Result<(), IgesError> {
        let mut loose: Vec<usize> = Vec::new();
        let root = Affine::scale(self.mm);
        let referenced = self.references()?;
        let roots: Vec<DirEntry> = self
            .dir
            .iter()
            .zip(&referenced)
            .filter(|(_, r)| !**r)
            .map(|(e, _)| e.clone())
            .collect();
        let dependent_roots = roots
            .iter()
            .filter(|e| e.subordinate != Subordinate::Independent)
            .count();
        if dependent_roots > 0 {
            self.notes.push(format!(
                "{dependent_roots} entities are flagged dependent but referenced by no other entity: read as roots"
            ));
        }
        for e in roots {
            self.root(&e, &root, m, &mut loose, &e.label.clone())?;
        }
        if !loose.is_empty() {
            // faces dropped outside solids and shells belong to the loose faces
            Self::assign_dropped(m, 0, m.bodies.len());
            m.bodies.push(Body {
                name: "faces".into(),
                kind: BodyKind::Faces,
                placement: Pose::identity(),
                shells: vec![Shell {
                    faces: loose,
                    closed: false,
                    void: false,
                    source: 0,
                }],
                source: 0,
            });
        }
        self.account_unreached_faces(m);
        Ok(())
    }

    /// Marks every entity that another entity points to (parameter pointers
    /// of the mapped types and transformation-matrix pointers; 402
    /// associativities do not count, as in Open CASCADE).
    pub fn references(&mut self) -> Result<Vec<bool>, IgesError> {
        let n = self.dir.len();
        let mut referenced = vec![false; n];
        let entries = self.dir.clone();
        let mark = |ptr: i64, r: &mut Vec<bool>| {
            if ptr > 0 && ptr % 2 == 1 && ((ptr - 1) / 2) < n as i64 {
                r[((ptr - 1) / 2) as usize] = true;
            }
        };
        for e in &entries {
            mark(e.transform, &mut referenced);
            let ptrs: Vec<i64> = match e.entity {
                102
                | 108
                | 118
                | 120
                | 122
                | 130
                | 140
                | 141
                | 142
                | 143
                | 144
                | 186
                | 190..=198
                | 308
                | 408
                | 504
                | 508
                | 510
                | 514 => self.pointers_of(e)?,
                _ => continue,
            };
            for q in ptrs {
                mark(q, &mut referenced);
            }
        }
        Ok(referenced)
    }

    fn pointers_of(&mut self, e: &DirEntry) -> Result<Vec<i64>, IgesError> {
        let mut p = self.params(e)?;
        let mut v = Vec::new();
        match e.entity {
            102 => {
                let k = p.count(1, "constituent curve")?;
                for _ in 0..k {
                    v.push(p.int()?);
                }
            }
            108 => {
                for _ in 0..4 {
                    p.real()?;
                }
                v.push(p.opt_int()?.unwrap_or(0));
            }
            118 | 120 => {
                v.push(p.int()?);
                v.push(p.int()?);
            }
            122 | 130 => v.push(p.int()?),
            140 => {
                for _ in 0..4 {
                    p.real()?;
                }
                v.push(p.int()?);
            }
            141 => {
                p.int()?;
                p.int()?;
                v.push(p.int()?);
                let k = p.count(3, "boundary curve")?;
                for _ in 0..k {
                    v.push(p.int()?);
                    p.int()?;
                    let kk = p.count(1, "parameter-space curve")?;
                    for _ in 0..kk {
                        v.push(p.int()?);
                    }
                }
            }
            142 => {
                p.int()?;
                v.push(p.int()?);
                v.push(p.int()?);
                v.push(p.int()?);
            }
            143 => {
                p.int()?;
                v.push(p.int()?);
                let k = p.count(1, "boundary")?;
                for _ in 0..k {
                    v.push(p.int()?);
                }
            }
            144 => {
                v.push(p.int()?);
                p.int()?;
                let k = p.count(1, "inner boundary")?;
                v.push(p.int()?);
                for _ in 0..k {
                    v.push(p.int()?);
                }
            }
            186 => {
                v.push(p.int()?);
                p.int()?;
                let k = p.count(2, "void shell")?;
                for _ in 0..k {
                    v.push(p.int()?);
                    p.int()?;
                }
            }
            190 => {
                for _ in 0..3 {
                    v.push(p.opt_int()?.unwrap_or(0));
                }
            }
            192 | 194 => {
                v.push(p.int()?);
                v.push(p.int()?);
                p.real()?;
                if e.entity == 194 {
                    p.real()?;
                }
                v.push(p.opt_int()?.unwrap_or(0));
            }
            196 => {
                v.push(p.int()?);
                p.real()?;
                v.push(p.opt_int()?.unwrap_or(0));
                v.push(p.opt_int()?.unwrap_or(0));
            }
            198 => {
                v.push(p.int()?);
                v.push(p.opt_int()?.unwrap_or(0));
                p.real()?;
                p.real()?;
                v.push(p.opt_int()?.unwrap_or(0));
            }
            308 => {
                p.int()?;
                p.opt_string()?;
                let k = p.count(1, "subfigure member")?;
                for _ in 0..k {
                    v.push(p.int()?);
                }
            }
            408 => v.push(p.int()?),
            504 => {
                let k = p.count(5, "edge")?;
                for _ in 0..k {
                    v.push(p.int()?);
                    v.push(p.int()?);
                    p.int()?;
                    v.push(p.int()?);
                    p.int()?;
                }
            }
            508 => {
                let k = p.count(5, "loop edge")?;
                for _ in 0..k {
                    p.int()?;
                    v.push(p.int()?);
                    p.int()?;
                    p.int()?;
                    let kk = p.count(2, "parameter-space curve")?;
                    for _ in 0..kk {
                        p.int()?;
                        v.push(p.int()?);
                    }
                }
            }
            510 => {
                v.push(p.int()?);
                let k = p.count(1, "loop")?;
                p.int()?;
                for _ in 0..k {
                    v.push(p.int()?);
                }
            }
            514 => {
                let k = p.count(2, "face")?;
                for _ in 0..k {
                    v.push(p.int()?);
                    p.int()?;
                }
            }
            _ => {}
        }
        Ok(v)
    }

    fn root(
        &mut self,
        e: &DirEntry,
        parent: &Affine,
        m: &mut Model,
        loose: &mut Vec<usize>,
        name: &str,
    ) -> Result<(), IgesError> {
        let label = |kind: &str| {
            if name.is_empty() {
                format!("{kind} {}", e.de)
            } else {
                name.to_string()
            }
        };
        match e.entity {
            186 | 514 => {
                let kind = if e.entity == 186 {
                    BodyKind::Solid
                } else {
                    BodyKind::OpenShell
                };
                let name = label(if e.entity == 186 { "solid" } else { "shell" });
                let d0 = m.dropped.len();
                let (placement, shells) = match self.rigid_placement(e, parent)? {
                    Some(placement) => {
                        // read in the body's own coordinates (unit scale only);
                        // a further instance of the same entity shares its faces
                        let shells = match self.local_bodies.get(&e.de) {
                            Some(s) => s.clone(),
                            None => {
                                let saved = self.detached.replace(e.de);
                                let r = self.body_shells(e, &Affine::scale(self.mm), m);
                                self.detached = saved;
                                let s = r?;
                                self.local_bodies.insert(e.de, s.clone());
                                s
                            }
                        };
                        (placement, shells)
                    }
                    None => (Pose::identity(), self.body_shells(e, parent, m)?),
                };
                Self::assign_dropped(m, d0, m.bodies.len());
                m.bodies.push(Body {
                    name,
                    kind,
                    placement,
                    shells,
                    source: e.de as u64,
                });
            }
            510 => {
                let mut cache = BrepCache::default();
                let got = self.face_or_drop(e, false, m, |r, m| {
                    let face_index = m.faces.len();
                    let got = r.nested(e, |r| r.face_510(e, true, parent, m, &mut cache));
                    if got.is_err() {
                        for ed in &mut m.edges {
                            ed.faces.retain(|&f| f != face_index);
                        }
                    }
                    got
                });
                loose.extend(got);
            }
            144 | 143 => {
                let got = self.face_or_drop(e, false, m, |r, _| {
                    r.nested(e, |r| {
                        if e.entity == 144 {
                            r.face_144(e, parent)
                        } else {
                            r.face_143(e, parent)
                        }
                    })
                });
                if let Some(f) = got {
                    loose.push(m.faces.len());
                    m.faces.push(f);
                    super::faces::orient_holes(m, m.faces.len() - 1);
                }
            }
            108 => match self.nested(e, |r| r.face_108(e, parent))? {
                Some(f) => {
                    loose.push(m.faces.len());
                    m.faces.push(f);
                }
                None => self.skip(e, "unbounded plane"),
            },
            114 | 118 | 120 | 122 | 128 | 140 => match self.face_untrimmed(e, parent)? {
                Some(f) => {
                    loose.push(m.faces.len());
                    m.faces.push(f);
                }
                None => {
                    // read as a face by the reader's rules, but it has no bounded domain
                    self.skip(e, "surface without a bounded domain");
                    let why = "untrimmed surface without a bounded domain: not read as a face".to_string();
                    self.drop_face(m, e.de, false, why, None);
                }
            },
            190..=198 => self.skip(e, "unbounded analytic surface outside a face"),
            141 | 142 | 508 if false => {}
            141 | 142 => self.skip(e, "trim curve not used by a surface"),
            308 => self.skip(e, "subfigure definition (geometry is read through its 408 instances)"),
            408 => self.instance_408(e, parent, m, loose)?,
            t => match skip_reason(t) {
                Some(why) => self.skip(e, why),
                None => self.skip(e, "unsupported entity type"),
            },
        }
        Ok(())
    }

    /// The shells of a 186 solid or a root 514 shell under `parent`.
    fn body_shells(&mut self, e: &DirEntry, parent: &Affine, m: &mut Model) -> Result<Vec<Shell>, IgesError> {
        if e.entity == 186 {
            self.nested(e, |r| r.solid_186(e, parent, m))
        } else {
            let mut cache = BrepCache::default();
            Ok(vec![self.shell(e.de as i64, true, false, e, parent, m, &mut cache)?])
        }
    }

    /// The placement of a root solid / shell as a body placement: `Some` when
    /// the transforms above and on the entity (124s of 408 instances, 308
    /// definitions and the entity itself; the unit scale excepted) make a
    /// rotation and translation within 1e-12 (an orthonormal, right-handed
    /// linear part), so that the geometry is read in the body's own
    /// coordinates and the placement kept (formats/export.md, "IGES 5.3");
    /// `None` (the transforms are applied to the geometry) otherwise.
    fn rigid_placement(&mut self, e: &DirEntry, parent: &Affine) -> Result<Option<Pose>, IgesError> {
        let full = self.placed(e, parent)?;
        let r = full.m / self.mm;
        let dev = (r.transpose() * r - Matrix3::identity()).abs().max();
        if !(full.is_finite() && dev <= 1e-12 && r.determinant() > 0.0) {
            return Ok(None);
        }
        let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r));
        Ok(Some(Pose::from_parts(full.t, q)))
    }

    /// A 408 singular subfigure instance: the 308's entities placed by
    /// `T_408 ∘ translate(x, y, z) ∘ scale(s) ∘ T_308`.
    fn instance_408(
        &mut self,
        e: &DirEntry,
        parent: &Affine,
        m: &mut Model,
        loose: &mut Vec<usize>,
    ) -> Result<(), IgesError> {
        self.nested(e, |r| {
            let a = r.placed(e, parent)?;
            let mut p = r.params(e)?;
            let def = p.int()?;
            let x = p.real()?;
            let y = p.real()?;
            let z = p.real()?;
            let s = p.opt_real()?.unwrap_or(1.0);
            if !(s > 0.0 && s.is_finite()) {
                return Err(p.err(format!("subfigure scale {s} must be positive")));
            }
            let local = Affine {
                m: Matrix3::identity() * s,
                t: Vec3::new(x, y, z),
            };
            let d = r.entry_of(def, e, 308, "subfigure", "definition")?;
            let placed = a.then_inner(&local);
            r.subfigure(&d, &placed, m, loose, &e.label)
        })
    }

    fn subfigure(
        &mut self,
        d: &DirEntry,
        placed: &Affine,
        m: &mut Model,
        loose: &mut Vec<usize>,
        name: &str,
    ) -> Result<(), IgesError> {
        self.nested(d, |r| {
            let a = r.placed(d, placed)?;
            let mut p = r.params(d)?;
            let _depth = p.int()?;
            let sub_name = p.opt_string()?.unwrap_or_default();
            let n = p.count(1, "subfigure member")?;
            let mut members = Vec::with_capacity(n);
            for _ in 0..n {
                members.push(p.int()?);
            }
            let name = if sub_name.is_empty() {
                name.to_string()
            } else {
                sub_name
            };
            for q in members {
                let c = r.entry(q, d)?;
                if c.entity == 308 {
                    // a nested definition is only reached through its own 408
                    r.skip(&c, "nested subfigure definition without an instance");
                    continue;
                }
                r.root(&c, &a, m, loose, &name)?;
            }
            Ok(())
        })
    }
}
