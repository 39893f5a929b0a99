"""Printed documents of a tournament: pairings, score sheets, standings, crosstable, bracket.

``documents`` decides what each document shows, ``grids`` lays out the
crosstable and the bracket, ``sheets`` draws the score sheet's blank form,
``pdf`` turns the HTML into an A4 PDF with WeasyPrint and ``views`` serves them
under /t/<slug>/. See docs/printing.md.
"""

import logging

# WeasyPrint logs every step of every document at INFO; the site's log needs none of
# it. Set before WeasyPrint is first imported, which already logs its own stylesheets.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
