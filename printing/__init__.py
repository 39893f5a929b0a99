"""Printing: HTML to an A4 PDF, rendered by the worker, served once it is ready.

The machinery that the apps print with, and nothing of what they print: ``fonts`` (the
faces and the print stylesheet), ``layout`` (WeasyPrint, imported when a document is
first made), ``pdf`` (a document laid out and written, its QR codes from ``qr`` and its
stamps from ``stamps`` drawn in), ``documents`` (a ``Document``: a template of
templates/print/ and its context, and its HTML), ``builders`` (the documents the render
task can build again, by name, registered by the apps that own them), ``tasks`` (the
render on the queue), ``state`` (a document version rendered, queued or failed) and
``cache`` (a PDF request answered: the PDF, or the page saying it is being prepared).
It imports no app of the site: tournaments and ratings import it. See docs/printing.md.
"""

import logging

# WeasyPrint logs every step of every document at INFO; the site's log needs none of
# it. Set before WeasyPrint is first imported, which already logs its own stylesheets.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
