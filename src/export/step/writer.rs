//! The STEP entity list being written (entity `#k` is item `k − 1`), with
//! the points, directions and axis placements every other entity uses.

use super::encoding::real;
use crate::export::{stable_frame, stable_unit};
use crate::geom::{Frame, Vec3};
use crate::import::model::Model;

/// The writer's state: the Model, the entity instances so far, the
/// warnings, the 2-D parameter-space context and the count of lines written
/// unit-speed.
pub(super) struct W<'m> {
    pub(super) model: &'m Model,
    pub(super) ents: Vec<String>,
    pub(super) warnings: Vec<String>,
    pub(super) ctx2: usize,
    pub(super) scaled_lines: usize,
}

impl<'m> W<'m> {
    pub(super) fn add(&mut self, s: String) -> usize {
        self.ents.push(s);
        self.ents.len()
    }

    pub(super) fn reserve(&mut self) -> usize {
        self.add(String::new())
    }

    pub(super) fn set(&mut self, id: usize, s: String) {
        if let Some(e) = self.ents.get_mut(id.wrapping_sub(1)) {
            *e = s;
        }
    }

    pub(super) fn pt3(&mut self, p: &Vec3) -> usize {
        self.add(format!(
            "CARTESIAN_POINT('',({},{},{}))",
            real(p.x),
            real(p.y),
            real(p.z)
        ))
    }

    pub(super) fn pt(&mut self, p: &Vec3, dim2: bool) -> usize {
        if dim2 {
            self.add(format!("CARTESIAN_POINT('',({},{}))", real(p.x), real(p.y)))
        } else {
            self.pt3(p)
        }
    }

    pub(super) fn dir(&mut self, d: &Vec3, dim2: bool) -> usize {
        let u = stable_unit(*d);
        if dim2 {
            self.add(format!("DIRECTION('',({},{}))", real(u.x), real(u.y)))
        } else {
            self.add(format!("DIRECTION('',({},{},{}))", real(u.x), real(u.y), real(u.z)))
        }
    }

    pub(super) fn axis3(&mut self, f: &Frame) -> usize {
        let f = stable_frame(f);
        let o = self.pt3(&f.origin);
        let z = self.add(format!(
            "DIRECTION('',({},{},{}))",
            real(f.z.x),
            real(f.z.y),
            real(f.z.z)
        ));
        let x = self.add(format!(
            "DIRECTION('',({},{},{}))",
            real(f.x.x),
            real(f.x.y),
            real(f.x.z)
        ));
        self.add(format!("AXIS2_PLACEMENT_3D('',#{o},#{z},#{x})"))
    }

    /// A placement for a conic: 2-D when the frame lies in the uv plane with
    /// its normal along +z, else 3-D (read back the same, noted in a warning).
    pub(super) fn conic_axis(&mut self, f: &Frame, dim2: bool, what: &str) -> usize {
        if dim2 {
            let planar = f.origin.z == 0.0 && f.x.z == 0.0 && f.z == Vec3::z();
            if planar {
                let o = self.pt(&f.origin, true);
                let x = self.dir(&f.x, true);
                return self.add(format!("AXIS2_PLACEMENT_2D('',#{o},#{x})"));
            }
            self.warnings.push(format!(
                "{what}: p-curve conic with a clockwise frame written with a 3-D placement"
            ));
        }
        self.axis3(f)
    }
}
