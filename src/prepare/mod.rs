//! The offline stage: Model → convex "nice" rational Bézier pieces, feature
//! graph, Voronoi data and BVH, as a [`SceneData`](crate::scene::SceneData).

pub mod bernstein;
pub mod convexity;
pub mod nurbs;
pub mod split;
