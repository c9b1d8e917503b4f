"""One scenario at run time: the state its Given steps build, its conversation with the
engine (``world``), and the ways it can end other than passing (``outcomes``)."""
