"""The demo data for a newcomer's first look (``manage.py seed_demo``), at the top of the
house: it may import every app, and no app imports it.

- ``demo.club``: the organiser, the players with accounts, the members.
- ``demo.play``: practice games, games between members, championship matches on the site.
- ``demo.tournaments``: last year's championship, finished, and this year's, in play;
  the private links ``make run`` prints.
"""
