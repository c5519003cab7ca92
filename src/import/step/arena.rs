//! The compact in-memory form of a parsed exchange structure: every parameter
//! of every instance in one flat arena ([`Param`], 16 bytes each), lists as
//! ranges into the same arena, names and strings as byte spans into the file.
//! Nothing is allocated per token.

/// A byte range of the input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Length in bytes.
    pub len: u32,
}

impl Span {
    /// The bytes of this span in `src` (empty when out of range).
    #[inline]
    pub fn of<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        let s = self.start as usize;
        src.get(s..s + self.len as usize).unwrap_or(&[])
    }
}

/// One parameter value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Param {
    /// `$` (unset).
    Null,
    /// `*` (derived / redeclared).
    Derived,
    /// An integer.
    Int(i64),
    /// A real.
    Real(f64),
    /// `#N`.
    Ref(u64),
    /// A string: the raw bytes between the quotes, escapes not yet decoded.
    Str(Span),
    /// An enumeration: the name between the dots.
    Enum(Span),
    /// A binary: the hex digits between the double quotes.
    Binary(Span),
    /// A list: `len` parameters starting at arena index `start`.
    List {
        /// First element's arena index.
        start: u32,
        /// Number of elements.
        len: u32,
    },
    /// A typed parameter `NAME(value)`: the keyword and the arena index of its value.
    Typed {
        /// The keyword.
        name: Span,
        /// Arena index of the value.
        value: u32,
    },
}

impl Param {
    /// Short description of the kind, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Param::Null => "$",
            Param::Derived => "*",
            Param::Int(_) => "an integer",
            Param::Real(_) => "a real",
            Param::Ref(_) => "a reference",
            Param::Str(_) => "a string",
            Param::Enum(_) => "an enumeration",
            Param::Binary(_) => "a binary",
            Param::List { .. } => "a list",
            Param::Typed { .. } => "a typed parameter",
        }
    }
}

/// One entity record of an instance: `NAME(args)`. A simple instance has one,
/// a complex instance `( A(..) B(..) )` several.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Record {
    /// Entity type name (upper case as written).
    pub name: Span,
    /// First argument's arena index.
    pub start: u32,
    /// Number of arguments.
    pub len: u32,
}

/// One instance `#id = ...;`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instance {
    /// The `#N`.
    pub id: u64,
    /// Byte offset of the `#` (for line numbers in messages).
    pub offset: u32,
    /// First record's index in [`Exchange::records`].
    pub rec_start: u32,
    /// Number of records (1 = simple instance, more = complex instance).
    pub rec_len: u32,
}

/// Maps instance ids to indices into [`Exchange::instances`]: a dense table
/// when the ids are compact (the usual case), a hash map otherwise.
#[derive(Debug, Clone)]
pub enum IdIndex {
    /// `table[id]` = instance index + 1 (0 = absent).
    Dense(Vec<u32>),
    /// Sparse ids.
    Sparse(std::collections::HashMap<u64, u32>),
}

impl IdIndex {
    /// Instance index of `id`.
    #[inline]
    pub fn get(&self, id: u64) -> Option<usize> {
        match self {
            IdIndex::Dense(t) => match usize::try_from(id).ok().and_then(|i| t.get(i)) {
                Some(&k) if k > 0 => Some(k as usize - 1),
                _ => None,
            },
            IdIndex::Sparse(m) => m.get(&id).map(|&k| k as usize),
        }
    }
}

/// A parsed exchange structure.
#[derive(Debug, Clone)]
pub struct Exchange<'a> {
    /// The whole file.
    pub src: &'a [u8],
    /// Header entities (FILE_DESCRIPTION, FILE_NAME, FILE_SCHEMA, ...), id 0.
    pub header: Vec<Instance>,
    /// Data instances in file order (all DATA sections).
    pub instances: Vec<Instance>,
    /// Entity records of all instances.
    pub records: Vec<Record>,
    /// All parameters.
    pub params: Vec<Param>,
    /// Id → instance index.
    pub index: IdIndex,
    /// Per instance index: how many references to it the file holds
    /// (saturating at 255), so the builder caches only shared geometry.
    pub ref_counts: Vec<u8>,
    /// What the parser read leniently (strings with malformed or unknown
    /// escapes), one line each.
    pub warnings: Vec<String>,
    /// References to an instance of another type than the schema requires
    /// that the reader read anyway ([`super::access::Args::check`]), one
    /// line each naming both instances (repeats included).
    pub type_notes: std::cell::RefCell<Vec<String>>,
}

impl<'a> Exchange<'a> {
    /// 1-based line number of byte offset `offset` (counted on demand).
    pub fn line_of(&self, offset: u32) -> usize {
        let end = (offset as usize).min(self.src.len());
        1 + self.src[..end].iter().filter(|&&b| b == b'\n').count()
    }

    /// The records of an instance.
    #[inline]
    pub fn records_of(&self, inst: &Instance) -> &[Record] {
        let s = inst.rec_start as usize;
        self.records.get(s..s + inst.rec_len as usize).unwrap_or(&[])
    }

    /// The arguments of a record.
    #[inline]
    pub fn args(&self, rec: &Record) -> &[Param] {
        let s = rec.start as usize;
        self.params.get(s..s + rec.len as usize).unwrap_or(&[])
    }

    /// The elements of a list parameter (`None` if `p` is not a list).
    #[inline]
    pub fn list(&self, p: &Param) -> Option<&[Param]> {
        match *p {
            Param::List { start, len } => self.params.get(start as usize..start as usize + len as usize),
            _ => None,
        }
    }

    /// The name bytes of a record.
    #[inline]
    pub fn name(&self, rec: &Record) -> &'a [u8] {
        rec.name.of(self.src)
    }

    /// How many references instance index `k` receives (saturating at 255).
    #[inline]
    pub fn ref_count(&self, k: usize) -> u8 {
        self.ref_counts.get(k).copied().unwrap_or(0)
    }

    /// Instance by id.
    #[inline]
    pub fn get(&self, id: u64) -> Option<(usize, &Instance)> {
        let k = self.index.get(id)?;
        self.instances.get(k).map(|i| (k, i))
    }
}
