//! Greedy graph colouring of contacts, for a Gauss-Seidel sweep run in parallel.
//!
//! Two contacts *conflict* when they touch a common unknown of the velocity `v` (for rigid
//! bodies: they share a body that is not fixed). A sweep over contacts that do not conflict
//! gives the same result in any order, so contacts of one colour can be updated at once; the
//! colours are taken one after another (Gauss-Seidel between colours, independent updates
//! within one). This is the usual way to parallelise projected Gauss-Seidel on multicore
//! machines and GPUs (Tonge, Benevolenski, Voroshilov 2012, "Mass splitting for jitter-free
//! parallel rigid body simulation", §3; Fratarcangeli, Tibaldo, Pellacini 2016, "Vivace: a
//! practical Gauss-Seidel method for stable soft body dynamics", §4).
//!
//! Checked by `tests/laws/colouring.rs`.

use std::ops::Range;

/// Colours an item may take from the bitmask; an item that finds all of them used by its
/// neighbours gets a colour of its own after them (so a pathological graph, such as one
/// dynamic body touched by every contact, still gets a proper colouring, only a
/// sequential one).
pub const MAX_MASK_COLOURS: usize = 256;
const WORDS: usize = MAX_MASK_COLOURS / 64;

/// A partition of `n` items (contacts) into colours such that no two items of one colour
/// touch a common resource (an unknown of `v`).
///
/// Built greedily ([`Colouring::greedy`]): items in index order, each takes the smallest
/// colour none of its resources has been given yet. Time `O(Σ resources per item)`, memory
/// 32 bytes per resource plus 8 per item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Colouring {
    /// The items, colour by colour, ascending within a colour.
    order: Vec<usize>,
    /// `order[starts[k]..starts[k + 1]]` is colour `k`.
    starts: Vec<usize>,
}

impl Colouring {
    /// Greedy colouring of `items` items over `resources` resources; `touches(i, f)` calls
    /// `f(j)` for every resource `j < resources` that item `i` touches (repeats allowed).
    ///
    /// # Panics
    /// If `touches` reports a resource `>= resources`.
    ///
    /// # Example
    /// ```
    /// use nonsmooth::splitting::Colouring;
    /// // contacts 0-1 share body 1, contacts 1-2 share body 2; contact 0 and 2 do not conflict
    /// let bodies = [[0, 1], [1, 2], [2, 3]];
    /// let c = Colouring::greedy(3, 4, |i, f| bodies[i].iter().for_each(|&b| f(b)));
    /// assert_eq!(c.colours(), 2);
    /// assert_eq!(c.colour(0), &[0, 2]);
    /// assert_eq!(c.colour(1), &[1]);
    /// ```
    pub fn greedy(
        items: usize,
        resources: usize,
        mut touches: impl FnMut(usize, &mut dyn FnMut(usize)),
    ) -> Self {
        let mut masks = vec![[0u64; WORDS]; resources];
        let mut colour_of = vec![usize::MAX; items];
        let mut overflow = Vec::new();
        let mut used = 0;
        let mut touched = Vec::new();
        for (i, slot) in colour_of.iter_mut().enumerate() {
            let mut busy = [0u64; WORDS];
            touched.clear();
            touches(i, &mut |j| {
                for (b, m) in busy.iter_mut().zip(&masks[j]) {
                    *b |= m;
                }
                touched.push(j);
            });
            let free = busy
                .iter()
                .enumerate()
                .find(|(_, b)| **b != u64::MAX)
                .map(|(w, b)| 64 * w + (!*b).trailing_zeros() as usize);
            match free {
                Some(k) => {
                    *slot = k;
                    used = used.max(k + 1);
                    for &j in &touched {
                        masks[j][k / 64] |= 1 << (k % 64);
                    }
                }
                None => overflow.push(i),
            }
        }
        // counting sort by colour; overflowing items get one colour each, after the rest
        let mut starts = vec![0usize; used + 1];
        for &k in colour_of.iter().filter(|k| **k != usize::MAX) {
            starts[k + 1] += 1;
        }
        for k in 0..used {
            starts[k + 1] += starts[k];
        }
        let mut order = vec![0; items];
        let mut next = starts.clone();
        for (i, &k) in colour_of.iter().enumerate() {
            if k != usize::MAX {
                order[next[k]] = i;
                next[k] += 1;
            }
        }
        let mut end = starts[used];
        for i in overflow {
            order[end] = i;
            end += 1;
            starts.push(end);
        }
        Colouring { order, starts }
    }

    /// Number of colours.
    pub fn colours(&self) -> usize {
        self.starts.len() - 1
    }

    /// The items of colour `k`, ascending.
    pub fn colour(&self, k: usize) -> &[usize] {
        &self.order[self.starts[k]..self.starts[k + 1]]
    }

    /// All items, colour by colour: the order in which a sequential sweep does what the
    /// coloured sweep does.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The colour of each item.
    pub fn colour_of(&self) -> Vec<usize> {
        let mut out = vec![0; self.order.len()];
        for k in 0..self.colours() {
            for &i in self.colour(k) {
                out[i] = k;
            }
        }
        out
    }
}

/// The contacts of a sweep cut into blocks of `block` consecutive contacts (the last may be
/// shorter), and the blocks coloured greedily ([`Colouring::greedy`]): two blocks conflict
/// when a contact of one and a contact of the other touch a common unknown of `v`.
///
/// The coloured sweep ([`VgsPrepared::sweep_coloured`](super::VgsPrepared::sweep_coloured))
/// takes the colours one after another and the blocks of a colour in parallel, each block's
/// contacts one after another. With `block = 1` it is the plain colouring of contacts; a
/// larger block keeps Gauss-Seidel order and memory locality inside the block (its
/// contacts' data is contiguous) and needs fewer colours, since neighbouring contacts,
/// which conflict, mostly share a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactColouring {
    block: usize,
    contacts: usize,
    blocks: Colouring,
}

impl ContactColouring {
    /// The colouring of `nc` contacts over `ndof` unknowns of `v`; `touches(c, f)` calls
    /// `f(j)` for each unknown `j` that contact `c` reads or writes. `block` 0 is taken as 1.
    pub(crate) fn new(
        nc: usize,
        ndof: usize,
        block: usize,
        touches: impl Fn(usize, &mut dyn FnMut(usize)),
    ) -> Self {
        let block = block.max(1);
        let blocks = Colouring::greedy(nc.div_ceil(block), ndof, |b, f| {
            for c in b * block..((b + 1) * block).min(nc) {
                touches(c, f);
            }
        });
        ContactColouring {
            block,
            contacts: nc,
            blocks,
        }
    }

    /// Number of contacts coloured.
    pub fn contacts(&self) -> usize {
        self.contacts
    }

    /// Contacts per block.
    pub fn block(&self) -> usize {
        self.block
    }

    /// Number of colours.
    pub fn colours(&self) -> usize {
        self.blocks.colours()
    }

    /// The colouring of the blocks (items are block indices).
    pub fn blocks(&self) -> &Colouring {
        &self.blocks
    }

    /// The contacts of block `b`.
    pub fn contacts_of(&self, b: usize) -> Range<usize> {
        b * self.block..((b + 1) * self.block).min(self.contacts)
    }

    /// All contacts in the order a sequential sweep does what the coloured sweep does:
    /// colour by colour, block by block, ascending in a block.
    pub fn order(&self) -> Vec<usize> {
        self.blocks
            .order()
            .iter()
            .flat_map(|&b| self.contacts_of(b))
            .collect()
    }

    /// The colour of each contact (that of its block).
    pub fn colour_of_contacts(&self) -> Vec<usize> {
        let of = self.blocks.colour_of();
        (0..self.contacts).map(|c| of[c / self.block]).collect()
    }
}
