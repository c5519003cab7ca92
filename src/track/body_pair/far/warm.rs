//! Warm starts of the far phase's whole-item solves: the last witnesses of
//! an item pair, extrapolated along their recent path ([`Warm::start`]).

use crate::geom::Vec3;

/// An item pair's warm data.
#[derive(Debug, Clone, Copy)]
pub(super) struct Warm {
    /// Last witness parameters (NaN: none), the warm start of the next
    /// whole-item solve (extrapolated with `xp`, see [`Warm::start`]).
    pub(super) x: [f64; 4],
    /// The witness parameters of the two solves before (NaN: none).
    pub(super) xp: [f64; 4],
    pub(super) xpp: [f64; 4],
    /// The far-phase searches (`PairFar::searches`) that found `x`, `xp`
    /// and `xpp`.
    pub(super) t: u32,
    pub(super) tp: u32,
    pub(super) tpp: u32,
    /// Last witness direction `(pb − pa)/d` (A's frame; NaN: none), the
    /// direction of the pair's hull bound ([`Rel::hull_bound`](crate::track::body_pair::relative::Rel::hull_bound)).
    pub(super) n: Vec3,
    /// Expansions left before a whole-item solve is tried again, after one
    /// proved nothing (a non-facing local minimum): the pair then goes cell
    /// by cell directly instead of repeating a solve that likely lands on the
    /// same witness saturated on a piece side ([`ITEM_RETRY`]).
    pub(super) wait: u32,
}

/// No warm data.
pub(super) const WARM_NONE: Warm = Warm {
    x: [f64::NAN; 4],
    xp: [f64::NAN; 4],
    xpp: [f64::NAN; 4],
    t: 0,
    tp: 0,
    tpp: 0,
    n: Vec3::new(f64::NAN, f64::NAN, f64::NAN),
    wait: 0,
};

impl Warm {
    /// The warm start of a whole-item solve in search `now`: the last
    /// witness `x` extrapolated along the parabola through the last three
    /// solves' witnesses (`xpp`, `xp`, `x` at searches `tpp`, `tp`, `t`;
    /// the line through the last two when there are two) when they are
    /// recent, so that a pair re-solved while it moves starts within a
    /// Newton step of its minimum (one evaluation) instead of one update's
    /// motion away from it (two or three). Only a warm start: the solve
    /// decides the answer.
    pub(super) fn start(&self, now: u32) -> [f64; 4] {
        extrapolate([&self.x, &self.xp, &self.xpp], [self.t, self.tp, self.tpp], now)
    }
}

/// The last witness `x[0]` (of search `t[0]`) extrapolated to search `now`
/// along the parabola through the last three (`x[2]`, `x[1]`, `x[0]` at
/// searches `t[2]`, `t[1]`, `t[0]`; the line through the last two when
/// there are two) when they are recent ([`WARM_SPAN`]; NaN: none); `x[0]`
/// itself otherwise. A coordinate equal in the witnesses used stays as it
/// is (a witness held on a side of its box stays exactly on it).
pub(super) fn extrapolate(x: [&[f64; 4]; 3], t: [u32; 3], now: u32) -> [f64; 4] {
    let age = |t: u32| now.wrapping_sub(t);
    let recent = |x: &[f64; 4], t: u32| !x[0].is_nan() && age(t) <= WARM_SPAN;
    if now == t[0] || !recent(x[1], t[1]) || age(t[1]) <= age(t[0]) {
        return *x[0];
    }
    // times relative to `now` (negative: the past)
    let (s0, s1) = (-f64::from(age(t[0])), -f64::from(age(t[1])));
    let mut y = [0.0; 4];
    if recent(x[2], t[2]) && age(t[2]) > age(t[1]) {
        // Lagrange weights at 0 of the nodes s0, s1, s2
        let s2 = -f64::from(age(t[2]));
        let w0 = s1 * s2 / ((s0 - s1) * (s0 - s2));
        let w1 = s0 * s2 / ((s1 - s0) * (s1 - s2));
        let w2 = s0 * s1 / ((s2 - s0) * (s2 - s1));
        for i in 0..4 {
            y[i] = if x[0][i] == x[1][i] && x[1][i] == x[2][i] {
                x[0][i]
            } else {
                w0 * x[0][i] + w1 * x[1][i] + w2 * x[2][i]
            };
        }
    } else {
        let f = s0 / (s1 - s0);
        for i in 0..4 {
            y[i] = x[0][i] + f * (x[1][i] - x[0][i]);
        }
    }
    y
}

/// [`Entry::warm`](super::front::Entry::warm) of an entry without warm data.
pub(super) const NO_WARM: u32 = u32::MAX;

/// The warm data of the front's item entries, kept out of the entries (an
/// entry holds the index of its slot, [`NO_WARM`] for none): the front's
/// entries are copied on every push and pop, and ~190 bytes an entry with
/// its [`Warm`] inline was 5 % of a coherent update in `memcpy`. A slot is
/// owned by one entry; an entry expanded and kept again keeps its slot
/// without copying it. Cleared with the front (every entry gone); its
/// buffers grow to their working size during the first searches and are
/// then reused.
#[derive(Debug, Clone, Default)]
pub(super) struct Warms {
    slots: Vec<Warm>,
    free: Vec<u32>,
}

impl Warms {
    pub(super) fn with_capacity(n: usize) -> Self {
        Self {
            slots: Vec::with_capacity(n),
            free: Vec::with_capacity(n),
        }
    }

    /// The warm data of slot `i` ([`WARM_NONE`] for [`NO_WARM`]).
    #[inline]
    pub(super) fn get(&self, i: u32) -> Warm {
        if i == NO_WARM {
            WARM_NONE
        } else {
            self.slots[i as usize]
        }
    }

    /// The last witness direction and the retry count ([`Warm::n`],
    /// [`Warm::wait`]) of slot `i`, without copying its data.
    #[inline]
    pub(super) fn dir_wait(&self, i: u32) -> (Vec3, u32) {
        if i == NO_WARM {
            (WARM_NONE.n, WARM_NONE.wait)
        } else {
            let w = &self.slots[i as usize];
            (w.n, w.wait)
        }
    }

    /// Stores `w` in slot `i` (a free or new slot for [`NO_WARM`]) and
    /// returns the slot.
    pub(super) fn put(&mut self, i: u32, w: Warm) -> u32 {
        if i != NO_WARM {
            self.slots[i as usize] = w;
            return i;
        }
        match self.free.pop() {
            Some(k) => {
                self.slots[k as usize] = w;
                k
            }
            None => {
                self.slots.push(w);
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// Frees slot `i` (nothing for [`NO_WARM`]): its entry is gone or kept
    /// without warm data.
    #[inline]
    pub(super) fn release(&mut self, i: u32) {
        if i != NO_WARM {
            self.free.push(i);
        }
    }

    /// Frees every slot (the front's entries are all gone).
    pub(super) fn clear(&mut self) {
        self.slots.clear();
        self.free.clear();
    }

    /// Slots in use.
    pub(super) fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

/// Searches over which a whole-item witness is extrapolated ([`Warm::start`]).
pub(super) const WARM_SPAN: u32 = 16;

/// After a whole-item solve of a unimodal pair proves nothing, the pair's
/// next `ITEM_RETRY` expansions go cell by cell without it (the cell pairs
/// are the sound fallback either way: this only saves solves that would
/// prove nothing again).
pub(super) const ITEM_RETRY: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots are reused after release, kept in place by `put` on a held
    /// slot, and `NO_WARM` reads as no warm data.
    #[test]
    fn warm_slots_are_reused() {
        let mut w = Warms::with_capacity(4);
        assert!(w.get(NO_WARM).x[0].is_nan());
        let a = w.put(NO_WARM, Warm { wait: 3, ..WARM_NONE });
        let b = w.put(NO_WARM, Warm { wait: 5, ..WARM_NONE });
        assert_ne!(a, b);
        assert_eq!(w.put(a, Warm { wait: 7, ..WARM_NONE }), a);
        assert_eq!((w.get(a).wait, w.get(b).wait), (7, 5));
        w.release(a);
        w.release(NO_WARM);
        assert_eq!(w.live(), 1);
        assert_eq!(w.put(NO_WARM, WARM_NONE), a);
        assert_eq!(w.live(), 2);
        w.clear();
        assert_eq!(w.live(), 0);
    }
}
