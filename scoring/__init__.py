"""The cribbage engine: the one place the rules of cribbage live.

Plain Python with no Django import. The site's championship checks reported
results with it, the practice-game pages play through it and the tournament
simulator drives it. The rules it implements are stated in RULES.md
(sections 1-3).
"""
