//! The gamepad, as the ROM stores it in `heldButtons` ($B6) and `newlyPressedButtons` ($B5).

/// A set of gamepad buttons, in the ROM's bit layout (constants.asm `BUTTON_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Buttons(pub u8);

impl Buttons {
    /// `BUTTON_RIGHT`.
    pub const RIGHT: Buttons = Buttons(0x01);
    /// `BUTTON_LEFT`.
    pub const LEFT: Buttons = Buttons(0x02);
    /// `BUTTON_DOWN`.
    pub const DOWN: Buttons = Buttons(0x04);
    /// `BUTTON_UP`.
    pub const UP: Buttons = Buttons(0x08);
    /// `BUTTON_START`.
    pub const START: Buttons = Buttons(0x10);
    /// `BUTTON_SELECT`.
    pub const SELECT: Buttons = Buttons(0x20);
    /// `BUTTON_B`.
    pub const B: Buttons = Buttons(0x40);
    /// `BUTTON_A`.
    pub const A: Buttons = Buttons(0x80);
    /// No button.
    pub const NONE: Buttons = Buttons(0);

    /// The buttons in FCEUX .fm2 order (`RLDUTSBA`): the i-th letter is bit `1 << i`.
    pub const FM2_LETTERS: [u8; 8] = *b"RLDUTSBA";

    /// True when every button of `other` is in `self`.
    #[must_use]
    pub const fn contains(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0
    }

    /// True when no button is pressed.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union of two sets.
    #[must_use]
    pub const fn with(self, other: Buttons) -> Buttons {
        Buttons(self.0 | other.0)
    }
}

impl std::ops::BitOr for Buttons {
    type Output = Buttons;
    fn bitor(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for Buttons {
    type Output = Buttons;
    fn bitand(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 & rhs.0)
    }
}
