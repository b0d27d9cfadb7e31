//! (filled in below)

use crate::Path;

pub fn paths() -> Vec<Path> {
    Vec::new()
}
