//! Stack layers (Erleben 2007 section 4): layer `i` holds the bodies of stack heights
//! `i` and `i + 1` and the contacts between them.
//!
//! A contact joins bodies whose heights differ by at most one (a breadth-first
//! traversal never skips a level). The paper's definition puts a contact between two
//! bodies of the same height `h` into both layer `h - 1` and layer `h`; the crate gives
//! it to layer `h - 1` only, where both bodies are at the top and free to move, so that
//! every contact lies in exactly one layer and is solved once per pass:
//!
//! ```text
//! layer(contact between heights h and h + 1) = h
//! layer(contact between heights h and h)     = h - 1
//! ```
//!
//! In layer `i` the bodies of height `i` are the *bottom* (fixed while the layer is
//! solved) and the bodies of height `i + 1` the *top* (solved for). Every body that is
//! not fixed is the top of exactly one layer: its height minus one.

use super::graph::{Edge, GraphError, check_edges};

/// One stack layer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layer {
    /// The bodies of height `i + 1`, free while the layer is solved (ascending).
    pub top: Vec<usize>,
    /// The contacts of the layer: indices into the step's contact list (ascending).
    pub contacts: Vec<usize>,
}

/// The stack layers of a step, bottom-up: `layers[i]` is layer `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackLayers {
    /// The stack height of each body ([`super::graph::stack_heights`]).
    pub heights: Vec<usize>,
    /// Layers `0..H`, `H` the greatest height (no layers without bodies).
    pub layers: Vec<Layer>,
}

// ANCHOR: stack_layers
impl StackLayers {
    /// The layers of bodies with stack heights `heights` (fixed bodies at 0, every other
    /// body at `>= 1`) joined by `edges` (one per contact, in order).
    ///
    /// # Errors
    /// A malformed graph, [`GraphError`]: an edge names a body `>= heights.len()`
    /// ([`GraphError::BodyOutOfRange`]), joins two bodies of height 0 (two fixed bodies: the
    /// world never reports such a contact, [`GraphError::FixedPair`]) or two bodies whose
    /// heights differ by more than one (not heights of this graph,
    /// [`GraphError::HeightGap`]).
    pub fn new(heights: Vec<usize>, edges: &[Edge]) -> Result<Self, GraphError> {
        check_edges(heights.len(), edges)?;
        let top_height = heights.iter().copied().max().unwrap_or(0);
        let mut layers = vec![Layer::default(); top_height];
        for (i, &h) in heights.iter().enumerate() {
            if h > 0 {
                layers[h - 1].top.push(i);
            }
        }
        let height = |side: Option<usize>| side.map_or(0, |i| heights[i]);
        for (c, &(a, b)) in edges.iter().enumerate() {
            let (ha, hb) = (height(a), heights[b]);
            if ha.abs_diff(hb) > 1 {
                return Err(GraphError::HeightGap {
                    contact: c,
                    a: ha,
                    b: hb,
                });
            }
            let layer = if ha == hb {
                ha.checked_sub(1)
            } else {
                Some(ha.min(hb))
            };
            let layer = layer.ok_or(GraphError::FixedPair { contact: c })?;
            layers[layer].contacts.push(c);
        }
        Ok(StackLayers { heights, layers })
    }

    /// The number of layers.
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// Whether there are no layers (no body that is not fixed).
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }
}
// ANCHOR_END: stack_layers
