"""The expression language and what explains it: parsing, symbolic derivatives, the backward trace, names."""
