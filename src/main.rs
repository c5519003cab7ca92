//! The `extrack` command line (its code is the library's `cli` module, so the
//! commands can use the library's crate-internal parts).

fn main() -> std::process::ExitCode {
    extrack::__cli_main()
}
