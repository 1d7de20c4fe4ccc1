//! The kind of an interior node, as a type: the search is compiled once for principal-variation
//! nodes and once for the others, so each kind's tests are decided at compile time.
//!
//! The root has no type of its own: it is searched by its own code (`Worker::root` and
//! `Worker::root_lines`), which keeps the root moves sorted from one iteration to the next, and
//! searches its children as PV and non-PV nodes.

/// What a node's kind decides: whether its score must be exact.
pub(crate) trait NodeType {
    /// A principal-variation node, searched with an open window: its exact score is wanted, so
    /// it takes no cutoff from the table, prunes nothing, reduces less and keeps its line.
    const PV: bool;
}

/// A node on the principal variation (the first move of every PV node leads to one).
pub(crate) struct Pv;

/// A node searched with a null window, only to show that it fails high or low.
pub(crate) struct NonPv;

impl NodeType for Pv {
    const PV: bool = true;
}

impl NodeType for NonPv {
    const PV: bool = false;
}
