//! A linear program solved by HiGHS's simplex through its C API,
//! optionally from a given basis: the one place galac calls C code for an
//! LP. The model is passed whole, column-wise; a basis from an earlier,
//! smaller LP (mapped onto this one's columns and rows by the caller) lets
//! the simplex start where that LP ended instead of from the slack basis.
//!
//! HiGHS is a shared library loaded when first needed (no C++ to build):
//! the file `GALAC_HIGHS_LIB` names at run time, else the one it named when
//! galac was built (`.cargo/config.toml` points it at the copy the README's
//! set-up installs), else `libhighs.so` on the system's library path.
//! Without it, [`library`] says why and galac solves with clarabel.

// The calls below go through HiGHS's C API (HiGHS 1.x, `HighsInt` a
// 32-bit int as its default build has it); each passes arrays whose lengths
// are the model's column and row counts, as the API requires.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_double, c_int, c_void, CStr};
use std::sync::OnceLock;

use galac_runtime::cancel::Cancel;

type HighsInt = c_int;

/// HiGHS's basis statuses (`kHighsBasisStatus*`).
pub const LOWER: i8 = 0;
pub const BASIC: i8 = 1;
pub const ZERO: i8 = 3;

const STATUS_ERROR: HighsInt = -1;
const MATRIX_FORMAT_COLUMN_WISE: HighsInt = 1;
const SENSE_MINIMIZE: HighsInt = 1;
const SENSE_MAXIMIZE: HighsInt = -1;
const MODEL_STATUS_OPTIMAL: HighsInt = 7;

/// The C functions used, resolved once.
struct Api {
    create: unsafe extern "C" fn() -> *mut c_void,
    destroy: unsafe extern "C" fn(*mut c_void),
    set_bool: unsafe extern "C" fn(*mut c_void, *const c_char, HighsInt) -> HighsInt,
    set_double: unsafe extern "C" fn(*mut c_void, *const c_char, c_double) -> HighsInt,
    #[allow(clippy::type_complexity)]
    pass_lp: unsafe extern "C" fn(
        *mut c_void,
        HighsInt,
        HighsInt,
        HighsInt,
        HighsInt,
        HighsInt,
        c_double,
        *const c_double,
        *const c_double,
        *const c_double,
        *const c_double,
        *const c_double,
        *const HighsInt,
        *const HighsInt,
        *const c_double,
    ) -> HighsInt,
    set_basis: unsafe extern "C" fn(*mut c_void, *const HighsInt, *const HighsInt) -> HighsInt,
    run: unsafe extern "C" fn(*mut c_void) -> HighsInt,
    model_status: unsafe extern "C" fn(*const c_void) -> HighsInt,
    solution:
        unsafe extern "C" fn(*const c_void, *mut c_double, *mut c_double, *mut c_double, *mut c_double) -> HighsInt,
    basis: unsafe extern "C" fn(*const c_void, *mut HighsInt, *mut HighsInt) -> HighsInt,
    int_info: unsafe extern "C" fn(*const c_void, *const c_char, *mut HighsInt) -> HighsInt,
    objective: unsafe extern "C" fn(*const c_void) -> c_double,
    /// `Highs_setCallback` and `Highs_startCallback`, to stop a run from
    /// another thread (a HiGHS without them solves, uncancellable).
    callbacks: Option<(SetCallback, StartCallback)>,
    /// Keeps the functions above loaded.
    _lib: libloading::Library,
}

type SetCallback = unsafe extern "C" fn(*mut c_void, Callback, *mut c_void) -> HighsInt;
type StartCallback = unsafe extern "C" fn(*mut c_void, HighsInt) -> HighsInt;
/// HiGHS's `HighsCCallbackType`.
type Callback = unsafe extern "C" fn(c_int, *const c_char, *const c_void, *mut DataIn, *mut c_void);

/// The start of HiGHS's `HighsCallbackDataIn`: the flag a callback sets to
/// stop the run (its first field, by HiGHS's promise in
/// `HighsCallbackStruct.h`).
#[repr(C)]
struct DataIn {
    user_interrupt: c_int,
}

/// `kCallbackSimplexInterrupt` and `kCallbackIpmInterrupt`: asked every
/// iteration of the simplex and of the interior point.
const INTERRUPTS: [HighsInt; 2] = [1, 2];

/// The interrupt callback: stops the run once the [`Cancel`] that
/// `user` points at is set.
unsafe extern "C" fn interrupt(_: c_int, _: *const c_char, _: *const c_void, data: *mut DataIn, user: *mut c_void) {
    // SAFETY: `user` is the `&Cancel` that `solve` gave, alive for the run;
    // `data` is HiGHS's input struct for this call, or null.
    unsafe {
        if !data.is_null() && (*(user as *const Cancel)).is_cancelled() {
            (*data).user_interrupt = 1;
        }
    }
}

/// The library's path when galac was built (see the module's doc).
const BUILT_WITH: Option<&str> = option_env!("GALAC_HIGHS_LIB");

/// HiGHS, loaded on first use, or why it could not be.
fn library() -> Result<&'static Api, String> {
    static API: OnceLock<Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// Whether HiGHS can be loaded (else why not).
pub fn available() -> Result<(), String> {
    library().map(|_| ())
}

/// The file HiGHS is loaded from: the run's `GALAC_HIGHS_LIB`, else the
/// build's; `None` for the system's library path. galac gives it to the
/// solvers it compiles, which then load the library galac loads wherever
/// they are built.
pub fn library_path() -> Option<String> {
    std::env::var("GALAC_HIGHS_LIB").ok().or(BUILT_WITH.map(String::from))
}

fn load() -> Result<Api, String> {
    let name = library_path().unwrap_or_else(|| "libhighs.so".into());
    // SAFETY: loading runs the library's initialisers; HiGHS's have no
    // preconditions.
    let lib = unsafe { libloading::Library::new(&name) }.map_err(|e| format!("cannot load HiGHS ({name}): {e}"))?;
    // SAFETY: each symbol is HiGHS's C function of the signature given to it.
    unsafe {
        macro_rules! sym {
            ($name:literal) => {
                *lib.get($name).map_err(|e| format!("HiGHS ({name}) lacks {}: {e}", String::from_utf8_lossy($name)))?
            };
        }
        Ok(Api {
            create: sym!(b"Highs_create"),
            destroy: sym!(b"Highs_destroy"),
            set_bool: sym!(b"Highs_setBoolOptionValue"),
            set_double: sym!(b"Highs_setDoubleOptionValue"),
            pass_lp: sym!(b"Highs_passLp"),
            set_basis: sym!(b"Highs_setBasis"),
            run: sym!(b"Highs_run"),
            model_status: sym!(b"Highs_getModelStatus"),
            solution: sym!(b"Highs_getSolution"),
            basis: sym!(b"Highs_getBasis"),
            int_info: sym!(b"Highs_getIntInfoValue"),
            objective: sym!(b"Highs_getObjectiveValue"),
            callbacks: lib
                .get::<SetCallback>(b"Highs_setCallback")
                .and_then(|set| Ok((*set, *lib.get::<StartCallback>(b"Highs_startCallback")?)))
                .ok(),
            _lib: lib,
        })
    }
}

/// An LP in column-wise (CSC) form: `lower <= x <= upper`,
/// `row_lower <= A x <= row_upper`, optimise `cost . x`.
#[derive(Default)]
pub struct Model {
    pub maximise: bool,
    pub cost: Vec<f64>,
    pub col_lower: Vec<f64>,
    pub col_upper: Vec<f64>,
    pub row_lower: Vec<f64>,
    pub row_upper: Vec<f64>,
    /// Column `c`'s entries are `index[start[c]..start[c + 1]]` (rows) and
    /// the same range of `value`.
    pub start: Vec<i32>,
    pub index: Vec<i32>,
    pub value: Vec<f64>,
}

/// An optimal solution and the basis it ends at.
pub struct Optimum {
    pub objective: f64,
    pub cols: Vec<f64>,
    /// Reduced costs of the columns.
    pub col_duals: Vec<f64>,
    pub row_duals: Vec<f64>,
    /// Basis statuses of the columns and rows.
    pub col_basis: Vec<i8>,
    pub row_basis: Vec<i8>,
    /// Simplex iterations taken.
    pub iterations: i64,
    /// Whether the given basis was taken (false: none given, or HiGHS
    /// refused it and started from its own).
    pub warm: bool,
}

/// Primal and dual feasibility tolerance: the answers need about 1e-9 of
/// the payoff range, and the LP's payoffs are scaled so that their smallest
/// entry is about 1.
pub(crate) const TOLERANCE: f64 = 1e-9;

/// HiGHS's own default tolerances, for a one-off LP with bounded set
/// values (`lp_model::value_bound`): on liar's dice 1e-9 there took 15,493
/// iterations and about 0.3 s more CPU than these 14,625, and the vertex
/// it stops at still gives NashConv about 1e-16 on the tree, which checks
/// every answer exactly (docs/perf/lp.md, "Bounded set values").
pub(crate) const DEFAULT_TOLERANCE: f64 = 1e-7;

/// One HiGHS instance, destroyed on drop.
struct Instance<'a> {
    api: &'a Api,
    ptr: *mut c_void,
}

impl Drop for Instance<'_> {
    fn drop(&mut self) {
        // SAFETY: the pointer came from Highs_create and is destroyed once.
        unsafe { (self.api.destroy)(self.ptr) }
    }
}

/// Why [`solve`] failed.
#[derive(Debug)]
pub enum Failure {
    /// The run was cancelled.
    Cancelled,
    Other(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Other(e)
    }
}

impl Model {
    /// Writes the model (payoffs times `scale`) as text, in
    /// [`crate::lp::write_highs_model`]'s format.
    pub fn write(&self, scale: f64, out: &mut impl std::io::Write) -> std::io::Result<()> {
        fn line<T: std::fmt::Display>(out: &mut impl std::io::Write, v: &[T]) -> std::io::Result<()> {
            for (k, x) in v.iter().enumerate() {
                write!(out, "{}{x}", if k == 0 { "" } else { " " })?;
            }
            writeln!(out)
        }
        writeln!(out, "{} {} {} {scale}", self.cost.len(), self.row_lower.len(), self.value.len())?;
        for v in [&self.cost, &self.col_lower, &self.col_upper, &self.row_lower, &self.row_upper] {
            line(out, v)?;
        }
        line(out, &self.start)?;
        line(out, &self.index)?;
        line(out, &self.value)
    }
}

/// Solves `model` by the simplex, from `basis` (column and row statuses)
/// when given, to primal and dual feasibility `tolerance` ([`TOLERANCE`]
/// or [`DEFAULT_TOLERANCE`]); stops within an iteration once `cancel` is set.
pub fn solve(
    model: &Model,
    basis: Option<(&[i8], &[i8])>,
    tolerance: f64,
    cancel: Option<&Cancel>,
) -> Result<Optimum, Failure> {
    let api = library()?;
    let (n_cols, n_rows) = (model.cost.len(), model.row_lower.len());
    assert!(model.start.len() == n_cols + 1 && model.index.len() == model.value.len(), "malformed model");
    let count = |n: usize| HighsInt::try_from(n).map_err(|_| format!("{n} is past HiGHS's index range"));
    let (nc, nr, nz) = (count(n_cols)?, count(n_rows)?, count(model.value.len())?);
    // SAFETY: Highs_create takes no argument.
    let highs = Instance { api, ptr: unsafe { (api.create)() } };
    if highs.ptr.is_null() {
        return Err(Failure::Other("HiGHS could not create an instance".into()));
    }
    if let (Some(cancel), Some((set_callback, start_callback))) = (cancel, api.callbacks) {
        // SAFETY: a live instance; `cancel` outlives the run below, the
        // only time HiGHS calls back.
        unsafe {
            set_callback(highs.ptr, interrupt, cancel as *const Cancel as *mut c_void);
            for kind in INTERRUPTS {
                start_callback(highs.ptr, kind);
            }
        }
    }
    let set_bool = |name: &CStr, v: bool| {
        // SAFETY: a live instance and a NUL-terminated option name.
        unsafe { (api.set_bool)(highs.ptr, name.as_ptr(), HighsInt::from(v)) }
    };
    let set_double = |name: &CStr, v: f64| {
        // SAFETY: as above.
        unsafe { (api.set_double)(highs.ptr, name.as_ptr(), v) }
    };
    set_bool(c"output_flag", false);
    set_double(c"primal_feasibility_tolerance", tolerance);
    set_double(c"dual_feasibility_tolerance", tolerance);
    let sense = if model.maximise { SENSE_MAXIMIZE } else { SENSE_MINIMIZE };
    // SAFETY: every array has the length the counts say (checked above and
    // by construction of `Model`); HiGHS copies them.
    let status = unsafe {
        (api.pass_lp)(
            highs.ptr,
            nc,
            nr,
            nz,
            MATRIX_FORMAT_COLUMN_WISE,
            sense,
            0.0,
            model.cost.as_ptr(),
            model.col_lower.as_ptr(),
            model.col_upper.as_ptr(),
            model.row_lower.as_ptr(),
            model.row_upper.as_ptr(),
            model.start.as_ptr(),
            model.index.as_ptr(),
            model.value.as_ptr(),
        )
    };
    if status == STATUS_ERROR {
        return Err(Failure::Other("HiGHS refused the model".into()));
    }
    let mut warm = false;
    if let Some((cols, rows)) = basis {
        assert!(cols.len() == n_cols && rows.len() == n_rows, "a basis of another model");
        let cols: Vec<HighsInt> = cols.iter().map(|&s| HighsInt::from(s)).collect();
        let rows: Vec<HighsInt> = rows.iter().map(|&s| HighsInt::from(s)).collect();
        // SAFETY: one status per column and per row.
        warm = unsafe { (api.set_basis)(highs.ptr, cols.as_ptr(), rows.as_ptr()) } != STATUS_ERROR;
    }
    // SAFETY: a live instance holding a model.
    let (run, model_status) = unsafe { ((api.run)(highs.ptr), (api.model_status)(highs.ptr)) };
    if galac_runtime::cancel::requested(cancel) {
        return Err(Failure::Cancelled);
    }
    if run == STATUS_ERROR || model_status != MODEL_STATUS_OPTIMAL {
        return Err(Failure::Other(format!("HiGHS stopped with model status {model_status}")));
    }
    let mut cols = vec![0.0; n_cols];
    let mut col_duals = vec![0.0; n_cols];
    let mut row_values = vec![0.0; n_rows];
    let mut row_duals = vec![0.0; n_rows];
    let mut col_status: Vec<HighsInt> = vec![0; n_cols];
    let mut row_status: Vec<HighsInt> = vec![0; n_rows];
    let mut iterations: HighsInt = 0;
    // SAFETY: every output array has one entry per column or row.
    let objective = unsafe {
        (api.solution)(
            highs.ptr,
            cols.as_mut_ptr(),
            col_duals.as_mut_ptr(),
            row_values.as_mut_ptr(),
            row_duals.as_mut_ptr(),
        );
        (api.basis)(highs.ptr, col_status.as_mut_ptr(), row_status.as_mut_ptr());
        (api.int_info)(highs.ptr, c"simplex_iteration_count".as_ptr(), &mut iterations);
        (api.objective)(highs.ptr)
    };
    let narrow = |v: Vec<HighsInt>| v.into_iter().map(|s| s as i8).collect();
    Ok(Optimum {
        objective,
        cols,
        col_duals,
        row_duals,
        col_basis: narrow(col_status),
        row_basis: narrow(row_status),
        iterations: i64::from(iterations),
        warm,
    })
}
