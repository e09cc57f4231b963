"""pdfplumber's bare text pass, the baseline `npm run bench -- extract` holds `assay lab extract` to:
open each PDF given on the command line and call extract_text() on every page, as someone reaching for
pdfplumber instead would. The text is dropped; only the time it takes counts.

`python3 bench/support/pdfplumber-pass.py a.pdf b.pdf ...`; exits 3 when pdfplumber is not installed, so
the bench can tell a missing package from a failed pass.
"""

import sys

try:
    import pdfplumber
except ImportError:
    sys.exit(3)

for path in sys.argv[1:]:
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            page.extract_text()
