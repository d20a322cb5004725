//! Number and unit formatting shared by every view.
