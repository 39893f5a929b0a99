"""Printed documents of a tournament: pairings, score sheets, standings, crosstable, bracket.

``documents`` decides what each document shows, ``grids`` lays out the
crosstable and the bracket, ``pdf`` turns the HTML into an A4 PDF with
WeasyPrint and ``views`` serves them under /t/<slug>/. See docs/printing.md.
"""
