//! The far phase's front: the frontier of the bounding-volume test tree
//! where the last search stopped, a min-heap of entries keyed by their
//! lower bound plus the accumulated relative motion.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EntryKind {
    Nodes,
    Items,
}

/// One entry of the far-phase front: a node pair or an item pair whose
/// lower bound (as a key `bound + S`) is known. An item pair's bound is the
/// smallest of its cell pairs' bounds (box bounds, or solved minima where
/// the pair is unimodal).
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) kind: EntryKind,
    pub(super) a: u32,
    pub(super) b: u32,
    /// Depth in the test tree (the root pair is 0).
    pub(super) depth: u32,
    pub(super) key: f64,
    /// The lower bound made for the pair at the relative pose of search
    /// `at` (`key` is this bound plus the accumulated motion `S` then, or a
    /// tighter decayed bound since: [`PairFar`](super::PairFar)'s pose ring).
    pub(super) lb: f64,
    /// The search whose relative pose `lb` holds at ([`NO_POSE`]: none).
    pub(super) at: u32,
    /// An item pair's warm data (witness, direction, retry count): its slot
    /// in [`Warms`](super::warm::Warms), [`NO_WARM`](super::warm::NO_WARM) for none.
    pub(super) warm: u32,
}

/// The front's order: a min-heap on the key, so an update visits only the
/// entries whose bound fell below the best distance. The key is held as
/// [`total_key`] of it: integers in `f64::total_cmp`'s order, so a sift
/// compares two integers instead of mapping both keys on every comparison
/// (the heap's pops were 8–11 % of a coherent update).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ByKey {
    key: i64,
    slot: u32,
}

impl PartialOrd for ByKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // reversed: the smallest key on top of `BinaryHeap` (the key alone,
        // so the heap moves exactly as a heap of whole entries would)
        other.key.cmp(&self.key)
    }
}

/// `x` as an integer ordered as `f64::total_cmp` orders the floats (its
/// mapping: negative floats' magnitude bits flipped).
#[inline]
pub(super) fn total_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    b ^ ((((b >> 63) as u64) >> 1) as i64)
}

/// The float of a [`total_key`].
#[inline]
fn from_total_key(k: i64) -> f64 {
    f64::from_bits((k ^ ((((k >> 63) as u64) >> 1) as i64)) as u64)
}

/// The front: a min-heap of `(key, slot)` over an arena of entries, so a
/// sift moves 16 bytes instead of a whole [`Entry`].
#[derive(Debug, Clone, Default)]
pub(super) struct Front {
    heap: std::collections::BinaryHeap<ByKey>,
    slots: Vec<Entry>,
    free: Vec<u32>,
}

impl Front {
    pub(super) fn with_capacity(n: usize) -> Self {
        Self {
            heap: std::collections::BinaryHeap::with_capacity(n),
            slots: Vec::with_capacity(n),
            free: Vec::with_capacity(n),
        }
    }

    pub(super) fn push(&mut self, e: Entry) {
        let slot = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = e;
                i
            }
            None => {
                self.slots.push(e);
                (self.slots.len() - 1) as u32
            }
        };
        self.heap.push(ByKey {
            key: total_key(e.key),
            slot,
        });
    }

    pub(super) fn peek_key(&self) -> Option<f64> {
        self.heap.peek().map(|k| from_total_key(k.key))
    }

    pub(super) fn pop(&mut self) -> Option<Entry> {
        let k = self.heap.pop()?;
        self.free.push(k.slot);
        Some(self.slots[k.slot as usize])
    }

    pub(super) fn len(&self) -> usize {
        self.heap.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.heap.clear();
        self.slots.clear();
        self.free.clear();
    }

    pub(super) fn min_key(&self) -> f64 {
        self.heap.iter().fold(f64::INFINITY, |m, e| m.min(from_total_key(e.key)))
    }
}

/// [`Entry::at`] of an entry whose bound is not tied to a pose (the root
/// pair, a folded front).
pub(super) const NO_POSE: u32 = u32::MAX;

/// Depth of the test tree down to which the front keeps entries (at most
/// about `2^FRONT_DEPTH` of them); deeper pairs are summarised by their
/// ancestor at this depth.
pub(super) const FRONT_DEPTH: u32 = 24;

/// Entries beyond which the front is folded back into the root pair (with
/// the smallest key: the minimum of the bounds of a partition bounds the whole).
pub(super) const FRONT_CAP: usize = 1 << 15;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_key() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>(),
            Just(f64::NEG_INFINITY),
            Just(f64::INFINITY),
            Just(0.0),
            Just(-0.0),
            -1e3..1e3f64,
        ]
    }

    proptest! {
        /// The heap's integer keys order as `f64::total_cmp` and map back to
        /// the same float, bit for bit.
        #[test]
        fn total_keys_order_as_total_cmp(x in any_key(), y in any_key()) {
            prop_assert_eq!(total_key(x).cmp(&total_key(y)), x.total_cmp(&y));
            prop_assert_eq!(from_total_key(total_key(x)).to_bits(), x.to_bits());
        }
    }
}
