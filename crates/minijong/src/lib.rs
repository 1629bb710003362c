//! Minijong: the seed's Mahjong solitaire, with a solver.
