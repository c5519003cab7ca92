//! Trackers (controllers, integrators, gains) — see DESIGN.md "The runtime algorithms".
