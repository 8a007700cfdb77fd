//! Unit tests of the world (see also tests/world_*.rs).
