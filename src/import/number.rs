//! The decimal-number core shared by the IGES and STEP scanners: sign,
//! digits (eight at a time), optional fraction and exponent in one pass, and
//! the exact conversion of `mantissa × 10^e` to `f64`.
//!
//! The grammars differ only in the exponent letters (`E` for STEP, `E` or `D`
//! for IGES), which [`scan_decimal`] takes as a parameter; what a scanner does
//! with the parts (integer or real, how many significant digits it converts
//! on the fast path, what it falls back to) stays with the scanner.

/// Exact powers of ten representable as `f64` (10^22 is the largest).
pub const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// Powers of ten as integers (10^19 is the largest `u64` one).
pub const POW10_U64: [u64; 20] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100_000_000_000,
    1_000_000_000_000,
    10_000_000_000_000,
    100_000_000_000_000,
    1_000_000_000_000_000,
    10_000_000_000_000_000,
    100_000_000_000_000_000,
    1_000_000_000_000_000_000,
    10_000_000_000_000_000_000,
];

/// The value of eight decimal digits packed little-endian in `v`, each byte
/// already reduced to 0..=9 (first digit in the lowest byte, the most
/// significant one): three multiplications instead of eight.
#[inline(always)]
fn eight_digits(v: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    // pairs: byte k holds 10·d_k + d_(k+1) for even k
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let a = (v & MASK).wrapping_mul(MUL1);
    let b = ((v >> 16) & MASK).wrapping_mul(MUL2);
    a.wrapping_add(b) >> 32
}

/// Accumulates the decimal digits of `s` from `i` into `mant`
/// (`mant · 10^n + digits`, wrapping, so exact while the total stays below
/// 2^64) and returns the index after the last digit. Reads eight bytes at a
/// time where eight are left.
#[inline(always)]
pub fn accumulate_digits(s: &[u8], mut i: usize, mant: &mut u64) -> usize {
    while let Some(chunk) = s.get(i..).and_then(|t| t.first_chunk::<8>()) {
        let v = u64::from_le_bytes(*chunk).wrapping_sub(0x3030_3030_3030_3030);
        // high bit of each byte that is not a digit; borrows from the
        // subtraction only reach bytes above the first non-digit
        let non = (v | v.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080;
        let n = if non == 0 {
            8
        } else {
            (non.trailing_zeros() / 8) as usize
        };
        if n == 0 {
            return i;
        }
        // keep the n digits as the low-order end of an eight-digit number
        // (the bytes shifted in are zero digits in front of them)
        *mant = mant
            .wrapping_mul(POW10_U64[n])
            .wrapping_add(eight_digits(v << (8 * (8 - n))));
        i += n;
        if n < 8 {
            return i;
        }
    }
    while let Some(&c) = s.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        *mant = mant.wrapping_mul(10).wrapping_add(d as u64);
        i += 1;
    }
    i
}

/// A decimal number scanned by [`scan_decimal`]: its parts, as offsets into
/// the scanned text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    /// A leading `-`.
    pub neg: bool,
    /// All digits of the integer and fraction parts as one integer
    /// (wrapping): exact when `nd` ≤ 19.
    pub mant: u64,
    /// Significant digits (from the first non-zero one, trailing zeros included).
    pub nd: usize,
    /// Start of the integer digits (after the sign).
    pub int_start: usize,
    /// Number of integer digits (leading zeros included).
    pub int_len: usize,
    /// A `.` follows the integer digits.
    pub dot: bool,
    /// Start of the fraction digits (after the `.`).
    pub frac_start: usize,
    /// Number of fraction digits.
    pub frac_len: usize,
    /// The exponent, when a complete one (letter, optional sign, at least one
    /// digit) follows; clamped to ±2^40.
    pub exp: Option<i64>,
    /// Index of the first byte after the number.
    pub end: usize,
}

/// Scans `[+-] digits [. digits] [X [+-] digits]` at `s[i0..]`, where `X` is
/// any byte `exp_letter` accepts, `.5` and `1.` included. An exponent letter
/// without digits after it is not part of the number. `None` when there is
/// no digit before the exponent.
#[inline(always)]
pub fn scan_decimal(s: &[u8], i0: usize, exp_letter: impl Fn(u8) -> bool) -> Option<Decimal> {
    let mut i = i0;
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let int_start = i;
    while s.get(i) == Some(&b'0') {
        i += 1;
    }
    let sig = i;
    let mut mant = 0u64;
    // integer parts are mostly short: a few digits one at a time, then the
    // eight-at-a-time loop for long ones
    while let Some(&c) = s.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        mant = mant * 10 + d as u64;
        i += 1;
        if i - sig == 4 {
            i = accumulate_digits(s, i, &mut mant);
            break;
        }
    }
    let int_len = i - int_start;
    let mut nd = i - sig;
    let (mut dot, mut frac_start, mut frac_len) = (false, i, 0);
    if s.get(i) == Some(&b'.') {
        dot = true;
        i += 1;
        frac_start = i;
        if nd == 0 {
            while s.get(i) == Some(&b'0') {
                i += 1;
            }
        }
        let sig = i;
        i = accumulate_digits(s, i, &mut mant);
        nd += i - sig;
        frac_len = i - frac_start;
    }
    if int_len == 0 && frac_len == 0 {
        return None;
    }
    let mut exp = None;
    if s.get(i).is_some_and(|&c| exp_letter(c)) {
        let mut j = i + 1;
        let eneg = match s.get(j) {
            Some(b'-') => {
                j += 1;
                true
            }
            Some(b'+') => {
                j += 1;
                false
            }
            _ => false,
        };
        let d0 = j;
        let mut e: i64 = 0;
        while let Some(&c) = s.get(j).filter(|c| c.is_ascii_digit()) {
            e = (e * 10 + (c - b'0') as i64).min(1 << 40);
            j += 1;
        }
        if j > d0 {
            exp = Some(if eneg { -e } else { e });
            i = j;
        }
    }
    Some(Decimal {
        neg,
        mant,
        nd,
        int_start,
        int_len,
        dot,
        frac_start,
        frac_len,
        exp,
        end: i,
    })
}

/// `mant · 10^e10` correctly rounded to `f64` (`mant` > 0), or `None` when
/// outside the exact fast paths:
/// - `mant` ≤ 2^53 and |e10| ≤ 22: both factors are exact doubles, one IEEE
///   multiplication or division rounds correctly (Clinger);
/// - 0 ≤ e10 ≤ 19: the product is an exact `u128`, converted with one rounding;
/// - −19 ≤ e10 < 0: `mant` shifted left by `s` bits divided by 10^-e10 in
///   `u128` gives a quotient of at least 62 bits; a non-zero remainder sets its
///   lowest bit (a sticky bit far below the rounding position), so converting
///   the quotient rounds as the exact value would; the power-of-two scale by
///   2^-s is exact.
#[inline]
pub fn exact_real(mut mant: u64, mut e10: i64) -> Option<f64> {
    if mant > 1u64 << 53 {
        // trailing zeros of the digit string go to the exponent
        while mant % 10 == 0 {
            mant /= 10;
            e10 += 1;
        }
    }
    if mant <= 1u64 << 53 && (-22..=22).contains(&e10) {
        let m = mant as f64;
        return Some(if e10 >= 0 {
            m * POW10[e10 as usize]
        } else {
            m / POW10[(-e10) as usize]
        });
    }
    if (0..=19).contains(&e10) {
        let x = mant as u128 * POW10_U64[e10 as usize] as u128;
        return Some(x as f64);
    }
    if (-19..0).contains(&e10) {
        let d = POW10_U64[(-e10) as usize] as u128;
        // put the top bit of `mant` at bit 126
        let shift = 63 + mant.leading_zeros();
        let n = (mant as u128) << shift;
        let q = n / d;
        let q = q | ((n % d != 0) as u128);
        // 2^-shift, exact (shift ≤ 126)
        let scale = f64::from_bits((1023 - u64::from(shift)) << 52);
        return Some(q as f64 * scale);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_digits(s: &[u8], mut i: usize, mant: &mut u64) -> usize {
        while let Some(&c) = s.get(i).filter(|c| c.is_ascii_digit()) {
            *mant = mant.wrapping_mul(10).wrapping_add((c - b'0') as u64);
            i += 1;
        }
        i
    }

    #[test]
    fn eight_at_a_time_equals_one_at_a_time() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let alphabet = b"0123456789012345678901234567890123456789.,;E-+ /:\xb0\x00";
        for _ in 0..50_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 30) as usize;
            let s: Vec<u8> = (0..len)
                .map(|k| alphabet[((seed >> (k % 50)) as usize + k * 7) % alphabet.len()])
                .collect();
            for i0 in 0..=len {
                let (mut a, mut b) = (seed & 0xff, seed & 0xff);
                let ia = accumulate_digits(&s, i0, &mut a);
                let ib = slow_digits(&s, i0, &mut b);
                assert_eq!((ia, a), (ib, b), "{:?} from {i0}", String::from_utf8_lossy(&s));
            }
        }
        let mut m = 7;
        assert_eq!(accumulate_digits(b"1234567890123456789x", 0, &mut m), 19);
        assert_eq!(m, 71_234_567_890_123_456_789u128 as u64);
    }

    #[test]
    fn scans_parts() {
        let d = scan_decimal(b"-001.2500D-3,", 0, |c| matches!(c, b'E' | b'D')).unwrap();
        assert_eq!(
            (d.neg, d.mant, d.nd, d.int_len, d.frac_len, d.exp, d.end),
            (true, 12500, 5, 3, 4, Some(-3), 12)
        );
        let d = scan_decimal(b"0.000120", 0, |c| c == b'E').unwrap();
        assert_eq!((d.mant, d.nd, d.frac_len, d.exp), (120, 3, 6, None));
        let d = scan_decimal(b"5E", 0, |c| c == b'E').unwrap();
        assert_eq!((d.mant, d.exp, d.end, d.dot), (5, None, 1, false));
        assert_eq!(scan_decimal(b"-.E5", 0, |c| c == b'E'), None);
    }
}
