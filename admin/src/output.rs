//! What `dictadmin` prints. `println!` panics when standard output is a
//! closed pipe (`dictadmin keys list | head -1`); these lines are dropped
//! instead, and the command finishes its work and exits as it would have:
//! an import cut off by a pager would leave a half-written dictionary.
//! The crate denies `println!` and `eprintln!` (lib.rs, main.rs), so every line goes
//! through here.

use std::fmt::Arguments;
use std::io::Write;

/// A line on standard output.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::line(&mut std::io::stdout().lock(), format_args!($($arg)*))
    };
}

/// A line on standard error (warnings and the final error).
#[macro_export]
macro_rules! say_err {
    ($($arg:tt)*) => {
        $crate::output::line(&mut std::io::stderr().lock(), format_args!($($arg)*))
    };
}

// `#[macro_export]` puts them at the crate root, for main.rs; inside the
// library they are used by this path.
pub(crate) use {say, say_err};

/// Writes one line. A write that fails (a closed pipe, a full disk behind
/// a redirection) is not the command's failure: nobody reads it.
pub fn line(out: &mut impl Write, args: Arguments) {
    let _ = writeln!(out, "{args}").and_then(|()| out.flush());
}
