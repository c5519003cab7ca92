//! Hostile scenes: random field overwrites with re-sealed checksums reach the
//! structural checks. Loading must never panic; whatever it accepts must be
//! fully usable (dump, owned copy) and must re-serialise into a valid scene.

use crate::common::scene_fixture as fixture;

use extrack::scene::checksum::reseal;
use extrack::scene::{dump, AlignedBytes, SceneView};
use proptest::prelude::*;

fn interesting_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..12,
        Just(u32::MAX),
        Just(u32::MAX - 1),
        Just(0x8000_0000),
        any::<u32>()
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn hostile_overwrites_never_panic(
        writes in prop::collection::vec((any::<prop::sample::Index>(), interesting_u32(), any::<bool>()), 1..6),
        grid in any::<bool>(),
    ) {
        let data = if grid { fixture::grid_scene(12) } else { fixture::small_scene() };
        let mut bytes = data.write();
        // the data area starts after the header and section table
        let n_sections = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
        let start = 40 + 40 * n_sections;
        let words = (bytes.len() - start) / 4;
        for (at, value, as_f64) in writes {
            let w = start + 4 * at.index(words);
            if as_f64 && w % 8 == 0 && w + 8 <= bytes.len() {
                let f = [f64::NAN, f64::INFINITY, -1.0, 0.0, 1e300, value as f64][value as usize % 6];
                bytes[w..w + 8].copy_from_slice(&f.to_le_bytes());
            } else {
                bytes[w..w + 4].copy_from_slice(&value.to_le_bytes());
            }
        }
        reseal(&mut bytes).unwrap();
        let a = AlignedBytes::from_slice(&bytes);
        if let Ok(view) = SceneView::from_bytes(a.as_bytes()) {
            let text = dump(&view);
            prop_assert!(text.starts_with("extrack scene 2."));
            let owned = view.to_data();
            let again = AlignedBytes::from_slice(&owned.write());
            let v2 = SceneView::from_bytes(again.as_bytes());
            prop_assert!(v2.is_ok(), "accepted scene re-serialises invalid: {}", v2.unwrap_err());
            prop_assert_eq!(v2.unwrap().to_data(), owned);
        }
    }
}
