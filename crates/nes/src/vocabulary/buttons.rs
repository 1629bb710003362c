//! The gamepad, as the ROM stores it in `heldButtons` ($B6) and `newlyPressedButtons` ($B5).

bitflags::bitflags! {
    /// A set of gamepad buttons, in the ROM's bit layout (constants.asm `BUTTON_*`); the byte
    /// the ROM stores is [`Buttons::bits`].
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Buttons: u8 {
        /// `BUTTON_RIGHT`.
        const RIGHT = 0x01;
        /// `BUTTON_LEFT`.
        const LEFT = 0x02;
        /// `BUTTON_DOWN`.
        const DOWN = 0x04;
        /// `BUTTON_UP`.
        const UP = 0x08;
        /// `BUTTON_START`.
        const START = 0x10;
        /// `BUTTON_SELECT`.
        const SELECT = 0x20;
        /// `BUTTON_B`.
        const B = 0x40;
        /// `BUTTON_A`.
        const A = 0x80;
    }
}

impl Buttons {
    /// No button.
    pub const NONE: Buttons = Buttons::empty();

    /// The buttons in FCEUX .fm2 order (`RLDUTSBA`): the i-th letter is bit `1 << i`.
    pub const FM2_LETTERS: [u8; 8] = *b"RLDUTSBA";

    /// The union of two sets.
    #[must_use]
    pub const fn with(self, other: Buttons) -> Buttons {
        self.union(other)
    }
}
