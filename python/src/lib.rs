//! The `galac._galac` extension module: Gala games checked by the
//! compiler, built into galac's flat tree, solved through the app's one
//! solver registry (the CLI's solvers, defaults and answers), checked by
//! the independent best response, exported and drawn. The Python package
//! `galac` (python/galac) wraps it; every Rust error reaches Python as an
//! exception of [`errors`], and long work runs off the GIL ([`run`]).

mod errors;
mod game;
mod run;
mod tree;

use pyo3::prelude::*;

#[pymodule]
fn _galac(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Python keeps its own Ctrl-C handling; galac never installs a handler.
    galac_app::signals::embedded();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    m.add_class::<game::Game>()?;
    m.add_class::<tree::Tree>()?;
    m.add_function(wrap_pyfunction!(game::load_source, m)?)?;
    m.add_function(wrap_pyfunction!(solvers, m)?)?;
    Ok(())
}

/// The registry's solvers: (name, description, runs on a built tree), in
/// `galac solve --solver`'s order.
#[pyfunction]
fn solvers() -> Vec<(&'static str, &'static str, bool)> {
    use galac_app::registry::{Run, SOLVERS};
    SOLVERS.iter().map(|row| (row.name, row.about, matches!(row.run, Run::Tree(_)))).collect()
}
