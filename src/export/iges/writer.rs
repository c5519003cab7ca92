//! The IGES entity list being written: one directory entry per entity with
//! its parameter text, transformation matrix and status flags, and the small
//! shared entities (116 points, 123 directions, 124 transformation matrices).

use super::records::real;
use crate::geom::Frame;
use crate::geom::{Pose, Vec3};
use std::collections::HashMap;

/// One entity: type, form, parameter text and the directory entry's fields.
pub(super) struct Ent {
    pub(super) typ: i64,
    pub(super) form: i64,
    pub(super) params: String,
    pub(super) transform: usize,
    pub(super) dependent: bool,
    pub(super) pspace: bool,
}

/// The writer's state: the entities written so far and the warnings.
pub(super) struct W {
    pub(super) ents: Vec<Ent>,
    pub(super) warnings: Vec<String>,
    /// Per-entity-kind count of conic → NURBS conversions, reported once.
    pub(super) conversions: HashMap<&'static str, usize>,
}

impl W {
    pub(super) fn add(&mut self, typ: i64, form: i64, params: String) -> usize {
        self.ents.push(Ent {
            typ,
            form,
            params,
            transform: 0,
            dependent: true,
            pspace: false,
        });
        2 * self.ents.len() - 1
    }

    pub(super) fn ent_mut(&mut self, de: usize) -> Option<&mut Ent> {
        self.ents.get_mut(de / 2)
    }

    /// A 124 matrix from a frame (columns x, y, z; translation = origin).
    pub(super) fn transform(&mut self, f: &Frame) -> usize {
        let r = |v: f64| real(v);
        let p = format!(
            "124,{},{},{},{},{},{},{},{},{},{},{},{};",
            r(f.x.x),
            r(f.y.x),
            r(f.z.x),
            r(f.origin.x),
            r(f.x.y),
            r(f.y.y),
            r(f.z.y),
            r(f.origin.y),
            r(f.x.z),
            r(f.y.z),
            r(f.z.z),
            r(f.origin.z)
        );
        self.add(124, 0, p)
    }

    pub(super) fn pose_transform(&mut self, p: &Pose) -> usize {
        let f = crate::export::frame_of_pose(p);
        self.transform(&f)
    }

    pub(super) fn point116(&mut self, p: &Vec3) -> usize {
        self.add(116, 0, format!("116,{},{},{},0;", real(p.x), real(p.y), real(p.z)))
    }

    pub(super) fn dir123(&mut self, d: &Vec3) -> usize {
        self.add(123, 0, format!("123,{},{},{};", real(d.x), real(d.y), real(d.z)))
    }

    pub(super) fn convert(&mut self, what: &'static str) {
        *self.conversions.entry(what).or_insert(0) += 1;
    }
}
