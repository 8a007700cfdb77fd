//! `pj`, `pgs` and `psor`: the projected splittings ([`crate::splitting::ProjectedSplitting`]),
//! one method each with options of its own ([`PjOptions`], [`PgsOptions`],
//! [`PsorOptions`]) that become the shared [`SplittingOptions`]; each runs on an LCP or a
//! boxed LCP.

use super::prelude::*;
use crate::problem::{BoxedLcp, Lcp};
use crate::splitting::{PgsOptions, PjOptions, ProjectedSplitting, PsorOptions, SplittingOptions};

/// The `Configured` impl and the `SPEC` of one projected splitting.
macro_rules! projected_splitting {
    ($spec:ident, $options:ty, $name:literal, $alias:literal, $summary:literal) => {
        impl Configured for $options {
            fn run(
                &self,
                p: &AnyProblem,
                x: &mut DVector<f64>,
                params: &Params,
                obs: &mut Observer<'_>,
            ) -> Ran {
                let o = SplittingOptions::from(self);
                super::super::run::run_either::<
                    ProjectedSplitting<Lcp>,
                    ProjectedSplitting<BoxedLcp>,
                >($name, p, x, params, &o, obs)
            }
        }

        pub(in crate::registry) const $spec: MethodSpec = MethodSpec {
            name: $name,
            aliases: &[$alias],
            summary: $summary,
            applies_to: &[ProblemType::Lcp, ProblemType::BoxedLcp],
            default_max_iter: DEFAULT_MAX_ITER,
            defaults: defaults::<$options>,
            read: configured::<$options>,
        };
    };
}

projected_splitting!(
    SPEC_PJ,
    PjOptions,
    "pj",
    "jacobi",
    "projected Jacobi (Erleben 2009 slides eq. 20-37)"
);
projected_splitting!(
    SPEC_PGS,
    PgsOptions,
    "pgs",
    "gs",
    "projected Gauss-Seidel (Erleben 2009 slides eq. 20-37)"
);
projected_splitting!(
    SPEC_PSOR,
    PsorOptions,
    "psor",
    "sor",
    "projected successive over-relaxation (Erleben 2009 slides eq. 20-37)"
);
