//! The contact graph and the stack heights of Erleben 2007 section 4.
//!
//! The nodes are the bodies and one node for everything fixed (the ground and every
//! fixed body); each contact is an edge between its two bodies. The *stack height* of a
//! body is the number of contacts crossed on the shortest path from it to a fixed body:
//! 0 for the fixed bodies, 1 for a body touching one, and so on. One breadth-first
//! traversal started at all fixed bodies at once (a multi-source BFS) finds every height
//! in `O(bodies + contacts)`.
//!
//! A body that no path joins to a fixed body (a free-floating body, or a group of
//! bodies touching only each other) is "simply assigned the maximum stack height"
//! (section 4). The crate makes that precise as one more than the greatest height
//! reached by the traversal (1 when nothing is joined to a fixed body), so free-floating
//! bodies are always the top of the last layer and never fixed by it.

use std::collections::VecDeque;
use std::fmt;

use crate::world::{World, WorldContact};

/// An edge of the contact graph: the two sides of a contact, `None` for the ground.
pub type Edge = (Option<usize>, usize);

/// A malformed contact graph, refused by [`stack_heights`] and
/// [`StackLayers::new`](super::StackLayers::new) (the world's contacts never are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphError {
    /// Contact `contact` names body `body`, but there are only `bodies` bodies.
    BodyOutOfRange {
        /// The contact (index into the edges).
        contact: usize,
        /// The body it names.
        body: usize,
        /// The number of bodies.
        bodies: usize,
    },
    /// Contact `contact` joins bodies of stack heights `a` and `b` that differ by more than
    /// one: the heights are not the graph distances of these edges.
    HeightGap {
        /// The contact.
        contact: usize,
        /// Stack height of its first side (0 for the ground).
        a: usize,
        /// Stack height of its second side.
        b: usize,
    },
    /// Contact `contact` joins two fixed bodies (height 0 on both sides): no layer can
    /// solve it.
    FixedPair {
        /// The contact.
        contact: usize,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::BodyOutOfRange {
                contact,
                body,
                bodies,
            } => write!(
                f,
                "contact {contact} names body {body}, but there are {bodies} bodies (0 to {})",
                bodies.saturating_sub(1)
            ),
            GraphError::HeightGap { contact, a, b } => write!(
                f,
                "contact {contact} joins stack heights {a} and {b}, which differ by more than one"
            ),
            GraphError::FixedPair { contact } => {
                write!(f, "contact {contact} joins two fixed bodies (height 0)")
            }
        }
    }
}

impl std::error::Error for GraphError {}

/// Checks that every edge names bodies `< bodies`.
pub(crate) fn check_edges(bodies: usize, edges: &[Edge]) -> Result<(), GraphError> {
    for (contact, &(a, b)) in edges.iter().enumerate() {
        for body in a.into_iter().chain([b]) {
            if body >= bodies {
                return Err(GraphError::BodyOutOfRange {
                    contact,
                    body,
                    bodies,
                });
            }
        }
    }
    Ok(())
}

// ANCHOR: stack_heights
/// Stack heights of `fixed.len()` bodies joined by `edges` (Erleben 2007 section 4):
/// the graph distance to the nearest fixed body (ground or `fixed[i]`), found by one
/// breadth-first traversal from all fixed bodies; bodies no path reaches get one more
/// than the greatest height found (1 if none was found).
///
/// # Errors
/// [`GraphError::BodyOutOfRange`] if an edge names a body `>= fixed.len()` (the world's
/// contacts never do).
pub fn stack_heights(fixed: &[bool], edges: &[Edge]) -> Result<Vec<usize>, GraphError> {
    let n = fixed.len();
    check_edges(n, edges)?;
    // Adjacency; the ground is node `n`.
    let node = |side: Option<usize>| side.unwrap_or(n);
    let mut adjacent = vec![Vec::new(); n + 1];
    for &(a, b) in edges {
        adjacent[node(a)].push(b);
        adjacent[b].push(node(a));
    }
    let mut height = vec![usize::MAX; n + 1];
    let mut queue = VecDeque::new();
    for i in (0..n).filter(|&i| fixed[i]).chain([n]) {
        height[i] = 0;
        queue.push_back(i);
    }
    while let Some(i) = queue.pop_front() {
        for &j in &adjacent[i] {
            if height[j] == usize::MAX {
                height[j] = height[i] + 1;
                queue.push_back(j);
            }
        }
    }
    height.truncate(n);
    let top = height.iter().filter(|&&h| h != usize::MAX).max().copied();
    let floating = top.map_or(1, |h| h + 1);
    for h in &mut height {
        if *h == usize::MAX {
            *h = floating;
        }
    }
    Ok(height)
}
// ANCHOR_END: stack_heights

/// The edges of the contact graph of `contacts`.
pub fn edges(contacts: &[WorldContact]) -> Vec<Edge> {
    contacts.iter().map(|c| (c.id.a, c.id.b)).collect()
}

/// The stack heights of the bodies of `world` in the contact graph of `contacts`.
///
/// # Errors
/// [`GraphError::BodyOutOfRange`] if a contact names a body the world does not have.
pub fn world_heights(world: &World, contacts: &[WorldContact]) -> Result<Vec<usize>, GraphError> {
    let fixed: Vec<bool> = world.bodies().iter().map(|b| b.body.fixed).collect();
    stack_heights(&fixed, &edges(contacts))
}
