//! The owners of a scene's bytes: [`AlignedBytes`], an 8-aligned buffer a
//! [`SceneView`] can borrow, and [`SceneFile`], a validated scene file read
//! into one (or memory-mapped with the explicit opt-in
//! [`SceneFile::open_mmap`], the only `unsafe` of the scene module).

use super::check::Checker;
use super::layout::Layout;
use super::SceneView;
use crate::scene::SceneError;
use std::path::Path;

/// An owned byte buffer whose start is 8-byte aligned (backed by `u64`s), so a
/// [`SceneView`] can borrow it.
#[derive(Debug, Clone, Default)]
pub struct AlignedBytes {
    words: Vec<u64>,
    len: usize,
}

impl AlignedBytes {
    /// Copies `bytes` into an aligned buffer.
    pub fn from_slice(bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        dst[..bytes.len()].copy_from_slice(bytes);
        Self {
            words,
            len: bytes.len(),
        }
    }

    /// A zero-filled aligned buffer of `len` bytes.
    pub fn zeroed(len: usize) -> Self {
        Self {
            words: vec![0u64; len.div_ceil(8)],
            len,
        }
    }

    /// The bytes, writable (8-aligned start).
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        let all: &mut [u8] = bytemuck::cast_slice_mut(&mut self.words);
        let len = self.len.min(all.len());
        &mut all[..len]
    }

    /// Reads a whole file into an aligned buffer.
    pub fn read(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |source| SceneError::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = usize::try_from(file.metadata().map_err(io)?.len()).unwrap_or(usize::MAX);
        let mut words = vec![0u64; len.div_ceil(8)];
        let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        let dst = dst.get_mut(..len).unwrap_or_default();
        file.read_exact(dst).map_err(io)?;
        // a file that grew meanwhile: read the rest into a bigger buffer
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).map_err(io)?;
        if rest.is_empty() {
            Ok(Self { words, len })
        } else {
            let mut all = bytemuck::cast_slice::<u64, u8>(&words)[..len].to_vec();
            all.extend_from_slice(&rest);
            Ok(Self::from_slice(&all))
        }
    }

    /// The bytes (8-aligned start).
    pub fn as_bytes(&self) -> &[u8] {
        let all: &[u8] = bytemuck::cast_slice(&self.words);
        all.get(..self.len).unwrap_or(all)
    }
}

#[derive(Debug)]
enum Storage {
    Owned(AlignedBytes),
    Mapped(memmap2::Mmap),
}

/// A validated scene file held in memory (read into an [`AlignedBytes`] by
/// default, or memory-mapped with the explicit opt-in [`SceneFile::open_mmap`]).
#[derive(Debug)]
pub struct SceneFile {
    storage: Storage,
    layout: Layout,
}

impl SceneFile {
    /// Reads the file into an aligned buffer (unpacking a packed scene, see
    /// [`packed`](crate::scene::packed)) and validates it.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let bytes = AlignedBytes::read(path)?;
        if crate::scene::packed::is_packed(bytes.as_bytes()) {
            Self::from_aligned(crate::scene::packed::unpack(bytes.as_bytes())?)
        } else {
            Self::from_aligned(bytes)
        }
    }

    /// Validates the bytes of a scene file in either form (plain or packed),
    /// copying them into an aligned buffer (unpacking a packed scene).
    pub fn from_file_bytes(bytes: &[u8]) -> Result<Self, SceneError> {
        Self::from_aligned(crate::scene::packed::load(bytes)?)
    }

    /// Validates an aligned buffer and keeps it.
    pub fn from_aligned(bytes: AlignedBytes) -> Result<Self, SceneError> {
        let layout = Self::check(bytes.as_bytes())?;
        Ok(Self {
            storage: Storage::Owned(bytes),
            layout,
        })
    }

    /// Memory-maps a plain (not packed) scene file and validates it.
    ///
    /// # Safety
    /// The mapping reflects later changes of the file. If the file is modified
    /// or truncated (by this or any other process) while the `SceneFile` lives,
    /// the validated bytes change underneath every view: that is undefined
    /// behaviour. Use it only for files nothing writes to; otherwise use
    /// [`SceneFile::open`].
    pub unsafe fn open_mmap(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let path = path.as_ref();
        let io = |source| SceneError::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: the caller guarantees (see `# Safety`) that the file is not
        // modified while the map lives; a mapping starts on a page boundary, so
        // it is 8-byte aligned. This is the only `unsafe` of the scene module.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        if crate::scene::packed::is_packed(&map) {
            return Err(SceneError::Packed {
                reason: "a packed scene cannot be memory-mapped; open it with SceneFile::open or write it plain (`extrack import --plain`)".into(),
            });
        }
        let layout = Self::check(&map)?;
        Ok(Self {
            storage: Storage::Mapped(map),
            layout,
        })
    }

    fn check(bytes: &[u8]) -> Result<Layout, SceneError> {
        let layout = Layout::validate(bytes)?;
        Checker { v: &layout.view(bytes) }.run()?;
        Ok(layout)
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Owned(b) => b.as_bytes(),
            Storage::Mapped(m) => m,
        }
    }

    /// The validated view (no re-validation, no copy).
    pub fn view(&self) -> SceneView<'_> {
        self.layout.view(self.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::records::{SectionId, VERSION_MAJOR, VERSION_MINOR_WITHOUT_CHECKS};
    use crate::scene::SceneData;

    #[test]
    fn aligned_bytes_are_aligned_and_exact() {
        for len in [0usize, 1, 7, 8, 9, 100] {
            let data: Vec<u8> = (0..len as u8).collect();
            let a = AlignedBytes::from_slice(&data);
            assert_eq!(a.as_bytes(), &data[..]);
            assert_eq!(a.as_bytes().as_ptr() as usize % 8, 0);
        }
    }

    #[test]
    fn empty_scene_views_and_reads_from_a_file() {
        let bytes = SceneData::default().write();
        let dir = std::env::temp_dir().join(format!("extrack-scene-view-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("empty.exs");
        std::fs::write(&path, &bytes).unwrap();
        let a = AlignedBytes::read(&path).unwrap();
        assert_eq!(a.as_bytes(), &bytes[..]);
        let f = SceneFile::open(&path).unwrap();
        let v = f.view();
        assert_eq!(v.bodies().len(), 0);
        // the optional sections of 2.1 and 2.2 are written only when they hold records
        let required = SectionId::ALL.iter().filter(|s| s.is_required()).count();
        assert_eq!(v.sections().len(), required);
        assert_eq!(v.version(), (VERSION_MAJOR, VERSION_MINOR_WITHOUT_CHECKS));
        assert!(v.surfaces().is_empty() && v.piece_origins().is_empty());
        assert_eq!(v.to_data(), SceneData::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
