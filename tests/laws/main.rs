//! The laws: properties every solver, projection and formula must satisfy, checked on
//! random problems (proptest) and on problems whose answer is known. One module per law;
//! a source module names the law modules that check it in its module doc ("Checked by
//! `tests/laws/NAME.rs`"). Run one with `cargo test --release --test laws NAME`.
//! A failing case is saved in `tests/proptest-regressions/NAME.txt` and replayed first on
//! every later run: proptest's default (`SourceParallel`) walks up from the module's file to
//! the folder holding `main.rs` and keeps its cases in a `proptest-regressions` folder
//! beside that one (the cases of `tests/regress/` are kept there too).

#[path = "../bodies/mod.rs"]
mod bodies;
#[path = "../common/mod.rs"]
mod common;
#[path = "../strategies/sets.rs"]
mod sets;
#[path = "../strategies/mod.rs"]
mod strategies;

mod armijo_steps;
mod bench_ratios;
mod blocked_gauss_seidel;
mod ccp_optimality;
mod cfm;
mod check_by;
mod check_distance;
mod colouring;
mod complementarity_preconditioner;
mod cone_newton_jacobian;
mod cone_newton_quadratic;
mod cone_newton_rank_deficient;
mod cone_projection;
mod contact_solver;
mod correction;
mod de_saxce;
mod delassus;
mod error_measures;
mod fischer_jacobian;
mod friction_compliance;
mod generalized_derivatives;
mod generic_anisotropic_scaling;
mod generic_ccp_minimum;
mod generic_condim6;
mod generic_cone;
mod generic_equivalence;
mod generic_newton_jacobian;
mod generic_rank_deficient;
mod gs_then_newton;
mod implicit_energy;
mod implicit_newton_matrix;
mod implicit_stepping;
mod implicit_stick_slip;
mod inner_linear_solvers;
mod jacobian;
mod lemke;
mod local_global;
mod maximal_dissipation;
mod natural_map_fixed_point;
mod ncp_functions;
mod neo_hookean;
mod nested_box;
mod newton_agrees_with_lemke;
mod newton_krylov_step;
mod newton_preconditioner;
mod newton_quadratic;
mod newton_system;
mod nncg_agrees_with_lemke;
mod nsgs_prepared;
mod parallel_sweep;
mod performance_profile;
mod projection_boundary;
mod projection_idempotent;
mod projection_in_set;
mod projection_nonexpansive;
mod projection_oracle;
mod projection_variational_inequality;
mod prox_fixed_point;
mod prox_pgs;
mod prox_solvers;
mod proximal_point;
mod redundant_contacts;
mod reformulation_roots;
mod resting_box;
mod running_example;
mod semi_staggered;
mod shock_propagation;
mod simulation_dumps;
mod splitting_agrees_with_lemke;
mod splitting_sweep;
mod tangent_basis;
mod time_stepping;
mod trust;
mod velocity_gauss_seidel;
mod velocity_step;
mod warm_start;
