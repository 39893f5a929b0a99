"""Printed documents of a tournament: pairings, score sheets, standings, crosstable, bracket.

``documents`` decides what each document shows, ``grids`` lays out the crosstable
and the bracket, ``sheets`` draws the score sheet's blank form, ``links`` prints the
addresses, ``builders`` builds a document again from the ids a render task carries,
and ``views`` serves them under /t/<slug>/. The app ``printing`` renders them. See
docs/printing.md.
"""
