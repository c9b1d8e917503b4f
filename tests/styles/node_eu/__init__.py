"""The clean-room EU engine: Node.js, written by an outside developer from the published
pages alone (README.md), its broken copies (variants.py) and the coverage tracer the
attribution test selects scenarios with (trace.js, trace.py)."""
