"""The Expression area: editor, inputs, maths, the backward ledger and the mode switch."""
