//! Law: the greedy colouring of contacts is proper: every contact gets exactly one colour,
//! and no two contacts of one colour touch a common free body (an unknown of `v`); it is
//! greedy (a contact's colour is the smallest its earlier neighbours leave free) while the
//! bitmask's colours last, and a contact that finds them all taken gets a colour of its own.

use std::collections::HashSet;

use nonsmooth::multibody::scenes;
use nonsmooth::splitting::{Colouring, MAX_MASK_COLOURS, VgsPrepared};
use proptest::prelude::*;

/// Checks that `col` is a proper colouring of `contacts` (each a list of resources) and
/// that every contact appears exactly once.
fn check_proper(col: &Colouring, contacts: &[Vec<usize>]) -> Result<(), TestCaseError> {
    let mut seen = vec![0usize; contacts.len()];
    for &c in col.order() {
        seen[c] += 1;
    }
    prop_assert!(seen.iter().all(|&s| s == 1), "each contact once: {seen:?}");
    let mut total = 0;
    for k in 0..col.colours() {
        let members = col.colour(k);
        prop_assert!(!members.is_empty(), "colour {k} is empty");
        prop_assert!(
            members.windows(2).all(|w| w[0] < w[1]),
            "ascending in a colour"
        );
        total += members.len();
        let mut taken = HashSet::new();
        for &c in members {
            for &j in contacts[c].iter().collect::<HashSet<_>>() {
                prop_assert!(taken.insert(j), "colour {k}: resource {j} used twice");
            }
        }
    }
    prop_assert_eq!(total, contacts.len());
    let of = col.colour_of();
    for k in 0..col.colours() {
        for &c in col.colour(k) {
            prop_assert_eq!(of[c], k);
        }
    }
    Ok(())
}

/// Random scenes: `nb` bodies, some fixed (no unknowns), contacts between two distinct
/// bodies of which at least one is free. A contact's resources are its free bodies.
fn contact_graph() -> impl Strategy<Value = (usize, Vec<Vec<usize>>)> {
    (2usize..30).prop_flat_map(|nb| {
        (
            prop::collection::vec(prop::bool::weighted(0.2), nb),
            prop::collection::vec((0..nb, 0..nb), 0..120),
        )
            .prop_map(move |(fixed, pairs)| {
                let contacts = pairs
                    .into_iter()
                    .filter(|(a, b)| a != b && !(fixed[*a] && fixed[*b]))
                    .map(|(a, b)| [a, b].into_iter().filter(|x| !fixed[*x]).collect())
                    .collect();
                (nb, contacts)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn greedy_colouring_is_proper_and_greedy((nb, contacts) in contact_graph()) {
        let col = Colouring::greedy(contacts.len(), nb, |c, f| {
            contacts[c].iter().for_each(|&j| f(j))
        });
        check_proper(&col, &contacts)?;
        // greedy: a contact of colour k has, for each lower colour, an earlier neighbour
        let of = col.colour_of();
        for (c, res) in contacts.iter().enumerate() {
            for lower in 0..of[c] {
                let blocked = contacts[..c].iter().enumerate().any(|(e, r)| {
                    of[e] == lower && r.iter().any(|j| res.contains(j))
                });
                prop_assert!(blocked, "contact {c} could have taken colour {lower}");
            }
        }
        // at most (largest number of conflicting contacts) + 1 colours
        let degree = contacts.iter().enumerate().map(|(c, r)| {
            contacts.iter().enumerate()
                .filter(|(e, s)| *e != c && s.iter().any(|j| r.contains(j)))
                .count()
        }).max().unwrap_or(0);
        prop_assert!(col.colours() <= degree + 1);
    }
}

#[test]
fn a_body_touched_by_every_contact_overflows_into_singletons() {
    // one free body (0) in every contact: every contact conflicts with every other
    let n = MAX_MASK_COLOURS + 50;
    let contacts: Vec<Vec<usize>> = (0..n).map(|c| vec![0, 1 + c]).collect();
    let col = Colouring::greedy(n, n + 1, |c, f| contacts[c].iter().for_each(|&j| f(j)));
    check_proper(&col, &contacts).unwrap();
    assert_eq!(col.colours(), n);
}

#[test]
fn empty_and_contact_free_colourings() {
    let col = Colouring::greedy(0, 5, |_, _| {});
    assert_eq!(col.colours(), 0);
    // contacts that touch nothing (all on fixed bodies) share colour 0
    let col = Colouring::greedy(4, 0, |_, _| {});
    assert_eq!(col.colours(), 1);
    assert_eq!(col.colour(0), &[0, 1, 2, 3]);
}

#[test]
fn scene_colourings_are_proper_on_the_rows_of_h() {
    for scene in [
        scenes::box_stack(6).unwrap(),
        scenes::pyramid(7).unwrap(),
        scenes::wall(6, 8).unwrap(),
    ] {
        let g = scene.global_problem().unwrap();
        let prep = VgsPrepared::new(&g, g.kind()).unwrap();
        // a contact's resources: the unknowns of v in its columns of H
        let ht = g.h().to_csr().transpose();
        let contacts: Vec<Vec<usize>> = (0..g.contacts())
            .map(|c| {
                (0..3)
                    .flat_map(|d| ht.row(3 * c + d).col_indices().to_vec())
                    .collect()
            })
            .collect();
        for block in [1, 2, 5, 16] {
            let col = prep.colouring(block);
            assert_eq!(col.block(), block);
            // the blocks' resources: the union of their contacts'
            let nb = g.contacts().div_ceil(block);
            let blocks: Vec<Vec<usize>> = (0..nb)
                .map(|b| {
                    col.contacts_of(b)
                        .flat_map(|c| contacts[c].clone())
                        .collect()
                })
                .collect();
            check_proper(col.blocks(), &blocks).unwrap();
            // every contact once in the sweep order, with its block's colour
            let mut order = col.order();
            order.sort_unstable();
            assert_eq!(order, (0..g.contacts()).collect::<Vec<_>>());
            let of = col.colour_of_contacts();
            let of_blocks = col.blocks().colour_of();
            assert!((0..g.contacts()).all(|c| of[c] == of_blocks[c / block]));
            if block == 1 {
                // the ground is fixed: contacts of different boxes on it may share a
                // colour, so a scene needs far fewer colours than contacts
                assert!(
                    col.colours() < g.contacts() / 2,
                    "{}: {}",
                    scene.name,
                    col.colours()
                );
            }
        }
    }
}
