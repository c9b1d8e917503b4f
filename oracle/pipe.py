"""``python -m oracle.pipe serve SPEC``: the documented command that serves a Python engine
over the pipe. Kept at this path because engine teams' scripts name it; the code is
``oracle.engines.serve``."""

import sys

from oracle.engines.serve import answer, main, serve

__all__ = ["answer", "main", "serve"]

if __name__ == "__main__":
    sys.exit(main())
