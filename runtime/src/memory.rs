//! The one memory-limit check: a [`MemoryLimit`] in bytes, where
//! [`MemoryLimit::NONE`] means no limit, checked against the bytes a
//! builder or solver needs. The tree builders, the loader of saved trees,
//! CFR, the double oracle and max^n over states all check through it, so
//! the limit is converted from and to MiB in one place.

/// A memory limit in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryLimit {
    bytes: u64,
}

/// A check that failed: `needed` bytes, more than the limit allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMuch {
    pub needed: u64,
    pub limit: MemoryLimit,
}

/// Bytes in a MiB.
const MIB: u64 = 1 << 20;

/// `bytes` in whole MiB, rounded down (how messages give a limit).
pub const fn mib_down(bytes: u64) -> u64 {
    bytes / MIB
}

/// `bytes` in whole MiB, rounded up (how messages give what is needed).
pub const fn mib_up(bytes: u64) -> u64 {
    bytes.div_ceil(MIB)
}

impl MemoryLimit {
    /// No limit: every check passes.
    pub const NONE: MemoryLimit = MemoryLimit { bytes: u64::MAX };

    /// At most `bytes` bytes (`u64::MAX` is no limit).
    pub const fn from_bytes(bytes: u64) -> MemoryLimit {
        MemoryLimit { bytes }
    }

    /// At most `mib` MiB (saturating: a limit past `u64` bytes is none).
    pub const fn from_mib(mib: u64) -> MemoryLimit {
        MemoryLimit { bytes: mib.saturating_mul(MIB) }
    }

    /// The limit in bytes (`u64::MAX` for none).
    pub const fn bytes(self) -> u64 {
        self.bytes
    }

    /// The limit in whole MiB, rounded down, as messages give it.
    pub const fn mib(self) -> u64 {
        mib_down(self.bytes)
    }

    pub const fn is_none(self) -> bool {
        self.bytes == u64::MAX
    }

    /// Whether `needed` bytes fit.
    #[inline]
    pub fn check(self, needed: u64) -> Result<(), TooMuch> {
        if needed > self.bytes {
            Err(TooMuch { needed, limit: self })
        } else {
            Ok(())
        }
    }
}

impl TooMuch {
    /// The bytes needed in MiB, rounded up, as messages give them.
    pub const fn needed_mib(&self) -> u64 {
        mib_up(self.needed)
    }
}

impl Default for MemoryLimit {
    fn default() -> Self {
        MemoryLimit::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::MemoryLimit;

    #[test]
    fn a_limit_passes_what_fits_and_none_passes_all() {
        let limit = MemoryLimit::from_mib(2);
        assert_eq!((limit.bytes(), limit.mib()), (2 << 20, 2));
        assert!(limit.check(2 << 20).is_ok());
        let err = limit.check((2 << 20) + 1).unwrap_err();
        assert_eq!((err.needed_mib(), err.limit), (3, limit));
        assert!(MemoryLimit::NONE.check(u64::MAX).is_ok());
        assert_eq!(MemoryLimit::from_mib(u64::MAX), MemoryLimit::NONE);
    }
}
