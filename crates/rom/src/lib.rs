//! The real ROM in an embedded emulator (tetanes-core).
